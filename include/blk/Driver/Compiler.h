//===- Compiler.h - the compiler for embedding, without MLIR ----*- C++ -*-===//
//
// What a C++ program that embeds the compiler includes: compile a block
// program (the built-in softmax, or MLIR text) for a class of problems
// (any row count of one row length) and a GPU or the host, and get a
// ProgramImage to launch with blk/Runtime/GpuProgram.h or to run with
// blk/Driver/CpuProgram.h. MLIR and
// LLVM stay inside the library (libblk); the cache (blk/Runtime/
// KernelCache.h) serves a program compiled before in about a millisecond.
//
//   blk::Compiler compiler;
//   blk::runtime::ProgramImage image;
//   blk::CompileOptions options;      // the one record
//   (Target/CompileOptions.h) options.chip = cuda->device().smArch();
//   options.multiprocessors = cuda->device().multiprocessorCount;
//   options.cacheDirectory = blk::runtime::KernelCache::getDefaultDirectory();
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
#include "blk/Target/CompileOptions.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace blk {

/// Safe to share between threads: calls on one Compiler are serialized
/// (one compilation at a time; test/Unit/CompilerTest.cpp). Threads that
/// must compile in parallel use a Compiler each.
class Compiler {
public:
  Compiler();
  ~Compiler();
  Compiler(const Compiler &) = delete;
  Compiler &operator=(const Compiler &) = delete;

  /// The built-in softmax program the compiler chooses for the shape and
  /// chip (clusters for long rows on sm_90, split rows on older chips...),
  /// bound and compiled. Its tensors are named "x" (input) and "y"
  /// (output).
  runtime::Status compileSoftmax(const runtime::ProgramShape &shape,
                                 const CompileOptions &options,
                                 runtime::ProgramImage &image);

  /// A block program given as MLIR text (`name` is what messages call it),
  /// fitted to the shape, bound and compiled.
  runtime::Status compile(const std::string &programText,
                          const std::string &name,
                          const runtime::ProgramShape &shape,
                          const CompileOptions &options,
                          runtime::ProgramImage &image);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace blk

#endif // BLK_DRIVER_COMPILER_H
