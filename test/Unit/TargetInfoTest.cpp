//===- TargetInfoTest.cpp - the chip facts TargetInfo answers -------------===//
//
// Chip names, the PTX versions that know them, and the limits the passes
// and the binding rules ask for (CUDA C++ Programming Guide, compute
// capabilities table).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/TargetInfo.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace mlir::blk;

namespace {

TEST(TargetInfoTest, ChipNames) {
  EXPECT_EQ(TargetInfo::parseChipNumber("sm_90"), 90u);
  EXPECT_EQ(TargetInfo::parseChipNumber("sm_90a"), 90u);
  EXPECT_EQ(TargetInfo::parseChipNumber("sm_100f"), 100u);
  EXPECT_EQ(TargetInfo::parseChipNumber("sm_80x"), 0u);
  EXPECT_EQ(TargetInfo::parseChipNumber("gfx90a"), 0u);
}

TEST(TargetInfoTest, DefaultPTXVersions) {
  // PTX 8.0 at least (what the pipeline was checked with), newer where the
  // chip needs it.
  EXPECT_EQ(TargetInfo::getDefaultFeatures("sm_80"), "+ptx80");
  EXPECT_EQ(TargetInfo::getDefaultFeatures("sm_90"), "+ptx80");
  EXPECT_EQ(TargetInfo::getDefaultFeatures("sm_100"), "+ptx86");
  EXPECT_EQ(TargetInfo::getDefaultFeatures("tpu"), "");
  EXPECT_EQ(TargetInfo::getMinimumPTXVersion(89), 78u);
}

TEST(TargetInfoTest, HopperLimits) {
  llvm::Expected<TargetInfo> hopper = TargetInfo::get("sm_90");
  ASSERT_TRUE(static_cast<bool>(hopper)) << llvm::toString(hopper.takeError());
  EXPECT_TRUE(hopper->hasClusters());
  EXPECT_EQ(hopper->getMaxPortableClusterCtas(), 8);
  EXPECT_EQ(hopper->getMaxSharedBytesPerCta(), 227 * 1024);
  EXPECT_EQ(hopper->getWarpSize(), 32);
}

TEST(TargetInfoTest, AmpereHasNoClusters) {
  llvm::Expected<TargetInfo> ampere = TargetInfo::get("sm_80");
  ASSERT_TRUE(static_cast<bool>(ampere)) << llvm::toString(ampere.takeError());
  EXPECT_FALSE(ampere->hasClusters());
  EXPECT_EQ(ampere->getMaxClusterCtas(), 1);
  EXPECT_EQ(ampere->getMaxSharedBytesPerCta(), 163 * 1024);
}

TEST(TargetInfoTest, RefusesWithAReason) {
  llvm::Expected<TargetInfo> old = TargetInfo::get("sm_60");
  ASSERT_FALSE(static_cast<bool>(old));
  EXPECT_NE(llvm::toString(old.takeError()).find("expected sm_70 or newer"),
            std::string::npos);
  llvm::Expected<TargetInfo> tooOld = TargetInfo::get("sm_90", "+ptx70");
  ASSERT_FALSE(static_cast<bool>(tooOld));
  EXPECT_NE(llvm::toString(tooOld.takeError()).find("needs +ptx78 or newer"),
            std::string::npos);
}

} // namespace
