//===- CPU.cpp - the blk-to-cpu pipeline and JIT-compiled kernels ---------===//
#include "blk/Target/CPU.h"
#include "blk/Runtime/Numerics.h"
#include "blk/Target/ToLLVM.h"

#include "blk/Conversion/CPUPasses.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::blk;

/// The optimization level of the JIT, for the IR passes and for code
/// generation alike.
static constexpr unsigned kJitOptLevel = 2;

/// The largest block a program keeps on its stack, and the most all its
/// stack blocks may take together (they are all live at once: hoisted out
/// of loops, with no lifetime markers). The caller's thread runs the first
/// range of programs, and a thread's stack may be as small as glibc's 2 MiB
/// default for an unlimited `ulimit -s`.
static constexpr int64_t kMaxStackBlockBytes = 64 * 1024;
static constexpr int64_t kMaxStackBytesPerProgram = 512 * 1024;

/// Whether a buffer goes on the stack: a static block allocated once per
/// program (at the function's top level, not in a loop or branch, where
/// each pass would grow the stack), of at most kMaxStackBlockBytes, while
/// the function's stack blocks, counted in order, stay within
/// kMaxStackBytesPerProgram.
static bool isStackBlock(Value alloc) {
  auto type = dyn_cast<MemRefType>(alloc.getType());
  Operation *op = alloc.getDefiningOp();
  if (!type || !op || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat() ||
      !isa<func::FuncOp>(op->getParentOp()))
    return false;
  auto blockBytes = [](MemRefType memref) {
    return memref.getNumElements() *
           std::max<int64_t>(8, memref.getElementTypeBitWidth()) / 8;
  };
  int64_t bytes = blockBytes(type);
  if (bytes > kMaxStackBlockBytes)
    return false;
  // The stack blocks before this one in the function, as the pass promotes
  // them (in order, each once).
  int64_t before = 0;
  for (Operation &earlier : *op->getBlock()) {
    if (&earlier == op)
      break;
    if (auto alloca = dyn_cast<memref::AllocaOp>(earlier))
      if (alloca.getType().hasStaticShape() &&
          alloca.getType().getElementType().isIntOrFloat())
        before += blockBytes(alloca.getType());
  }
  return before + bytes <= kMaxStackBytesPerProgram;
}

void mlir::blk::buildBlkToCPUPipeline(OpPassManager &pm,
                                      const ::blk::CompileOptions &options) {
  // Before the pipelines part: the CPU's products are the GPU's.
  pm.addPass(createBlkDivideBySplat());
  ConvertBlkToCPUOptions conversion;
  conversion.checkBounds = options.checkBounds;
  pm.addPass(createConvertBlkToCPU(conversion));
  pm.addPass(createBlkFoldElementExtracts());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Fusion merges generics only: fills and reductions join as generics.
  pm.addPass(createLinalgGeneralizeNamedOpsPass());
  pm.addPass(createBlkCloneIntegerBlocks());
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createBlkApproximateMath());
  pm.addPass(createBlkExpandBFloat16());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop-carried block (softmax_online's running max and sum) may get a
  // new buffer per iteration; deallocation below frees the old one.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // A program's blocks live on its stack where they can: out of loops, up
  // to kMaxStackBlockBytes each. What stays on the heap (a block carried by
  // a loop, a larger one) is freed by the deallocation pipeline; without
  // it a grid of many programs would leak each of them.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass(isStackBlock));
  bufferization::buildBufferDeallocationPipeline(pm);

  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Blocks left on the heap come from the runtime's per-thread cache
  // (blkAllocateBlock below) rather than from malloc.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createSCFToControlFlowPass());
  // math.exp becomes llvm.intr.exp, which the backend calls libm's expf
  // for; math ops LLVM has no intrinsic for become libm calls directly.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

namespace {
/// blk-to-cpu's options: the CPU knobs of the one record
/// (CompileOptions.def).
struct BlkToCPUPipelineOptions
    : public PassPipelineOptions<BlkToCPUPipelineOptions> {
#define BLK_CPU_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)               \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESCRIPTION),                 \
                     llvm::cl::init(DEFAULT)};
#include "blk/Target/CompileOptions.def"

  ::blk::CompileOptions getCompileOptions() const {
    ::blk::CompileOptions options;
    options.target = ::blk::TargetKind::CPU;
#define BLK_CPU_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)               \
  options.FIELD = FIELD;
#include "blk/Target/CompileOptions.def"
    return options;
  }
};
} // namespace

