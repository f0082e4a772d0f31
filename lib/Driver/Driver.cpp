//===- Driver.cpp - fit, bind and compile a program for a problem ---------===//
#include "blk/Driver/Driver.h"
#include "blk/Conversion/Passes.h"

#include "blk/Driver/Version.h"
#include "blk/Runtime/KernelCache.h"
#include "blk/Runtime/Launch.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Transforms/Passes.h"
#include "blk/Transforms/SplitRows.h"
#include "blk/Transforms/StreamRows.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>

using namespace mlir;
using namespace mlir::blk;

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

int64_t ProblemDesc::getRowStride(const KernelArgument &tensor) const {
  return getProgramShape().getRowStride(tensor);
}

RowShape ProblemDesc::getShape() const {
  RowShape shape{
      rows, cols,
      static_cast<int64_t>(::blk::runtime::elementSize(elementType)), true,
      inner};
  for (const auto &stride : rowStrides)
    shape.alignedRowStarts &= fillsVectors(stride.second, shape.elementBytes);
  return shape;
}

//===----------------------------------------------------------------------===//
// Kernel signatures
//===----------------------------------------------------------------------===//

// The runtime's enums mirror the IR's (blk/Runtime/Program.h).
static_assert(int(ArgRole::head_stride) ==
                      int(::blk::runtime::ArgRole::head_stride) &&
                  int(ArgExtent::inner_by_cols) ==
                      int(::blk::runtime::ArgExtent::inner_by_cols) &&
                  int(GridKind::persistent) ==
                      int(::blk::runtime::GridKind::persistent),
              "the runtime's enums must list the IR's cases in order");
static ::blk::runtime::ArgRole toRuntime(ArgRole role) {
  return static_cast<::blk::runtime::ArgRole>(role);
}
static ::blk::runtime::ArgExtent toRuntime(ArgExtent extent) {
  return static_cast<::blk::runtime::ArgExtent>(extent);
}

/// The extent of the tensor argument of `kernel` named `name` (the kernel
/// ABI's verifier made sure a row stride names one).
static ArgExtent getTensorExtent(func::FuncOp kernel, StringRef name) {
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
    if (ArgAttr declared = getArgAttr(kernel, i);
        declared && declared.isTensor() && declared.getName() == name)
      return declared.getExtent();
  return ArgExtent::matrix;
}

/// The declared argument `index` of `kernel`, with its launcher type; a
/// row stride carries the extent of its tensor.
static FailureOr<KernelArgument> getArgument(func::FuncOp kernel,
                                             unsigned index) {
  ArgAttr declared = getArgAttr(kernel, index);
  if (!declared)
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " argument #" << index
           << " declares no role: give every kernel argument a blk.arg "
              "(e.g. {blk.arg = #blk.arg<input \"x\">}), from which the "
              "launcher builds it";
  ArgRole role = declared.getRole();
  if (role == ArgRole::tensor_map)
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " argument #" << index
           << " is a tensor map, which the compiler adds where it copies by "
              "TMA; a program declares only its tensors, strides, sizes and "
              "parameters";
  bool isStride = role == ArgRole::row_stride ||
                  role == ArgRole::batch_stride || role == ArgRole::head_stride;
  ArgExtent extent = isStride ? getTensorExtent(kernel, declared.getName())
                              : declared.getExtent();
  KernelArgument argument{toRuntime(role), declared.getName().str(),
                          toRuntime(extent), "", 0};
  if (auto divisibility = kernel.getArgAttrOfType<IntegerAttr>(
          index, BlkDialect::getDivisibilityAttrName()))
    argument.divisibility = divisibility.getInt();
  Type type = kernel.getArgumentTypes()[index];
  if (auto pointer = dyn_cast<PtrType>(type))
    type = pointer.getPointeeType();
  llvm::raw_string_ostream(argument.type) << type;
  argument.bytes = type.getIntOrFloatBitWidth() / 8;
  return argument;
}

