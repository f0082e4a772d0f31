// bench/ab.py, the A/B tool: its self-test, and a real A/B on the CPU (one
// binary, two flag sets) read from softmax-run --json, checked.
// RUN: %python %examples/../bench/ab.py --self-test | FileCheck %s --check-prefix=SELF
// SELF: ab.py self-test: OK
// RUN: %python %examples/../bench/ab.py --target cpu --binary %blk_obj_root/bin/softmax-run --program %examples/softmax_fused.mlir --variant four= --variant two=:"--num-warps 2" --shapes 16x100,5x1000 --dtypes f32,bf16 --rounds 2 --check --csv %t.csv | FileCheck %s
// CHECK: f32
// CHECK: 16x100
// CHECK: 5x1000
// CHECK: bf16
// RUN: %python -c "import csv; rows = list(csv.DictReader(open('%t.csv'))); print(len(rows))" | FileCheck %s --check-prefix=ROWS
// ROWS: 16
