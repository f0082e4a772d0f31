// bench/tolerance.py (the rule the bench scripts check outputs by) and
// softmax-run's --check (blk::runtime::getCheckTolerance) agree for every
// element type: each dtype's tolerance from a checked softmax-run --json on
// the CPU (tf32: the tiled matmul with its dot made `precision tf32`),
// then the script's table, compared line by line.
// RUN: bash -c 'for dtype in f32 bf16 f16; do softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 8 --dtype $dtype --check --json | %python -c "import json, sys; print(sys.argv[1], json.load(sys.stdin)[\"checks\"][0][\"tolerance\"])" $dtype; done' > %t.runtime
// RUN: sed -e 's/%acc_in :/%acc_in precision tf32 :/' %examples/matmul.mlir > %t.tf32.mlir
// RUN: softmax-run %t.tf32.mlir --target cpu --rows 4 --cols 8 --inner 8 --check --json | %python -c "import json, sys; print('tf32', json.load(sys.stdin)['checks'][0]['tolerance'])" >> %t.runtime
// RUN: %python %examples/../bench/tolerance.py > %t.bench
// RUN: diff %t.runtime %t.bench
