//===- Check.cpp - what --check and --expect compare with -----------------===//
#include "Check.h"


#include "CpuExecution.h"
#include "Report.h"
#include "RunFacts.h"
#include "Tensors.h"

#include "blk/Interpreter/Interpreter.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace softmax_run;
using blk::runtime::Status;

bool softmax_run::chooseReference(
    const RunOptions &options, mlir::ModuleOp program,
    const std::vector<mlir::blk::KernelSignature> &signatures,
    Problem &problem, std::string &error) {
  problem.multipliesTf32 = mlir::blk::hasTf32Product(program);
  if (options.reference) {
    if (*options.reference == "cpu") {
      problem.againstCPULowering = true;
      return true;
    }
    blk::runtime::ReferenceKind kind;
    if (Status status =
            blk::runtime::parseReferenceKind(*options.reference, kind);
        !status) {
      error = "--reference: " + status.message() + ", or cpu";
      return false;
    }
    problem.reference = kind;
    return true;
  }
  // `auto` asks for a softmax (the program the driver picks for the
  // shape); a kernel named after a kind is checked as one (log_softmax.mlir's
  // @log_softmax), and so is a module (attention_bwd.mlir's three kernels),
  // the contract then saying if the tensors do not fit. A program that
  // multiplies as tf32 is checked against itself in float64, which rounds
  // its inputs to tf32 as it does (a kind's reference would not).
  if (problem.multipliesTf32)
    return true;
  blk::runtime::ReferenceKind named;
  std::optional<llvm::StringRef> moduleName = program.getSymName();
  if (options.isAuto())
    problem.reference = blk::runtime::ReferenceKind::softmax;
  else if (signatures.size() == 1 &&
           blk::runtime::parseReferenceKind(signatures.front().name, named))
    problem.reference = named;
  else if (moduleName &&
           blk::runtime::parseReferenceKind(moduleName->str(), named))
    problem.reference = named;
  return true;
}

std::string softmax_run::describeReference(const Problem &problem) {
  if (problem.reference)
    return "the float64 " +
           std::string(blk::runtime::getReferenceKindName(*problem.reference)) +
           " reference";
  if (problem.againstCPULowering)
    return "the CPU lowering";
  return "the program in float64";
}

bool softmax_run::computeExpected(
    mlir::ModuleOp fitted, const Problem &problem,
    const Specialization &binding,
    const std::vector<blk::runtime::HostTensor> &tensors,
    std::vector<blk::runtime::ReferenceOutput> &expected) {
  blk::runtime::ScalarValues scalars = getScalars(problem, binding);
  if (problem.reference) {
    blk::runtime::computeReference(*problem.reference, tensors, scalars,
                                   expected);
    return true;
  }
  auto specialized = mlir::blk::specializeProgram(fitted, binding);
  if (mlir::failed(specialized))
    return false;
  auto signatures = mlir::blk::getKernelSignatures(**specialized);
  if (mlir::failed(signatures))
    return false;
  std::vector<blk::runtime::HostTensor> all;
  if (Status status = blk::runtime::createHostTensors(
          *signatures, problem.getShape(), all,
          blk::runtime::TensorGroup::scratch);
      !status) {
    fail(status.message());
    return false;
  }
  all.insert(all.begin(), tensors.begin(), tensors.end());
  return mlir::succeeded(mlir::blk::interpretProgram(
      **specialized, binding.getGrid(problem.desc.rows),
      problem.getShape(), all, scalars, expected));
}

bool softmax_run::expectFromCPU(
    const RunOptions &runOptions, mlir::ModuleOp fitted,
    const Problem &problem, const mlir::blk::CompileOptions &gpuOptions,
    std::vector<blk::runtime::HostTensor> tensors,
    std::vector<blk::runtime::ReferenceOutput> &expected) {
  mlir::blk::CompileOptions options = gpuOptions;
  options.target = mlir::blk::TargetKind::CPU;
  options.checkBounds = true;
  options.numWarps = options.numCtas = 0;
  auto binding = mlir::blk::chooseBinding(fitted, problem.desc, options);
  if (mlir::failed(binding))
    return false;
  std::unique_ptr<CpuExecution> cpu;
  mlir::blk::CompileTimes times;
  double loadMs = 0;
  Status status = buildOnCPU(fitted, problem, options, *binding,
                             runOptions.threads, cpu, times, loadMs);
  if (status)
    status = cpu->run(problem, tensors);
  if (!status) {
    fail(status.message());
    return false;
  }
  for (const blk::runtime::HostTensor &tensor : tensors) {
    if (tensor.getDeclaration().role != blk::runtime::ArgRole::output ||
        !tensor.isFloat())
      continue;
    blk::runtime::ReferenceOutput output{tensor.getName(), {}};
    for (int64_t r = 0; r < tensor.getRows(); ++r)
      for (int64_t c = 0; c < tensor.getCols(); ++c)
        output.values.push_back(tensor.get(r, c));
    expected.push_back(std::move(output));
  }
  return true;
}