FailureOr<std::vector<KernelSignature>>
mlir::blk::getKernelSignatures(ModuleOp program) {
  std::vector<KernelSignature> signatures;
  llvm::StringMap<KernelArgument> tensors;
  for (auto kernel : program.getOps<func::FuncOp>()) {
    if (!isKernel(kernel))
      continue;
    KernelSignature signature{kernel.getSymName().str(), {}};
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      FailureOr<KernelArgument> argument = getArgument(kernel, i);
      if (failed(argument))
        return failure();
      if (::blk::runtime::isTensorRole(argument->role)) {
        auto [seen, inserted] = tensors.try_emplace(argument->name, *argument);
        const KernelArgument &first = seen->second;
        if (!inserted &&
            (first.role != argument->role ||
             first.extent != argument->extent || first.type != argument->type))
          return kernel.emitError()
                 << "kernel @" << kernel.getSymName() << " declares tensor \""
                 << argument->name
                 << "\" otherwise than an earlier kernel (role, shape or "
                    "element type); the same name is the same buffer";
      }
      signature.arguments.push_back(std::move(*argument));
    }
    signatures.push_back(std::move(signature));
  }
  if (signatures.empty())
    return getProgramDiagnosticAnchor(program)->emitError()
           << "the program has no kernel: no func.func carries blk.kernel";
  return signatures;
}

/// Whether a kernel argument takes the problem's inner dimension: the
/// `inner` argument, or a product's operand.
static bool usesInner(const KernelArgument &argument) {
  using ::blk::runtime::ArgExtent;
  return argument.role == ::blk::runtime::ArgRole::inner ||
         (::blk::runtime::isTensorRole(argument.role) &&
          (argument.extent == ArgExtent::rows_by_inner ||
           argument.extent == ArgExtent::inner_by_cols));
}

