//===- Version.cpp - which compiler this is -------------------------------===//
#include "blk/Driver/Version.h"

#include "llvm/Support/CommandLine.h"

#include "BlkRevision.inc"

const char *mlir::blk::getVersion() { return BLK_VERSION; }

const char *mlir::blk::getGitRevision() { return BLK_GIT_REVISION; }

void mlir::blk::addVersionPrinter(llvm::StringRef toolName) {
  std::string name = toolName.str();
  llvm::cl::AddExtraVersionPrinter([name](llvm::raw_ostream &os) {
    os << name << " (blk-softmax " << getVersion() << ", git "
       << getGitRevision() << ")\n";
  });
}