namespace {

/// The elements of `tensor`, bytes as stored, row after row without gaps.
std::vector<uint8_t> gatherRows(const blk::runtime::HostTensor &tensor) {
  size_t bytes = size_t(tensor.getDeclaration().bytes);
  std::vector<uint8_t> dense(size_t(tensor.getRows() * tensor.getCols()) *
                             bytes);
  for (int64_t r = 0; r < tensor.getRows(); ++r)
    for (int64_t c = 0; c < tensor.getCols(); ++c)
      std::memcpy(&dense[size_t(r * tensor.getCols() + c) * bytes],
                  &tensor.getBytes()[size_t(tensor.getElementIndex(r, c)) *
                                     bytes],
                  bytes);
  return dense;
}

/// Compares an integer output with what was expected of it, exactly; one
/// line "compared=N mismatches=K (first at row r, col c: v, expected e)".
bool checkIntegerOutput(const blk::runtime::HostTensor &output,
                        const blk::runtime::ReferenceOutput &reference,
                        llvm::raw_ostream &line) {
  int64_t mismatches = 0, cols = output.getCols();
  std::string first;
  for (int64_t r = 0; r < output.getRows(); ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double wanted = reference.values[r * cols + c];
      int64_t value = output.getInteger(r, c);
      if (double(value) == wanted)
        continue;
      if (mismatches++ == 0)
        first = " (first at row " + std::to_string(r) + ", col " +
                std::to_string(c) + ": " + std::to_string(value) +
                ", expected " + llvm::formatv("{0}", wanted).str() + ")";
    }
  line << "compared=" << output.getRows() * cols
       << " mismatches=" << mismatches << first;
  return mismatches == 0;
}

/// The errors an output may have: its type's, or, for every f32 output of
/// a program that takes f32 inputs as tf32, tf32 products' (on every
/// target: the precision a tf32 product promises, not what a target
/// happens to reach; the CPU's sums are rounded to nearest).
blk::runtime::CheckTolerance getTolerance(const blk::runtime::HostTensor &output,
                                          const Problem &problem) {
  if (problem.multipliesTf32 &&
      output.getElementType() == blk::runtime::ElementType::F32)
    return blk::runtime::getTf32CheckTolerance();
  return blk::runtime::getCheckTolerance(output.getElementType());
}

/// Compares each output with what was expected of it; prints a line per
/// output, saying what it was compared `against`: floats within their
/// tolerance (getTolerance), integers exactly.
bool checkOutputs(const std::vector<blk::runtime::HostTensor> &tensors,
                  const std::vector<blk::runtime::ReferenceOutput> &expected,
                  const Problem &problem, llvm::StringRef against) {
  bool ok = true;
  for (const blk::runtime::ReferenceOutput &reference : expected) {
    const blk::runtime::HostTensor &output =
        *blk::runtime::findTensor(tensors, reference.name);
    if (!output.isFloat()) {
      std::string text;
      llvm::raw_string_ostream line(text);
      bool matches = checkIntegerOutput(output, reference, line);
      ok &= matches;
      report() << "  check";
      if (expected.size() > 1)
        report() << " " << reference.name;
      report() << ": " << text << "  " << (matches ? "OK" : "FAILED")
               << " (exact, against " << against << ")\n";
      RunFacts::get().addCheck(llvm::json::Object{{"output", reference.name},
                                {"passed", matches},
                                {"against", against.str()},
                                {"exact", true},
                                {"summary", text}});
      continue;
    }
    // A batch's rows lie apart (instances, heads side by side): compared
    // gathered in order, the gaps between them left unchecked.
    std::vector<uint8_t> gathered;
    bool batched = output.getInstanceRows() != output.getRows();
    if (batched)
      gathered = gatherRows(output);
    blk::runtime::ErrorStats stats = blk::runtime::compareToReference(
        batched ? gathered.data() : output.getBytes().data(),
        output.getElementType(), output.getRows(), output.getCols(),
        batched ? output.getCols() : output.getRowStride(),
        reference.values.data());
    blk::runtime::CheckTolerance tolerance = getTolerance(output, problem);
    bool matches = stats.passes(tolerance);
    ok &= matches;
    report() << "  check";
    if (expected.size() > 1)
      report() << " " << reference.name;
    report() << ": " << stats.summary() << "  " << (matches ? "OK" : "FAILED")
             << " (relative L2 tolerance "
             << llvm::format("%.0e", tolerance.relativeL2)
             << ", element tolerance " << llvm::format("%.0e", tolerance.element)
             << ", against " << against << ")\n";
    RunFacts::get().addCheck(llvm::json::Object{
        {"output", reference.name},
         {"passed", matches},
         {"against", against.str()},
         {"tolerance", tolerance.relativeL2},
         {"element_tolerance", tolerance.element},
         {"compared", int64_t(stats.comparedCount)},
         {"max_abs", stats.maxAbsError},
         {"max_rel", stats.maxRelError},
         {"rel_l2", stats.relL2Error},
         {"max_elem", stats.maxElementError},
         {"nan_mismatches", int64_t(stats.nanMismatchCount)},
         {"inf_mismatches", int64_t(stats.infMismatchCount)},
         {"unwritten", int64_t(stats.unwrittenCount)}});
  }
  return ok;
}

} // namespace

bool softmax_run::checkAndWrite(
    const RunOptions &options, const Problem &problem,
    const std::vector<blk::runtime::HostTensor> &tensors,
    const std::vector<blk::runtime::ReferenceOutput> &expected) {
  bool matches = !options.check || checkOutputs(tensors, expected, problem,
                                                describeReference(problem));
  for (const Problem::Expectation &expectation : problem.expectations)
    matches &=
        checkOutputs(tensors, {expectation.values}, problem, expectation.path);
  if (!matches) {
    if (options.writesOutputs())
      llvm::errs() << "softmax-run: the check failed; "
                   << llvm::join(options.outputList, ", ")
                   << (options.outputList.size() == 1 ? " is" : " are")
                   << " not written\n";
    return false;
  }
  std::string error;
  if (options.writesOutputs() &&
      !writeOutputs(options, problem, tensors, error)) {
    llvm::errs() << "softmax-run: " << error << "\n";
    return false;
  }
  return true;
}
