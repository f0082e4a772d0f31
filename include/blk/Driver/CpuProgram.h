//===- CpuProgram.h - run a compiled program on the host, without MLIR --*- C++
//-*-===//
//
// The CPU twin of blk/Runtime/GpuProgram.h, for a C++ program that embeds
// the compiler: an image compiled for the CPU (blk::Compiler with
// options.target = TargetKind::CPU, or the kernel cache) is linked into
// this process once, then run on the caller's host buffers, on the
// caller's choice of threads, for any row count its class serves. MLIR and
// LLVM stay inside libblk.
//
//   options.target = blk::TargetKind::CPU;
//   compiler.compileSoftmax({rows, cols, ElementType::F32, {}}, options,
//                           image);
//   std::unique_ptr<blk::CpuProgram> softmax;
//   if (Status s = blk::CpuProgram::load(image, softmax); !s) ...
//   blk::runtime::LaunchArguments arguments(rows, cols);
//   arguments.tensor("x", x.data()).tensor("y", y.data());
//   if (Status s = softmax->run(arguments); !s) ...
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_CPUPROGRAM_H
#define BLK_DRIVER_CPUPROGRAM_H

#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Program.h"
#include "blk/Runtime/Status.h"

#include <memory>

namespace blk {

class CpuProgram {
public:
  /// Links the image's host code into this process. Fails on an image of
  /// another target, or code that does not link.
  static runtime::Status load(runtime::ProgramImage image,
                              std::unique_ptr<CpuProgram> &program);

  /// Runs every kernel, in order, each over its programs for the
  /// arguments' rows, on `threads` threads (0: every core this process may
  /// use); returns when all have finished. Host pointers for the tensors.
  /// Scratch tensors are the program's own (zeroed, sized for the most rows
  /// run so far), so runs of one CpuProgram must not overlap. Code compiled
  /// with bounds checks (CompileOptions::checkBounds) fails, naming the
  /// access, where it would touch memory outside the tensors' extents.
  runtime::Status run(const runtime::LaunchArguments &arguments,
                      unsigned threads = 0);

  const runtime::ProgramImage &image() const;

  ~CpuProgram();
  CpuProgram(const CpuProgram &) = delete;
  CpuProgram &operator=(const CpuProgram &) = delete;

private:
  struct State;
  explicit CpuProgram(std::unique_ptr<State> state);
  std::unique_ptr<State> state;
};

} // namespace blk

#endif // BLK_DRIVER_CPUPROGRAM_H
