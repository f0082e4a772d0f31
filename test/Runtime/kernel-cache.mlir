// The kernel cache (blk/Runtime/KernelCache.h): a second run of the same
// program and problem takes the compiled program from disk, on both targets;
// a damaged entry is compiled again and replaced; processes filling one
// cache at once all succeed; --no-cache and BLK_CACHE_DIR= turn it off; a
// cache that cannot be written is a warning, not a failure.
// REQUIRES: git-revision

// CPU: compiled once, then found (and the run still checks).
// RUN: rm -rf %t && mkdir -p %t
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose --cache-dir %t/cpu | FileCheck %s --check-prefix=COLD
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose --cache-dir %t/cpu | FileCheck %s --check-prefix=HOT
// RUN: ls %t/cpu | count 1
// COLD: compile: compiled, look-up
// COLD: check: {{.*}} OK
// HOT: compile: cache hit, look-up {{.*}} compile 0.00 ms
// HOT: check: {{.*}} OK

// Another row count is the same entry: the code takes the rows at run
// time (ShapeClass). Another row length (or binding) is another entry.
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 9 --cols 100 --check --verbose --cache-dir %t/cpu | FileCheck %s --check-prefix=HOT
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 101 --check --verbose --cache-dir %t/cpu | FileCheck %s --check-prefix=COLD
// RUN: ls %t/cpu | count 2

// A sweep of row counts at one row length compiles once, a program of one
// row per program and one of several rows per program alike.
// RUN: rm -rf %t/sweep && mkdir -p %t/sweep
// RUN: for m in 1 2 7 64 65 128 4096 100000; do softmax-run %examples/softmax_fused.mlir --target cpu --rows $m --cols 64 --check --cache-dir %t/sweep; done | FileCheck %s --check-prefix=SWEEP8
// RUN: ls %t/sweep | count 1
// RUN: for m in 1 3 99999; do softmax-run %examples/softmax_multirow.mlir --target cpu --rows $m --cols 64 --check --cache-dir %t/sweep; done | FileCheck %s --check-prefix=SWEEP3
// RUN: ls %t/sweep | count 2
// SWEEP8-COUNT-8: check: {{.*}} OK
// SWEEP3-COUNT-3: check: {{.*}} OK

// The cache keeps at most --cache-size bytes (entries here are about 4 KiB):
// a store past it removes the least recently used entries. A is stored,
// then B, then A is used again, then C stored: B goes, A and C stay.
// RUN: rm -rf %t/lru && mkdir -p %t/lru
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/lru --cache-size 10K > /dev/null
// RUN: sleep 1 && softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 101 --cache-dir %t/lru --cache-size 10K > /dev/null
// RUN: sleep 1 && softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/lru --cache-size 10K --verbose --check | FileCheck %s --check-prefix=HOT
// RUN: sleep 1 && env BLK_CACHE_SIZE=10K softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 102 --cache-dir %t/lru > /dev/null
// RUN: ls %t/lru | count 2
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/lru --cache-size 10K --verbose --check | FileCheck %s --check-prefix=HOT
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 102 --cache-dir %t/lru --cache-size 10K --verbose --check | FileCheck %s --check-prefix=HOT
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 101 --cache-dir %t/lru --cache-size 10K --verbose --check | FileCheck %s --check-prefix=COLD
// Sizes that are none are refused, or warned of (the environment's).
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/lru --cache-size 1.5K 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: env BLK_CACHE_SIZE=lots softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 103 --cache-dir %t/lru --check 2>&1 | FileCheck %s --check-prefix=BADENV
// BADSIZE: softmax-run: --cache-size=1.5K is not a size (bytes, or a number with K, M or G, more than 0)
// BADENV: warning: kernel cache: BLK_CACHE_SIZE='lots' is not a size
// BADENV: check: {{.*}} OK

// A damaged entry is not trusted: compiled again, replaced, then found.
// RUN: for f in %t/cpu/*.blkc; do printf 'x' >> $f; done
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose --cache-dir %t/cpu 2>&1 | FileCheck %s --check-prefix=DAMAGED
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose --cache-dir %t/cpu | FileCheck %s --check-prefix=HOT
// DAMAGED: warning: kernel cache: damaged entry {{.*}}.blkc (length or checksum differ); compiling again
// DAMAGED: compile: compiled
// DAMAGED: check: {{.*}} OK

