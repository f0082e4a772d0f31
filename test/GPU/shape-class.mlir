// REQUIRES: cuda-gpu
// One compilation per shape class on the GPU: the row count is a run-time
// argument, so a sweep of row counts at one row length is one kernel cache
// entry, and each run checks. A persistent program (its grid capped at the
// resident programs for every row count), a multi-row program (rows past
// the problem's masked) and split rows that meet in one launch.
// RUN: rm -rf %t && mkdir -p %t
// RUN: bash -c 'for m in 1 7 130 4096 20000; do softmax-run %examples/softmax_persistent.mlir --target gpu --rows $m --cols 4096 --check --reference softmax --cache-dir %t/persistent; done' > %t/persistent.log
// RUN: bash -c 'test "$(grep -c "check: .* OK" %t/persistent.log)" = 5 && test "$(ls %t/persistent | wc -l)" = 1'
// RUN: bash -c 'for m in 1 3 1000 65537; do softmax-run %examples/softmax_multirow.mlir --target gpu --rows $m --cols 256 --dtype bf16 --check --reference softmax --cache-dir %t/multirow; done' > %t/multirow.log
// RUN: bash -c 'test "$(grep -c "check: .* OK" %t/multirow.log)" = 4 && test "$(ls %t/multirow | wc -l)" = 1'
// RUN: bash -c 'for m in 64 100 512; do softmax-run %examples/softmax_split_resident.mlir --target gpu --rows $m --cols 65536 --check --reference softmax --cache-dir %t/resident; done' > %t/resident.log
// RUN: bash -c 'test "$(grep -c "check: .* OK" %t/resident.log)" = 3 && test "$(ls %t/resident | wc -l)" = 1'
