//===- build_fused.cpp - fused softmax built in C++, compiled to PTX ------===//
//
// Using the blk compiler as a library: this program builds the kernel of
// python-free-examples/softmax_fused.mlir op by op with MLIR's OpBuilder
// (no .mlir file is read), binds its block size, runs the blk-to-ptx
// pipeline and prints the PTX with the kernel's launch contract.
//
// Build and run (from the repository root, after configuring build/):
//   ninja -C build blk-build-fused
//   build/bin/blk-build-fused                    # BLOCK=1024, sm_90
//   build/bin/blk-build-fused 2048 --chip=sm_80  # another block size and chip
//   build/bin/blk-build-fused --print-ir         # also the built IR, on stderr
//
// The output is PTX that ptxas or the CUDA driver accepts as it is: the
// launch contract is a header of PTX comments.
//
// The kernel is built the way softmax_fused.mlir is written: generic in its
// block size, with block shapes that name the compile-time constant BLOCK
// (`tensor<?xf32>`), and blk-specialize binds BLOCK. So one built module can
// be compiled for any block size, and `--print-ir` shows the same IR as
// `softmax-opt softmax_fused.mlir`.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Driver.h"
#include "blk/Driver/ToolExit.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::OptionCategory toolOptions("blk-build-fused options");

// Taken as text and parsed by main: for a malformed number in a positional
// argument llvm::cl prints an error but goes on with the default.
static llvm::cl::opt<std::string>
    blockSizeArgument(llvm::cl::Positional, llvm::cl::desc("<block size>"),
                      llvm::cl::init("1024"), llvm::cl::cat(toolOptions));

static llvm::cl::opt<std::string>
    chip("chip",
         llvm::cl::desc("NVIDIA chip to compile for (sm_70 or newer; "
                        "default: sm_90)"),
         llvm::cl::cat(toolOptions));

static llvm::cl::opt<bool>
    printIR("print-ir",
            llvm::cl::desc("Print the built (not yet compiled) IR to stderr"),
            llvm::cl::cat(toolOptions));

