// REQUIRES: cuda-gpu
// Every example passes --check with no --reference: a kernel named after a
// kind (@log_softmax, @rms_norm...) against that kind's float64 reference,
// any other against the program itself in float64 (softmax_split_resident's
// programs meeting there as on the GPU). Odd rows, f32 and bf16.
// RUN: bash -c 'for f in %examples/*.mlir; do n=$(basename $f .mlir); case $n in cross_entropy) a="--param ignore_index=-100";; rms_norm) a="--param eps=1e-6";; layer_norm) a="--param eps=1e-5";; softmax_scaled_masked) a="--const CAUSAL=1 --param scale=0.125,offset=0";; matmul) a="--inner 300";; attention_fwd|attention_bwd) a="--inner 300 --batch 2 --heads 3 --const CAUSAL=1 --param scale=0.125";; *) a="";; esac; c=5001; case $n in attention_*) c=64;; esac; for d in f32 bf16; do softmax-run $f --target gpu --check --rows 77 --cols $c --dtype $d $a > %t.$n.$d.log 2>&1 && grep -q " OK (relative" %t.$n.$d.log || { echo "FAILED: $n $d"; cat %t.$n.$d.log; }; done; done' > %t.summary
// RUN: bash -c 'test ! -s %t.summary || { cat %t.summary; false; }'
