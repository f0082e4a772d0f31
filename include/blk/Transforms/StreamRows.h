//===- StreamRows.h - which kernels blk-stream-rows can stream --*- C++ -*-===//
//
// Asked by blk-stream-rows, which refuses a kernel it cannot stream, and by
// the compile driver, which streams a program's rows only where every
// kernel can be streamed (fitProgram).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_STREAMROWS_H
#define BLK_TRANSFORMS_STREAMROWS_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::blk {

/// Why blk-stream-rows cannot walk `kernel`'s row in tiles, or an empty
/// string if it can: a kernel that holds one row a program alone
/// (whyRowIsNotHeldAlone), whose row is read and not written (no block of
/// the row reaches anything but a reduction of the row, and nothing writes
/// memory between the row's loads and its first reduction), and whose
/// reductions each combine values computed from the row alone, or are a
/// max and its sum of exp(x - max).
std::string whyRowsCannotStream(func::FuncOp kernel);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_STREAMROWS_H
