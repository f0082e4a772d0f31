//===- Tensors.cpp - a run's data: shape, inputs, expectations, outputs ---===//
#include "Tensors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <sys/resource.h>
#include <unistd.h>

using namespace softmax_run;
using blk::runtime::ArgExtent;
using blk::runtime::ElementType;
using blk::runtime::Status;

namespace {

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

/// The shape and element type, from the options or the --input file (read
/// into `array`).
} // namespace

bool softmax_run::readShape(const RunOptions &options, Problem &problem,
                            blk::runtime::NpyArray &array,
                            std::string &error) {
  const std::string &primaryInput = options.inputs.unnamed;
  if (!parseElementType(options.dtype, problem.desc.elementType)) {
    error = "--dtype must be f32, f16 or bf16, not '" + options.dtype + "'";
    return false;
  }
  if (options.inner) {
    if (*options.inner < 1) {
      error = "--inner must be at least 1, not " +
              std::to_string(*options.inner);
      return false;
    }
    if (!primaryInput.empty() || !options.rows || !options.cols) {
      error = "a product's shape is given with --rows M --cols N --inner K "
              "(its operands as --input NAME=FILE)";
      return false;
    }
    problem.desc.inner = *options.inner;
  }
  if (!primaryInput.empty()) {
    if (options.rows || options.cols) {
      error = "--rows and --cols cannot be given with --input: the shape is "
              "the file's";
      return false;
    }
    if (Status status = blk::runtime::readNpy(primaryInput, array); !status) {
      error = status.message();
      return false;
    }
    if (array.fileDimensions > 2) {
      error = primaryInput + " holds " +
              std::to_string(array.fileDimensions) +
              "-D data; the first matrix input is read from 1-D or 2-D data "
              "(a batch's tensors are given as --input NAME=FILE with "
              "--batch and --heads)";
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
    if (!options.dtypeGiven && halfFile)
      problem.desc.elementType = ElementType::F16;
    if (halfFile && problem.type() == ElementType::F32) {
      error = primaryInput + " holds float16 data, but --dtype is f32";
      return false;
    }
    problem.desc.rows = array.rows;
    problem.desc.cols = array.cols;
    problem.inputDimensions = array.fileDimensions;
  } else if (!options.rows && !options.cols) {
    // Only named inputs: the first 2-D array of floats is a matrix input's,
    // and its shape is the problem's (a per-row or per-column file is 1-D).
    for (const auto &[name, path] : options.inputs.named) {
      blk::runtime::NpyArray named;
      if (Status status = blk::runtime::readNpyHeader(path, named); !status) {
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
    problem.desc.rows = options.rows.value_or(0);
    problem.desc.cols = options.cols.value_or(0);
  }
  if (problem.rows() < 1 || problem.cols() < 1) {
    error = "give the shape with --rows M --cols N (both >= 1) or --input "
            "(a file of the first matrix input, or NAME=FILE of a matrix)";
    return false;
  }
  return true;
}

bool softmax_run::inferProductShape(
    const RunOptions &options,
    const std::vector<mlir::blk::KernelSignature> &signatures,
    Problem &problem, std::string &error) {
  if (!options.inputs.unnamed.empty() || options.rows || options.cols ||
      options.inner)
    return true;
  // The named file of the tensor of `extent`, if one is given.
  auto fileOf = [&](ArgExtent extent) -> const std::string * {
    for (const auto &argument : blk::runtime::getTensorArguments(signatures))
      if (argument.extent == extent)
        for (const auto &[name, path] : options.inputs.named)
          if (name == argument.name)
            return &path;
    return nullptr;
  };
  const std::string *aPath = fileOf(ArgExtent::rows_by_inner);
  const std::string *bPath = fileOf(ArgExtent::inner_by_cols);
  if (!aPath || !bPath)
    return true;
  blk::runtime::NpyArray a, b;
  for (auto [path, array] : {std::pair{aPath, &a}, {bPath, &b}}) {
    if (Status status = blk::runtime::readNpyHeader(*path, *array); !status) {
      error = status.message();
      return false;
    }
    if (array->fileDimensions != 2) {
      error = *path + " holds " + std::to_string(array->fileDimensions) +
              "-D data; a product's operand is a matrix";
      return false;
    }
  }
  if (a.cols != b.rows) {
    error = "the operands do not multiply: " + *aPath + " is " +
            std::to_string(a.rows) + " x " + std::to_string(a.cols) +
            " (M x K) and " + *bPath + " is " + std::to_string(b.rows) +
            " x " + std::to_string(b.cols) + " (K x N)";
    return false;
  }
  problem.desc.rows = a.rows;
  problem.desc.cols = b.cols;
  problem.desc.inner = a.cols;
  return true;
}

namespace {

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
double hostBytesNeeded(const RunOptions &options, const Problem &problem,
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
              argument, problem.getShape(), elements))
        return INFINITY;
      tensors += double(elements) * double(argument.bytes);
      elementCount += double(elements);
      if (argument.role == blk::runtime::ArgRole::output)
        outputs += double(elements);
    }
  double matrix = double(problem.rows()) * double(problem.cols()) *
                  double(problem.batch) * double(problem.heads);
  // Beside the tensors: the CPU run's copies (--reference cpu) or the
  // float64 reference's doubles of every tensor.
  bool checks = options.check;
  bool againstProgram = checks && !problem.reference &&
                        !problem.againstCPULowering;
  return tensors * (checks && problem.againstCPULowering ? 2 : 1) +
         (againstProgram ? elementCount * sizeof(double) : 0) +
         (checks ? outputs * sizeof(double) : 0) +
         (options.writesOutputs() ? matrix * sizeof(float) : 0);
}

} // namespace

