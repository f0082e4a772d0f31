// RUN: softmax-opt %s --blk-attach-target --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-target=chip=sm_80 --split-input-file | FileCheck %s --check-prefix=SM80
// RUN: not softmax-opt %s --blk-attach-target="chip=sm_80 features=+ptx85" --split-input-file 2>&1 | FileCheck %s --check-prefix=PTX85
// RUN: not softmax-opt %s --blk-attach-target=chip=sm_86 --split-input-file 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not softmax-opt %s --blk-attach-target=chip=sm_52 --split-input-file 2>&1 | FileCheck %s --check-prefix=OLD

// A module without a target gets the options' chip, else sm_90, with the
// chip's default PTX features written out.
// CHECK: module attributes {blk.target = #blk.target<chip = "sm_90", features = "+ptx80">}
// SM80: module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx80">}
// PTX85-DAG: module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx85">}
// OLD: error: unsupported chip 'sm_52': expected sm_70 or newer (e.g. sm_80, sm_90)
func.func @k() attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// A module that says its target keeps it; options naming another chip are
// an error that shows both.
// CHECK: module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx80">}
// SM80: module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx80">}
// PTX85-DAG: error: the module is for #blk.target<chip = "sm_80", features = "+ptx80">, but the pipeline was asked for chip 'sm_80' features '+ptx85'
// DISAGREE: error: the module is for #blk.target<chip = "sm_80", features = "+ptx80">, but the pipeline was asked for chip 'sm_86' features '': drop the options or the module's blk.target
module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx80">} {
  func.func @k() attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
    return
  }
}

// -----

// A module of no blk op (the blk dialect not loaded by the parser) gets its
// target too: this crashed the pass before it declared the dialect.
// CHECK: module attributes {blk.target = #blk.target<chip = "sm_90", features = "+ptx80">}
// SM80: module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx80">}
module {
}
