//===- Version.h - which compiler this is -----------------------*- C++ -*-===//
#ifndef BLK_DRIVER_VERSION_H
#define BLK_DRIVER_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace mlir::blk {

/// "0.5.0", the project's version (CMakeLists.txt).
const char *getVersion();
/// The git commit the sources were built from ("d4ef765c12ab", with
/// "-dirty" for uncommitted changes; "unknown" outside git).
const char *getGitRevision();

/// Adds the project's version and commit to a tool's --version, before
/// LLVM's: "blk-softmax 0.5.0 (git d4ef765c12ab)".
void addVersionPrinter(llvm::StringRef toolName);

} // namespace mlir::blk

#endif // BLK_DRIVER_VERSION_H
