//===- softmax-run.cpp - compile a block program, run it, check it, time it -===//
//
//   softmax-run PROGRAM.mlir --rows M --cols N [--check] [--bench] ...
//
// Compiles the program in-process through the same pipeline as softmax-opt
// (binding its constants from the shape), runs it on the GPU (or the CPU),
// compares the result with a double-precision reference, and times it.
//
//===----------------------------------------------------------------------===//
#include "Autotune.h"
#include "CpuExecution.h"
#include "GpuExecution.h"
#include "Problem.h"
#include "RunFacts.h"

#include "blk/Driver/CrashWatchdog.h"
#include "blk/Driver/Driver.h"
#include "blk/Driver/ProgramText.h"
#include "blk/Driver/Version.h"
#include "blk/Interpreter/Interpreter.h"
#include "blk/Runtime/Files.h"
#include "blk/Runtime/KernelCache.h"
#include "blk/Runtime/Npy.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <string>
#include <type_traits>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

using namespace softmax_run;
using blk::runtime::ElementType;
using blk::runtime::Status;
namespace cl = llvm::cl;

// --help in groups, each option with its default.
static cl::OptionCategory problemCategory("Problem");
static cl::OptionCategory filesCategory("Inputs and outputs (.npy)");
static cl::OptionCategory checkCategory("Checking");
static cl::OptionCategory benchCategory("Timing");
static cl::OptionCategory compileCategory("Compiling and tuning");

static cl::opt<std::string> programPath(
    cl::Positional,
    cl::desc("<program.mlir | built-in program name | auto (the program "
             "chosen for the shape)>"),
    cl::cat(problemCategory));
static cl::opt<int64_t> rowsOption("rows", cl::desc("Rows (M)"), cl::init(0),
                                   cl::cat(problemCategory));
static cl::opt<int64_t> colsOption("cols", cl::desc("Columns (N)"), cl::init(0),
                                   cl::cat(problemCategory));
static cl::opt<std::string>
    dtypeOption("dtype",
                cl::desc("f32, f16 or bf16 (or float32, float16, bfloat16); "
                         "default f32, or the --input file's"),
                cl::init("f32"), cl::cat(problemCategory));
static cl::list<std::string> inputOptions(
    "input",
    cl::desc("Input .npy: FILE fills the first matrix input and sets the "
             "shape (float32/float16); NAME=FILE fills the input tensor NAME "
             "(its shape; int32/int64 for integer tensors; without --rows, "
             "--cols or FILE, the first 2-D float file sets the shape). "
             "Repeatable"),
    cl::cat(filesCategory));
static cl::list<std::string> expectOptions(
    "expect",
    cl::desc("NAME=FILE: compare output NAME with a .npy file (floats within "
             "--check's tolerance, integers exactly); a mismatch fails the "
             "run and no --output is written. Repeatable"),
    cl::cat(checkCategory));
static cl::list<std::string> outputOptions(
    "output",
    cl::desc("Output .npy: FILE writes the first matrix output (else the "
             "first output); NAME=FILE the output tensor NAME. Each in its "
             "own type: f32 and bf16 as float32, f16 as float16, integers "
             "exactly as int32/int64. Repeatable; '-': standard output; none "
             "is written when --check fails"),
    cl::cat(filesCategory));
static cl::opt<int64_t>
    inStrideOption("in-stride",
                   cl::desc("Input row stride in elements (default N)"),
                   cl::init(0), cl::cat(problemCategory));
static cl::opt<int64_t>
    outStrideOption("out-stride",
                    cl::desc("Output row stride in elements (default N)"),
                    cl::init(0), cl::cat(problemCategory));
static cl::opt<bool>
    checkOption("check",
                cl::desc("Compare every output with a float64 reference "
                         "(--reference says which)"),
                cl::cat(checkCategory));
static cl::opt<bool> benchOption("bench", cl::desc("Time the kernel"),
                                 cl::cat(benchCategory));
static cl::opt<bool> jsonOption(
    "json",
    cl::desc("Print the run's facts (problem, target, binding, compile "
             "times, checks, timing) as one JSON object on standard output; "
             "the report goes to standard error"),
    cl::cat(benchCategory));
static cl::opt<int>
    runsOption("runs",
               cl::desc("Timed runs (default 50; GPU: at least 20; CPU: 3 "
                        "to 20)"),
               cl::init(50), cl::cat(benchCategory));
static cl::opt<std::string>
    csvPath("csv",
            cl::desc("With --bench: append a dtype,M,N,provider,gbps,target "
                     "row to this file"),
            cl::cat(benchCategory));
static cl::opt<std::string>
    providerOption("provider",
                   cl::desc("Provider name in the CSV (default: blk-<kernel>)"),
                   cl::cat(benchCategory));
static cl::opt<std::string> targetOption(
    "target",
    cl::desc("gpu, cpu or auto (default: the GPU where there is one, else "
             "the CPU)"),
                                         cl::init("auto"),
                                         cl::cat(problemCategory));
static cl::opt<std::string>
    chipOption("chip", cl::desc("Target chip (default: the device's)"),
               cl::cat(compileCategory));
static cl::opt<unsigned> seedOption("seed",
                                    cl::desc("Random seed of the inputs "
                                             "(default 0)"),
                                    cl::init(0), cl::cat(problemCategory));
static cl::list<std::string>
    constOptions("const", cl::desc("Bind constants: NAME=VALUE[,NAME=VALUE]"),
                 cl::CommaSeparated, cl::cat(problemCategory));
static cl::list<std::string>
    paramOptions("param",
                 cl::desc("Scalar kernel parameters: NAME=VALUE[,NAME=VALUE]"),
                 cl::CommaSeparated, cl::cat(problemCategory));
// The compile knobs: one flag per knob of blk/Target/CompileOptions.def,
// stored straight into the record the driver takes. softmax-run checks
// CPU runs' accesses unless told not to (--check-bounds=false: --bench
// times code without the checks).
static mlir::blk::CompileOptions compileOptions = [] {
  mlir::blk::CompileOptions options;
  options.checkBounds = true;
  return options;
}();
/// " (default X)" for a knob's value in the record softmax-run starts from.
template <typename T>
static std::string describeDefault(const T &value) {
  if constexpr (std::is_same_v<T, bool>)
    return value ? " (default on)" : " (default off)";
  else
    return " (default " + std::to_string(value) + ")";
}
#define BLK_TARGET_OPTION(...) // --chip, below: its default is the device's
#define BLK_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)                   \
  static const std::string FIELD##Description =                               \
      DESCRIPTION + describeDefault(compileOptions.FIELD);                     \
  static cl::opt<TYPE, true> FIELD##Flag(FLAG, cl::desc(FIELD##Description),   \
                                         cl::location(compileOptions.FIELD),  \
                                         cl::cat(compileCategory));
#include "blk/Target/CompileOptions.def"
static cl::opt<std::string> referenceOption(
    "reference",
    cl::desc("What --check compares with: a kernel kind's float64 reference "
             "(softmax, log_softmax, scaled_softmax, softmax_backward, "
             "cross_entropy, rms_norm, layer_norm), or cpu: the CPU lowering "
             "of the same program (GPU runs only). Default: softmax for "
             "auto, the kind a one-kernel program is named after "
             "(@log_softmax, @rms_norm...), else the program itself run in "
             "float64"),
    cl::cat(checkCategory));