void mlir::blk::registerBlkToCPUPipeline() {
  PassPipelineRegistration<BlkToCPUPipelineOptions>(
      "blk-to-cpu",
      "Lower specialized block programs to host functions in the LLVM "
      "dialect (one call per program; blocks become loops)",
      [](OpPassManager &pm, const BlkToCPUPipelineOptions &options) {
        buildBlkToCPUPipeline(pm, options.getCompileOptions());
      });
}

void mlir::blk::registerBlkToCPUDependencies(DialectRegistry &registry) {
  registerCommonToLLVMDependencies(registry);
  registry.insert<bufferization::BufferizationDialect, linalg::LinalgDialect,
                  memref::MemRefDialect, tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
}

//===----------------------------------------------------------------------===//
// Bounds checks
//===----------------------------------------------------------------------===//

/// The state of the run in progress on this thread: the JIT-compiled code
/// reaches it through the plain function below.
static thread_local CPUKernels::BoundsState *activeBounds = nullptr;

/// Whether [start, start + bytes) lies in `buffer`.
static bool holds(const CPUKernels::Buffer &buffer, uintptr_t start,
                  int64_t bytes) {
  uintptr_t bufferStart = reinterpret_cast<uintptr_t>(buffer.start);
  return start >= bufferStart && bytes >= 0 &&
         start - bufferStart + uint64_t(bytes) <= buffer.bytes;
}

/// What bounds-checked code calls before each access (kAccessCheckFunction):
/// whether [address, address + bytes) lies in the buffer of the kernel
/// argument `root` it was computed from (a read of x must stay in x), or,
/// where root is null or no buffer's start, in any buffer; the first access
/// that does not is recorded.
extern "C" bool blkAccessInBounds(void *address, int64_t bytes,
                                  int32_t access, void *root) {
  CPUKernels::BoundsState *state = activeBounds;
  if (!state)
    return false;
  uintptr_t start = reinterpret_cast<uintptr_t>(address);
  const CPUKernels::Buffer *own = nullptr;
  for (const CPUKernels::Buffer &buffer : state->buffers)
    if (root && buffer.start == root)
      own = &buffer;
  if (own ? holds(*own, start, bytes)
          : llvm::any_of(state->buffers, [&](const CPUKernels::Buffer &b) {
              return holds(b, start, bytes);
            }))
    return true;
  state->violated = true;
  state->ownBuffer = own;
  state->access = access;
  state->violatingProgram = state->program;
  state->address = start;
  state->bytes = bytes;
  // Back to CPUKernels::run: the frames in between are JIT-compiled code,
  // which holds nothing that needs unwinding (its blocks leak, once).
  std::longjmp(*state->stop, 1);
}

//===----------------------------------------------------------------------===//
// Program memory
//===----------------------------------------------------------------------===//

namespace {
/// The blocks a thread's programs freed, kept for its next programs, which
/// ask for the same sizes: after its first program a thread allocates
/// nothing. With malloc and free, blocks of 128 KiB and more are mapped
/// and unmapped for every program (glibc), and unmapping pages stops every
/// thread of the process: softmax_fused 4096 x 32768 f32 (blocks of 128
/// KiB) ran at 1.9 GB/s on two threads against 5.7 on one.
struct BlockCache {
  /// Each block starts with its size; the program's part follows (16-byte
  /// aligned, as from malloc; the lowering aligns further itself).
  static constexpr size_t kHeaderBytes = 16;
  /// Enough for every block of the largest programs (LayerNorm: 9).
  static constexpr size_t kMaxBlocks = 32;
  std::vector<char *> blocks;
  ~BlockCache() {
    for (char *block : blocks)
      std::free(block);
  }
};
thread_local BlockCache blockCache;
} // namespace

