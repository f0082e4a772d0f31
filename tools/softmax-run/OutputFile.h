//===- OutputFile.h - files written whole or not at all ---------*- C++ -*-===//
#ifndef SOFTMAX_RUN_OUTPUTFILE_H
#define SOFTMAX_RUN_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace softmax_run {

/// Writes `path` through a temporary file beside it, renamed over it once
/// complete, so that a full disk, a file-size limit or a kill leaves the
/// previous file whole (it may be the input, a CSV of earlier rows or the
/// autotune cache). A path that exists and is not a regular file
/// (/dev/null, /dev/full, a pipe) is written as it is: renaming over it
/// would replace it. "-" is standard output. On failure, `error` says why
/// in one line. (llvm::writeToOutput would rename over devices and turns a
/// failed write into a fatal error.)
bool writeFileAtomically(const std::string &path,
                         llvm::function_ref<void(llvm::raw_ostream &)> write,
                         std::string &error);

} // namespace softmax_run

#endif // SOFTMAX_RUN_OUTPUTFILE_H
