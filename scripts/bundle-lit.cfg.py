# lit configuration of the GPU bundle (scripts/make-bundle.sh): runs the
# tests of test/GPU with the bundle's statically linked tools, no LLVM needed.
import os
import subprocess

import lit.formats

config.name = "BLK-GPU"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.test_source_root, "out")

bundle = os.path.dirname(config.test_source_root)
bin_dir = os.path.join(bundle, "bin")
config.environment["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
config.substitutions.append(("%examples", os.path.join(bundle, "examples")))
# As in test/lit.cfg.py: every test compiles unless it names a cache.
config.environment["BLK_CACHE_DIR"] = ""

probe = subprocess.run([os.path.join(bin_dir, "softmax-run"), "--probe-gpu"],
                       capture_output=True, text=True)
lit_config.note("GPU probe: " + probe.stdout.strip())
if probe.returncode == 0:
    config.available_features.add("cuda-gpu")