/// finalize-memref-to-llvm's allocation function (use-generic-functions).
extern "C" void *blkAllocateBlock(uint64_t bytes) {
  std::vector<char *> &blocks = blockCache.blocks;
  for (size_t i = blocks.size(); i-- > 0;) {
    uint64_t size;
    std::memcpy(&size, blocks[i], sizeof(size));
    if (size == bytes) {
      char *block = blocks[i];
      blocks.erase(blocks.begin() + i);
      return block + BlockCache::kHeaderBytes;
    }
  }
  auto *block =
      bytes > SIZE_MAX - BlockCache::kHeaderBytes
          ? nullptr
          : static_cast<char *>(std::malloc(bytes + BlockCache::kHeaderBytes));
  if (!block) {
    // The program would write through null: it stops here instead, as at
    // an out-of-bounds access.
    CPUKernels::BoundsState *state = activeBounds;
    if (!state || !state->stop)
      return nullptr;
    state->violated = true;
    state->unallocatedBytes = bytes;
    state->violatingProgram = state->program;
    std::longjmp(*state->stop, 1);
  }
  std::memcpy(block, &bytes, sizeof(bytes));
  return block + BlockCache::kHeaderBytes;
}

/// finalize-memref-to-llvm's free function: the block goes to the cache
/// (the oldest one leaves it when it is full).
extern "C" void blkFreeBlock(void *pointer) {
  if (!pointer)
    return;
  std::vector<char *> &blocks = blockCache.blocks;
  if (blocks.size() == BlockCache::kMaxBlocks) {
    std::free(blocks.front());
    blocks.erase(blocks.begin());
  }
  blocks.push_back(static_cast<char *>(pointer) - BlockCache::kHeaderBytes);
}

/// LLVM keeps bf16 values in f32 registers and rounds them back with a
/// call to __truncsfbf2 when they are stored (generateHostObject turns off
/// the instructions that would do it instead); neither libgcc 12 nor the
/// JIT provides it, so the JIT gets this one: the runtime's rounding (round to nearest even, NaN kept
/// quiet), the one the reference and the host tensors use. The bf16 is
/// returned as LLVM expects it, in the low 16 bits of the float return
/// register.
extern "C" float blkTruncSFBF2(float value) {
  uint32_t narrow = ::blk::runtime::floatToBf16Bits(value);
  float result;
  std::memcpy(&result, &narrow, sizeof(result));
  return result;
}

