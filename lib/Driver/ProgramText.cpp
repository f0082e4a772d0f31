//===- ProgramText.cpp - program text read and checked before parsing -----===//
#include "blk/Driver/ProgramText.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace blk;
using runtime::Status;

Status blk::readProgramFile(const std::string &path, std::string &text) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    return Status::failure("cannot read the program '" + path +
                           "': " + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    return Status::failure("the program '" + path +
                           "' is not a regular file (a device, a pipe or a "
                           "directory is not read)");
  if (info.st_size > kMaxProgramBytes)
    return Status::failure("the program '" + path + "' has " +
                           std::to_string(info.st_size) +
                           " bytes, more than a program may (" +
                           std::to_string(kMaxProgramBytes) + ")");
  std::ifstream file(path, std::ios::binary);
  std::ostringstream contents;
  contents << file.rdbuf();
  if (!file.good() && !file.eof())
    return Status::failure("cannot read the program '" + path + "'");
  text = contents.str();
  return Status::success();
}

Status blk::checkProgramText(const std::string &text,
                             const std::string &name) {
  if (static_cast<int64_t>(text.size()) > kMaxProgramBytes)
    return Status::failure(name + ": the program has " +
                           std::to_string(text.size()) +
                           " bytes, more than a program may (" +
                           std::to_string(kMaxProgramBytes) + ")");
  int64_t depth = 0, line = 1, column = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if (inString) {
      if (c == '\\')
        ++i, ++column;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '{' || c == '(' || c == '[' || c == '<') {
      if (++depth > kMaxProgramNesting)
        return Status::failure(
            name + ":" + std::to_string(line) + ":" + std::to_string(column) +
            ": error: the program nests deeper than " +
            std::to_string(kMaxProgramNesting) +
            " brackets ({, (, [, <) here; no block program needs that many");
    } else if (c == '}' || c == ')' || c == ']' ||
               (c == '>' && (i == 0 || text[i - 1] != '-'))) {
      depth = depth > 0 ? depth - 1 : 0;
    }
  }
  return Status::success();
}
