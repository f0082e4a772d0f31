# bench/device-queue.sh queue: the GPU suite but large.mlir (three checked
# problems of 2^31 elements, minutes of host time) on the bundle of the
# tree, as the first call after a change of what the kernels compile to:
#   bench/device-queue.sh bench/queues/gpu-suite.sh 200

gpu_suite() {
  ./run-gpu-tests.sh --filter-out 'large' --time-tests
}

step 180 gpu_suite gpu_suite
