//===- CompileOptions.h - the one record of compile choices ------*- C++ -*-===//
//
// Everything a caller chooses about compiling a block program, in one value:
// the tools map their flags into it, the compile driver and the C++ API
// hold it, the pipelines read it, and its printed form is the kernel
// cache's. Its knobs are declared once, in CompileOptions.def; nothing else
// repeats them.
//
// Plain C++ (no MLIR, no LLVM): the MLIR-free API (blk/Driver/Compiler.h)
// takes it as it is.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_COMPILEOPTIONS_H
#define BLK_TARGET_COMPILEOPTIONS_H

#include <cstdint>
#include <map>
#include <string>

namespace blk {

enum class TargetKind { GPU, CPU };

struct CompileOptions {
  TargetKind target = TargetKind::GPU;

#define BLK_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION) TYPE FIELD = DEFAULT;
#include "blk/Target/CompileOptions.def"

  /// Constants the binding rules must not choose (BLOCK, ROWS...).
  std::map<std::string, int64_t> constants;
  /// GPU: the streaming multiprocessors of the device the program will run
  /// on (0: not known; the binding rules then assume a whole chip).
  int64_t multiprocessors = 0;
  /// Where compiled programs are kept (blk/Runtime/KernelCache.h:
  /// KernelCache::getDefaultDirectory() is the usual place); empty: compile
  /// every time.
  std::string cacheDirectory;
  /// The most bytes the cache's entries may take: a store past it removes
  /// the least recently used entries (KernelCache). 0: the default
  /// (KernelCache::getDefaultSizeLimit, $BLK_CACHE_SIZE).
  uint64_t cacheSizeLimit = 0;

  /// Every choice that changes the code compiled, one `flag=value` a line
  /// (the target, each knob of CompileOptions.def, the constants, the
  /// multiprocessors): the kernel cache key's options.
  std::string print() const;

  /// The first knob out of its range, as "stage-min-registers must be 0
  /// (never) or positive, not -1"; empty if every knob is in range.
  std::string verify() const;
};

} // namespace blk

#endif // BLK_TARGET_COMPILEOPTIONS_H