/// What JIT-compiled code calls that is not a library of this process.
static llvm::orc::SymbolMap
getRuntimeSymbols(llvm::orc::MangleAndInterner &interner) {
  llvm::orc::SymbolMap symbols;
  symbols[interner(kAccessCheckFunction)] = {
      llvm::orc::ExecutorAddr::fromPtr(&blkAccessInBounds),
      llvm::JITSymbolFlags::Exported};
  symbols[interner("_mlir_memref_to_llvm_alloc")] = {
      llvm::orc::ExecutorAddr::fromPtr(&blkAllocateBlock),
      llvm::JITSymbolFlags::Exported};
  symbols[interner("_mlir_memref_to_llvm_free")] = {
      llvm::orc::ExecutorAddr::fromPtr(&blkFreeBlock),
      llvm::JITSymbolFlags::Exported};
  symbols[interner("__truncsfbf2")] = {
      llvm::orc::ExecutorAddr::fromPtr(&blkTruncSFBF2),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}

LogicalResult CPUKernels::reportViolation(const Kernel &kernel) {
  const BoundsState &state = bounds;
  if (state.unallocatedBytes)
    return emitError(kernel.loc)
           << "program " << state.violatingProgram << " of @" << kernel.name
           << " could not allocate a block of " << state.unallocatedBytes
           << " bytes: the host is out of memory";
  std::string what =
      state.access >= 0 && size_t(state.access) < state.accesses.size()
          ? state.accesses[state.access]
          : "access #" + std::to_string(state.access);
  // A loop's report (convert-blk-to-cpu) is an access of 0 bytes at null.
  if (state.address == 0 && state.bytes == 0)
    return emitError(kernel.loc) << what << ", in program "
                                 << state.violatingProgram << " of @"
                                 << kernel.name;
  InFlightDiagnostic error = emitError(kernel.loc)
                             << "out-of-bounds " << what << " in program "
                             << state.violatingProgram << " of @"
                             << kernel.name << ": " << state.bytes
                             << " bytes at 0x"
                             << llvm::utohexstr(state.address);
  // The access's own buffer, else the nearest, to tell a row too far from
  // a wild pointer.
  const Buffer *nearest = nullptr;
  int64_t distance = 0;
  for (const Buffer &buffer : state.buffers) {
    if (state.ownBuffer && &buffer != state.ownBuffer)
      continue;
    auto start = reinterpret_cast<uintptr_t>(buffer.start);
    int64_t from = state.address >= start
                       ? int64_t(state.address - start - buffer.bytes)
                       : -int64_t(start - state.address);
    if (!nearest || std::llabs(from) < std::llabs(distance)) {
      nearest = &buffer;
      distance = from;
    }
  }
  if (nearest)
    error << " (" << std::llabs(distance) << " bytes "
          << (distance >= 0 ? "past the end of" : "before") << " \""
          << nearest->name << "\")";
  return error;
}

//===----------------------------------------------------------------------===//
// CPUKernels
//===----------------------------------------------------------------------===//

CPUKernels::CPUKernels(Location programLoc,
                       std::unique_ptr<llvm::orc::LLJIT> jit,
                       std::vector<Kernel> kernels, BoundsState bounds)
    : programLoc(programLoc), jit(std::move(jit)), kernels(std::move(kernels)),
      bounds(std::move(bounds)) {}

void CPUKernels::setBuffers(std::vector<Buffer> buffers) {
  bounds.buffers = std::move(buffers);
}

CPUKernels::~CPUKernels() = default;

/// The kernels of `program`; lowering renames nothing but drops blk.kernel,
/// so they are listed from the program before it.
static FailureOr<std::vector<CPUKernels::Kernel>>
listKernels(ModuleOp program) {
  std::vector<CPUKernels::Kernel> kernels;
  for (auto func : program.getOps<func::FuncOp>())
    if (isKernel(func))
      kernels.push_back({func.getSymName().str(), func.getNumArguments(),
                         func.getLoc(), nullptr});
  if (kernels.empty())
    return program.emitError() << "no kernel to compile for the CPU: no "
                                  "func.func carries blk.kernel";
  return kernels;
}

static LogicalResult initializeNativeTarget(Location loc) {
  if (llvm::InitializeNativeTarget() ||
      llvm::InitializeNativeTargetAsmPrinter())
    return emitError(loc)
           << "cannot JIT-compile for the CPU: LLVM has no native target";
  return success();
}

/// Adds, for each kernel, "_mlir_<name>(void **arguments)", which loads
/// each argument through its pointer and calls the kernel: one signature
/// for every kernel, as MLIR's ExecutionEngine packs functions.
static void addPackedWrappers(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  std::vector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.hasExternalLinkage())
      functions.push_back(&function);
  for (llvm::Function *function : functions) {
    auto *wrapper = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer},
                                /*isVarArg=*/false),
        llvm::GlobalValue::ExternalLinkage, "_mlir_" + function->getName(),
        module);
    llvm::IRBuilder<> builder(
        llvm::BasicBlock::Create(context, "entry", wrapper));
    llvm::SmallVector<llvm::Value *> arguments;
    for (llvm::Argument &argument : function->args()) {
      llvm::Value *slot = builder.CreateConstGEP1_64(
          pointer, wrapper->getArg(0), argument.getArgNo());
      arguments.push_back(builder.CreateLoad(
          argument.getType(), builder.CreateLoad(pointer, slot)));
    }
    builder.CreateCall(function, arguments);
    builder.CreateRetVoid();
  }
}

/// Optimizes `module` for the host at kJitOptLevel and returns its
/// relocatable object, in memory.
static llvm::Expected<std::string> generateHostObject(llvm::Module &module) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  // x86 selects VCVTNEPS2BF16 (AVX512-BF16, AVX-NE-CONVERT) for an f32 to
  // bf16 fptrunc, and that instruction flushes subnormals whatever MXCSR
  // says (llvm-project PR 221052): a bf16 value crossing blocks (a masked
  // or bounds-checked load's phi) took that path, and y = x + x of a bf16
  // subnormal x came out -0 on a Zen 5. Without them the rounding is
  // blkTruncSFBF2's, exact; the kernels' own roundings are integer code
  // (blk-expand-bf16) either way.
  if (builder->getTargetTriple().isX86())
    builder->addFeatures({"-avx512bf16", "-avxneconvert"});
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      builder->createTargetMachine();
  if (!machine)
    return machine.takeError();
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  addPackedWrappers(module);
  if (llvm::Error error = makeOptimizingTransformer(
          kJitOptLevel, /*sizeLevel=*/0, machine->get())(&module))
    return std::move(error);
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> object =
      llvm::orc::SimpleCompiler(**machine)(module);
  if (!object)
    return object.takeError();
  return (*object)->getBuffer().str();
}

