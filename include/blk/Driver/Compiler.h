//===- Compiler.h - the compiler for embedding, without MLIR ----*- C++ -*-===//
//
// What a C++ program that embeds the compiler includes: compile a block
// program (the built-in softmax, or MLIR text) for one problem and a GPU,
// and get a ProgramImage to launch with blk/Runtime/GpuProgram.h. MLIR and
// LLVM stay inside the library (libblk); the cache (blk/Runtime/
// KernelCache.h) serves a program compiled before in about a millisecond.
//
//   blk::Compiler compiler;
//   blk::runtime::ProgramImage image;
//   blk::Compiler::Options options;
//   options.chip = cuda->device().smArch();
//   options.multiprocessors = cuda->device().multiprocessorCount;
//   blk::runtime::Status s =
//       compiler.compileSoftmax({rows, cols, ElementType::F32, {}}, options,
//                               image);
//
// Errors come back in the Status: the compiler's diagnostics, one per line,
// with the program location they point at. Nothing is printed.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_COMPILER_H
#define BLK_DRIVER_COMPILER_H

#include "blk/Runtime/KernelCache.h"
#include "blk/Runtime/Program.h"
#include "blk/Runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace blk {

class Compiler {
public:
  struct Options {
    /// The GPU (sm_70 or newer) and PTX features (empty: the chip's
    /// default).
    std::string chip = "sm_90";
    std::string features;
    /// The GPU's streaming multiprocessors (0: not known, a whole chip
    /// assumed): a MIG slice too small to keep a split row's parts
    /// resident gets the program whose parts need not meet.
    int64_t multiprocessors = 0;
    /// Constants the binding rules must not choose (BLOCK, ROWS...), and
    /// warps and CTAs per program (0: the rules choose).
    std::vector<std::pair<std::string, int64_t>> constants;
    int64_t numWarps = 0;
    int64_t numCtas = 0;
    /// Loop iterations whose loads are in flight at once (0: the rules').
    int64_t numStages = 0;
    /// Where compiled programs are kept; empty: compile every time.
    std::string cacheDirectory = runtime::KernelCache::getDefaultDirectory();
  };

  Compiler();
  ~Compiler();
  Compiler(const Compiler &) = delete;
  Compiler &operator=(const Compiler &) = delete;

  /// The built-in softmax program the compiler chooses for the shape and
  /// chip (clusters for long rows on sm_90, split rows on older chips...),
  /// bound and compiled. Its tensors are named "x" (input) and "y"
  /// (output).
  runtime::Status compileSoftmax(const runtime::ProgramShape &shape,
                                 const Options &options,
                                 runtime::ProgramImage &image);

  /// A block program given as MLIR text (`name` is what messages call it),
  /// fitted to the shape, bound and compiled.
  runtime::Status compile(const std::string &programText,
                          const std::string &name,
                          const runtime::ProgramShape &shape,
                          const Options &options,
                          runtime::ProgramImage &image);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace blk

#endif // BLK_DRIVER_COMPILER_H
