//===- PeelAlignment.h - the rows blk-peel-alignment versioned --*- C++ -*-===//
//
// blk-peel-alignment turns each load of a row it shifts into an scf.if of
// two loads (the aligned one, and its blk.fallback). Later passes that
// treat such rows apart ask here what one looks like: blk-stage-held-loads
// (a versioned load is a row as loaded) and blk-combine-centered-squares
// (its default applies to peeled rows only).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_PEELALIGNMENT_H
#define BLK_TRANSFORMS_PEELALIGNMENT_H

#include "mlir/IR/Value.h"

namespace mlir::blk {

/// Whether `value` is a row blk-peel-alignment versioned: the result of an
/// `scf.if` each of whose branches yields a `blk.load` of its own (the
/// shifted row's vectors, and the fallback element by element).
bool isVersionedLoad(Value value);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_PEELALIGNMENT_H