static cl::opt<bool>
    specialOption("special",
                  cl::desc("Put special values (+-inf, NaN, huge, tiny), those "
                           "the kernel kind defines, in the first rows of the "
                           "random input"),
                  cl::cat(problemCategory));
static cl::opt<bool>
    probeOption("probe-gpu",
                cl::desc("Only say whether a usable GPU is present (exit "
                         "status 0) or not (1), and exit"),
                cl::cat(compileCategory));
static cl::opt<bool> autotuneOption(
    "autotune",
    cl::desc("Time candidate warps, ROWS and tiles on the GPU and "
             "remember the fastest on disk for this device, "
             "program, dtype and shape"),
    cl::cat(compileCategory));
static cl::opt<std::string> autotuneCachePath(
    "autotune-cache",
    cl::desc("Autotune cache file (default ~/.cache/blk-softmax/autotune.tsv)"),
    cl::cat(compileCategory));
static cl::opt<std::string> emitPtxPath(
    "emit-ptx",
    cl::desc("Write the PTX compiled for the problem to this file (for --chip, "
             "else the device's, else sm_90); without a GPU, only compile"),
    cl::cat(compileCategory));
static cl::opt<bool>
    verboseOption("verbose",
                  cl::desc("Print registers, spills, shared memory, occupancy, "
                           "and where the compile time went"),
                  cl::cat(benchCategory));
// Not "threads": libLLVM registers an option of that name.
static cl::opt<unsigned> threadsOption(
    "num-threads",
    cl::desc("CPU target: threads that run a kernel's programs (default 0: "
             "every core this process may use)"),
    cl::init(0), cl::cat(problemCategory));
static cl::opt<std::string> cacheDirOption(
    "cache-dir",
    cl::desc("Keep compiled programs in this directory (default "
             "$BLK_CACHE_DIR, else ~/.cache/blk/kernels; BLK_CACHE_DIR= "
             "turns the cache off)"),
    cl::cat(compileCategory));
static cl::opt<std::string> cacheSizeOption(
    "cache-size",
    cl::desc("The most the cache may hold, least recently used programs "
             "going first: bytes, or a number with K, M or G (default "
             "$BLK_CACHE_SIZE, else 1G)"),
    cl::value_desc("size"), cl::cat(compileCategory));
static cl::opt<bool> noCacheOption(
    "no-cache", cl::desc("Compile every program, using no cache"),
    cl::cat(compileCategory));

namespace {

/// --input: the unnamed file and the NAME=FILE ones.
std::string primaryInput, primaryOutput;
std::vector<std::pair<std::string, std::string>> namedInputs, namedOutputs,
    expectedOutputs;
/// The --expect files, read once before the run (expectedOutputs' order).
std::vector<blk::runtime::ReferenceOutput> expectedFiles;

/// Splits the values of --input or --output (`flag`) into the one unnamed
/// FILE (`primary`) and the NAME=FILE ones (`named`); fails on a second
/// unnamed file or a name given twice.
bool parseFiles(const cl::list<std::string> &options, const char *flag,
                std::string &primary,
                std::vector<std::pair<std::string, std::string>> &named,
                std::string &error) {
  for (const std::string &option : options) {
    auto [name, path] = llvm::StringRef(option).split('=');
    bool isNamed = !path.empty() && !name.empty() &&
                   llvm::all_of(name, [](char c) {
                     return llvm::isAlnum(c) || c == '_';
                   });
    if (!isNamed) {
      if (!primary.empty()) {
        error = std::string(flag) + " " + option + ": a second unnamed file (" +
                primary + " is the first); name its tensor with NAME=FILE";
        return false;
      }
      primary = option;
      continue;
    }
    for (const auto &[seen, file] : named)
      if (seen == name) {
        error = std::string(flag) + " " + option + ": " + name.str() +
                " is given twice";
        return false;
      }
    named.push_back({name.str(), path.str()});
  }
  return true;
}

bool parseInputsAndOutputs(std::string &error) {
  std::string unnamedExpect;
  if (!parseFiles(inputOptions, "--input", primaryInput, namedInputs,
                  error) ||
      !parseFiles(outputOptions, "--output", primaryOutput, namedOutputs,
                  error) ||
      !parseFiles(expectOptions, "--expect", unnamedExpect, expectedOutputs,
                  error))
    return false;
  if (!unnamedExpect.empty())
    error = "--expect " + unnamedExpect +
            ": name the output the file holds with NAME=FILE";
  return unnamedExpect.empty();
}

bool writesOutputs() { return !outputOptions.empty(); }

/// Where the run is reported: standard output, unless an output array or
/// the --json object goes there.
llvm::raw_ostream &report() {
  bool toStdout = jsonOption || primaryOutput == "-" ||
                  llvm::any_of(namedOutputs, [](const auto &named) {
                    return named.second == "-";
                  });
  return toStdout ? llvm::errs() : llvm::outs();
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

int fail(const std::string &message) {
  llvm::errs() << "softmax-run: " << message << "\n";
  RunFacts::get().set("error", message);
  return 1;
}

/// Puts the program's text in `sourceMgr`: the file at the positional path,
/// else the built-in program of that name, or for `auto` the built-in
/// program the driver chooses for the problem and target.
bool addProgramSource(llvm::SourceMgr &sourceMgr, const Problem &problem,
                      const mlir::blk::CompileOptions &options,
                      std::string &programName, std::string &error) {
  const mlir::blk::BuiltinProgram *builtin = nullptr;
  if (programPath == "auto")
    builtin = &mlir::blk::chooseBuiltinSoftmax(problem.desc, options);
  else if (!llvm::sys::fs::exists(programPath))
    builtin = mlir::blk::lookupBuiltinProgram(programPath);
  if (builtin) {
    programName = builtin->name.str();
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(builtin->source, programName),
        llvm::SMLoc());
    return true;
  }
  programName = llvm::sys::path::filename(programPath).str();
  std::string text;
  if (Status read = blk::readProgramFile(programPath, text); !read) {
    error = read.message();
    if (!llvm::sys::fs::exists(programPath))
      error += " (neither a file nor a built-in program; `auto` picks one)";
    return false;
  }
  if (Status checked = blk::checkProgramText(text, programPath); !checked) {
    error = checked.message();
    return false;
  }
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, programPath), llvm::SMLoc());
  return true;
}

/// Our names and torch's/numpy's.
bool parseElementType(llvm::StringRef name, ElementType &type) {
  if (name == "f32" || name == "float32")
    type = ElementType::F32;
  else if (name == "f16" || name == "float16")
    type = ElementType::F16;
  else if (name == "bf16" || name == "bfloat16")
    type = ElementType::BF16;
  else
    return false;
  return true;
}