FailureOr<CPUKernels::ObjectCode>
CPUKernels::compileToObject(ModuleOp specializedProgram,
                            const ::blk::CompileOptions &options) {
  MLIRContext *context = specializedProgram.getContext();
  DialectRegistry registry;
  registerBlkToCPUDependencies(registry);
  context->appendDialectRegistry(registry);
  FailureOr<std::vector<Kernel>> kernels = listKernels(specializedProgram);
  if (failed(kernels) ||
      failed(initializeNativeTarget(specializedProgram.getLoc())))
    return failure();

  OwningOpRef<ModuleOp> lowered = specializedProgram.clone();
  PassManager pm = PassManager::on<ModuleOp>(context);
  buildBlkToCPUPipeline(pm, options);
  if (failed(pm.run(*lowered)))
    return failure();
  ObjectCode code;
  if (auto accesses = (*lowered)->getAttrOfType<ArrayAttr>(
          BlkDialect::getAccessesAttrName()))
    for (auto access : accesses.getAsValueRange<StringAttr>())
      code.accessNames.push_back(access.str());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(*lowered, llvmContext, "blk-program");
  if (!module)
    return specializedProgram.emitError()
           << "the lowered program does not translate to LLVM IR";
  llvm::Expected<std::string> object = generateHostObject(*module);
  if (!object)
    return specializedProgram.emitError()
           << "code generation for the CPU failed: "
           << llvm::toString(object.takeError());
  code.object = std::move(*object);
  return code;
}

FailureOr<std::unique_ptr<CPUKernels>>
CPUKernels::load(ModuleOp specializedProgram, const ObjectCode &code) {
  FailureOr<std::vector<Kernel>> kernels = listKernels(specializedProgram);
  if (failed(kernels))
    return failure();
  return link(specializedProgram.getLoc(), std::move(*kernels), code);
}

FailureOr<std::unique_ptr<CPUKernels>>
CPUKernels::load(MLIRContext *context, ArrayRef<KernelEntry> entries,
                 const ObjectCode &code) {
  Location loc = UnknownLoc::get(context);
  std::vector<Kernel> kernels;
  for (const KernelEntry &entry : entries)
    kernels.push_back({entry.name, entry.numArguments,
                       NameLoc::get(StringAttr::get(context, entry.name)),
                       nullptr});
  if (kernels.empty())
    return emitError(loc) << "no kernel to load";
  return link(loc, std::move(kernels), code);
}

FailureOr<std::unique_ptr<CPUKernels>>
CPUKernels::link(Location programLoc, std::vector<Kernel> kernels,
                 const ObjectCode &code) {
  if (failed(initializeNativeTarget(programLoc)))
    return failure();
  auto reportError = [&](llvm::Error error) {
    return emitError(programLoc) << "cannot load the program's host code: "
                                 << llvm::toString(std::move(error));
  };
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder().create();
  if (!jit)
    return reportError(jit.takeError());
  llvm::orc::JITDylib &library = (*jit)->getMainJITDylib();
  // libm (expf...) comes from this process, the bounds check and bf16
  // rounding from getRuntimeSymbols.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return reportError(process.takeError());
  library.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  if (llvm::Error error = library.define(
          llvm::orc::absoluteSymbols(getRuntimeSymbols(interner))))
    return reportError(std::move(error));
  if (llvm::Error error = (*jit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(code.object, "blk-program")))
    return reportError(std::move(error));
  for (Kernel &kernel : kernels) {
    llvm::Expected<llvm::orc::ExecutorAddr> entry =
        (*jit)->lookup("_mlir_" + kernel.name);
    if (!entry)
      return reportError(entry.takeError());
    kernel.entry = entry->toPtr<void (*)(void **)>();
  }
  BoundsState bounds;
  bounds.accesses = code.accessNames;
  return std::unique_ptr<CPUKernels>(new CPUKernels(
      programLoc, std::move(*jit), std::move(kernels), std::move(bounds)));
}

