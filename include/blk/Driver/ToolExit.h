//===- ToolExit.h - how a tool ends when its output is lost -----*- C++ -*-===//
//
// A tool that writes to llvm::outs() and finds standard output unwritable
// (a full disk, /dev/full, a closed pipe) would be ended by LLVM, when it
// destroys outs(), with "LLVM ERROR: IO failure on output stream". Each
// tool's main returns through finishStandardOutput instead.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_TOOLEXIT_H
#define BLK_DRIVER_TOOLEXIT_H

namespace blk {

/// `exitCode`, or 1 where llvm::outs() could not be written; then says so
/// on standard error, as "`tool`: cannot write standard output: why".
int finishStandardOutput(const char *tool, int exitCode);

} // namespace blk

#endif // BLK_DRIVER_TOOLEXIT_H