/// What --check compares with: --reference (a kind, or cpu), else softmax
/// for `auto`, else the kind a one-kernel program is named after
/// (@log_softmax), else the program itself in float64. Never a guess from the tensors: a GELU kernel of one
/// input and one output is not a softmax.
bool chooseReference(const std::vector<mlir::blk::KernelSignature> &signatures,
                     Problem &problem, std::string &error) {
  if (referenceOption.getNumOccurrences()) {
    if (referenceOption == "cpu") {
      problem.againstCPULowering = true;
      return true;
    }
    blk::runtime::ReferenceKind kind;
    if (Status status =
            blk::runtime::parseReferenceKind(referenceOption, kind);
        !status) {
      error = "--reference: " + status.message() + ", or cpu";
      return false;
    }
    problem.reference = kind;
    return true;
  }
  // `auto` asks for a softmax (the program the driver picks for the
  // shape); a kernel named after a kind is checked as one (log_softmax.mlir's
  // @log_softmax), its contract then saying if the tensors do not fit.
  blk::runtime::ReferenceKind named;
  if (programPath == "auto")
    problem.reference = blk::runtime::ReferenceKind::softmax;
  else if (signatures.size() == 1 &&
           blk::runtime::parseReferenceKind(signatures.front().name, named))
    problem.reference = named;
  return true;
}

/// The shape and element type, from the options or the --input file (read
/// into `array`).
bool readShape(Problem &problem, blk::runtime::NpyArray &array,
               std::string &error) {
  if (!parseElementType(dtypeOption, problem.desc.elementType)) {
    error = "--dtype must be f32, f16 or bf16, not '" + dtypeOption + "'";
    return false;
  }
  if (!primaryInput.empty()) {
    if (rowsOption.getNumOccurrences() || colsOption.getNumOccurrences()) {
      error = "--rows and --cols cannot be given with --input: the shape is "
              "the file's";
      return false;
    }
    if (Status status = blk::runtime::readNpy(primaryInput, array); !status) {
      error = status.message();
      return false;
    }
    // float16 data runs as f16 unless --dtype says otherwise (bf16 is
    // stored as float32: numpy has no bfloat16).
    if (array.storedDtype == blk::runtime::NpyDtype::Int32 ||
        array.storedDtype == blk::runtime::NpyDtype::Int64) {
      error = primaryInput + " holds integers; the first matrix input takes "
              "floats (give an integer tensor as --input NAME=FILE)";
      return false;
    }
    bool halfFile = array.storedDtype == blk::runtime::NpyDtype::Float16;
    if (!dtypeOption.getNumOccurrences() && halfFile)
      problem.desc.elementType = ElementType::F16;
    if (halfFile && problem.type() == ElementType::F32) {
      error = primaryInput + " holds float16 data, but --dtype is f32";
      return false;
    }
    problem.desc.rows = array.rows;
    problem.desc.cols = array.cols;
    problem.inputDimensions = array.fileDimensions;
  } else if (!rowsOption.getNumOccurrences() &&
             !colsOption.getNumOccurrences()) {
    // Only named inputs: the first 2-D array of floats is a matrix input's,
    // and its shape is the problem's (a per-row or per-column file is 1-D).
    for (const auto &[name, path] : namedInputs) {
      blk::runtime::NpyArray named;
      if (Status status = blk::runtime::readNpy(path, named); !status) {
        error = status.message();
        return false;
      }
      bool floats = named.storedDtype == blk::runtime::NpyDtype::Float32 ||
                    named.storedDtype == blk::runtime::NpyDtype::Float16;
      if (named.fileDimensions == 2 && floats) {
        problem.desc.rows = named.rows;
        problem.desc.cols = named.cols;
        break;
      }
    }
  } else {
    problem.desc.rows = rowsOption;
    problem.desc.cols = colsOption;
  }
  if (problem.rows() < 1 || problem.cols() < 1) {
    error = "give the shape with --rows M --cols N (both >= 1) or --input "
            "(a file of the first matrix input, or NAME=FILE of a matrix)";
    return false;
  }
  return true;
}

/// Bytes of host memory: a problem that needs more is refused before it is
/// allocated.
uint64_t hostMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  uint64_t bytes = pages > 0 && pageSize > 0
                       ? uint64_t(pages) * uint64_t(pageSize)
                       : UINT64_MAX;
  // A process limit (ulimit -v, -d) is as hard a bound as the RAM.
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit limit;
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      bytes = std::min<uint64_t>(bytes, limit.rlim_cur);
  }
  return bytes;
}

/// Host bytes a run holds at once: every tensor of the fitted program as
/// the kernels read and write it, with --check a double-precision
/// reference of each output (and on the GPU the CPU run's tensors), with
/// --output the float copy written.
double hostBytesNeeded(const Problem &problem,
                       const std::vector<mlir::blk::KernelSignature> &fitted) {
  double tensors = 0, elementCount = 0, outputs = 0;
  llvm::StringSet<> seen;
  for (const mlir::blk::KernelSignature &signature : fitted)
    for (const mlir::blk::KernelArgument &argument : signature.arguments) {
      if (!blk::runtime::isTensorRole(argument.role) ||
          !seen.insert(argument.name).second)
        continue;
      int64_t elements = 0;
      if (!blk::runtime::getTensorElements(
              argument, problem.desc.getProgramShape(), elements))
        return INFINITY;
      tensors += double(elements) * double(argument.bytes);
      elementCount += double(elements);
      if (argument.role == blk::runtime::ArgRole::output)
        outputs += double(elements);
    }
  double matrix = double(problem.rows()) * double(problem.cols());
  // Beside the tensors: the CPU run's copies (--reference cpu) or the
  // float64 reference's doubles of every tensor.
  bool againstProgram = checkOption && !problem.reference &&
                        !problem.againstCPULowering;
  return tensors * (checkOption && problem.againstCPULowering ? 2 : 1) +
         (againstProgram ? elementCount * sizeof(double) : 0) +
         (checkOption ? outputs * sizeof(double) : 0) +
         (writesOutputs() ? matrix * sizeof(float) : 0);
}

/// Refuses a problem that needs more host memory than the machine has,
/// before anything is allocated.
bool checkHostMemory(const Problem &problem,
                     const std::vector<mlir::blk::KernelSignature> &fitted,
                     std::string &error) {
  double needed = hostBytesNeeded(problem, fitted);
  if (needed > double(hostMemoryBytes())) {
    error = "the problem needs " +
            (std::isinf(needed) ? std::string("more bytes than 64 bits count")
                                : std::to_string(uint64_t(needed / 1e6)) +
                                      " MB") +
            " of host memory (tensors, reference), more than this machine has";
    return false;
  }
  return true;
}

