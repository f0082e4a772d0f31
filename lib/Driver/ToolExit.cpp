//===- ToolExit.cpp - how a tool ends when its output is lost -------------===//
#include "blk/Driver/ToolExit.h"

#include "llvm/Support/raw_ostream.h"

int blk::finishStandardOutput(const char *tool, int exitCode) {
  llvm::raw_fd_ostream &output = llvm::outs();
  output.flush();
  if (!output.has_error())
    return exitCode;
  llvm::errs() << tool << ": cannot write standard output: "
               << output.error().message() << "\n";
  // A stream destroyed with its error still set ends the process.
  output.clear_error();
  return 1;
}
