//===- ProgramText.h - program text read and checked before parsing -*- C++ -*-===//
//
// What a block program's text must be before MLIR's parser sees it: the
// parser reads a file to its end (`/dev/zero` never ends) and recurses once
// a nesting level (60,000 nested regions overflowed its stack; 4,000 the
// passes'). softmax-opt, softmax-run and blk::Compiler check every program
// here first, and refuse, located, what they could not survive.
//
// Plain C++: the MLIR-free API uses it as it is.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_PROGRAMTEXT_H
#define BLK_DRIVER_PROGRAMTEXT_H

#include "blk/Runtime/Status.h"

#include <cstdint>
#include <string>

namespace blk {

/// A program is at most this long: the largest example has 8 KiB.
constexpr int64_t kMaxProgramBytes = 16 << 20;
/// Brackets a program may nest ({, (, [, <): the examples nest 7.
constexpr int64_t kMaxProgramNesting = 256;

/// Reads the program at `path` into `text`: a regular file (not a device, a
/// pipe or a directory) of at most kMaxProgramBytes, else a Status naming
/// the file and what it is. What it read still goes to checkProgramText.
runtime::Status readProgramFile(const std::string &path, std::string &text);

/// Refuses text longer than kMaxProgramBytes, or nested deeper than
/// kMaxProgramNesting brackets, with the place as `name:line:col: error:
/// ...` (strings and `//` comments do not count).
runtime::Status checkProgramText(const std::string &text,
                                 const std::string &name);

} // namespace blk

#endif // BLK_DRIVER_PROGRAMTEXT_H
