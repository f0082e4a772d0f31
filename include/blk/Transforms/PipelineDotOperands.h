//===- PipelineDotOperands.h - dot operands copied ahead --------*- C++ -*-===//
//
// Asked by blk-pipeline-loads, which leaves these loads to
// blk-pipeline-dot-operands (it runs after blk-distribute, they before).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_PIPELINEDOTOPERANDS_H
#define BLK_TRANSFORMS_PIPELINEDOTOPERANDS_H

#include "blk/IR/BlkDialect.h"

namespace mlir::blk {

/// Whether blk-pipeline-dot-operands copies what `load` reads into a ring
/// of shared buffers ahead of the loop's iterations: the load is operand A
/// or B of a blk.dot that can run on wgmma in its kernel, directly in an
/// scf.for with num_stages of 3 or more, both operands loads that can be made for
/// another iteration, of 16-byte runs their masks take whole, masked-off
/// elements 0. Asks nothing of layouts, so it can be asked before
/// blk-distribute.
bool isCopiedAheadToDot(LoadOp load);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_PIPELINEDOTOPERANDS_H