LogicalResult mlir::blk::verifyProblem(ModuleOp program,
                                       const ProblemDesc &problem) {
  Operation *anchor = getProgramDiagnosticAnchor(program);
  if (problem.rows < 1 || problem.cols < 1)
    return anchor->emitError() << "the problem must have at least one row "
                                  "and one column, but is "
                               << problem.rows << " x " << problem.cols;
  FailureOr<std::vector<KernelSignature>> signatures =
      getKernelSignatures(program);
  if (failed(signatures))
    return failure();
  std::vector<KernelArgument> tensors =
      ::blk::runtime::getTensorArguments(*signatures);
  bool takesInner = llvm::any_of(*signatures, [](const KernelSignature &s) {
    return llvm::any_of(s.arguments, usesInner);
  });
  if (takesInner && problem.inner < 1)
    return anchor->emitError()
           << "the program multiplies along an inner dimension (an `inner` "
              "argument or a rows_by_inner / inner_by_cols tensor), but the "
              "problem gives it as "
           << problem.inner << "; give it at least 1";
  if (!takesInner && problem.inner != 0)
    return anchor->emitError()
           << "the problem gives an inner dimension of " << problem.inner
           << ", but no kernel of the program takes one (an `inner` "
              "argument or a rows_by_inner / inner_by_cols tensor)";
  ::blk::runtime::ProgramShape shape = problem.getProgramShape();
  for (const auto &stride : problem.rowStrides) {
    auto tensor = llvm::find_if(tensors, [&](const KernelArgument &t) {
      return t.name == stride.getKey() &&
             ::blk::runtime::hasRowStride(t.extent);
    });
    if (tensor == tensors.end())
      return anchor->emitError()
             << "the problem gives a row stride for \"" << stride.getKey()
             << "\", which is no matrix tensor of the program";
    int64_t length = shape.getExtent(tensor->extent).cols;
    if (stride.getValue() < length)
      return anchor->emitError()
             << "the row stride of \"" << stride.getKey() << "\" ("
             << stride.getValue() << ") is less than the row length ("
             << length << ")";
  }
  for (const KernelArgument &tensor : tensors) {
    int64_t rows = shape.getExtent(tensor.extent).rows;
    int64_t stride = shape.getRowStride(tensor);
    if (!llvm::checkedMul(rows, stride))
      return anchor->emitError()
             << "tensor \"" << tensor.name << "\" of " << rows
             << " rows with a stride of " << stride
             << " elements overflows a 64-bit element count";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Fitting
//===----------------------------------------------------------------------===//

/// As Triton does for integer arguments: a value divisible by 16 is compiled
/// as such, which lets masks on row ends cover whole vector runs.
constexpr int64_t kSpecializedDivisibility = 16;

/// The largest power of two that divides `value` (> 0).
static int64_t largestPowerOfTwoDividing(int64_t value) {
  return value & -value;
}

/// The problem's value of an integer kernel argument (`declared`, as the
/// launcher sees it: `argument`), if its role has one.
static std::optional<int64_t> getProblemValue(ArgAttr declared,
                                              func::FuncOp kernel,
                                              unsigned index,
                                              const ProblemDesc &problem) {
  switch (declared.getRole()) {
  case ArgRole::rows:
    return problem.rows;
  case ArgRole::cols:
    return problem.cols;
  case ArgRole::inner:
    return problem.inner;
  case ArgRole::row_stride: {
    FailureOr<KernelArgument> argument = getArgument(kernel, index);
    return succeeded(argument) ? std::optional(problem.getRowStride(*argument))
                               : std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

/// Calls `fn(kernel, index, declaration, value)` for every kernel argument
/// whose declared role has a value in the problem (rows, cols, inner, row
/// strides), in program order; stops at the first failure.
static LogicalResult forEachProblemValue(
    ModuleOp program, const ProblemDesc &problem,
    llvm::function_ref<LogicalResult(func::FuncOp, unsigned, ArgAttr, int64_t)>
        fn) {
  for (auto func : program.getOps<func::FuncOp>()) {
    if (!isKernel(func))
      continue;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      ArgAttr declared = getArgAttr(func, i);
      std::optional<int64_t> value =
          declared ? getProblemValue(declared, func, i, problem)
                   : std::nullopt;
      if (value && failed(fn(func, i, declared, *value)))
        return failure();
    }
  }
  return success();
}

/// Promises, for each integer argument with a value in the problem, the
/// largest power of two up to 16 that divides the value (and the program's
/// own promise, if it made one): a row stride of 100 f32 still starts every
/// row on a 16-byte boundary. None on the row count: the code serves any
/// (ShapeClass).
static void specializeDivisibility(ModuleOp program,
                                   const ProblemDesc &problem) {
  StringRef name = BlkDialect::getDivisibilityAttrName();
  (void)forEachProblemValue(
      program, problem,
      [&](func::FuncOp func, unsigned i, ArgAttr declared, int64_t value) {
        if (declared.getRole() == ArgRole::rows) {
          func.removeArgAttr(i, name);
          return success();
        }
        auto promised = func.getArgAttrOfType<IntegerAttr>(i, name);
        int64_t divisibility =
            std::min(promised ? promised.getInt() : kSpecializedDivisibility,
                     largestPowerOfTwoDividing(value));
        if (divisibility > 1)
          func.setArgAttr(
              i, name,
              IntegerAttr::get(IntegerType::get(func.getContext(), 64),
                               divisibility));
        else
          func.removeArgAttr(i, name);
        return success();
      });
}

/// The largest value an integer argument's type holds, by bit width.
static int64_t maxValueOf(unsigned bits) {
  return bits >= 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
}

/// Checks that the problem's sizes fit the integer arguments that carry
/// them.
static LogicalResult checkArgumentWidths(ModuleOp program,
                                         const ProblemDesc &problem) {
  return forEachProblemValue(
      program, problem,
      [&](func::FuncOp func, unsigned i, ArgAttr declared,
          int64_t value) -> LogicalResult {
        unsigned bits = func.getArgumentTypes()[i].getIntOrFloatBitWidth();
        if (value <= maxValueOf(bits))
          return success();
        return func.emitError()
               << "kernel @" << func.getSymName() << " argument #" << i
               << " (" << declared << ") is i" << bits
               << ", which cannot hold the problem's " << value;
      });
}

/// The longest row in memory: the largest row stride, the row length
/// (scratch matrices have rows of exactly `cols`), or a product's inner
/// dimension (A's rows).
static int64_t getWidestRow(const ProblemDesc &problem) {
  int64_t widest = std::max(problem.cols, problem.inner);
  for (const auto &stride : problem.rowStrides)
    widest = std::max(widest, stride.getValue());
  return widest;
}

/// Whether a row offset (row x stride) of some tensor of the problem, or
/// of a scratch matrix (rows x cols), may pass 2^31 - 1: then the program's
/// row offsets must be computed in 64 bits. A product's B has `inner`
/// rows.
static bool needsWideOffsets(const ProblemDesc &problem) {
  return llvm::checkedMul(std::max(problem.rows, problem.inner),
                          getWidestRow(problem))
             .value_or(INT64_MAX) > maxValueOf(32);
}

::blk::runtime::ShapeClass ProblemDesc::getShapeClass() const {
  ::blk::runtime::ProgramShape shape = getProgramShape();
  // The most rows whose offsets fit the width fitProgram chose for them.
  int64_t offsetLimit = needsWideOffsets(*this) ? INT64_MAX : maxValueOf(32);
  return {offsetLimit / getWidestRow(*this), shape.cols, shape.elementType,
          shape.rowStrides, shape.inner};
}

/// What the choice of a program or of a way to hold rows asks of the
/// target: a GPU of sm_90 or newer (where the choices were measured), a
/// resident grid unless the options ask for clusters, clusters unless they
/// ask for one CTA per program.
static ChoiceTarget getChoiceTarget(const CompileOptions &options) {
  ChoiceTarget target;
  if (options.target != TargetKind::GPU)
    return target;
  // A chip that does not parse gets the plainest choice; compiling
  // reports it.
  llvm::Expected<TargetInfo> info =
      TargetInfo::get(options.chip, options.features);
  bool measured = info && info->hasClusters();
  // A program that meets others is one CTA: not when clusters are asked.
  target.residentGrid = measured && options.numCtas <= 1;
  target.clusters = measured && options.numCtas != 1;
  target.multiprocessors = options.multiprocessors;
  if (!info)
    llvm::consumeError(info.takeError());
  return target;
}

/// The program's traits, or failure without a diagnostic: a program whose
/// traits are wrong is refused by chooseBinding, which says why.
static FailureOr<ProgramTraits> getQuietTraits(ModuleOp program) {
  ScopedDiagnosticHandler quiet(program.getContext(),
                                [](Diagnostic &) { return success(); });
  return ProgramTraits::get(program);
}

/// Whether every row of every tensor starts on a whole 16-byte vector.
static bool rowStartsFillVectors(const ProblemDesc &problem,
                                 int64_t elementBytes) {
  return llvm::all_of(problem.rowStrides, [&](const auto &stride) {
    return fillsVectors(stride.getValue(), elementBytes);
  });
}

/// Whether every kernel of `program` declares a row block the options do
/// not bind, and `accepts` it; false for a program without kernels.
static bool everyKernelAccepts(ModuleOp program, const CompileOptions &options,
                               llvm::function_ref<bool(func::FuncOp)> accepts) {
  bool kernels = false;
  for (auto kernel : program.getOps<func::FuncOp>()) {
    if (!isKernel(kernel))
      continue;
    if (options.constants.count(getKernelAttr(kernel).getRowBlock().str()) ||
        !accepts(kernel))
      return false;
    kernels = true;
  }
  return kernels;
}

/// Whether fitProgram walks the program's rows in tiles (blk-stream-rows):
/// on a GPU, for the rows and programs streamsHeldRows gives (`stream-rows`
/// auto), or for any (always); never where the options say so or bind a
/// kernel's row block, and only where every kernel can be streamed.
static bool streamsRows(ModuleOp program, const ProblemDesc &problem,
                        const CompileOptions &options) {
  if (options.target != TargetKind::GPU || options.streamRows == "never")
    return false;
  if (options.streamRows == "auto") {
    FailureOr<ProgramTraits> traits = getQuietTraits(program);
    int64_t elementBytes = ::blk::runtime::elementSize(problem.elementType);
    // Rows whose starts are whole 16-byte vectors, as their lengths are (a
    // loop's tiles are not peeled).
    if (failed(traits) || !rowStartsFillVectors(problem, elementBytes) ||
        !streamsHeldRows(problem.rows, problem.cols, elementBytes,
                         traits->heldRows + traits->streamedRows,
                         traits->writesRows, getChoiceTarget(options)))
      return false;
  }
  return everyKernelAccepts(program, options, [](func::FuncOp kernel) {
    return whyRowsCannotStream(kernel).empty();
  });
}

/// Whether fitProgram splits the program's rows over programs that meet
/// (blk-split-rows): on a GPU, for the rows and programs splitsHeldRows
/// gives (`split-rows` auto), or for any rows canSplitHeldRows allows
/// (always); never where the options say so or bind a kernel's row block,
/// and only where every kernel can be split.
static bool splitsRows(ModuleOp program, const ProblemDesc &problem,
                       const CompileOptions &options) {
  if (options.target != TargetKind::GPU || options.splitRows == "never")
    return false;
  FailureOr<ProgramTraits> traits = getQuietTraits(program);
  int64_t elementBytes = ::blk::runtime::elementSize(problem.elementType);
  ChoiceTarget target = getChoiceTarget(options);
  bool splits =
      options.splitRows == "always"
          ? canSplitHeldRows(problem.cols, elementBytes, target)
          : succeeded(traits) &&
                splitsHeldRows(problem.cols, elementBytes,
                               traits->heldRows + traits->streamedRows,
                               traits->writesRows, target);
  if (!splits)
    return false;
  // Rows whose starts are whole 16-byte vectors, as their lengths are (the
  // split's parts are not peeled).
  if (!rowStartsFillVectors(problem, elementBytes))
    return false;
  // A constant the caller binds is one the program names (the binding
  // says so of any other), not one the split would add.
  if (findUnnamedConstant(program, options.constants))
    return false;
  // A row's partials fill a SPLITS-long slot a reduction in its row of
  // scratch.
  int64_t splitsBound =
      getRuleRowSplits(std::max<int64_t>(1, problem.cols), options.maxTile);
  return everyKernelAccepts(program, options, [&](func::FuncOp kernel) {
    return whyRowsCannotSplit(kernel).empty() &&
           countRowSlots(kernel) * splitsBound <= problem.cols;
  });
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::blk::fitProgram(ModuleOp program, const ProblemDesc &problem,
                      const CompileOptions &options) {
  if (failed(verifyProblem(program, problem)) ||
      failed(checkArgumentWidths(program, problem)))
    return failure();
  OwningOpRef<ModuleOp> fitted = program.clone();
  specializeDivisibility(*fitted, problem);
  PassManager pm(program.getContext());
  if (splitsRows(program, problem, options))
    pm.addPass(createBlkSplitRows());
  else if (streamsRows(program, problem, options))
    pm.addPass(createBlkStreamRows());
  // Only where the problem needs it: small problems keep 32-bit row
  // offsets, and the code they had.
  if (needsWideOffsets(problem))
    pm.addPass(createBlkWidenOffsets());
  if (problem.elementType != ::blk::runtime::ElementType::F32)
    pm.addPass(createBlkStorageType(BlkStorageTypeOptions{
        ::blk::runtime::elementTypeName(problem.elementType)}));
  if (failed(pm.run(*fitted)))
    return failure();
  return fitted;
}

//===----------------------------------------------------------------------===//
// Binding
//===----------------------------------------------------------------------===//

/// The GPU the options name (an empty chip is the default one), or the
/// reason it is none, at the program.
static FailureOr<TargetInfo> getTarget(ModuleOp program,
                                       const CompileOptions &options) {
  llvm::Expected<TargetInfo> target =
      TargetInfo::get(options.chip, options.features);
  if (!target)
    return getProgramDiagnosticAnchor(program)->emitError()
           << llvm::toString(target.takeError());
  return *target;
}

/// The binding options for the target: clusters only where the chip has
/// them, none on the CPU (a program runs as one loop nest there).
static FailureOr<BindingOptions> getBindingOptions(ModuleOp program,
                                                   const CompileOptions &options) {
  std::string invalid = options.verify();
  if (!invalid.empty())
    return getProgramDiagnosticAnchor(program)->emitError()
           << "compile options: " << invalid;
  BindingOptions binding;
  binding.choices = options;
  if (options.target == TargetKind::CPU) {
    binding.maxCtas = 1;
    return binding;
  }
  FailureOr<TargetInfo> target = getTarget(program, options);
  if (failed(target))
    return failure();
  binding.maxCtas = target->getMaxClusterCtas();
  binding.maxSharedBytesPerCta = target->getMaxSharedBytesPerCta();
  binding.tileRowBlocks = true;
  // The policy blk-stage-held-loads, blk-async-fill and blk-peel-alignment
  // will apply, asked before they run.
  if (options.stageMinRegisters > 0)
    binding.rows = RowPolicy(*target, options);
  binding.products = target->hasWgmma()     ? BindingOptions::Products::warpgroups
                     : target->hasMmaSync() ? BindingOptions::Products::warps
                                            : BindingOptions::Products::scalar;
  return binding;
}

FailureOr<Specialization>
mlir::blk::chooseBinding(ModuleOp fitted, const ProblemDesc &problem,
                         const CompileOptions &options) {
  FailureOr<BindingOptions> binding = getBindingOptions(fitted, options);
  if (failed(binding))
    return failure();
  return chooseSpecialization(fitted, problem.getShape(), *binding);
}

FailureOr<std::vector<Specialization>>
mlir::blk::candidateBindings(ModuleOp fitted, const ProblemDesc &problem,
                             const CompileOptions &options) {
  FailureOr<BindingOptions> binding = getBindingOptions(fitted, options);
  if (failed(binding))
    return failure();
  return candidateSpecializations(fitted, problem.getShape(), *binding);
}

const BuiltinProgram &
mlir::blk::chooseBuiltinSoftmax(const ProblemDesc &problem,
                                const CompileOptions &options) {
  return chooseSoftmaxProgram(problem.cols,
                              ::blk::runtime::elementSize(problem.elementType),
                              getChoiceTarget(options));
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// Gives every kernel the binding's warps, CTAs, stages and CTAs an SM.
/// The kernel attribute's verifier is the one check of both, for every
/// target.
static LogicalResult applyLaunchShape(ModuleOp program,
                                      const Specialization &binding) {
  for (auto func : program.getOps<func::FuncOp>()) {
    KernelAttr kernel = getKernelAttr(func);
    if (!kernel)
      continue;
    int64_t warps = binding.numWarps > 0 ? binding.numWarps
                                         : kernel.getNumWarps();
    int64_t ctas = binding.numCtas > 0 ? binding.numCtas : kernel.getNumCtas();
    int64_t stages =
        binding.numStages > 0 ? binding.numStages : kernel.getNumStages();
    int64_t ctasPerSm = binding.minCtasPerSm > 0 ? binding.minCtasPerSm
                                                 : kernel.getMinCtasPerSm();
    KernelAttr shaped = kernel.withLaunchShape([&] { return func.emitError(); },
                                               warps, ctas, stages, ctasPerSm);
    if (!shaped)
      return failure();
    func->setAttr(BlkDialect::getKernelAttrName(), shaped);
  }
  return success();
}

/// A program that runs on the CPU may still be refused by the GPU: says so,
/// at the first op of each kind the GPU lowering lacks (math.tanh, erf...),
/// so that a kernel written and checked on the CPU is not a surprise there.
static void warnOfOpsTheGPULacks(ModuleOp program) {
  llvm::StringSet<> warned;
  program.walk([&](Operation *op) {
    if (hasGPUMathLowering(op) ||
        !warned.insert(op->getName().getStringRef()).second)
      return;
    op->emitWarning() << "runs on the CPU, but the GPU lowering has no '"
                      << op->getName() << "' (its math ops are "
                      << kGPUMathOps << ")";
  });
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::blk::specializeProgram(ModuleOp fitted, const Specialization &binding) {
  OwningOpRef<ModuleOp> module = fitted.clone();
  PassManager specialize(fitted.getContext());
  specialize.addPass(createBlkSpecializePass(binding.constants));
  if (failed(specialize.run(*module)) ||
      failed(applyLaunchShape(*module, binding)))
    return failure();
  return module;
}

::blk::runtime::ProgramShape ProblemDesc::getProgramShape() const {
  ::blk::runtime::ProgramShape shape{rows, cols, elementType, {}};
  for (const auto &stride : rowStrides)
    shape.rowStrides.emplace_back(stride.getKey().str(), stride.getValue());
  llvm::sort(shape.rowStrides);
  shape.inner = inner;
  return shape;
}

/// The options with the GPU's chip and features as TargetInfo resolves
/// them (an empty chip is the default one; empty features the chip's), so
/// that one target has one name in images and cache keys.
static FailureOr<CompileOptions> resolveTarget(ModuleOp program,
                                               const CompileOptions &options) {
  if (options.target == TargetKind::CPU)
    return options;
  FailureOr<TargetInfo> target = getTarget(program, options);
  if (failed(target))
    return failure();
  CompileOptions resolved = options;
  resolved.chip = target->getChip().str();
  resolved.features = target->getFeatures().str();
  return resolved;
}

/// "gpu sm_90 +ptx80"; "cpu", the host's triple and CPU ("cpu
/// x86_64-pc-linux-gnu skylake-avx512"): host code uses the instructions
/// of the machine that compiled it.
static std::string getTargetName(const CompileOptions &resolved) {
  if (resolved.target == TargetKind::CPU)
    return "cpu " + llvm::sys::getProcessTriple() + " " +
           llvm::sys::getHostCPUName().str();
  return "gpu " + resolved.chip + " " + resolved.features;
}

/// The cache key of a bound program: a SHA-256 of everything compiling it
/// depends on: the compiler, the options' printed form (every knob of
/// CompileOptions.def), the host's features for host code, what the image
/// records before code generation (target, shape, binding, grid, declared
/// arguments) and the program's text. Locations only matter to
/// bounds-checked host code, whose messages name them.
static std::string getCacheKey(ModuleOp bound,
                               const ::blk::runtime::ProgramImage &expected,
                               const CompileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "blk-cache-key 3\n"
     << "compiler " << getVersion() << " " << getGitRevision() << " LLVM "
     << LLVM_VERSION_STRING << "\n"
     << options.print();
  if (options.target == TargetKind::CPU) {
    // The CPU name does not say everything (a VM may hide AVX-512).
    std::vector<std::string> features;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      if (feature.getValue())
        features.push_back(feature.getKey().str());
    llvm::sort(features);
    os << "host-features " << llvm::join(features, ",") << "\n";
  }
  os << expected.serialize();
  OpPrintingFlags flags;
  flags.enableDebugInfo(options.target == TargetKind::CPU &&
                        options.checkBounds);
  bound->print(os, flags);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}

static double millisecondsSince(
    std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Lowers the bound program to PTX and fills the image's code and launch
/// records.
static LogicalResult compileForGPU(ModuleOp bound,
                                   const CompileOptions &options,
                                   ::blk::runtime::ProgramImage &image) {
  PassManager pm(bound.getContext());
  buildBlkToPTXPipeline(pm, options);
  if (failed(pm.run(bound)))
    return failure();
  TargetInfo target = getTargetInfo(bound);
  FailureOr<std::vector<CompiledKernel>> kernels = getCompiledKernels(bound);
  if (failed(kernels))
    return failure();
  image.ptx = kernels->front().ptx;
  for (const CompiledKernel &kernel : *kernels) {
    std::vector<::blk::runtime::TensorMapParam> tensorMaps;
    for (const CompiledKernel::TensorMap &map : kernel.tensorMaps)
      tensorMaps.push_back({map.tensor, map.boxRows, map.boxCols,
                            map.rotationFirst, map.rotationBits});
    image.launches.push_back(
        {kernel.threads, kernel.ctas, kernel.staticSharedBytes,
         kernel.dynamicSharedBytes,
         static_cast<::blk::runtime::GridKind>(kernel.grid),
         kernel.ctas > target.getMaxPortableClusterCtas(),
         kernel.staticSharedBytes + kernel.dynamicSharedBytes >
             target.getMaxStaticSharedBytes(),
         kernel.residentPrograms, std::move(tensorMaps)});
  }
  return success();
}

/// Whether a cached image is one this compilation could have produced:
/// everything known before code generation (target, shape, binding, grid,
/// every declared argument) must be what `expected` says, and the code
/// must be there. The checksum finds damage; this finds an entry that
/// describes another program.
static bool matchesCompilation(const ::blk::runtime::ProgramImage &cached,
                               const ::blk::runtime::ProgramImage &expected) {
  auto withoutCode = [](::blk::runtime::ProgramImage image) {
    image.launches.clear();
    image.ptx.clear();
    image.object.clear();
    image.accessNames.clear();
    return image.serialize();
  };
  bool hasCode = cached.isGPU()
                     ? !cached.ptx.empty() &&
                           cached.launches.size() == cached.signatures.size()
                     : !cached.object.empty();
  return hasCode && withoutCode(cached) == withoutCode(expected);
}

/// The cached image of `key` if an intact entry describes this compilation;
/// an entry that exists but is not used is a warning on the program.
static std::optional<::blk::runtime::ProgramImage>
lookUpCache(const ::blk::runtime::KernelCache &cache, const std::string &key,
            const ::blk::runtime::ProgramImage &expected, ModuleOp bound) {
  std::string entry, problem;
  ::blk::runtime::ProgramImage cached;
  if (cache.lookup(key, entry, problem) &&
      ::blk::runtime::ProgramImage::deserialize(entry, cached) &&
      matchesCompilation(cached, expected))
    return cached;
  if (!problem.empty())
    emitWarning(bound.getLoc())
        << "kernel cache: " << problem << "; compiling again";
  else if (!entry.empty())
    emitWarning(bound.getLoc())
        << "kernel cache: entry " << cache.getEntryPath(key)
        << " does not describe this program; compiling again";
  return std::nullopt;
}

/// Links cached host code; an entry that does not link (its object
/// damaged in a way the checksum missed) is a warning and null.
static std::unique_ptr<CPUKernels>
loadCachedHostCode(ModuleOp bound, const ::blk::runtime::ProgramImage &image,
                   const std::string &entryPath) {
  std::string loadError;
  FailureOr<std::unique_ptr<CPUKernels>> kernels = failure();
  {
    ScopedDiagnosticHandler quiet(bound.getContext(), [&](Diagnostic &d) {
      loadError = d.str();
      return success();
    });
    kernels = CPUKernels::load(bound, {image.object, image.accessNames});
  }
  if (succeeded(kernels))
    return std::move(*kernels);
  emitWarning(bound.getLoc()) << "kernel cache: entry " << entryPath
                              << " does not load (" << loadError
                              << "); compiling again";
  return nullptr;
}

/// The bound program's code in `image`: PTX and launch records, or a host
/// object.
static LogicalResult generateCode(ModuleOp bound, const CompileOptions &options,
                                  ::blk::runtime::ProgramImage &image) {
  if (options.target == TargetKind::GPU)
    return compileForGPU(bound, options, image);
  FailureOr<CPUKernels::ObjectCode> code =
      CPUKernels::compileToObject(bound, options);
  if (failed(code))
    return failure();
  image.object = std::move(code->object);
  image.accessNames = std::move(code->accessNames);
  return success();
}

FailureOr<CompiledProgram>
mlir::blk::compileProgram(ModuleOp fitted, const ProblemDesc &problem,
                          const Specialization &binding,
                          const CompileOptions &requested, HostCode hostCode) {
  FailureOr<CompileOptions> resolved = resolveTarget(fitted, requested);
  if (failed(resolved))
    return failure();
  const CompileOptions &options = *resolved;
  CompiledProgram compiled;
  compiled.target = options.target;
  compiled.binding = binding;
  ::blk::runtime::ProgramImage &image = compiled.image;
  FailureOr<std::vector<KernelSignature>> signatures =
      getKernelSignatures(fitted);
  if (failed(signatures))
    return failure();
  image.signatures = std::move(*signatures);
  image.target = getTargetName(options);
  image.shapes = problem.getShapeClass();
  image.binding = binding.describe();
  image.rowsPerProgram = binding.rowsPerProgram;
  image.rowParts = binding.rowParts;

  FailureOr<OwningOpRef<ModuleOp>> specialized =
      specializeProgram(fitted, binding);
  if (failed(specialized))
    return failure();
  OwningOpRef<ModuleOp> module = std::move(*specialized);
  if (options.target == TargetKind::CPU)
    warnOfOpsTheGPULacks(*module);

  // What the compilation is known to produce before any code is made.
  ::blk::runtime::ProgramImage expected = image;
  // A build outside git cannot tell compilers apart: it does not cache.
  uint64_t cacheSizeLimit = options.cacheSizeLimit;
  if (cacheSizeLimit == 0)
    if (::blk::runtime::Status status =
            ::blk::runtime::KernelCache::getDefaultSizeLimit(cacheSizeLimit);
        !status && !options.cacheDirectory.empty())
      emitWarning(fitted.getLoc()) << "kernel cache: " << status.message();
  ::blk::runtime::KernelCache cache(
      StringRef(getGitRevision()) == "unknown" ? "" : options.cacheDirectory,
      cacheSizeLimit);
  std::string key;
  auto start = std::chrono::steady_clock::now();
  if (cache.isEnabled()) {
    key = getCacheKey(*module, expected, options);
    if (std::optional<::blk::runtime::ProgramImage> cached =
            lookUpCache(cache, key, expected, *module)) {
      image = std::move(*cached);
      compiled.times.cacheHit = true;
    }
  }
  compiled.times.lookup = millisecondsSince(start);

  bool linksHostCode =
      options.target == TargetKind::CPU && hostCode == HostCode::link;
  if (compiled.times.cacheHit && linksHostCode) {
    start = std::chrono::steady_clock::now();
    compiled.cpuKernels =
        loadCachedHostCode(*module, image, cache.getEntryPath(key));
    compiled.times.load = millisecondsSince(start);
    if (!compiled.cpuKernels) {
      image = std::move(expected);
      compiled.times.cacheHit = false;
    }
  }

  start = std::chrono::steady_clock::now();
  if (!compiled.times.cacheHit) {
    if (failed(generateCode(*module, options, image)))
      return failure();
    if (cache.isEnabled())
      if (::blk::runtime::Status stored = cache.store(key, image.serialize());
          !stored)
        emitWarning(fitted.getLoc())
            << "kernel cache: " << stored.message() << " (not cached)";
  }
  compiled.times.compile = millisecondsSince(start);

  if (linksHostCode && !compiled.cpuKernels) {
    start = std::chrono::steady_clock::now();
    FailureOr<std::unique_ptr<CPUKernels>> kernels =
        CPUKernels::load(*module, {image.object, image.accessNames});
    if (failed(kernels))
      return failure();
    compiled.cpuKernels = std::move(*kernels);
    compiled.times.load = millisecondsSince(start);
  }
  return compiled;
}

FailureOr<CompiledProgram>
mlir::blk::compileForProblem(ModuleOp program, const ProblemDesc &problem,
                             const CompileOptions &options, HostCode hostCode) {
  FailureOr<OwningOpRef<ModuleOp>> fitted =
      fitProgram(program, problem, options);
  if (failed(fitted))
    return failure();
  FailureOr<Specialization> binding =
      chooseBinding(**fitted, problem, options);
  if (failed(binding))
    return failure();
  return compileProgram(**fitted, problem, *binding, options, hostCode);
}
