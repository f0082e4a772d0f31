// Not MLIR: the gtest unit tests (test/Unit/*Test.cpp), one lit test.
// RUN: blk-unittests --gtest_brief=1 | FileCheck %s
// CHECK-NOT: FAILED
// CHECK: [  PASSED  ]
