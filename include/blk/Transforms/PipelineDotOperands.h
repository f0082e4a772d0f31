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
/// or B of a blk.dot directly in an scf.for whose every blk.dot can run on
/// wgmma in its kernel and reads B from such a load, one that can be made
/// for another iteration, of 16-byte runs its mask takes whole (down the
/// columns for B, K^T from the rows of K), masked-off elements 0; a loop's
/// one product reads A from such a load too, with num_stages of 3 or more;
/// a loop of several products needs 2 or more. Asks nothing of layouts,
/// so it can be asked before blk-distribute.
bool isCopiedAheadToDot(LoadOp load);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_PIPELINEDOTOPERANDS_H
