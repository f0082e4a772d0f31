// docs/writing-kernels.md shows kernels that are files of the repository
// and commands that must succeed (scripts/check-guide.py).
// RUN: %python %examples/../scripts/check-guide.py %examples/../docs/writing-kernels.md --root %examples/.. --tools %blk_obj_root/bin | FileCheck %s
// CHECK: check-guide: {{[0-9]+}} blocks, 0 failed
