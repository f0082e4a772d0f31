//===- Options.cpp - softmax-run's command line, parsed once --------------===//
//
// The cl::opt declarations live here and only here, grouped for --help,
// each with its default; createFromCommandLine copies them into a
// RunOptions.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "blk/Driver/Version.h"
#include "blk/Runtime/KernelCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"

#include <type_traits>

using namespace softmax_run;
namespace cl = llvm::cl;

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
static cl::opt<int64_t> innerOption(
    "inner",
    cl::desc("The inner dimension K of a product (A is M x K, B K x N): "
             "programs with rows_by_inner / inner_by_cols tensors or an "
             "`inner` argument"),
    cl::init(0), cl::cat(problemCategory));
static cl::opt<int64_t> batchOption(
    "batch",
    cl::desc("Problems of the shape side by side, B of --heads H each "
             "(programs with `batch` and `heads` arguments, e.g. attention: "
             "[B, H, M, N] tensors) (default 1)"),
    cl::init(1), cl::cat(problemCategory));
static cl::opt<int64_t> headsOption(
    "heads", cl::desc("Heads H of each of the --batch problems (default 1)"),
    cl::init(1), cl::cat(problemCategory));
static cl::opt<std::string> layoutOption(
    "layout",
    cl::desc("How a batch's matrices lie: bhsd ([B, H, M, N], the default) "
             "or bshd ([B, M, H, N]: a row's heads side by side, as "
             "attention's projections leave them)"),
    cl::init("bhsd"), cl::cat(problemCategory));
static cl::opt<std::string>
    dtypeOption("dtype",
                cl::desc("f32, f16 or bf16 (or float32, float16, bfloat16); "
                         "default f32, or the --input file's"),
                cl::init("f32"), cl::cat(problemCategory));