// An intact entry of another problem in this problem's place (its
// checksum is right) is not used: it was stored under another key.
// RUN: rm -rf %t/swap && mkdir -p %t/swap
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/swap > /dev/null
// RUN: sleep 1 && softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 101 --cache-dir %t/swap > /dev/null
// RUN: bash -c 'set -- $(ls -tr %t/swap/*.blkc); cp "$1" "$2"'
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 101 --check --verbose --cache-dir %t/swap 2>&1 | FileCheck %s --check-prefix=SWAPPED
// SWAPPED: warning: kernel cache: entry {{.*}}.blkc was stored under another key; compiling again
// SWAPPED: compile: compiled
// SWAPPED: check: {{.*}} OK

// An entry compiled without bounds checks copied under the checked run's
// key describes the same problem and binding; it is still not used (it
// would have dropped the checks).
// RUN: rm -rf %t/bounds && mkdir -p %t/bounds
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check-bounds=false --cache-dir %t/bounds > /dev/null
// RUN: sleep 1 && softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/bounds > /dev/null
// RUN: bash -c 'set -- $(ls -tr %t/bounds/*.blkc); cp "$1" "$2"'
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose --cache-dir %t/bounds 2>&1 | FileCheck %s --check-prefix=SWAPPED

// What is no regular file is not read: a fifo would hang, /dev/zero never
// ends.
// RUN: rm -rf %t/special && mkdir -p %t/special
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --cache-dir %t/special > /dev/null
// RUN: bash -c 'f=$(ls %t/special/*.blkc); rm "$f"; mkfifo "$f"'
// RUN: timeout 60 softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --cache-dir %t/special 2>&1 | FileCheck %s --check-prefix=SPECIAL
// RUN: bash -c 'f=$(ls %t/special/*.blkc); rm "$f"; ln -s /dev/zero "$f"'
// RUN: timeout 60 softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --cache-dir %t/special 2>&1 | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: warning: kernel cache: damaged entry {{.*}}.blkc (not a regular file of at most 256 MiB); compiling again
// SPECIAL: check: {{.*}} OK

// The environment relocates it, and turns it off.
// RUN: env BLK_CACHE_DIR=%t/env softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check > /dev/null
// RUN: ls %t/env | count 1
// RUN: env BLK_CACHE_DIR= HOME=%t/home XDG_CACHE_HOME= softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose | FileCheck %s --check-prefix=COLD
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --verbose --no-cache --cache-dir %t/cpu | FileCheck %s --check-prefix=COLD
// RUN: not ls %t/home

// GPU code (PTX and launch records): the same PTX from the cache.
// RUN: softmax-run auto --rows 4096 --cols 1024 --chip sm_90 --emit-ptx %t/cold.ptx --verbose --cache-dir %t/gpu | FileCheck %s --check-prefix=COLD-PTX
// RUN: softmax-run auto --rows 4096 --cols 1024 --chip sm_90 --emit-ptx %t/hot.ptx --verbose --cache-dir %t/gpu | FileCheck %s --check-prefix=HOT-PTX
// RUN: diff %t/cold.ptx %t/hot.ptx
// RUN: softmax-run auto --rows 4096 --cols 1024 --chip sm_80 --emit-ptx %t/sm80.ptx --verbose --cache-dir %t/gpu | FileCheck %s --check-prefix=COLD-PTX
// COLD-PTX: compile: compiled
// HOT-PTX: compile: cache hit

// Processes filling one cache at once: each writes a temporary file and
// renames it, so every run succeeds and one whole entry remains.
// RUN: bash -c 'for i in 1 2 3 4; do softmax-run %examples/softmax_online.mlir --target cpu --rows 16 --cols 300 --check --cache-dir %t/race > %t/race.$i.log 2>&1 & done; wait'
// RUN: cat %t/race.1.log %t/race.2.log %t/race.3.log %t/race.4.log | FileCheck %s --check-prefix=RACE
// RUN: ls %t/race | count 1
// RACE-COUNT-4: check: {{.*}} OK

// A cache that cannot be written: a warning, and the run goes on.
// RUN: touch %t/file
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 100 --check --cache-dir %t/file/sub 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: warning: kernel cache: cannot create '{{.*}}file/sub': Not a directory (not cached)
// UNWRITABLE: check: {{.*}} OK