/// Reads the .npy file `path` for tensor `name` of `role` (--input
/// NAME=FILE, --expect NAME=FILE: `flag`) into `array`; fails, saying why,
/// where the program has no such tensor or the file's kind of number or
/// shape is not the tensor's.
bool readTensorFile(const char *flag, blk::runtime::ArgRole role,
                    const std::string &name, const std::string &path,
                    const std::vector<blk::runtime::HostTensor> &tensors,
                    blk::runtime::NpyArray &array, std::string &error) {
  std::string what = std::string(flag) + " " + name + "=" + path + ": ";
  const char *roleName =
      role == blk::runtime::ArgRole::input ? "input" : "output";
  const blk::runtime::HostTensor *tensor =
      blk::runtime::findTensor(tensors, name);
  if (!tensor || tensor->getDeclaration().role != role) {
    std::vector<std::string> named;
    for (const blk::runtime::HostTensor &each : tensors)
      if (each.getDeclaration().role == role)
        named.push_back(each.getName());
    error = what + "the program has no " + roleName + " tensor '" + name +
            "' (its " + roleName + "s: " + llvm::join(named, ", ") + ")";
    return false;
  }
  if (Status status = blk::runtime::readNpy(path, array); !status) {
    error = status.message();
    return false;
  }
  bool integerFile = array.storedDtype == blk::runtime::NpyDtype::Int32 ||
                     array.storedDtype == blk::runtime::NpyDtype::Int64;
  if (integerFile == tensor->isFloat()) {
    error = what + "the file holds " + (integerFile ? "integers" : "floats") +
            ", but '" + name + "' is a tensor of " +
            tensor->getDeclaration().type;
    return false;
  }
  bool vector =
      tensor->getDeclaration().extent != blk::runtime::ArgExtent::matrix;
  int64_t elements = tensor->getRows() * tensor->getCols();
  bool fits = vector ? array.rows * array.cols == size_t(elements) &&
                           (array.rows == 1 || array.cols == 1)
                     : array.rows == size_t(tensor->getRows()) &&
                           array.cols == size_t(tensor->getCols());
  if (!fits) {
    error = what + "the file holds " + std::to_string(array.rows) + " x " +
            std::to_string(array.cols) + " values, but '" + name + "' is " +
            (vector ? std::to_string(elements) + " values"
                    : std::to_string(tensor->getRows()) + " x " +
                          std::to_string(tensor->getCols()));
    return false;
  }
  return true;
}

/// --input NAME=FILE: fills input tensor `name` from `path`.
bool readNamedInput(const std::string &name, const std::string &path,
                    std::vector<blk::runtime::HostTensor> &tensors,
                    std::string &error) {
  blk::runtime::NpyArray array;
  if (!readTensorFile("--input", blk::runtime::ArgRole::input, name, path,
                      tensors, array, error))
    return false;
  blk::runtime::HostTensor &tensor = *blk::runtime::findTensor(tensors, name);
  for (int64_t r = 0; r < tensor.getRows(); ++r)
    for (int64_t c = 0; c < tensor.getCols(); ++c)
      tensor.set(r, c, array.values[r * tensor.getCols() + c]);
  return true;
}

/// --expect NAME=FILE: what output `name` must hold, from `path`.
bool readExpected(const std::string &name, const std::string &path,
                  const std::vector<blk::runtime::HostTensor> &tensors,
                  blk::runtime::ReferenceOutput &expected,
                  std::string &error) {
  blk::runtime::NpyArray array;
  if (!readTensorFile("--expect", blk::runtime::ArgRole::output, name, path,
                      tensors, array, error))
    return false;
  expected.name = name;
  expected.values.assign(array.values.begin(), array.values.end());
  return true;
}

/// The host tensors of the fitted program with their inputs: the --input
/// file in the primary input and seeded data (with --special, special
/// rows) everywhere else, shaped for the reference kind.
bool makeTensors(const std::vector<mlir::blk::KernelSignature> &fitted,
                 const Problem &problem, const Specialization &binding,
                 const blk::runtime::NpyArray &array,
                 std::vector<blk::runtime::HostTensor> &tensors,
                 std::string &error) {
  if (Status status = blk::runtime::createHostTensors(
          fitted, problem.desc.getProgramShape(), tensors);
      !status) {
    error = status.message();
    return false;
  }
  blk::runtime::ScalarValues scalars = getScalars(problem, binding);
  if (problem.reference)
    if (Status status = blk::runtime::checkContract(*problem.reference,
                                                    tensors, scalars);
        !status) {
      error = "--reference " +
              std::string(blk::runtime::getReferenceKindName(
                  *problem.reference)) +
              ": " + status.message();
      return false;
    }
  blk::runtime::fillInputs(problem.reference ? &*problem.reference : nullptr,
                           problem.cols(), tensors, scalars, seedOption,
                           specialOption);
  if (!primaryInput.empty()) {
    blk::runtime::HostTensor &input =
        *blk::runtime::findTensor(tensors, problem.input);
    for (int64_t r = 0; r < problem.rows(); ++r)
      for (int64_t c = 0; c < problem.cols(); ++c)
        input.set(r, c, array.values[r * problem.cols() + c]);
  }
  for (const auto &[name, path] : namedInputs)
    if (!readNamedInput(name, path, tensors, error))
      return false;
  return true;
}

/// NAME=VALUE bindings of a list option into `values`.
template <typename Map, typename Parse>
bool parseBindings(const cl::list<std::string> &bindings, const char *flag,
                   Map &values, Parse parse, std::string &error) {
  for (const std::string &binding : bindings) {
    auto [name, text] = llvm::StringRef(binding).split('=');
    typename Map::mapped_type value;
    if (name.empty() || !parse(text, value)) {
      error = std::string(flag) + " " + binding + ": expected NAME=VALUE";
      return false;
    }
    if (!values.try_emplace(name.str(), value).second) {
      error = std::string(flag) + " " + binding + ": " + name.str() +
              " is given twice";
      return false;
    }
  }
  return true;
}

/// What the check line says an output was compared with.
std::string describeReference(const Problem &problem) {
  if (problem.reference)
    return "the float64 " +
           std::string(blk::runtime::getReferenceKindName(*problem.reference)) +
           " reference";
  if (problem.againstCPULowering)
    return "the CPU lowering";
  return "the program in float64";
}

/// The float64 reference of every output: the kind's where the problem has
/// one, else the specialized program's, run op by op on the run's inputs
/// (and zeroed scratch tensors, as a launch gives them). False, with the
/// errors printed, where the program cannot be run so.
bool computeExpected(mlir::ModuleOp fitted, const Problem &problem,
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
          *signatures, problem.desc.getProgramShape(), all,
          blk::runtime::TensorGroup::scratch);
      !status) {
    fail(status.message());
    return false;
  }
  all.insert(all.begin(), tensors.begin(), tensors.end());
  return mlir::succeeded(mlir::blk::interpretProgram(
      **specialized, binding.getGrid(problem.desc.rows),
      problem.desc.getProgramShape(), all, scalars, expected));
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

/// Compares each output with what was expected of it; prints a line per
/// output, saying what it was compared `against`: floats within the
/// tolerance of their type, integers exactly.
bool checkOutputs(const std::vector<blk::runtime::HostTensor> &tensors,
                  const std::vector<blk::runtime::ReferenceOutput> &expected,
                  llvm::StringRef against) {
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
    blk::runtime::ErrorStats stats = blk::runtime::compareToReference(
        output.getBytes().data(), output.getElementType(), output.getRows(),
        output.getCols(), output.getRowStride(), reference.values.data());
    double tolerance = blk::runtime::getCheckTolerance(output.getElementType());
    bool matches = stats.passes(output.getElementType());
    ok &= matches;
    report() << "  check";
    if (expected.size() > 1)
      report() << " " << reference.name;
    report() << ": " << stats.summary() << "  " << (matches ? "OK" : "FAILED")
             << " (relative L2 tolerance " << llvm::format("%.0e", tolerance)
             << ", against " << against << ")\n";
    RunFacts::get().addCheck(llvm::json::Object{
        {"output", reference.name},
         {"passed", matches},
         {"against", against.str()},
         {"tolerance", tolerance},
         {"compared", int64_t(stats.comparedCount)},
         {"max_abs", stats.maxAbsError},
         {"max_rel", stats.maxRelError},
         {"rel_l2", stats.relL2Error},
         {"nan_mismatches", int64_t(stats.nanMismatchCount)},
         {"inf_mismatches", int64_t(stats.infMismatchCount)},
         {"unwritten", int64_t(stats.unwrittenCount)}});
  }
  return ok;
}