static cl::list<std::string> inputOptions(
    "input",
    cl::desc("Input .npy: FILE fills the first matrix input and sets the "
             "shape (float32/float16; not with --batch or --heads); NAME=FILE "
             "fills the input tensor NAME (its shape; a batch's holds every "
             "instance; int32/int64 for integer tensors; without --rows, "
             "--cols or FILE, the first 2-D float file sets the shape, and "
             "a product's M x K and K x N operand files set M, N and K). "
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
    csvOption("csv",
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
    cl::init("auto"), cl::cat(problemCategory));
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
// stored straight into the record softmax-run starts from. softmax-run
// checks CPU runs' accesses unless told not to (--check-bounds=false:
// --bench times code without the checks).
static ::blk::CompileOptions knobs = [] {
  ::blk::CompileOptions options;
  options.checkBounds = true;
  return options;
}();
/// " (default X)" for a knob's value in the record softmax-run starts from.
template <typename T>
static std::string describeDefault(const T &value) {
  if constexpr (std::is_same_v<T, bool>)
    return value ? " (default on)" : " (default off)";
  else if constexpr (std::is_same_v<T, std::string>)
    return " (default " + value + ")";
  else
    return " (default " + std::to_string(value) + ")";
}
#define BLK_TARGET_OPTION(...) // --chip, above: its default is the device's
#define BLK_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)                   \
  static const std::string FIELD##Description =                               \
      DESCRIPTION + describeDefault(knobs.FIELD);                              \
  static cl::opt<TYPE, true> FIELD##Flag(FLAG, cl::desc(FIELD##Description),   \
                                         cl::location(knobs.FIELD),            \
                                         cl::cat(compileCategory));
#include "blk/Target/CompileOptions.def"
static cl::opt<std::string> referenceOption(
    "reference",
    cl::desc("What --check compares with: a kernel kind's float64 reference "
             "(softmax, log_softmax, scaled_softmax, softmax_backward, "
             "cross_entropy, rms_norm, layer_norm, matmul, attention, "
             "attention_backward), or cpu: the CPU lowering of the same "
             "program (GPU runs only). Default: softmax for auto, the kind "
             "a one-kernel program is named after (@log_softmax, "
             "@rms_norm...) or a program's module (module "
             "@attention_backward), else (and for a program with a "
             "`precision tf32` blk.dot, which the kinds do not round) the "
             "program itself run in float64"),
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

bool FileArguments::hasStandardOutput() const {
  return unnamed == "-" ||
         llvm::any_of(named, [](const auto &file) { return file.second == "-"; });
}

/// Splits the values of --input, --output or --expect (`flag`) into the one
/// unnamed FILE and the NAME=FILE ones; fails on a second unnamed file or a
/// name given twice.
static bool parseFiles(const cl::list<std::string> &values, const char *flag,
                       FileArguments &files, std::string &error) {
  for (const std::string &value : values) {
    auto [name, path] = llvm::StringRef(value).split('=');
    bool hasName = !name.empty() && llvm::all_of(name, [](char c) {
      return llvm::isAlnum(c) || c == '_';
    });
    if (value.empty() || (hasName && path.empty() &&
                          llvm::StringRef(value).ends_with("="))) {
      error = std::string(flag) + " '" + value + "': needs a file name" +
              (value.empty() ? "" : " after " + value);
      return false;
    }
    bool isNamed = hasName && !path.empty();
    if (!isNamed) {
      if (!files.unnamed.empty()) {
        error = std::string(flag) + " " + value + ": a second unnamed file (" +
                files.unnamed + " is the first); name its tensor with " +
                "NAME=FILE";
        return false;
      }
      files.unnamed = value;
      continue;
    }
    for (const auto &[seen, file] : files.named)
      if (seen == name) {
        error = std::string(flag) + " " + value + ": " + name.str() +
                " is given twice";
        return false;
      }
    files.named.push_back({name.str(), path.str()});
  }
  return true;
}

/// NAME=VALUE bindings of a list option into `values`.
template <typename Map, typename Parse>
static bool parseBindings(const cl::list<std::string> &bindings,
                          const char *flag, const char *valueKind, Map &values,
                          Parse parse, std::string &error) {
  for (const std::string &binding : bindings) {
    auto [name, text] = llvm::StringRef(binding).split('=');
    typename Map::mapped_type value;
    if (name.empty() || !parse(text, value)) {
      error = std::string(flag) + " " + binding +
              ": expected NAME=VALUE, VALUE " + valueKind;
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

/// The files, constants and parameters; false, with `error`, on a value
/// that cannot be right.
static bool parseLists(RunOptions &options, std::string &error) {
  if (!parseFiles(inputOptions, "--input", options.inputs, error) ||
      !parseFiles(outputOptions, "--output", options.outputs, error) ||
      !parseFiles(expectOptions, "--expect", options.expects, error))
    return false;
  if (!options.expects.unnamed.empty()) {
    error = "--expect " + options.expects.unnamed +
            ": name the output the file holds with NAME=FILE";
    return false;
  }
  options.outputList.assign(outputOptions.begin(), outputOptions.end());
  auto parseInteger = [](llvm::StringRef text, int64_t &value) {
    return !text.getAsInteger(10, value);
  };
  auto keepText = [](llvm::StringRef text, std::string &value) {
    value = text.str();
    return !text.empty();
  };
  return parseBindings(constOptions, "--const",
                       "a decimal integer from -2^63 to 2^63 - 1",
                       options.compile.constants, parseInteger, error) &&
         parseBindings(paramOptions, "--param", "not empty", options.params,
                       keepText, error);
}

/// The cache directory and size limit.
/// The unnamed input is one matrix (its shape sets the problem's); a
/// batch's files hold every instance and are read by name.
static bool checkBatchInputs(const RunOptions &options, std::string &error) {
  if (options.batch * options.heads == 1 || options.inputs.unnamed.empty())
    return true;
  error = "--input " + options.inputs.unnamed + ": a batch of " +
          std::to_string(options.batch) + " x " +
          std::to_string(options.heads) +
          " problems reads its inputs by name, each file holding every "
          "instance (--input NAME=FILE), and takes its shape from --rows and "
          "--cols";
  return false;
}

static bool parseCache(::blk::CompileOptions &compile,
                       std::string &error) {
  compile.cacheDirectory =
      noCacheOption ? ""
      : cacheDirOption.getNumOccurrences()
          ? cacheDirOption.getValue()
          : blk::runtime::KernelCache::getDefaultDirectory();
  if (cacheSizeOption.getNumOccurrences() &&
      !blk::runtime::KernelCache::parseSize(cacheSizeOption,
                                            compile.cacheSizeLimit)) {
    error = "--cache-size=" + cacheSizeOption +
            " is not a size (bytes, or a number with K, M or G, more than 0)";
    return false;
  }
  return true;
}

/// Fails, naming it, where an option that takes one value was given more
/// than once (LLVM's parser keeps the last: `--rows 8 --rows 9` ran 9
/// rows); list options (--param, --output...) check their own names.
static bool checkGivenOnce(std::string &error) {
  for (const auto &[name, option] : cl::getRegisteredOptions())
    if (option->getNumOccurrencesFlag() == cl::Optional &&
        option->getNumOccurrences() > 1 &&
        llvm::any_of(option->Categories, [](const cl::OptionCategory *c) {
          return c == &problemCategory || c == &filesCategory ||
                 c == &checkCategory || c == &benchCategory ||
                 c == &compileCategory;
        })) {
      error = "--" + name.str() + " is given more than once";
      return false;
    }
  return true;
}

bool RunOptions::createFromCommandLine(int argc, char **argv,
                                       RunOptions &options,
                                       std::string &error) {
  // LLVM's own options would bury softmax-run's in --help.
  cl::HideUnrelatedOptions({&problemCategory, &filesCategory, &checkCategory,
                            &benchCategory, &compileCategory});
  mlir::blk::addVersionPrinter("softmax-run");
  cl::ParseCommandLineOptions(
      argc, argv, "softmax-run: compile a block program, run, check, time\n");
  if (!checkGivenOnce(error))
    return false;

  options.program = programPath;
  if (rowsOption.getNumOccurrences())
    options.rows = rowsOption;
  if (colsOption.getNumOccurrences())
    options.cols = colsOption;
  if (innerOption.getNumOccurrences())
    options.inner = innerOption;
  options.batch = batchOption;
  options.heads = headsOption;
  options.layout = layoutOption;
  if (options.batch < 1 || options.heads < 1) {
    error = "--batch and --heads must be at least 1, not " +
            std::to_string(options.batch) + " and " +
            std::to_string(options.heads);
    return false;
  }
  // Programs are numbered with 32-bit ids on every target.
  int64_t instances = 0;
  if (__builtin_mul_overflow(options.batch, options.heads, &instances) ||
      instances > INT32_MAX) {
    error = "--batch " + std::to_string(options.batch) + " x --heads " +
            std::to_string(options.heads) +
            " problems: more than 32-bit program ids count (2^31 - 1)";
    return false;
  }
  if (options.layout != "bhsd" && options.layout != "bshd") {
    error = "--layout must be bhsd or bshd, not '" + options.layout + "'";
    return false;
  }
  options.dtype = dtypeOption;
  options.dtypeGiven = dtypeOption.getNumOccurrences() > 0;
  options.inStride = inStrideOption;
  options.outStride = outStrideOption;
  options.target = targetOption;
  options.seed = seedOption;
  options.specialValues = specialOption;
  options.threads = threadsOption;
  options.check = checkOption;
  if (referenceOption.getNumOccurrences())
    options.reference = referenceOption.getValue();
  options.bench = benchOption;
  options.json = jsonOption;
  options.verbose = verboseOption;
  options.runs = runsOption;
  options.csvPath = csvOption;
  options.provider = providerOption;
  options.compile = knobs;
  options.chip = chipOption;
  options.autotune = autotuneOption;
  options.autotuneCache = autotuneCachePath;
  options.emitPtx = emitPtxPath;
  if (emitPtxPath.getNumOccurrences() && emitPtxPath.empty()) {
    error = "--emit-ptx needs a file name (- for standard output)";
    return false;
  }
  options.probeGpu = probeOption;

  if (options.target != "gpu" && options.target != "cpu" &&
      options.target != "auto") {
    error = "--target must be gpu, cpu or auto";
    return false;
  }
  // A chip is a GPU's: the CPU run would drop it without a word.
  if (chipOption.getNumOccurrences() && options.target == "cpu" &&
      options.emitPtx.empty()) {
    error = "--chip " + options.chip +
            " names the GPU to compile for: not with --target cpu (only "
            "--emit-ptx compiles for a chip without running there)";
    return false;
  }
  if (std::string invalid = options.compile.verify(); !invalid.empty()) {
    error = "--" + invalid;
    return false;
  }
  if (options.runs < 1) {
    error = "--runs must be at least 1";
    return false;
  }
  if (!options.csvPath.empty() && !options.bench) {
    error = "--csv records timings: give --bench too";
    return false;
  }
  if (autotuneCachePath.getNumOccurrences() && !options.autotune) {
    error = "--autotune-cache names the file --autotune keeps its choices "
            "in: give --autotune too";
    return false;
  }
  if (autotuneCachePath.getNumOccurrences() && options.autotuneCache.empty()) {
    error = "--autotune-cache needs a file name";
    return false;
  }
  return parseLists(options, error) && parseCache(options.compile, error) &&
         checkBatchInputs(options, error);
}
