//===- FoldOffsets.cpp - 32-bit blk.addptr offsets into offsets blocks -----===//
//
// The counterpart of blk-widen-offsets, for problems whose every access lies
// within 2^31 - 1 elements of the pointer it starts from. A program that
// reaches its first row with `blk.addptr %p, %start : i32` and then indexes
// ROWS x BLOCK elements by `local_row * stride + col` pays a 64-bit pointer
// sum per thread before its first load; with the start folded into the
// offsets block LLVM merges it into the row index (`(first_row + r) *
// stride + c`, one mad). Measured on an H200 (bench/ab.sh, binding rules):
// softmax_multirow bf16 262144 x 128 2768 -> 2843 GB/s, and 3663 -> 3928
// GB/s at bf16 65536 x 1024 with ROWS=2 (5 pairs).
//
// Only 2-D offsets blocks get the start. A 1-D block is a run of one row's
// columns: there every access of a thread shares the addptr's base, and the
// folded form costs an add and a wide multiply per access (softmax_fused
// with clusters: 2.0-2.4% slower at f32 512 x 131072 and 256 x 262144).
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKFOLDOFFSETS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Whether every use of `addptr` is the base of a load or store whose
/// offsets block is static, 2-D and of the addptr's offset type (i32).
bool onlyAddressesAccesses(AddPtrOp addptr) {
  Type offsetType = addptr.getOffset().getType();
  return llvm::all_of(addptr->getUses(), [&](OpOperand &use) {
    auto access = dyn_cast<MemoryAccessOpInterface>(use.getOwner());
    if (!access || &access.getBaseMutable() != &use)
      return false;
    RankedTensorType offsets = access.getOffsets().getType();
    return offsets.hasStaticShape() && offsets.getRank() == 2 &&
           offsets.getElementType() == offsetType;
  });
}

/// Rewrites `addptr(p, s)[offsets]` to `p[offsets + splat(s)]` for each
/// access, then erases the addptr.
void foldIntoAccesses(AddPtrOp addptr) {
  for (OpOperand &use : llvm::make_early_inc_range(addptr->getUses())) {
    auto access = cast<MemoryAccessOpInterface>(use.getOwner());
    OpBuilder builder(access);
    Location loc = addptr.getLoc();
    Value offsets = access.getOffsets();
    Value start = SplatOp::create(builder, loc, offsets.getType(),
                                  addptr.getOffset(), /*shape=*/nullptr);
    Value sum = arith::AddIOp::create(builder, loc, offsets, start);
    access.getOffsetsMutable().assign(sum);
    access.getBaseMutable().assign(addptr.getPtr());
  }
  addptr->erase();
}

struct BlkFoldOffsetsPass
    : public mlir::blk::impl::BlkFoldOffsetsBase<BlkFoldOffsetsPass> {
  void runOnOperation() override {
    SmallVector<AddPtrOp> addptrs;
    getOperation().walk([&](AddPtrOp addptr) {
      if (addptr.getOffset().getType().isInteger(32))
        addptrs.push_back(addptr);
    });
    // Last first: an addptr of an addptr becomes foldable once the outer
    // one has been folded into the accesses.
    for (AddPtrOp addptr : llvm::reverse(addptrs))
      if (onlyAddressesAccesses(addptr))
        foldIntoAccesses(addptr);
  }
};

} // namespace
