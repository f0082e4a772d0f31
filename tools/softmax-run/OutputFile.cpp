//===- OutputFile.cpp - files written whole or not at all -----------------===//
#include "OutputFile.h"

#include "llvm/Support/FileSystem.h"

using namespace softmax_run;

/// Runs `write` on `os`, closes it and takes its error, so that a failed
/// write is reported here rather than being fatal when `os` is destroyed.
static std::error_code writeAndClose(
    llvm::raw_fd_ostream &os,
    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  write(os);
  os.flush();
  if (&os != &llvm::outs())
    os.close();
  std::error_code ec = os.error();
  os.clear_error();
  return ec;
}

bool softmax_run::writeFileAtomically(
    const std::string &path,
    llvm::function_ref<void(llvm::raw_ostream &)> write, std::string &error) {
  auto failed = [&](std::error_code ec) {
    error = "cannot write '" + path + "': " + ec.message();
    return false;
  };
  if (path == "-") {
    std::error_code ec = writeAndClose(llvm::outs(), write);
    return ec ? failed(ec) : true;
  }
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) && llvm::sys::fs::exists(status) &&
      !llvm::sys::fs::is_regular_file(status)) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
    if (!ec)
      ec = writeAndClose(os, write);
    return ec ? failed(ec) : true;
  }
  int descriptor;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%", descriptor, temporary))
    return failed(ec);
  llvm::raw_fd_ostream os(descriptor, /*shouldClose=*/true);
  std::error_code ec = writeAndClose(os, write);
  if (!ec)
    ec = llvm::sys::fs::rename(temporary, path);
  if (ec) {
    llvm::sys::fs::remove(temporary);
    return failed(ec);
  }
  return true;
}