/// Builds @softmax_fused at the end of `module`; each statement below is the
/// line of softmax_fused.mlir named in its comment.
static void buildSoftmaxFused(ModuleOp module) {
  MLIRContext *context = module.getContext();
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  // Every op gets this location, so a diagnostic about the built IR says
  // which kernel it is about.
  Location loc = NameLoc::get(builder.getStringAttr("softmax_fused"));

  FloatType f32 = builder.getF32Type();
  IntegerType i32 = builder.getI32Type();
  auto f32Pointer = mlir::blk::PtrType::get(context, f32);
  // Blocks of BLOCK elements: the dimension stays dynamic until compileProgram
  // binds BLOCK, and every op that makes a block from scalars names BLOCK in
  // its shape list (`[BLOCK]` in the .mlir) so that the binding reaches it.
  auto offsetBlock = RankedTensorType::get({ShapedType::kDynamic}, i32);
  auto valueBlock = RankedTensorType::get({ShapedType::kDynamic}, f32);
  StringAttr blockName = builder.getStringAttr("BLOCK");
  ArrayAttr blockShape = builder.getArrayAttr({blockName});

  // func.func @softmax_fused(%out, %in, %in_row_stride, %out_row_stride,
  //                          %n_rows, %n_cols)
  //     attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>}
  FunctionType signature = builder.getFunctionType(
      {f32Pointer, f32Pointer, i32, i32, i32, i32}, /*results=*/{});
  auto kernel = func::FuncOp::create(builder, loc, "softmax_fused", signature);
  kernel->setAttr(mlir::blk::BlkDialect::getKernelAttrName(),
                  mlir::blk::KernelAttr::get(context, /*numWarps=*/4,
                                             mlir::blk::GridKind::rows,
                                             /*numCtas=*/1,
                                             /*numStages=*/1,
                                             /*minCtasPerSm=*/0,
                                             /*rowBlock=*/"BLOCK",
                                             /*rowsPerProgram=*/"",
                                             /*rowSplits=*/"",
                                             /*innerBlock=*/""));
  // The kernel ABI, declared: what each argument is ({blk.arg = ...}), from
  // which a launcher builds the arguments.
  using mlir::blk::ArgRole;
  const std::pair<ArgRole, const char *> roles[] = {
      {ArgRole::output, "y"},     {ArgRole::input, "x"},
      {ArgRole::row_stride, "x"}, {ArgRole::row_stride, "y"},
      {ArgRole::rows, ""},        {ArgRole::cols, ""}};
  for (auto [argument, role] : llvm::enumerate(roles))
    kernel.setArgAttr(argument, mlir::blk::BlkDialect::getArgAttrName(),
                      mlir::blk::ArgAttr::get(context, role.first, role.second,
                                        mlir::blk::ArgExtent::matrix));
  // {blk.divisibility = 16 : i64} on both pointers and both row strides:
  // with them the compiler can prove every row starts 16-byte aligned and
  // use 16-byte vector loads and stores (ld.global.v4).
  IntegerAttr sixteen = builder.getI64IntegerAttr(16);
  for (unsigned argument : {0u, 1u, 2u, 3u})
    kernel.setArgAttr(argument, mlir::blk::BlkDialect::getDivisibilityAttrName(),
                      sixteen);

  Block *body = kernel.addEntryBlock();
  builder.setInsertionPointToStart(body);
  Value out = body->getArgument(0);
  Value in = body->getArgument(1);
  Value inRowStride = body->getArgument(2);
  Value outRowStride = body->getArgument(3);
  Value nCols = body->getArgument(5); // %n_rows (4) sizes the grid only

  // %row = blk.program_id x
  Value row = mlir::blk::ProgramIdOp::create(builder, loc, i32, mlir::blk::ProgramAxis::x);
  // %in_start = arith.muli %row, %in_row_stride : i32
  Value inStart = arith::MulIOp::create(builder, loc, row, inRowStride);
  // %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  Value inRow = mlir::blk::AddPtrOp::create(builder, loc, f32Pointer, in, inStart);

  // %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  Value cols = mlir::blk::ArangeOp::create(builder, loc, offsetBlock, /*start=*/0,
                                     /*end=*/blockName);
  // %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  Value nColsBlock =
      mlir::blk::SplatOp::create(builder, loc, offsetBlock, nCols, blockShape);
  // %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  Value inBounds = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, cols, nColsBlock);
  // %ninf = arith.constant 0xFF800000 : f32
  Value negativeInfinity = arith::ConstantFloatOp::create(
      builder, loc, f32,
      llvm::APFloat::getInf(f32.getFloatSemantics(), /*Negative=*/true));
  // %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
  //     : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  Value x = mlir::blk::LoadOp::create(builder, loc, valueBlock, inRow, cols,
                                /*mask=*/inBounds, /*other=*/negativeInfinity);

  // %max = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  Value max = mlir::blk::ReduceOp::create(builder, loc, f32, mlir::blk::ReduceKind::max, x,
                                    /*axis=*/0);
  // %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  Value maxBlock =
      mlir::blk::SplatOp::create(builder, loc, valueBlock, max, blockShape);
  // %shifted = arith.subf %x, %max_block : tensor<?xf32>
  Value shifted = arith::SubFOp::create(builder, loc, x, maxBlock);
  // %num = math.exp %shifted : tensor<?xf32>
  Value numerator = math::ExpOp::create(builder, loc, shifted);
  // %den = blk.reduce sum %num axis 0 : tensor<?xf32> -> f32
  Value denominator = mlir::blk::ReduceOp::create(
      builder, loc, f32, mlir::blk::ReduceKind::sum, numerator, /*axis=*/0);
  // %den_block = blk.splat %den [BLOCK] : f32 -> tensor<?xf32>
  Value denominatorBlock =
      mlir::blk::SplatOp::create(builder, loc, valueBlock, denominator, blockShape);
  // %y = arith.divf %num, %den_block : tensor<?xf32>
  Value y = arith::DivFOp::create(builder, loc, numerator, denominatorBlock);

  // %out_start = arith.muli %row, %out_row_stride : i32
  Value outStart = arith::MulIOp::create(builder, loc, row, outRowStride);
  // %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  Value outRow = mlir::blk::AddPtrOp::create(builder, loc, f32Pointer, out, outStart);
  // blk.store %out_row[%cols], %y mask %in_bounds
  //     : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  mlir::blk::StoreOp::create(builder, loc, outRow, cols, y, /*mask=*/inBounds);
  // return
  func::ReturnOp::create(builder, loc);
}

