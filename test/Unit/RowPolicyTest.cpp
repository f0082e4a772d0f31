//===- RowPolicyTest.cpp - when a row is kept, copied or peeled -----------===//
//
// The one policy blk-stage-held-loads, blk-async-fill, blk-peel-alignment
// and the binding rules ask (include/blk/Target/RowPolicy.h), on the chips
// and thresholds that change its answers.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/RowPolicy.h"

#include <gtest/gtest.h>

using namespace mlir::blk;

namespace {

TargetInfo chip(const char *name) {
  return llvm::cantFail(TargetInfo::get(name));
}

// Two 16-byte runs a thread or more: bf16 1024 on 4 warps (one run) is
// left element by element, on 2 warps (two runs) shifted.
TEST(RowPolicyTest, PeelsRowsOfTwoRunsAThread) {
  EXPECT_FALSE(RowPolicy::peelsRow(1024 * 2, 4 * kWarpSize));
  EXPECT_TRUE(RowPolicy::peelsRow(1024 * 2, 2 * kWarpSize));
  EXPECT_TRUE(RowPolicy::peelsRow(1024 * 4, 4 * kWarpSize));
}

// The pipeline's defaults (48 registers, 12 runs) on sm_90.
TEST(RowPolicyTest, DefaultsOnSm90) {
  RowPolicy policy(chip("sm_90"), ::blk::CompileOptions());
  EXPECT_TRUE(policy.keepsRegisters(48));
  EXPECT_FALSE(policy.keepsRegisters(47));
  EXPECT_TRUE(policy.copiesRuns(12));
  EXPECT_FALSE(policy.copiesRuns(11));
  EXPECT_EQ(policy.getCopyMinRuns(), 12);
  // One CTA, or CTAs of 8 warps on a cluster; not 4-warp CTAs on one.
  EXPECT_TRUE(policy.keepsRowsIn(4, 1));
  EXPECT_TRUE(policy.keepsRowsIn(8, 4));
  EXPECT_FALSE(policy.keepsRowsIn(4, 8));
  // f32 rows only on clusters, where they are copied.
  EXPECT_TRUE(policy.keepsWideRowsIn(8));
  EXPECT_FALSE(policy.keepsWideRowsIn(1));
  // Half of 227 KiB, less the driver's 1 KiB and two 8-byte partials a
  // thread of 256.
  EXPECT_EQ(policy.getMaxKeptBytes(256, 2), 227 * 1024 / 2 - 1024 - 2 * 256 * 8);
}

TEST(RowPolicyTest, StageOnClustersKeepsSmallCtas) {
  RowPolicy policy(chip("sm_90"), 48, /*stageOnClusters=*/true, 12);
  EXPECT_TRUE(policy.keepsRowsIn(4, 8));
}

// Thresholds of 0 turn keeping and copying off.
TEST(RowPolicyTest, ZeroThresholdsMeanNever) {
  RowPolicy none(chip("sm_90"), 0, false, 0);
  EXPECT_FALSE(none.keepsRowsIn(4, 1));
  EXPECT_FALSE(none.keepsRegisters(1000));
  EXPECT_FALSE(none.copiesRuns(1000));
  EXPECT_FALSE(none.keepsWideRowsIn(8));
}

// Before sm_80 nothing is copied (no cp.async), so no f32 row is kept.
TEST(RowPolicyTest, NoCopiesBeforeSm80) {
  RowPolicy sm75(chip("sm_75"), ::blk::CompileOptions());
  EXPECT_EQ(sm75.getCopyMinRuns(), 0);
  EXPECT_FALSE(sm75.copiesRuns(100));
  EXPECT_FALSE(sm75.keepsWideRowsIn(8));
  EXPECT_TRUE(sm75.keepsRegisters(48));
  RowPolicy sm80(chip("sm_80"), ::blk::CompileOptions());
  EXPECT_TRUE(sm80.copiesRuns(12));
}

// A kept row's load is copied where each access is one 16-byte cp.async,
// the mask one value a run, the runs reach the threshold, and no loop
// reloads the registers.
TEST(RowPolicyTest, CopiesWholeRunsOutsideLoops) {
  RowPolicy policy(chip("sm_90"), ::blk::CompileOptions());
  RowPolicy::RowLoad load;
  load.vectorBytes = 16;
  load.runs = 12;
  load.maskUniformOverRuns = true;
  EXPECT_TRUE(policy.copiesLoad(load));
  RowPolicy::RowLoad inLoop = load;
  inLoop.inLoop = true;
  EXPECT_FALSE(policy.copiesLoad(inLoop));
  RowPolicy::RowLoad narrow = load;
  narrow.vectorBytes = 8;
  EXPECT_FALSE(policy.copiesLoad(narrow));
  RowPolicy::RowLoad ragged = load;
  ragged.maskUniformOverRuns = false;
  EXPECT_FALSE(policy.copiesLoad(ragged));
  RowPolicy::RowLoad few = load;
  few.runs = 11;
  EXPECT_FALSE(policy.copiesLoad(few));
}

} // namespace
