// softmax-run --json: one JSON object on standard output with the run's
// facts (bench/ab.py reads it); the report goes to standard error. A run
// that fails says so ("ok": false) and why.
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --rows 8 --cols 100 --param ignore_index=-100 --check --bench --runs 3 --json 2>%t.report | %python -c "import json, sys; d = json.load(sys.stdin); print(d['program'], d['rows'], d['cols'], d['dtype'], d['target'], d['binding'], d['grid'], d['ok']); [print(c['output'], c['passed'], c['against'], c['compared']) for c in d['checks']]; print(sorted(d['bench'])); print(sorted(d['compile']))" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// CHECK: cross_entropy.mlir 8 100 f32 cpu BLOCK=128 8 True
// CHECK-NEXT: loss True the float64 cross_entropy reference 8
// CHECK-NEXT: lse True the float64 cross_entropy reference 8
// CHECK-NEXT: ['copy_gbps', 'gbps', 'ms', 'percent_of_copy', 'runs']
// CHECK-NEXT: ['cache_hit', 'compile_ms', 'load_ms', 'lookup_ms']
// REPORT: check loss: {{.*}} OK
// REPORT: bench:
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 0 --cols 100 --json 2>/dev/null | FileCheck %s --check-prefix=FAILED
// FAILED: {"error":"give the shape with --rows M --cols N {{.*}}","ok":false}
