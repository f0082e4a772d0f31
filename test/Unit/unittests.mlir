// Not MLIR: the compiler's gtest unit tests (test/Unit/*Test.cpp but the
// runtime's Runtime*Test.cpp, which runtime-unittests.mlir runs), one lit test.
// RUN: blk-unittests --gtest_brief=1 | FileCheck %s
// CHECK-NOT: FAILED
// CHECK: [  PASSED  ]