/// Runs programs [begin, end) of `count` on this thread; bounds-checked
/// code reports to `state`, and the first violation stops the range.
static void runPrograms(void (*entry)(void **), ArrayRef<void *> arguments,
                        int32_t begin, int32_t end, int32_t countX,
                        int32_t countY, CPUKernels::BoundsState &state) {
  int32_t programId = begin;
  SmallVector<void *> packed(arguments);
  packed.push_back(&programId);
  packed.push_back(&countX);
  packed.push_back(&countY);
  state.violated = false;
  state.unallocatedBytes = 0;
  std::jmp_buf stop;
  state.stop = &stop;
  activeBounds = &state;
  if (setjmp(stop) == 0)
    for (; programId < end; ++programId) {
      state.program = programId;
      entry(packed.data());
    }
  activeBounds = nullptr;
  state.stop = nullptr;
}

unsigned CPUKernels::getThreads(unsigned requested, int64_t numPrograms) {
  // 0: the cores this process may run on (affinity and cgroups included).
  unsigned threads =
      requested ? requested
                : std::max(1u, llvm::heavyweight_hardware_concurrency()
                                   .compute_thread_count());
  return static_cast<unsigned>(
      std::min<int64_t>(threads, std::max<int64_t>(numPrograms, 1)));
}

LogicalResult CPUKernels::run(StringRef name,
                              ArrayRef<void *> argumentPointers,
                              int64_t numPrograms, unsigned threads,
                              int64_t gridY) {
  auto kernel = llvm::find_if(
      kernels, [&](const Kernel &candidate) { return candidate.name == name; });
  if (kernel == kernels.end())
    return emitError(programLoc) << "no kernel @" << name << " to run";
  if (argumentPointers.size() != kernel->numArguments)
    return emitError(kernel->loc)
           << "kernel @" << name << " takes " << kernel->numArguments
           << " arguments, but " << argumentPointers.size() << " were given";
  int64_t total = 0;
  if (numPrograms < 0 || gridY < 1 ||
      __builtin_mul_overflow(numPrograms, gridY, &total) ||
      total > std::numeric_limits<int32_t>::max())
    return emitError(kernel->loc)
           << "cannot run " << numPrograms << " x " << gridY
           << " programs of kernel @" << name
           << ": the program ids and counts are i32";

  auto count = static_cast<int32_t>(total);
  auto countX = static_cast<int32_t>(numPrograms);
  auto countY = static_cast<int32_t>(gridY);
  int64_t workers = getThreads(threads, total);
  if (workers == 1) {
    runPrograms(kernel->entry, argumentPointers, 0, count, countX, countY,
                bounds);
    return bounds.violated ? reportViolation(*kernel) : success();
  }
  // Contiguous ranges of program ids, one per thread, the first on this
  // one; each reports to a state of its own, and the lowest range with a
  // violation holds the lowest violating program: the report does not
  // depend on the threads. The workers stay between runs: starting two
  // threads per run cost 4096 x 128 f32 softmax about 5% of its time.
  std::vector<BoundsState> states(workers);
  auto runRange = [&](int64_t w) {
    auto begin = static_cast<int32_t>(count * w / workers);
    auto end = static_cast<int32_t>(count * (w + 1) / workers);
    runPrograms(kernel->entry, argumentPointers, begin, end, countX, countY,
                states[w]);
  };
  if (!workerPool || workerPool->getMaxConcurrency() < workers - 1)
    workerPool = std::make_unique<llvm::StdThreadPool>(
        llvm::hardware_concurrency(workers - 1));
  for (int64_t w = 0; w < workers; ++w)
    states[w].buffers = bounds.buffers;
  for (int64_t w = 1; w < workers; ++w)
    workerPool->async([&runRange, w] { runRange(w); });
  runRange(0);
  workerPool->wait();
  bounds.violated = false;
  bounds.unallocatedBytes = 0;
  for (const BoundsState &state : states)
    if (state.violated) {
      bounds.violated = true;
      bounds.access = state.access;
      bounds.violatingProgram = state.violatingProgram;
      bounds.address = state.address;
      bounds.bytes = state.bytes;
      bounds.unallocatedBytes = state.unallocatedBytes;
      break;
    }
  return bounds.violated ? reportViolation(*kernel) : success();
}

std::vector<std::string> CPUKernels::kernelNames() const {
  std::vector<std::string> names;
  for (const Kernel &kernel : kernels)
    names.push_back(kernel.name);
  return names;
}