/// Writes output tensor `output` to `path` in its own type (f32 and bf16
/// as float32, f16 as float16, integers exactly): a matrix 2-D (1-D where
/// `dimensions` is 1: one row read from a 1-D file), a vector 1-D.
Status writeTensor(const blk::runtime::HostTensor &output,
                   const std::string &path, unsigned dimensions) {
  int64_t rows = output.getRows(), cols = output.getCols();
  bool vector =
      output.getDeclaration().extent != blk::runtime::ArgExtent::matrix;
  size_t fileRows = vector ? 1 : rows, fileCols = vector ? rows * cols : cols;
  unsigned fileDimensions = vector ? 1 : dimensions;
  if (!output.isFloat()) {
    std::vector<int64_t> values(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        values[r * cols + c] = output.getInteger(r, c);
    return blk::runtime::writeNpyIntegers(
        path, fileRows, fileCols, values.data(),
        output.getDeclaration().bytes == 4 ? blk::runtime::NpyDtype::Int32
                                           : blk::runtime::NpyDtype::Int64,
        fileDimensions);
  }
  std::vector<float> values(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      values[r * cols + c] = float(output.get(r, c));
  return blk::runtime::writeNpy(path, fileRows, fileCols, values.data(),
                                output.getElementType() == ElementType::F16
                                    ? blk::runtime::NpyDtype::Float16
                                    : blk::runtime::NpyDtype::Float32,
                                fileDimensions);
}

/// Fails, naming the program's outputs, if a --output NAME=FILE names no
/// output tensor (before the run, so that nothing is run for nothing).
bool checkOutputNames(const std::vector<blk::runtime::HostTensor> &tensors,
                      std::string &error) {
  std::vector<std::string> outputs;
  for (const blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      outputs.push_back(tensor.getName());
  for (const auto &[name, path] : namedOutputs)
    if (!llvm::is_contained(outputs, name)) {
      error = "--output " + name + "=" + path +
              ": the program has no output '" + name + "' (its outputs: " +
              llvm::join(outputs, ", ") + ")";
      return false;
    }
  return true;
}

/// Reads every --expect file into expectedFiles (before the run), failing,
/// saying why, where one does not fit its output.
bool readExpectFiles(const std::vector<blk::runtime::HostTensor> &tensors,
                     std::string &error) {
  for (const auto &[name, path] : expectedOutputs) {
    blk::runtime::ReferenceOutput file;
    if (!readExpected(name, path, tensors, file, error))
      return false;
    expectedFiles.push_back(std::move(file));
  }
  return true;
}

/// Writes every --output: the unnamed file gets the problem's primary
/// output, each NAME=FILE its output tensor (checkOutputNames first).
bool writeOutputs(const Problem &problem,
                  const std::vector<blk::runtime::HostTensor> &tensors,
                  std::string &error) {
  std::vector<std::pair<std::string, std::string>> files = namedOutputs;
  if (!primaryOutput.empty())
    files.insert(files.begin(), {problem.output, primaryOutput});
  for (const auto &[name, path] : files) {
    const blk::runtime::HostTensor *output =
        blk::runtime::findTensor(tensors, name);
    if (Status status = writeTensor(*output, path,
                                    name == problem.output
                                        ? problem.inputDimensions
                                        : 2);
        !status) {
      error = status.message();
      return false;
    }
  }
  return true;
}

/// What `write` prints, written whole or not at all
/// (blk::runtime::writeFileWhole); a failure is printed.
bool writeOutputFile(const std::string &path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string text;
  llvm::raw_string_ostream os(text);
  write(os);
  if (Status status = blk::runtime::writeFileWhole(path, text); !status) {
    fail(status.message());
    return false;
  }
  return true;
}

/// Adds a row to the CSV: the file is rewritten through a temporary file
/// renamed over it, so a failed write leaves the rows it had.
/// `target` says where the row was measured ("cpu", "gpu NVIDIA H200
/// sm_90"); rows are only added to a file with the same columns.
bool appendCsv(const Problem &problem, const std::string &provider,
               double gbps, std::string target) {
  const llvm::StringRef header = "dtype,M,N,provider,gbps,target\n";
  std::string previous = header.str();
  if (llvm::sys::fs::is_regular_file(csvPath)) {
    auto file = llvm::MemoryBuffer::getFile(csvPath);
    if (!file) {
      fail("cannot read " + csvPath + ": " + file.getError().message());
      return false;
    }
    previous = (*file)->getBuffer().str();
    if (!previous.empty() && !llvm::StringRef(previous).starts_with(header)) {
      fail(csvPath + " has other columns than " + header.rtrim().str() +
           " (written by an older softmax-run?); give a new file");
      return false;
    }
    if (!previous.empty() && previous.back() != '\n')
      previous += '\n';
    if (previous.empty())
      previous = header.str();
  }
  std::replace(target.begin(), target.end(), ',', ' ');
  return writeOutputFile(csvPath, [&](llvm::raw_ostream &csv) {
    csv << previous << blk::runtime::elementTypeName(problem.type()) << ","
        << problem.rows() << "," << problem.cols() << "," << provider << ","
        << llvm::format("%.1f", gbps) << "," << target << "\n";
  });
}

/// One more launch after the timed ones, on outputs poisoned again, writes
/// byte for byte what the checked launch wrote: a program whose launches
/// share state (blk.program_barrier's counters) is right every time, not
/// only the first.
bool relaunchMatches(GpuExecution &gpu, blk::runtime::GpuProgram &program,
                     const Problem &problem,
                     const std::vector<blk::runtime::HostTensor> &checked) {
  std::vector<blk::runtime::HostTensor> again = checked;
  if (Status status = gpu.run(program, problem, again); !status) {
    fail(status.message());
    return false;
  }
  for (size_t i = 0; i < checked.size(); ++i)
    if (checked[i].getDeclaration().role == blk::runtime::ArgRole::output &&
        checked[i].getBytes() != again[i].getBytes()) {
      report() << "  FAIL: a launch after the timed ones wrote another '"
               << checked[i].getName() << "' than the checked launch\n";
      return false;
    }
  report() << "  relaunch: same outputs as the checked launch\n";
  return true;
}

/// --check (against `expected`), --expect and --output on a run's tensors;
/// false if a comparison failed (no output is then written) or an output
/// could not be written.
bool checkAndWrite(const Problem &problem,
                   const std::vector<blk::runtime::HostTensor> &tensors,
                   const std::vector<blk::runtime::ReferenceOutput> &expected,
                   llvm::StringRef against) {
  bool matches = !checkOption || checkOutputs(tensors, expected, against);
  for (size_t i = 0; i < expectedFiles.size(); ++i)
    matches &= checkOutputs(tensors, {expectedFiles[i]},
                            expectedOutputs[i].second);
  if (!matches) {
    if (writesOutputs())
      llvm::errs() << "softmax-run: the check failed; "
                   << llvm::join(outputOptions, ", ")
                   << (outputOptions.size() == 1 ? " is" : " are")
                   << " not written\n";
    return false;
  }
  std::string error;
  if (writesOutputs() && !writeOutputs(problem, tensors, error)) {
    llvm::errs() << "softmax-run: " << error << "\n";
    return false;
  }
  return true;
}

/// Prints the timing (and appends it to --csv); false if the CSV could not
/// be written.
bool reportBench(const Problem &problem, const std::string &kernel,
                 const std::string &target, uint64_t movedBytes,
                 double milliseconds, double copyGBps, int runs,
                 const char *how, const char *copyKind) {
  double gbps = double(movedBytes) / (milliseconds * 1e6);
  report() << "  bench: " << llvm::format("%.4f", milliseconds)
               << " ms (median of " << runs << how << "), "
               << llvm::format("%.1f", gbps) << " GB/s";
  if (copyGBps > 0)
    report() << " = " << llvm::format("%.1f", 100 * gbps / copyGBps)
                 << "% of a " << copyKind << " copy (" << llvm::format("%.1f", copyGBps)
                 << " GB/s)";
  report() << "\n";
  llvm::json::Object bench{{"ms", milliseconds}, {"runs", runs},
                           {"gbps", gbps}};
  if (copyGBps > 0) {
    bench["copy_gbps"] = copyGBps;
    bench["percent_of_copy"] = 100 * gbps / copyGBps;
  }
  RunFacts::get().set("bench", std::move(bench));
  if (csvPath.empty())
    return true;
  return appendCsv(problem,
                   providerOption.empty() ? "blk-" + kernel
                                          : providerOption.getValue(),
                   gbps, target);
}

/// A compiled program loaded on the GPU.
struct LoadedProgram {
  std::unique_ptr<blk::runtime::GpuProgram> program;
  mlir::blk::CompileTimes times;
  /// Milliseconds to load the PTX (the driver's JIT).
  double loadMs = 0;
};

/// Compiles one binding of the fitted program (or takes it from the
/// cache) and loads it.
Status buildOnGPU(blk::runtime::CudaDriver &driver, mlir::ModuleOp fitted,
                  const Problem &problem,
                  const mlir::blk::CompileOptions &options,
                  const Specialization &binding, LoadedProgram &loaded) {
  auto compiled =
      mlir::blk::compileProgram(fitted, problem.desc, binding, options);
  if (mlir::failed(compiled))
    return Status::failure("compilation failed (see the errors above)");
  loaded.times = compiled->times;
  auto start = std::chrono::steady_clock::now();
  Status status = blk::runtime::GpuProgram::load(
      driver, std::move(compiled->image), loaded.program);
  loaded.loadMs = millisecondsSince(start);
  return status;
}

/// --verbose: where the compile time went.
void reportCompileTimes(const mlir::blk::CompileTimes &times, double loadMs) {
  RunFacts::get().set("compile", llvm::json::Object{
                                     {"cache_hit", times.cacheHit},
                                     {"lookup_ms", times.lookup},
                                     {"compile_ms", times.compile},
                                     {"load_ms", loadMs}});
  if (!verboseOption)
    return;
  report() << "  compile: "
           << (times.cacheHit ? "cache hit" : "compiled") << ", look-up "
           << llvm::format("%.2f", times.lookup) << " ms, compile "
           << llvm::format("%.2f", times.compile) << " ms, load "
           << llvm::format("%.2f", loadMs) << " ms\n";
}

/// Times every candidate binding (20 runs each) and returns the fastest;
/// candidates that do not compile (too many registers...) are skipped
/// quietly.
bool tuneOnGPU(GpuExecution &gpu, blk::runtime::CudaDriver &driver,
               mlir::ModuleOp fitted, const Problem &problem,
               const std::vector<blk::runtime::HostTensor> &tensors,
               const mlir::blk::CompileOptions &options, Specialization &best) {
  auto candidates = mlir::blk::candidateBindings(fitted, problem.desc, options);
  if (mlir::failed(candidates))
    return false;
  double bestGBps = 0;
  int tried = 0;
  for (const Specialization &candidate : *candidates) {
    mlir::ScopedDiagnosticHandler quiet(
        fitted.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    LoadedProgram loaded;
    BenchResult bench;
    if (!buildOnGPU(driver, fitted, problem, options, candidate, loaded) ||
        !gpu.bench(*loaded.program, problem, tensors, 20, bench))
      continue;
    ++tried;
    if (bench.kernelGBps > bestGBps) {
      bestGBps = bench.kernelGBps;
      best = candidate;
    }
  }
  report() << "  autotune: " << tried << " candidates timed, best "
               << best.describe() << " ("
               << llvm::format("%.1f", bestGBps) << " GB/s)\n";
  return tried > 0;
}

/// The binding --autotune chooses: remembered for this device, program and
/// problem, else the fastest candidate, then remembered.
bool autotune(GpuExecution &gpu, blk::runtime::CudaDriver &driver,
              mlir::ModuleOp program, mlir::ModuleOp fitted,
              llvm::StringRef programName, const Problem &problem,
              const std::vector<blk::runtime::HostTensor> &tensors,
              const mlir::blk::CompileOptions &options,
              Specialization &binding) {
  AutotuneCache cache(autotuneCachePath);
  std::string key = AutotuneCache::key(driver.device().name + " " + options.chip,
                                       program, programName.str(), problem);
  if (auto remembered = cache.lookup(key)) {
    mlir::blk::CompileOptions fixed = options;
    fixed.constants.clear();
    for (const auto &constant : remembered->constants)
      fixed.constants[constant.getKey().str()] = constant.getValue();
    fixed.numWarps = remembered->numWarps;
    fixed.numCtas = remembered->numCtas;
    fixed.numStages = remembered->numStages;
    auto chosen = mlir::blk::chooseBinding(fitted, problem.desc, fixed);
    if (mlir::succeeded(chosen)) {
      binding = std::move(*chosen);
      report() << "  autotune: remembered in " << cache.getPath() << "\n";
      return true;
    }
    llvm::errs() << "softmax-run: autotune: the binding remembered in "
                 << cache.getPath()
                 << " does not fit (see above); tuning again\n";
  }
  if (!tuneOnGPU(gpu, driver, fitted, problem, tensors, options, binding)) {
    llvm::errs() << "softmax-run: autotune: no candidate compiled and ran\n";
    return false;
  }
  std::string error;
  if (!cache.store(key, binding, error))
    llvm::errs() << "softmax-run: autotune cache: " << error << "\n";
  return true;
}

/// What --check compares a GPU run with when the problem names no kernel
/// kind: the same program compiled for the CPU (with its own binding and
/// bounds checks), run on the same inputs.
bool expectFromCPU(mlir::ModuleOp fitted, const Problem &problem,
                   const mlir::blk::CompileOptions &gpuOptions,
                   std::vector<blk::runtime::HostTensor> tensors,
                   std::vector<blk::runtime::ReferenceOutput> &expected) {
  mlir::blk::CompileOptions options = gpuOptions;
  options.target = mlir::blk::TargetKind::CPU;
  options.checkBounds = true;
  options.numWarps = options.numCtas = 0;
  auto binding = mlir::blk::chooseBinding(fitted, problem.desc, options);
  if (mlir::failed(binding))
    return false;
  auto compiled =
      mlir::blk::compileProgram(fitted, problem.desc, *binding, options);
  if (mlir::failed(compiled))
    return false;
  CpuExecution cpu(std::move(*compiled), threadsOption);
  if (mlir::failed(cpu.run(problem, tensors)))
    return false;
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

/// `driverMs`: how long loading the CUDA driver and its context took.
/// The target and the binding it runs (autotuning may have chosen another
/// than the rules), for --json.
void recordTarget(llvm::StringRef target, const Specialization &binding,
                  const Problem &problem) {
  RunFacts &facts = RunFacts::get();
  facts.set("target", target.str());
  facts.set("binding", binding.describe());
  facts.set("grid", binding.getGrid(problem.desc.rows));
}

int runOnGPU(blk::runtime::CudaDriver &driver, double driverMs,
             mlir::ModuleOp program, mlir::ModuleOp fitted,
             llvm::StringRef programName, const Problem &problem,
             std::vector<blk::runtime::HostTensor> &tensors,
             Specialization binding, const mlir::blk::CompileOptions &options) {
  const blk::runtime::DeviceInfo &device = driver.device();
  GpuExecution gpu(driver);
  if (autotuneOption && !autotune(gpu, driver, program, fitted, programName,
                                  problem, tensors, options, binding))
    return 1;

  report() << "  target: GPU " << device.name << " (" << options.chip << "), "
           << binding.describe() << ", grid "
           << binding.getGrid(problem.desc.rows) << "\n";
  recordTarget("gpu", binding, problem);
  RunFacts::get().set("device", device.name);
  RunFacts::get().set("chip", options.chip);
  LoadedProgram loaded;
  if (Status status =
          buildOnGPU(driver, fitted, problem, options, binding, loaded);
      !status)
    return fail(status.message());
  blk::runtime::GpuProgram &gpuProgram = *loaded.program;
  for (size_t k = 0; k < gpuProgram.image().signatures.size(); ++k) {
    int64_t grid = 0;
    if (Status status = gpuProgram.getGrid(k, problem.desc.rows, grid); !status)
      return fail(status.message());
    if (grid != binding.getGrid(problem.desc.rows))
      report() << "  persistent grid of @"
               << gpuProgram.image().signatures[k].name << ": " << grid
               << " programs\n";
  }
  reportCompileTimes(loaded.times, loaded.loadMs);
  if (verboseOption) {
    report() << "  CUDA driver and context: " << llvm::format("%.1f", driverMs)
             << " ms\n";
    std::string description;
    if (Status status = gpuProgram.describe(description); !status)
      return fail(status.message());
    report() << description;
  }

  bool ok = true;
  if (checkOption || writesOutputs() || !expectedOutputs.empty()) {
    std::vector<blk::runtime::ReferenceOutput> expected;
    if (checkOption && problem.againstCPULowering) {
      if (!expectFromCPU(fitted, problem, options, tensors, expected))
        return fail("the CPU run --check compares with failed (see above)");
    } else if (checkOption &&
               !computeExpected(fitted, problem, binding, tensors, expected)) {
      return fail("the float64 reference could not be computed (see above)");
    }
    if (Status status = gpu.run(gpuProgram, problem, tensors); !status)
      return fail(status.message());
    ok = checkAndWrite(problem, tensors, expected,
                       describeReference(problem));
  }
  if (benchOption) {
    BenchResult bench;
    if (Status status = gpu.bench(gpuProgram, problem, tensors,
                                  std::max(20, runsOption.getValue()), bench);
        !status)
      return fail(status.message());
    ok = reportBench(problem, gpuProgram.image().signatures.front().name,
                     "gpu " + device.name + " " + options.chip,
                     getMovedBytes(tensors), bench.kernelMs, bench.copyGBps,
                     bench.runs, ", L2 flushed", "device") &&
         ok;
    if (checkOption && !relaunchMatches(gpu, gpuProgram, problem, tensors))
      ok = false;
  }
  return ok ? 0 : 1;
}

/// Compiles the binding for the GPU and writes the PTX to --emit-ptx.
bool emitPTX(mlir::ModuleOp fitted, const Problem &problem,
             const Specialization &binding,
             const mlir::blk::CompileOptions &options) {
  auto compiled =
      mlir::blk::compileProgram(fitted, problem.desc, binding, options);
  if (mlir::failed(compiled)) {
    fail("compilation failed (see the errors above)");
    return false;
  }
  reportCompileTimes(compiled->times, /*loadMs=*/0);
  report() << "  PTX for " << options.chip << ", " << binding.describe()
           << ", grid " << binding.getGrid(problem.desc.rows) << ": "
           << emitPtxPath << "\n";
  return writeOutputFile(emitPtxPath, [&](llvm::raw_ostream &os) {
    os << compiled->image.ptx;
  });
}

int runOnCPU(mlir::ModuleOp fitted, const Problem &problem,
             std::vector<blk::runtime::HostTensor> &tensors,
             const Specialization &binding,
             const mlir::blk::CompileOptions &options) {
  if (autotuneOption)
    report() << "  autotune: times kernels on the GPU; not on the CPU\n";
  unsigned threads = mlir::blk::CPUKernels::getThreads(
      threadsOption, binding.getGrid(problem.desc.rows));
  report() << "  target: CPU (JIT), " << binding.describe() << ", grid "
           << binding.getGrid(problem.desc.rows) << ", " << threads
           << (threads == 1 ? " thread" : " threads") << "\n";
  recordTarget("cpu", binding, problem);
  RunFacts::get().set("threads", int64_t(threads));
  auto compiled =
      mlir::blk::compileProgram(fitted, problem.desc, binding, options);
  if (mlir::failed(compiled))
    return fail("compilation failed (see the errors above)");
  reportCompileTimes(compiled->times, compiled->times.load);
  std::string kernel = compiled->getSignatures().front().name;
  CpuExecution cpu(std::move(*compiled), threads);
  std::vector<blk::runtime::ReferenceOutput> expected;
  if (checkOption &&
      !computeExpected(fitted, problem, binding, tensors, expected))
    return fail("the float64 reference could not be computed (see above)");
  // The timed runs start where the checked one did.
  std::vector<blk::runtime::HostTensor> start;
  if (benchOption)
    start = tensors;
  if (mlir::failed(cpu.run(problem, tensors)))
    return fail("the CPU run failed (see the errors above)");
  bool ok = checkAndWrite(problem, tensors, expected,
                          describeReference(problem));
  if (benchOption) {
    // The checked run above showed that this binding stays in the buffers
    // of this problem; the timing is of the code without checks (a call
    // per element access: 0.8 instead of 1.1 GB/s at 4096 x 1024).
    mlir::blk::CompileOptions unchecked = options;
    unchecked.checkBounds = false;
    auto timed =
        mlir::blk::compileProgram(fitted, problem.desc, binding, unchecked);
    if (mlir::failed(timed))
      return fail("compilation failed (see the errors above)");
    CpuExecution timedCpu(std::move(*timed), threads);
    double milliseconds = 0;
    int runs = std::max(3, std::min(20, runsOption.getValue()));
    if (mlir::failed(
            timedCpu.time(problem, start, tensors, runs, milliseconds)))
      return fail("the CPU run failed (see the errors above)");
    uint64_t moved = getMovedBytes(tensors);
    double copyGBps = timedCpu.timeCopy(std::max<uint64_t>(moved / 2, 1), runs);
    ok = reportBench(problem, kernel,
                     "cpu " + std::to_string(threads) +
                         (threads == 1 ? " thread" : " threads"),
                     moved, milliseconds, copyGBps, runs, ", wall clock",
                     "host") &&
         ok;
  }
  return ok ? 0 : 1;
}

/// Everything but the --json object: parses the options, compiles, runs,
/// checks and times; the exit status.
int runTool(int argc, char **argv) {
  // Past a file-size limit a write fails with EFBIG, which is reported like
  // any failed write, instead of the signal (whose LLVM handler prints a
  // crash report).
  std::signal(SIGXFSZ, SIG_IGN);
  // LLVM's own options would bury softmax-run's in --help.
  cl::HideUnrelatedOptions({&problemCategory, &filesCategory, &checkCategory,
                            &benchCategory, &compileCategory});
  mlir::blk::addVersionPrinter("softmax-run");
  cl::ParseCommandLineOptions(
      argc, argv, "softmax-run: compile a block program, run, check, time\n");
  std::string error;
  if (probeOption) {
    std::unique_ptr<blk::runtime::CudaDriver> driver;
    blk::runtime::Status loaded = blk::runtime::CudaDriver::load(driver);
    report() << (loaded ? driver->device().summary() : loaded.message())
                 << "\n";
    return loaded ? 0 : 1;
  }
  if (programPath.empty())
    return fail("no program given (softmax-run PROGRAM.mlir --rows M --cols N)");
  if (targetOption != "gpu" && targetOption != "cpu" && targetOption != "auto")
    return fail("--target must be gpu, cpu or auto");
  if (std::string invalid = compileOptions.verify(); !invalid.empty())
    return fail("--" + invalid);
  if (runsOption < 1)
    return fail("--runs must be at least 1");
  if (!csvPath.empty() && !benchOption)
    return fail("--csv records timings: give --bench too");
  Problem problem;
  blk::runtime::NpyArray array;
  if (!parseInputsAndOutputs(error) || !readShape(problem, array, error))
    return fail(error);
  mlir::blk::CompileOptions options = compileOptions;
  options.cacheDirectory =
      noCacheOption ? ""
      : cacheDirOption.getNumOccurrences()
          ? cacheDirOption.getValue()
          : blk::runtime::KernelCache::getDefaultDirectory();
  if (cacheSizeOption.getNumOccurrences() &&
      !blk::runtime::KernelCache::parseSize(cacheSizeOption,
                                            options.cacheSizeLimit))
    return fail("--cache-size=" + cacheSizeOption +
                " is not a size (bytes, or a number with K, M or G, more "
                "than 0)");
  auto parseInteger = [](llvm::StringRef text, int64_t &value) {
    return !text.getAsInteger(10, value);
  };
  auto keepText = [](llvm::StringRef text, std::string &value) {
    value = text.str();
    return !text.empty();
  };
  if (!parseBindings(constOptions, "--const", options.constants, parseInteger,
                     error) ||
      !parseBindings(paramOptions, "--param", problem.params, keepText, error))
    return fail(error);

  // The target comes first: the program `auto` picks depends on it.
  std::unique_ptr<blk::runtime::CudaDriver> driver;
  blk::runtime::Status gpuLoad = blk::runtime::Status::success();
  double driverMs = 0;
  if (targetOption != "cpu") {
    auto start = std::chrono::steady_clock::now();
    gpuLoad = blk::runtime::CudaDriver::load(driver);
    driverMs = millisecondsSince(start);
    if (!gpuLoad && targetOption == "gpu")
      return fail(gpuLoad.message());
  }
  // --emit-ptx compiles for a GPU, present or not.
  bool forGPU = driver || !emitPtxPath.empty();
  options.target =
      forGPU ? mlir::blk::TargetKind::GPU : mlir::blk::TargetKind::CPU;
  if (!chipOption.empty())
    options.chip = chipOption;
  else if (driver)
    options.chip = driver->device().smArch();
  else if (forGPU)
    options.chip = mlir::blk::TargetInfo::kDefaultChip;
  // The device's SMs describe the chip compiled for only when it is the
  // device's (--chip sm_120 on an H100 compiles for a chip not present).
  if (driver && options.chip == driver->device().smArch())
    options.multiprocessors = driver->device().multiprocessorCount;

  mlir::DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  // An error points at a line of the program; the whole module printed
  // after it would bury it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string programName;
  if (!addProgramSource(sourceMgr, problem, options, programName, error))
    return fail(error);
  mlir::OwningOpRef<mlir::ModuleOp> program =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!program)
    return fail("cannot parse the program " + programName);

  auto signatures = mlir::blk::getKernelSignatures(*program);
  if (mlir::failed(signatures))
    return fail("the program's kernels cannot be run (see above)");
  if (!findInputAndOutput(*signatures, problem, error) ||
      !checkParams(*signatures, problem, error) ||
      !chooseReference(*signatures, problem, error))
    return fail(error);
  if (inStrideOption)
    problem.desc.rowStrides[problem.input] = inStrideOption;
  if (outStrideOption)
    problem.desc.rowStrides[problem.output] = outStrideOption;
  auto fitted = mlir::blk::fitProgram(*program, problem.desc);
  if (mlir::failed(fitted))
    return fail("the program cannot be fitted to the problem (see above)");
  auto binding = mlir::blk::chooseBinding(**fitted, problem.desc, options);
  if (mlir::failed(binding))
    return fail("the program cannot be bound to the problem (see above)");

  report() << programName << ": " << problem.rows() << " x "
               << problem.cols() << " "
               << blk::runtime::elementTypeName(problem.type())
               << (programPath == "auto" ? " (auto)" : "") << "\n";
  RunFacts &facts = RunFacts::get();
  facts.set("program", programName);
  facts.set("rows", problem.rows());
  facts.set("cols", problem.cols());
  facts.set("dtype",
            std::string(blk::runtime::elementTypeName(problem.type())));
  facts.set("binding", binding->describe());
  facts.set("grid", binding->getGrid(problem.rows()));
  if (!emitPtxPath.empty()) {
    if (!emitPTX(**fitted, problem, *binding, options))
      return 1;
    if (!driver)
      return 0;
  }
  if (checkOption && problem.againstCPULowering && !driver)
    return fail("--reference cpu compares a GPU run with the CPU lowering; "
                "on the CPU, --check compares with the program in float64 "
                "(or --reference KIND)");
  // Only a run needs the data (--emit-ptx alone compiles).
  auto fittedSignatures = mlir::blk::getKernelSignatures(**fitted);
  if (mlir::failed(fittedSignatures))
    return fail("the program's kernels cannot be run (see above)");
  std::vector<blk::runtime::HostTensor> tensors;
  if (!checkHostMemory(problem, *fittedSignatures, error) ||
      !makeTensors(*fittedSignatures, problem, *binding, array, tensors,
                   error) ||
      !checkOutputNames(tensors, error) || !readExpectFiles(tensors, error))
    return fail(error);
  if (driver)
    return runOnGPU(*driver, driverMs, *program, **fitted, programName,
                    problem, tensors, *binding, options);
  if (targetOption == "auto")
    report() << "  no GPU (" << gpuLoad.message()
                 << "): running on the CPU\n";
  return runOnCPU(**fitted, problem, tensors, *binding, options);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  ::blk::installCrashWatchdog("softmax-run");
  int result = runTool(argc, argv);
  if (jsonOption)
    RunFacts::get().print(llvm::outs(), result == 0);
  return result;
}
