//===- Npy.h - read and write NumPy .npy files ------------------*- C++ -*-===//
//
// The subset of the .npy format softmax inputs and outputs need: format
// versions 1.0, 2.0 and 3.0, little-endian float32 ('<f4') or float16
// ('<f2') (read and written), int32 ('<i4') or int64 ('<i8') (read: labels),
// C order, two dimensions (a 1-D array reads as a single row).
// Everything else is rejected with a message that says what is wrong.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_NPY_H
#define BLK_RUNTIME_NPY_H

#include "blk/Runtime/Files.h"
#include "blk/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace blk::runtime {

enum class NpyDtype { Float32, Float16, Int32, Int64 };

/// "<f4", "<f2", "<i4" or "<i8".
const char *npyDescr(NpyDtype dtype);

struct NpyArray {
  size_t rows = 0;
  size_t cols = 0;
  /// The file's dimensions (1 to 4); every one but the last counts rows
  /// (a 1-D array is one row).
  unsigned fileDimensions = 2;
  std::vector<size_t> shape;
  /// The element type stored in the file.
  NpyDtype storedDtype = NpyDtype::Float32;
  /// rows * cols values, C order, as float32: exact for float16 and for
  /// integers of magnitude up to 2^24 (larger ones are refused).
  std::vector<float> values;
};

/// Parses the bytes of a whole .npy file. Bytes after the array data are
/// ignored, as numpy.load ignores them.
Status parseNpy(const unsigned char *bytes, size_t size, NpyArray &array);
/// Reads and parses `path`; errors are prefixed with the path.
Status readNpy(const std::string &path, NpyArray &array);
/// Reads only the header of `path`: everything of `array` but its values
/// (which stay empty), for a shape, without reading the data. The data is
/// not checked (readNpy checks it).
Status readNpyHeader(const std::string &path, NpyArray &array);

/// Writes a 2-D rows x cols array, C order, stored as `storedDtype`
/// (float32 values are rounded to nearest even for float16). Uses format
/// 1.0 and pads the header so the data starts on a 64-byte boundary. The
/// file is replaced whole or not at all (a temporary file is renamed over
/// it); "-" writes to standard output. `dimensions` = 1 writes one row as
/// a 1-D array of `cols` values (as it was read, NpyArray::fileDimensions).
/// With `leading` dimensions (whose product is `rows`), the file's shape
/// is those and `cols` ([B, H, rows, cols] of a batch). `write` writes
/// the file (a FileBatch's writer stages it instead).
Status writeNpy(const std::string &path, size_t rows, size_t cols,
                const float *values, NpyDtype storedDtype,
                unsigned dimensions = 2,
                const std::vector<size_t> &leading = {},
                const FileWriter &write = writeFileWhole);
/// Writes integers exactly as int32 or int64 (`storedDtype`), as writeNpy
/// writes floats; an int32 file refuses a value it cannot hold.
Status writeNpyIntegers(const std::string &path, size_t rows, size_t cols,
                        const int64_t *values, NpyDtype storedDtype,
                        unsigned dimensions = 2,
                        const std::vector<size_t> &leading = {},
                        const FileWriter &write = writeFileWhole);
/// Writes float16 data given as raw bits (e.g. a kernel's f16 output).
Status writeNpyFloat16Bits(const std::string &path, size_t rows, size_t cols,
                           const uint16_t *bits);

} // namespace blk::runtime

#endif // BLK_RUNTIME_NPY_H