bool softmax_run::checkHostMemory(
    const RunOptions &options, const Problem &problem,
    const std::vector<mlir::blk::KernelSignature> &fitted,
    std::string &error) {
  double needed = hostBytesNeeded(options, problem, fitted);
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

namespace {

/// Reads the .npy file `path` for tensor `name` of `role` (--input
/// NAME=FILE, --expect NAME=FILE: `flag`) into `array`; fails, saying why,
/// where the program has no such tensor or the file's kind of number or
/// shape is not the tensor's.
bool readTensorFile(const char *flag, blk::runtime::ArgRole role,
                    const std::string &name, const std::string &path,
                    const std::vector<blk::runtime::HostTensor> &tensors,
                    const blk::runtime::ProgramShape &shape,
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
  bool vector = !blk::runtime::hasRowStride(tensor->getDeclaration().extent);
  int64_t elements = tensor->getRows() * tensor->getCols();
  if (tensor->getInstanceRows() != tensor->getRows()) {
    // A batch's tensor: exactly [B, H, rows, cols], as writeTensor writes
    // it (a vector [B, H, its elements]).
    std::vector<size_t> want = {size_t(shape.batch), size_t(shape.heads)};
    if (vector) {
      want.push_back(size_t(tensor->getInstanceRows() * tensor->getCols()));
    } else {
      want.push_back(size_t(tensor->getInstanceRows()));
      want.push_back(size_t(tensor->getCols()));
    }
    if (array.shape == want)
      return true;
    auto describe = [](const std::vector<size_t> &dims) {
      std::string text;
      for (size_t d : dims)
        text += (text.empty() ? "" : " x ") + std::to_string(d);
      return text;
    };
    error = what + "the file's shape is " + describe(array.shape) +
            ", but '" + name + "' of the batch is " + describe(want) +
            (vector ? " (batch x heads x elements)"
                    : " (batch x heads x rows x cols)");
    return false;
  }
  // More dimensions only as a batch of one: [1, 1, rows, cols].
  bool single = std::all_of(array.shape.begin(),
                            array.shape.end() - std::min<size_t>(
                                                    array.shape.size(), 2),
                            [](size_t d) { return d == 1; });
  bool fits = single &&
              (vector ? array.rows * array.cols == size_t(elements) &&
                            (array.rows == 1 || array.cols == 1)
                      : array.rows == size_t(tensor->getRows()) &&
                            array.cols == size_t(tensor->getCols()));
  if (!fits) {
    error = what + "the file holds " +
            (!single ? std::to_string(array.fileDimensions) + "-D data"
                 : std::to_string(array.rows) + " x " +
                       std::to_string(array.cols) + " values") +
            ", but '" + name + "' is " +
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
                    const blk::runtime::ProgramShape &shape,
                    std::string &error) {
  blk::runtime::NpyArray array;
  if (!readTensorFile("--input", blk::runtime::ArgRole::input, name, path,
                      tensors, shape, array, error))
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
                  const blk::runtime::ProgramShape &shape,
                  blk::runtime::ReferenceOutput &expected,
                  std::string &error) {
  blk::runtime::NpyArray array;
  if (!readTensorFile("--expect", blk::runtime::ArgRole::output, name, path,
                      tensors, shape, array, error))
    return false;
  expected.name = name;
  expected.values.assign(array.values.begin(), array.values.end());
  return true;
}

/// Writes output tensor `output` to `path` in its own type (f32 and bf16
/// as float32, f16 as float16, integers exactly): a matrix 2-D (1-D where
/// `dimensions` is 1: one row read from a 1-D file), a vector 1-D, by
/// `write`.
Status writeTensor(const blk::runtime::HostTensor &output,
                   const blk::runtime::ProgramShape &shape,
                   const std::string &path, unsigned dimensions,
                   const blk::runtime::FileWriter &write) {
  int64_t rows = output.getRows(), cols = output.getCols();
  bool vector = !blk::runtime::hasRowStride(output.getDeclaration().extent);
  size_t fileRows = vector ? 1 : rows, fileCols = vector ? rows * cols : cols;
  unsigned fileDimensions = vector ? 1 : dimensions;
  // A batch's tensors keep its dimensions: [B, H, rows, cols], a vector
  // [B, H, rows x cols].
  std::vector<size_t> leading;
  if (shape.getInstances() > 1) {
    fileDimensions = 2;
    leading = {size_t(shape.batch), size_t(shape.heads)};
    if (vector) {
      fileRows = shape.getInstances();
      fileCols = rows * cols / shape.getInstances();
    } else {
      leading.push_back(size_t(output.getInstanceRows()));
    }
  }
  if (!output.isFloat()) {
    std::vector<int64_t> values(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        values[r * cols + c] = output.getInteger(r, c);
    return blk::runtime::writeNpyIntegers(
        path, fileRows, fileCols, values.data(),
        output.getDeclaration().bytes == 4 ? blk::runtime::NpyDtype::Int32
                                           : blk::runtime::NpyDtype::Int64,
        fileDimensions, leading, write);
  }
  std::vector<float> values(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      values[r * cols + c] = float(output.get(r, c));
  return blk::runtime::writeNpy(path, fileRows, fileCols, values.data(),
                                output.getElementType() == ElementType::F16
                                    ? blk::runtime::NpyDtype::Float16
                                    : blk::runtime::NpyDtype::Float32,
                                fileDimensions, leading, write);
}

/// Fails, naming the program's outputs, if a --output NAME=FILE names no
/// output tensor (before the run, so that nothing is run for nothing).
bool checkOutputNames(const RunOptions &options,
                      const std::vector<blk::runtime::HostTensor> &tensors,
                      std::string &error) {
  std::vector<std::string> outputs;
  for (const blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      outputs.push_back(tensor.getName());
  for (const auto &[name, path] : options.outputs.named)
    if (!llvm::is_contained(outputs, name)) {
      error = "--output " + name + "=" + path +
              ": the program has no output '" + name + "' (its outputs: " +
              llvm::join(outputs, ", ") + ")";
      return false;
    }
  return true;
}

/// Reads every --expect file into problem.expectations (before the run),
/// failing, saying why, where one does not fit its output.
bool readExpectFiles(const RunOptions &options, Problem &problem,
                     const std::vector<blk::runtime::HostTensor> &tensors,
                     std::string &error) {
  for (const auto &[name, path] : options.expects.named) {
    Problem::Expectation expectation;
    if (!readExpected(name, path, tensors, problem.getShape(),
                      expectation.values, error))
      return false;
    expectation.path = path;
    problem.expectations.push_back(std::move(expectation));
  }
  return true;
}

} // namespace

bool softmax_run::makeTensors(
    const RunOptions &options,
    const std::vector<mlir::blk::KernelSignature> &fitted, Problem &problem,
    const Specialization &binding, const blk::runtime::NpyArray &array,
    std::vector<blk::runtime::HostTensor> &tensors, std::string &error) {
  if (Status status = blk::runtime::createHostTensors(
          fitted, problem.getShape(), tensors);
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
                           problem.cols(), tensors, scalars, options.seed,
                           options.specialValues);
  if (!options.inputs.unnamed.empty()) {
    blk::runtime::HostTensor &input =
        *blk::runtime::findTensor(tensors, problem.input);
    for (int64_t r = 0; r < problem.rows(); ++r)
      for (int64_t c = 0; c < problem.cols(); ++c)
        input.set(r, c, array.values[r * problem.cols() + c]);
  }
  std::vector<std::string> given;
  for (const auto &[name, path] : options.inputs.named) {
    // Two files for one tensor: which one the user meant is not ours to
    // guess.
    if (!options.inputs.unnamed.empty() && name == problem.input) {
      error = "--input " + name + "=" + path + " and --input " +
              options.inputs.unnamed + " both fill input " + name +
              " (an unnamed --input fills the first matrix input): give one";
      return false;
    }
    if (!readNamedInput(name, path, tensors, problem.getShape(), error))
      return false;
    given.push_back(name);
  }
  // Derived inputs (attention_backward's o and lse: a float64 forward on
  // the host, about as long as the check) only where outputs are checked,
  // expected or written: a timing run does not wait for them.
  if (problem.reference && (options.check || options.writesOutputs() ||
                            !options.expects.empty()))
    blk::runtime::deriveInputs(*problem.reference, tensors, scalars, given);
  return checkOutputNames(options, tensors, error) &&
         readExpectFiles(options, problem, tensors, error);
}

bool softmax_run::writeOutputs(
    const RunOptions &options, const Problem &problem,
    const std::vector<blk::runtime::HostTensor> &tensors, std::string &error) {
  std::vector<std::pair<std::string, std::string>> files =
      options.outputs.named;
  if (!options.outputs.unnamed.empty())
    files.insert(files.begin(), {problem.output, options.outputs.unnamed});
  // All or none: a file that cannot be written leaves the others as they
  // were too.
  blk::runtime::FileBatch batch;
  for (const auto &[name, path] : files) {
    const blk::runtime::HostTensor *output =
        blk::runtime::findTensor(tensors, name);
    if (Status status = writeTensor(*output, problem.getShape(), path,
                                    name == problem.output
                                        ? problem.inputDimensions
                                        : 2,
                                    batch.writer());
        !status) {
      error = status.message();
      return false;
    }
  }
  if (Status status = batch.commit(); !status) {
    error = status.message();
    return false;
  }
  return true;
}

/// What `write` prints, written whole or not at all
