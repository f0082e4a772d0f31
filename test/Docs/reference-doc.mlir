// docs/reference/ is what mlir-tblgen generates from the .td files today
// (the build makes it in build/docs/Blk). After a change to a .td file,
// run scripts/update-reference-docs.sh and commit docs/reference/.
// RUN: diff -u %blk_src_root/docs/reference/BlkDialect.md %blk_obj_root/docs/Blk/BlkDialect.md
// RUN: diff -u %blk_src_root/docs/reference/BlkInterfaces.md %blk_obj_root/docs/Blk/BlkInterfaces.md
// RUN: diff -u %blk_src_root/docs/reference/BlkPasses.md %blk_obj_root/docs/Blk/BlkPasses.md
// RUN: diff -u %blk_src_root/docs/reference/BlkConversionPasses.md %blk_obj_root/docs/Blk/BlkConversionPasses.md
// RUN: diff -u %blk_src_root/docs/reference/BlkCPUConversionPasses.md %blk_obj_root/docs/Blk/BlkCPUConversionPasses.md