/// Writes what a launcher needs to know about each kernel as PTX comments,
/// then the PTX. The kernels of one module share one PTX text, so it is
/// written once.
static void printKernels(llvm::raw_ostream &os,
                         const std::vector<mlir::blk::CompiledKernel> &kernels,
                         unsigned blockSize,
                         const mlir::blk::TargetInfo &target) {
  for (const mlir::blk::CompiledKernel &kernel : kernels) {
    os << "// kernel " << kernel.name << ", BLOCK=" << blockSize << ", "
       << target.getChip() << " " << target.getFeatures() << "\n"
       << "//   threads per program: " << kernel.threads << "\n"
       << "//   shared memory: " << kernel.staticSharedBytes
       << " bytes static, " << kernel.dynamicSharedBytes
       << " bytes dynamic (passed at launch)\n"
       << "//   grid: " << mlir::blk::stringifyGridKind(kernel.grid) << "\n"
       << "//   arguments: ";
    llvm::interleaveComma(kernel.args, os);
    os << "\n";
  }
  // A blank line ends the header; the PTX starts after it.
  os << "\n" << kernels.front().ptx;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // The libraries linked in register options of their own; --help shows
  // only this program's.
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "blk-build-fused: builds the fused softmax kernel with MLIR's C++ API "
      "and prints its PTX for a block size (a power of two, default 1024)\n");

  // Checked here so that the message is about the argument: the compiler
  // rejects such a size too, but as an error at the kernel's blk.arange.
  unsigned blockSize = 0;
  if (llvm::StringRef(blockSizeArgument).getAsInteger(10, blockSize) ||
      !llvm::isPowerOf2_32(blockSize)) {
    llvm::errs() << "blk-build-fused: the block size must be a power of two "
                    "below 2^32, not '"
                 << blockSizeArgument << "'\n";
    return 1;
  }
  // The registry names every dialect the context may load: those the kernel
  // is written in, and those the pipelines lower through, with their
  // translations to LLVM IR.
  DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  MLIRContext context(registry);
  // Registered dialects are loaded on demand by the parser and the passes;
  // an OpBuilder needs the dialects of the ops it creates loaded up front.
  context.loadDialect<mlir::blk::BlkDialect, arith::ArithDialect, func::FuncDialect,
                      math::MathDialect>();
  // Without a handler of our own, the context prints errors to stderr, which
  // is what a command-line tool wants.

  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  buildSoftmaxFused(*module);
  // The builders check little; the verifier checks what the parser would
  // (types, attributes, the blk ops' rules) before anything runs on the IR.
  if (failed(verify(*module))) {
    llvm::errs() << "blk-build-fused: the built IR does not verify\n";
    return 1;
  }
  if (printIR) {
    module->print(llvm::errs());
    llvm::errs() << "\n";
  }

  // The passes, without the compile driver (which fits a program to a
  // problem first): blk-specialize binds BLOCK, making every shape static,
  // then the blk-to-ptx pipeline lowers to PTX. They run on a copy, so
  // `*module` stays generic and could be compiled for another block size.
  OwningOpRef<ModuleOp> compiled = module->clone();
  PassManager pm(&context);
  pm.addPass(mlir::blk::createBlkSpecializePass({{"BLOCK", blockSize}}));
  // The chip, with the PTX features the compiler chooses for it by default
  // (the oldest PTX version that knows it, at least 8.0).
  ::blk::CompileOptions options;
  options.chip = chip;
  mlir::blk::buildBlkToPTXPipeline(pm, options);
  FailureOr<std::vector<mlir::blk::CompiledKernel>> kernels =
      failed(pm.run(*compiled))
          ? FailureOr<std::vector<mlir::blk::CompiledKernel>>(failure())
          : mlir::blk::getCompiledKernels(*compiled);
  if (failed(kernels)) {
    llvm::errs() << "blk-build-fused: compiling to PTX failed\n";
    return 1;
  }
  printKernels(llvm::outs(), *kernels, blockSize,
               mlir::blk::getTargetInfo(*compiled));
  // Standard output that could not be written is an error too.
  return ::blk::finishStandardOutput("blk-build-fused", 0);
}
