# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "BLK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.blk_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%examples", os.path.join(config.blk_src_root, "python-free-examples")))
config.substitutions.append(("%blk_src_root", config.blk_src_root))
config.substitutions.append(("%blk_obj_root", config.blk_obj_root))
# An example whose row strides no longer claim 16-byte divisibility (so
# blk-peel-alignment versions its rows), and a distributed program without
# its layouts (the CPU path takes programs before blk-distribute; a layout
# only says which thread holds which element): filters for the tests that
# run such programs on the CPU.
config.substitutions.append(
    ("%drop-stride-divisibility",
     r"""sed -e 's/\(row_stride "[a-z_]*">\), blk.divisibility = 16 : i64/\1/'"""))
config.substitutions.append(
    ("%drop-layouts",
     r"""sed -e '/^#blocked/d' -e 's/, #blocked[0-9]*>/>/g' -e 's/ {blk.vector = [0-9]* : i64}//g'"""))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# Every test compiles: the kernel cache is off unless a test turns it on
# (test/Runtime/kernel-cache.mlir), so no test reads what an older build
# left in ~/.cache.
config.environment["BLK_CACHE_DIR"] = ""
llvm_config.use_default_substitutions()

tool_dirs = [config.blk_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["softmax-opt", "softmax-run", "blk-build-fused", "blk-choose-program", "embed-softmax", "blk-unittests", "blk-runtime-unittests"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# ptxas is optional: with it, the generated PTX is assembled for real chips.
import shutil
ptxas = shutil.which("ptxas") or shutil.which("ptxas", path="/usr/local/cuda/bin")
if ptxas:
    config.available_features.add("ptxas")
    llvm_config.add_tool_substitutions(["ptxas"], [os.path.dirname(ptxas)])

# GPU tests run where softmax-run finds a usable GPU.
import subprocess
softmax_run = os.path.join(config.blk_tools_dir, "softmax-run")
if os.path.exists(softmax_run) and subprocess.run(
        [softmax_run, "--probe-gpu"], capture_output=True).returncode == 0:
    config.available_features.add("cuda-gpu")

# The kernel cache is off in a build outside git (its key could not tell
# compilers apart): the cache tests need a known commit.
if os.path.exists(softmax_run) and "git unknown" not in subprocess.run(
        [softmax_run, "--version"], capture_output=True, text=True).stdout:
    config.available_features.add("git-revision")
