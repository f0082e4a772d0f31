// Not MLIR: the runtime library's gtest unit tests (test/Unit/Runtime*.cpp),
// one lit test. Without a usable CUDA driver the GPU tests are skipped with
// the driver's reason, not failed.
// RUN: blk-runtime-unittests --gtest_brief=1 | FileCheck %s
// CHECK-NOT: FAILED
// CHECK: [  PASSED  ]
