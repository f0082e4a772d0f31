//===- Interpreter.cpp - block programs run op by op in float64 -----------===//
//
// A tree-walking interpreter: each SSA value of a program becomes a Cell (a
// scalar or a block of doubles, of integers kept sign-extended from their
// width, or a pointer into one of the run's tensors), and each op a
// function of its operands' cells. The elementwise arith and math ops are
// looked up by name in one table per element kind, so that an op's meaning
// is written once, for scalars and blocks alike.
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/Interpreter.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Runtime/Parallel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace mlir::blk;
namespace rt = ::blk::runtime;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Loop iterations one program may run (its loops together). The
/// examples' programs run at most thousands (a persistent program's rows,
/// a K loop's tiles, attention's key blocks); 2^24 empty iterations take
/// seconds here, and more iterations of real blocks would take hours.
constexpr int64_t kMaxLoopIterations = int64_t(1) << 24;

/// A value of the program: a scalar (no shape) or a block, row-major.
/// Floats are doubles; integers (i1 included) are kept sign-extended from
/// their width, as the hardware's two's complement holds them; a pointer is
/// a tensor of the run and an element offset into it.
struct Cell {
  SmallVector<int64_t> shape;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  int memory = -1;
  int64_t offset = 0;

  size_t size() const { return floats.empty() ? ints.size() : floats.size(); }
  bool isFloat() const { return !floats.empty(); }
};

/// One tensor of the run, element by element in its rows' layout (row
/// strides included): doubles for floats, exact integers otherwise.
struct Memory {
  std::string name;
  /// Elements from one row to the next, and from one instance of a batch
  /// to the next (the stride arguments' values).
  int64_t rowStride = 0, batchStride = 0, headStride = 0;
  bool isFloat = true;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  /// For a float output, whether a program stored each element: one read
  /// before is a fault (an output holds nothing until written). Without
  /// it, a kernel that reads its output for its input reads NaN here as
  /// its run reads the poison there, and a check against the program
  /// itself compares NaN with NaN and passes. A byte an element: programs
  /// on other threads store other elements.
  std::vector<uint8_t> written;
  int64_t size() const {
    return int64_t(isFloat ? floats.size() : ints.size());
  }
};

int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

unsigned getIntWidth(Type type) {
  type = getElementTypeOrSelf(type);
  if (type.isIndex())
    return 64;
  return type.getIntOrFloatBitWidth();
}

/// `value` as an integer of `width` bits holds it: the low bits,
/// sign-extended.
int64_t wrap(int64_t value, unsigned width) {
  if (width >= 64)
    return value;
  uint64_t bits = uint64_t(value) & ((uint64_t(1) << width) - 1);
  uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((bits ^ sign) - sign);
}

/// The same bits read as unsigned.
uint64_t asUnsigned(int64_t value, unsigned width) {
  if (width >= 64)
    return uint64_t(value);
  return uint64_t(value) & ((uint64_t(1) << width) - 1);
}

using FloatUnary = std::function<double(double)>;
using FloatBinary = std::function<double(double, double)>;
/// Integer ops get the width; a fault (division by zero) is an error
/// message, else "".
using IntBinary =
    std::function<int64_t(int64_t, int64_t, unsigned, std::string &)>;

const llvm::StringMap<FloatUnary> &getFloatUnaryOps() {
  static const llvm::StringMap<FloatUnary> ops = {
      {"arith.negf", [](double x) { return -x; }},
      {"math.absf", [](double x) { return std::fabs(x); }},
      {"math.exp", [](double x) { return std::exp(x); }},
      {"math.exp2", [](double x) { return std::exp2(x); }},
      {"math.expm1", [](double x) { return std::expm1(x); }},
      {"math.log", [](double x) { return std::log(x); }},
      {"math.log2", [](double x) { return std::log2(x); }},
      {"math.log10", [](double x) { return std::log10(x); }},
      {"math.log1p", [](double x) { return std::log1p(x); }},
      {"math.sqrt", [](double x) { return std::sqrt(x); }},
      {"math.rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"math.tanh", [](double x) { return std::tanh(x); }},
      {"math.erf", [](double x) { return std::erf(x); }},
      {"math.sin", [](double x) { return std::sin(x); }},
      {"math.cos", [](double x) { return std::cos(x); }},
      {"math.floor", [](double x) { return std::floor(x); }},
      {"math.ceil", [](double x) { return std::ceil(x); }},
      {"math.round", [](double x) { return std::round(x); }},
      {"math.roundeven", [](double x) { return std::nearbyint(x); }},
      {"math.trunc", [](double x) { return std::trunc(x); }},
      // The program's own roundings between float types are not the
      // reference's: it computes in float64 throughout.
      {"arith.extf", [](double x) { return x; }},
      {"arith.truncf", [](double x) { return x; }},
  };
  return ops;
}

double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return kNaN;
  return a == b ? (std::signbit(a) ? b : a) : std::max(a, b);
}

double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return kNaN;
  return a == b ? (std::signbit(a) ? a : b) : std::min(a, b);
}

const llvm::StringMap<FloatBinary> &getFloatBinaryOps() {
  static const llvm::StringMap<FloatBinary> ops = {
      {"arith.addf", [](double a, double b) { return a + b; }},
      {"arith.subf", [](double a, double b) { return a - b; }},
      {"arith.mulf", [](double a, double b) { return a * b; }},
      {"arith.divf", [](double a, double b) { return a / b; }},
      {"arith.remf", [](double a, double b) { return std::fmod(a, b); }},
      {"arith.maximumf", maximumF},
      {"arith.minimumf", minimumF},
      {"arith.maxnumf", [](double a, double b) { return std::fmax(a, b); }},
      {"arith.minnumf", [](double a, double b) { return std::fmin(a, b); }},
      {"math.powf", [](double a, double b) { return std::pow(a, b); }},
      {"math.copysign",
       [](double a, double b) { return std::copysign(a, b); }},
      {"math.atan2", [](double a, double b) { return std::atan2(a, b); }},
  };
  return ops;
}

const llvm::StringMap<IntBinary> &getIntBinaryOps() {
  auto divisor = [](int64_t b, std::string &fault) {
    if (b == 0)
      fault = "divides by zero";
    return b == 0;
  };
  auto signedOverflow = [](int64_t a, int64_t b, unsigned width,
                           std::string &fault) {
    bool overflows = b == -1 && a == wrap(int64_t(1) << (width - 1), width) &&
                     width > 1;
    if (overflows)
      fault = "divides the smallest value by -1";
    return overflows;
  };
  auto shift = [](int64_t b, unsigned width, std::string &fault) {
    bool tooFar = asUnsigned(b, width) >= width;
    if (tooFar)
      fault = "shifts by the width or more";
    return tooFar;
  };
  static const llvm::StringMap<IntBinary> ops = {
      {"arith.addi",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return wrap(int64_t(uint64_t(a) + uint64_t(b)), w);
       }},
      {"arith.subi",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return wrap(int64_t(uint64_t(a) - uint64_t(b)), w);
       }},
      {"arith.muli",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return wrap(int64_t(uint64_t(a) * uint64_t(b)), w);
       }},
      {"arith.divsi",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (divisor(b, fault) || signedOverflow(a, b, w, fault))
           return int64_t(0);
         return wrap(a / b, w);
       }},
      {"arith.remsi",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (divisor(b, fault) || signedOverflow(a, b, w, fault))
           return int64_t(0);
         return wrap(a % b, w);
       }},
      {"arith.divui",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (divisor(b, fault))
           return int64_t(0);
         return wrap(int64_t(asUnsigned(a, w) / asUnsigned(b, w)), w);
       }},
      {"arith.remui",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (divisor(b, fault))
           return int64_t(0);
         return wrap(int64_t(asUnsigned(a, w) % asUnsigned(b, w)), w);
       }},
      {"arith.andi",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return wrap(a & b, w);
       }},
      {"arith.ori",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return wrap(a | b, w);
       }},
      {"arith.xori",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return wrap(a ^ b, w);
       }},
      {"arith.shli",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (shift(b, w, fault))
           return int64_t(0);
         return wrap(int64_t(uint64_t(a) << asUnsigned(b, w)), w);
       }},
      {"arith.shrsi",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (shift(b, w, fault))
           return int64_t(0);
         return wrap(a >> asUnsigned(b, w), w);
       }},
      {"arith.shrui",
       [=](int64_t a, int64_t b, unsigned w, std::string &fault) {
         if (shift(b, w, fault))
           return int64_t(0);
         return wrap(int64_t(asUnsigned(a, w) >> asUnsigned(b, w)), w);
       }},
      {"arith.maxsi",
       [](int64_t a, int64_t b, unsigned, std::string &) {
         return std::max(a, b);
       }},
      {"arith.minsi",
       [](int64_t a, int64_t b, unsigned, std::string &) {
         return std::min(a, b);
       }},
      {"arith.maxui",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return asUnsigned(a, w) >= asUnsigned(b, w) ? a : b;
       }},
      {"arith.minui",
       [](int64_t a, int64_t b, unsigned w, std::string &) {
         return asUnsigned(a, w) <= asUnsigned(b, w) ? a : b;
       }},
  };
  return ops;
}

bool compareFloats(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

bool compareInts(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                 unsigned width) {
  uint64_t ua = asUnsigned(a, width), ub = asUnsigned(b, width);
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

/// i1 true, sign-extended.
constexpr int64_t kTrue = -1;

/// The largest finite value of float type `type` (f16, bf16, f32; none for
/// f64). A result past it is the infinity the program's own type holds
/// there: the reference computes every op in double precision but within
/// the range of the op's type, as the program does (a sum of squares of
/// 3e38 is +inf in f32, and the RMSNorm of that row 0, not finite).
double getLargestFinite(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!floatType || floatType.getWidth() >= 64)
    return std::numeric_limits<double>::infinity();
  return APFloat::getLargest(floatType.getFloatSemantics()).convertToDouble();
}

double limitTo(double value, double largest) {
  return std::fabs(value) > largest ? std::copysign(INFINITY, value) : value;
}

/// Where the programs of a kernel that meet (blk.program_barrier) wait for
/// each other: every counter access is under `lock`, which also orders
/// what the programs stored before arriving before what they load after.
struct Meeting {
  std::mutex lock;
  std::condition_variable arrived;
  /// Programs running, and those of them waiting at a counter: when all
  /// wait, no round can fill.
  int64_t running = 0, waiting = 0;
  /// A program failed or the rounds cannot fill: the waiting give up.
  bool abandoned = false;
};

/// Runs the programs of a kernel, one after another, on the run's tensors
/// (shared by the runners of a kernel: each program writes its own
/// elements, as on the GPU).
class ProgramRunner {
public:
  ProgramRunner(std::vector<Memory> &memories, int64_t grid,
                const rt::ProgramShape &shape, const rt::ScalarValues &scalars,
                Meeting *meeting = nullptr)
      : grid(grid), shape(shape), scalars(scalars), memories(memories),
        meeting(meeting) {}

  /// The kernel's arguments, as a launch of the problem passes them.
  FailureOr<SmallVector<Cell>> getArguments(func::FuncOp kernel) {
    SmallVector<Cell> arguments;
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      FailureOr<Cell> argument = getArgument(kernel, i);
      if (failed(argument))
        return failure();
      arguments.push_back(std::move(*argument));
    }
    return arguments;
  }

  /// Runs programs [first, last) of `kernel` in order, up to the first
  /// program any runner found failing (`firstFailure`, lowered here when
  /// one of these fails).
  void runPrograms(func::FuncOp kernel, ArrayRef<Cell> arguments,
                   int64_t first, int64_t last,
                   std::atomic<int64_t> &firstFailure) {
    for (programId = first; programId < last && programId < firstFailure;
         ++programId) {
      values.clear();
      iterations = 0;
      SmallVector<Cell> results;
      if (succeeded(runBlock(kernel.getBody().front(), arguments, results)))
        continue;
      int64_t known = firstFailure;
      while (programId < known &&
             !firstFailure.compare_exchange_weak(known, programId)) {
      }
      return;
    }
  }

private:
  FailureOr<Cell> getArgument(func::FuncOp kernel, unsigned index) {
    ArgAttr arg = getArgAttr(kernel, index);
    Type type = kernel.getArgument(index).getType();
    auto error = [&]() { return kernel.emitError(); };
    if (!arg)
      return error() << "argument #" << index << " declares no role";
    Cell cell;
    auto integer = [&](int64_t value) {
      cell.ints = {wrap(value, getIntWidth(type))};
      return cell;
    };
    std::string name = arg.getName().str();
    // The tensor a tensor or row_stride argument names, if given.
    int memory = -1;
    for (size_t m = 0; m < memories.size(); ++m)
      if (memories[m].name == name)
        memory = int(m);
    switch (arg.getRole()) {
    case ArgRole::input:
    case ArgRole::output:
    case ArgRole::scratch:
    case ArgRole::row_stride:
    case ArgRole::batch_stride:
    case ArgRole::head_stride:
      if (memory < 0)
        return error() << "tensor '" << name << "' was not given";
      if (arg.getRole() == ArgRole::row_stride)
        return integer(memories[memory].rowStride);
      if (arg.getRole() == ArgRole::batch_stride)
        return integer(memories[memory].batchStride);
      if (arg.getRole() == ArgRole::head_stride)
        return integer(memories[memory].headStride);
      cell.memory = memory;
      return cell;
    case ArgRole::batch:
      return integer(shape.batch);
    case ArgRole::heads:
      return integer(shape.heads);
    case ArgRole::rows:
      return integer(shape.rows);
    case ArgRole::cols:
      return integer(shape.cols);
    case ArgRole::inner:
      return integer(shape.inner);
    case ArgRole::param:
      for (const auto &[scalarName, value] : scalars) {
        if (scalarName != name)
          continue;
        if (isa<FloatType>(type)) {
          cell.floats = {value.value};
          return cell;
        }
        return integer(value.integer ? *value.integer
                                     : int64_t(std::trunc(value.value)));
      }
      return error() << "parameter '" << name << "' was not given";
    case ArgRole::tensor_map:
      return error() << "argument #" << index
                     << " is a tensor map, which only compiled GPU code "
                        "reads (the compiler adds them)";
    }
    return error() << "argument #" << index << " has an unknown role";
  }

  /// Runs `block` with `arguments`; `results` gets what its terminator
  /// yields or returns.
  LogicalResult runBlock(Block &block, ArrayRef<Cell> arguments,
                         SmallVectorImpl<Cell> &results) {
    for (auto [argument, cell] : llvm::zip(block.getArguments(), arguments))
      values[argument] = cell;
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        results.clear();
        for (Value operand : op.getOperands())
          results.push_back(values.at(operand));
        return success();
      }
      if (failed(step(&op)))
        return failure();
    }
    return success();
  }

  const Cell &get(Value value) { return values.at(value); }

  /// A diagnostic at `op` naming the program instance.
  InFlightDiagnostic fault(Operation *op) {
    return op->emitError() << "float64 reference, program " << programId
                           << ": ";
  }

  LogicalResult step(Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (auto it = getFloatUnaryOps().find(name);
        it != getFloatUnaryOps().end())
      return mapFloats(op, [&](ArrayRef<double> x) { return it->second(x[0]); });
    if (auto it = getFloatBinaryOps().find(name);
        it != getFloatBinaryOps().end())
      return mapFloats(
          op, [&](ArrayRef<double> x) { return it->second(x[0], x[1]); });
    if (auto it = getIntBinaryOps().find(name); it != getIntBinaryOps().end())
      return mapIntBinary(op, it->second);
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](arith::ConstantOp constant) { return runConstant(constant); })
        .Case([&](math::FmaOp fma) {
          return mapFloats(fma, [](ArrayRef<double> x) {
            return std::fma(x[0], x[1], x[2]);
          });
        })
        .Case([&](arith::CmpFOp compare) { return runCmpF(compare); })
        .Case([&](arith::CmpIOp compare) { return runCmpI(compare); })
        .Case([&](arith::SelectOp select) { return runSelect(select); })
        .Case<arith::SIToFPOp, arith::UIToFPOp>(
            [&](Operation *cast) { return runIntToFloat(cast); })
        .Case<arith::FPToSIOp, arith::FPToUIOp>(
            [&](Operation *cast) { return runFloatToInt(cast); })
        .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
              arith::IndexCastOp, arith::IndexCastUIOp>(
            [&](Operation *cast) { return runIntCast(cast); })
        .Case([&](ProgramIdOp id) {
          // Programs are numbered x fastest, a batch's instances along y.
          ProgramAxis axis = id.getAxis();
          return setInt(id, axis == ProgramAxis::x   ? programId % grid
                            : axis == ProgramAxis::y ? programId / grid
                                                     : 0);
        })
        .Case([&](NumProgramsOp count) {
          ProgramAxis axis = count.getAxis();
          return setInt(count, axis == ProgramAxis::x   ? grid
                               : axis == ProgramAxis::y ? shape.getInstances()
                                                        : 1);
        })
        .Case([&](ArangeOp arange) { return runArange(arange); })
        .Case([&](SplatOp splat) { return runSplat(splat); })
        .Case([&](ExpandDimsOp expand) { return runExpandDims(expand); })
        .Case([&](BroadcastOp broadcast) { return runBroadcast(broadcast); })
        .Case([&](ConvertLayoutOp convert) {
          // Which thread holds an element is no concern here. (A copy
          // first: inserting may move the source's cell.)
          Cell cell = get(convert.getSrc());
          values[convert.getResult()] = std::move(cell);
          return success();
        })
        .Case([&](AddPtrOp addptr) { return runAddPtr(addptr); })
        .Case([&](ProgramBarrierOp barrier) { return runBarrier(barrier); })
        .Case([&](LoadOp load) { return runLoad(load); })
        .Case([&](StoreOp store) { return runStore(store); })
        .Case([&](ReduceOp reduce) { return runReduce(reduce); })
        .Case([&](SumCenteredSquaresOp reduce) {
          return runSumCenteredSquares(reduce);
        })
        .Case([&](DotOp dot) { return runDot(dot); })
        .Case([&](scf::ForOp loop) { return runFor(loop); })
        .Case([&](scf::IfOp branch) { return runIf(branch); })
        .Case([&](scf::WhileOp loop) { return runWhile(loop); })
        .Default([&](Operation *other) {
          return other->emitError()
                 << "the float64 reference does not run '"
                 << other->getName()
                 << "' (it runs the block programs the compilers start "
                    "from: blk, arith, math and scf ops)";
        });
  }

  //===--------------------------------------------------------------------===//
  // Elementwise ops
  //===--------------------------------------------------------------------===//

  static SmallVector<int64_t> getShape(Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return SmallVector<int64_t>(tensor.getShape());
    return {};
  }

  /// Applies `function` to the float elements of every operand (a scalar
  /// operand stands for every element).
  LogicalResult mapFloats(Operation *op,
                          function_ref<double(ArrayRef<double>)> function) {
    Cell result;
    result.shape = getShape(op->getResult(0).getType());
    int64_t count = getNumElements(result.shape);
    result.floats.resize(count);
    SmallVector<const Cell *> operands;
    for (Value operand : op->getOperands())
      operands.push_back(&get(operand));
    SmallVector<double> x(operands.size());
    double largest = getLargestFinite(op->getResult(0).getType());
    for (int64_t i = 0; i < count; ++i) {
      for (size_t o = 0; o < operands.size(); ++o)
        x[o] = operands[o]->floats[operands[o]->shape.empty() ? 0 : i];
      result.floats[i] = limitTo(function(x), largest);
    }
    values[op->getResult(0)] = std::move(result);
    return success();
  }

  LogicalResult mapIntBinary(Operation *op, const IntBinary &function) {
    unsigned width = getIntWidth(op->getResult(0).getType());
    const Cell &lhs = get(op->getOperand(0));
    const Cell &rhs = get(op->getOperand(1));
    Cell result;
    result.shape = getShape(op->getResult(0).getType());
    int64_t count = getNumElements(result.shape);
    result.ints.resize(count);
    std::string error;
    for (int64_t i = 0; i < count; ++i) {
      result.ints[i] = function(lhs.ints[lhs.shape.empty() ? 0 : i],
                                rhs.ints[rhs.shape.empty() ? 0 : i], width,
                                error);
      if (!error.empty())
        return fault(op) << "the operation " << error << " (element " << i
                         << ")";
    }
    values[op->getResult(0)] = std::move(result);
    return success();
  }

  LogicalResult runConstant(arith::ConstantOp constant) {
    Cell cell;
    cell.shape = getShape(constant.getType());
    int64_t count = getNumElements(cell.shape);
    Attribute value = constant.getValue();
    Type elementType = getElementTypeOrSelf(constant.getType());
    unsigned width =
        isa<FloatType>(elementType) ? 0 : getIntWidth(elementType);
    auto pushInt = [&](const APInt &v) {
      cell.ints.push_back(wrap(v.getSExtValue(), width));
    };
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      if (isa<FloatType>(elementType)) {
        for (const APFloat &v : dense.getValues<APFloat>())
          cell.floats.push_back(v.convertToDouble());
      } else {
        for (const APInt &v : dense.getValues<APInt>())
          pushInt(v);
      }
      if (int64_t(cell.size()) != count)
        return constant.emitError() << "the float64 reference reads "
                                    << cell.size() << " of " << count
                                    << " constant elements";
    } else if (auto floatValue = dyn_cast<FloatAttr>(value)) {
      cell.floats = {floatValue.getValue().convertToDouble()};
    } else if (auto intValue = dyn_cast<IntegerAttr>(value)) {
      pushInt(intValue.getValue());
    } else {
      return constant.emitError()
             << "the float64 reference does not read this constant";
    }
    values[constant.getResult()] = std::move(cell);
    return success();
  }

  template <typename Compare>
  LogicalResult setPredicate(Operation *op, Compare compare) {
    Cell result;
    result.shape = getShape(op->getResult(0).getType());
    int64_t count = getNumElements(result.shape);
    result.ints.resize(count);
    for (int64_t i = 0; i < count; ++i)
      result.ints[i] = compare(i) ? kTrue : 0;
    values[op->getResult(0)] = std::move(result);
    return success();
  }

  LogicalResult runCmpF(arith::CmpFOp compare) {
    const Cell &lhs = get(compare.getLhs()), &rhs = get(compare.getRhs());
    return setPredicate(compare, [&](int64_t i) {
      return compareFloats(compare.getPredicate(),
                           lhs.floats[lhs.shape.empty() ? 0 : i],
                           rhs.floats[rhs.shape.empty() ? 0 : i]);
    });
  }

  LogicalResult runCmpI(arith::CmpIOp compare) {
    const Cell &lhs = get(compare.getLhs()), &rhs = get(compare.getRhs());
    unsigned width = getIntWidth(compare.getLhs().getType());
    return setPredicate(compare, [&](int64_t i) {
      return compareInts(compare.getPredicate(),
                         lhs.ints[lhs.shape.empty() ? 0 : i],
                         rhs.ints[rhs.shape.empty() ? 0 : i], width);
    });
  }

  LogicalResult runSelect(arith::SelectOp select) {
    const Cell &condition = get(select.getCondition());
    const Cell &yes = get(select.getTrueValue());
    const Cell &no = get(select.getFalseValue());
    Cell result;
    result.shape = getShape(select.getType());
    int64_t count = getNumElements(result.shape);
    auto pick = [&](int64_t i) {
      return condition.ints[condition.shape.empty() ? 0 : i] != 0;
    };
    auto at = [](const Cell &cell, int64_t i) {
      return cell.shape.empty() ? 0 : i;
    };
    for (int64_t i = 0; i < count; ++i) {
      const Cell &chosen = pick(i) ? yes : no;
      if (chosen.memory >= 0) {
        result.memory = chosen.memory;
        result.offset = chosen.offset;
      } else if (chosen.isFloat()) {
        result.floats.push_back(chosen.floats[at(chosen, i)]);
      } else {
        result.ints.push_back(chosen.ints[at(chosen, i)]);
      }
    }
    values[select.getResult()] = std::move(result);
    return success();
  }

  LogicalResult runIntToFloat(Operation *cast) {
    const Cell &source = get(cast->getOperand(0));
    unsigned width = getIntWidth(cast->getOperand(0).getType());
    bool isUnsigned = isa<arith::UIToFPOp>(cast);
    Cell result;
    result.shape = source.shape;
    double largest = getLargestFinite(cast->getResult(0).getType());
    for (int64_t v : source.ints)
      result.floats.push_back(limitTo(
          isUnsigned ? double(asUnsigned(v, width)) : double(v), largest));
    values[cast->getResult(0)] = std::move(result);
    return success();
  }

  LogicalResult runFloatToInt(Operation *cast) {
    const Cell &source = get(cast->getOperand(0));
    unsigned width = getIntWidth(cast->getResult(0).getType());
    Cell result;
    result.shape = source.shape;
    for (double v : source.floats) {
      // Out of range is poison in the program; the reference refuses it.
      double limit = std::ldexp(1.0, int(width) - 1);
      bool fits = isa<arith::FPToUIOp>(cast) ? v > -1 && v < 2 * limit
                                             : v >= -limit && v < limit;
      if (std::isnan(v) || !fits)
        return fault(cast) << "converts " << v << " to an i" << width
                           << ", which cannot hold it";
      result.ints.push_back(wrap(int64_t(std::trunc(v)), width));
    }
    values[cast->getResult(0)] = std::move(result);
    return success();
  }

  LogicalResult runIntCast(Operation *cast) {
    const Cell &source = get(cast->getOperand(0));
    unsigned from = getIntWidth(cast->getOperand(0).getType());
    unsigned to = getIntWidth(cast->getResult(0).getType());
    bool zeroExtends = isa<arith::ExtUIOp, arith::IndexCastUIOp>(cast);
    Cell result;
    result.shape = source.shape;
    for (int64_t v : source.ints)
      result.ints.push_back(
          wrap(zeroExtends ? int64_t(asUnsigned(v, from)) : v, to));
    values[cast->getResult(0)] = std::move(result);
    return success();
  }

  LogicalResult setInt(Operation *op, int64_t value) {
    Cell cell;
    cell.ints = {wrap(value, getIntWidth(op->getResult(0).getType()))};
    values[op->getResult(0)] = std::move(cell);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Blocks
  //===--------------------------------------------------------------------===//

  LogicalResult runArange(ArangeOp arange) {
    Cell cell;
    cell.shape = getShape(arange.getType());
    int64_t count = getNumElements(cell.shape);
    for (int64_t i = 0; i < count; ++i)
      cell.ints.push_back(wrap(arange.getStart() + i, 32));
    values[arange.getResult()] = std::move(cell);
    return success();
  }

  LogicalResult runSplat(SplatOp splat) {
    const Cell &source = get(splat.getSrc());
    Cell cell;
    cell.shape = getShape(splat.getType());
    int64_t count = getNumElements(cell.shape);
    if (source.isFloat())
      cell.floats.assign(count, source.floats[0]);
    else
      cell.ints.assign(count, source.ints[0]);
    values[splat.getResult()] = std::move(cell);
    return success();
  }

  LogicalResult runExpandDims(ExpandDimsOp expand) {
    Cell cell = get(expand.getSrc());
    cell.shape = getShape(expand.getType());
    values[expand.getResult()] = std::move(cell);
    return success();
  }

  /// Row-major strides of `shape`, 0 along dimensions of size 1 of
  /// `source` (which are repeated).
  static SmallVector<int64_t> getBroadcastStrides(ArrayRef<int64_t> source) {
    SmallVector<int64_t> strides(source.size(), 0);
    int64_t stride = 1;
    for (int64_t d = int64_t(source.size()) - 1; d >= 0; --d) {
      strides[d] = source[d] == 1 ? 0 : stride;
      stride *= source[d];
    }
    return strides;
  }

  LogicalResult runBroadcast(BroadcastOp broadcast) {
    const Cell &source = get(broadcast.getSrc());
    Cell cell;
    cell.shape = getShape(broadcast.getType());
    int64_t count = getNumElements(cell.shape);
    SmallVector<int64_t> strides = getBroadcastStrides(source.shape);
    SmallVector<int64_t> index(cell.shape.size(), 0);
    for (int64_t i = 0; i < count; ++i) {
      int64_t from = 0;
      for (size_t d = 0; d < index.size(); ++d)
        from += index[d] * strides[d];
      if (source.isFloat())
        cell.floats.push_back(source.floats[from]);
      else
        cell.ints.push_back(source.ints[from]);
      for (int64_t d = int64_t(index.size()) - 1; d >= 0; --d) {
        if (++index[d] < cell.shape[d])
          break;
        index[d] = 0;
      }
    }
    values[broadcast.getResult()] = std::move(cell);
    return success();
  }

  LogicalResult runAddPtr(AddPtrOp addptr) {
    Cell cell = get(addptr.getPtr());
    cell.offset += get(addptr.getOffset()).ints[0];
    values[addptr.getResult()] = std::move(cell);
    return success();
  }

  /// The element `base + offset` of `access`'s tensor, or an error at the
  /// access naming the tensor and how far outside it is.
  FailureOr<int64_t> getElement(Operation *access, const Cell &base,
                                int64_t offset) {
    const Memory &memory = memories[base.memory];
    int64_t element = base.offset + offset;
    if (element < 0 || element >= memory.size())
      return fault(access) << "element " << element << " of '" << memory.name
                           << "' is outside its " << memory.size()
                           << " elements";
    return element;
  }

  LogicalResult runLoad(LoadOp load) {
    const Cell &base = get(load.getBase());
    const Cell &offsets = get(load.getOffsets());
    const Cell *mask = load.getMask() ? &get(load.getMask()) : nullptr;
    const Cell *other = load.getOther() ? &get(load.getOther()) : nullptr;
    const Memory &memory = memories[base.memory];
    Cell cell;
    cell.shape = offsets.shape;
    for (size_t i = 0; i < offsets.ints.size(); ++i) {
      if (mask && mask->ints[i] == 0) {
        // No `other`: the program's value is undefined; NaN (or 0) makes
        // any use of it show.
        if (memory.isFloat)
          cell.floats.push_back(other ? other->floats[0] : kNaN);
        else
          cell.ints.push_back(other ? other->ints[0] : 0);
        continue;
      }
      FailureOr<int64_t> element = getElement(load, base, offsets.ints[i]);
      if (failed(element))
        return failure();
      if (!memory.written.empty() && !memory.written[*element])
        return fault(load) << "reads element " << *element << " of output '"
                           << memory.name
                           << "' before any program wrote it (an output "
                              "holds nothing until written)";
      if (memory.isFloat)
        cell.floats.push_back(memory.floats[*element]);
      else
        cell.ints.push_back(wrap(memory.ints[*element],
                                 getIntWidth(load.getType())));
    }
    values[load.getResult()] = std::move(cell);
    return success();
  }

  /// Arrives at the counter and waits until its round has `count`
  /// arrivals (the op's contract: a round ends at each multiple of count).
  LogicalResult runBarrier(ProgramBarrierOp barrier) {
    if (!meeting)
      return fault(barrier) << "programs that meet run only as a meeting "
                               "kernel (interpretProgram runs them so)";
    const Cell &counter = get(barrier.getCounter());
    int64_t count = get(barrier.getCount()).ints[0];
    if (count < 1)
      return fault(barrier) << "waits for " << count << " programs";
    FailureOr<int64_t> element = getElement(barrier, counter, 0);
    if (failed(element))
      return failure();
    int64_t &arrivals = memories[counter.memory].ints[*element];
    std::unique_lock<std::mutex> hold(meeting->lock);
    int64_t end = (arrivals / count + 1) * count;
    ++arrivals;
    meeting->arrived.notify_all();
    if (arrivals == end) {
      // The round is full: the count - 1 programs waiting for it wait no
      // more, though they count themselves out only once they run again.
      // Counted out here, a program that runs on to its next meeting
      // before they wake does not take them for programs still waiting.
      meeting->waiting -= count - 1;
      return failure(meeting->abandoned);
    }
    ++meeting->waiting;
    while (arrivals < end && !meeting->abandoned) {
      if (meeting->waiting == meeting->running) {
        meeting->abandoned = true;
        meeting->arrived.notify_all();
        return fault(barrier)
               << "waits for " << count << " programs at its counter, but "
               << arrivals - (end - count)
               << " arrived and every other program waits too (a round "
                  "that cannot fill: on the GPU, a hang)";
      }
      meeting->arrived.wait(hold);
    }
    if (arrivals < end)
      --meeting->waiting;
    // Another program failed: this one stops without a message of its own.
    return failure(meeting->abandoned);
  }

  LogicalResult runStore(StoreOp store) {
    const Cell &base = get(store.getBase());
    const Cell &offsets = get(store.getOffsets());
    const Cell &stored = get(store.getValue());
    const Cell *mask = store.getMask() ? &get(store.getMask()) : nullptr;
    Memory &memory = memories[base.memory];
    for (size_t i = 0; i < offsets.ints.size(); ++i) {
      if (mask && mask->ints[i] == 0)
        continue;
      FailureOr<int64_t> element = getElement(store, base, offsets.ints[i]);
      if (failed(element))
        return failure();
      if (!memory.written.empty())
        memory.written[*element] = 1;
      if (memory.isFloat)
        memory.floats[*element] = stored.floats[i];
      else
        memory.ints[*element] = stored.ints[i];
    }
    return success();
  }

  /// acc + a x b: each product and each partial sum in double within the
  /// accumulator's range, in the order of k (so a sum that overflows on the
  /// way is infinite, as in f32, and inf - inf is NaN); precision tf32
  /// rounds a and b to tf32 first.
  LogicalResult runDot(DotOp dot) {
    const Cell *inputs[] = {&get(dot.getA()), &get(dot.getB())};
    const Cell &acc = get(dot.getAcc());
    Cell rounded[2];
    if (dot.getPrecision() == InputPrecision::tf32)
      for (auto [input, copy] : llvm::zip(inputs, rounded)) {
        copy = *input;
        for (double &value : copy.floats)
          value = roundToTf32(value);
        input = &copy;
      }
    const Cell &a = *inputs[0], &b = *inputs[1];
    int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    double largest = getLargestFinite(dot.getType());
    Cell cell;
    cell.shape = acc.shape;
    cell.floats.resize(m * n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double total = acc.floats[i * n + j];
        for (int64_t l = 0; l < k; ++l)
          total = limitTo(
              total + limitTo(a.floats[i * k + l] * b.floats[l * n + j],
                              largest),
              largest);
        cell.floats[i * n + j] = total;
      }
    values[dot.getResult()] = std::move(cell);
    return success();
  }

  LogicalResult runReduce(ReduceOp reduce) {
    const Cell &source = get(reduce.getSrc());
    int64_t axis = reduce.getAxis();
    ArrayRef<int64_t> shape = source.shape;
    int64_t length = shape[axis];
    int64_t inner = getNumElements(shape.drop_front(axis + 1));
    int64_t outer = getNumElements(shape.take_front(axis));
    Cell cell;
    cell.shape = getShape(reduce.getType());
    ReduceKind kind = reduce.getKind();
    unsigned width = source.isFloat()
                         ? 0
                         : getIntWidth(reduce.getSrc().getType());
    double largest = getLargestFinite(reduce.getSrc().getType());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t n = 0; n < inner; ++n) {
        auto at = [&](int64_t k) { return (o * length + k) * inner + n; };
        if (source.isFloat()) {
          double total = source.floats[at(0)];
          for (int64_t k = 1; k < length; ++k) {
            double x = source.floats[at(k)];
            total = kind == ReduceKind::sum   ? total + x
                    : kind == ReduceKind::max ? maximumF(total, x)
                                              : minimumF(total, x);
          }
          cell.floats.push_back(limitTo(total, largest));
        } else {
          int64_t total = source.ints[at(0)];
          for (int64_t k = 1; k < length; ++k) {
            int64_t x = source.ints[at(k)];
            total = kind == ReduceKind::sum
                        ? wrap(int64_t(uint64_t(total) + uint64_t(x)), width)
                    : kind == ReduceKind::max ? std::max(total, x)
                                              : std::min(total, x);
          }
          cell.ints.push_back(total);
        }
      }
    values[reduce.getResult()] = std::move(cell);
    return success();
  }

  /// blk.sum_centered_squares as it is defined: the sum of the lanes the
  /// mask counts, then their squares about sum / divisor, each limited to
  /// f32's range as a reduction's result is.
  LogicalResult runSumCenteredSquares(SumCenteredSquaresOp op) {
    const Cell &source = get(op.getSrc());
    const Cell *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    auto counted = [&](size_t i) { return !mask || mask->ints[i] != 0; };
    double largest = getLargestFinite(op.getSum().getType());
    double sum = 0;
    for (size_t i = 0; i < source.floats.size(); ++i)
      if (counted(i))
        sum += source.floats[i];
    sum = limitTo(sum, largest);
    double mean = sum / get(op.getDivisor()).floats[0];
    double squares = 0;
    for (size_t i = 0; i < source.floats.size(); ++i)
      if (counted(i))
        squares += (source.floats[i] - mean) * (source.floats[i] - mean);
    Cell sumCell, squaresCell;
    sumCell.floats = {sum};
    squaresCell.floats = {limitTo(squares, largest)};
    values[op.getSum()] = std::move(sumCell);
    values[op.getSquares()] = std::move(squaresCell);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Control flow
  //===--------------------------------------------------------------------===//

  void setResults(Operation *op, ArrayRef<Cell> results) {
    for (auto [result, cell] : llvm::zip(op->getResults(), results))
      values[result] = cell;
  }

  LogicalResult runFor(scf::ForOp loop) {
    unsigned width = getIntWidth(loop.getInductionVar().getType());
    int64_t lower = get(loop.getLowerBound()).ints[0];
    int64_t upper = get(loop.getUpperBound()).ints[0];
    int64_t stepSize = get(loop.getStep()).ints[0];
    if (stepSize <= 0)
      return fault(loop) << "the loop's step is " << stepSize
                         << ", not positive";
    SmallVector<Cell> carried;
    for (Value init : loop.getInitArgs())
      carried.push_back(get(init));
    for (int64_t i = lower; i < upper;) {
      if (failed(countIteration(loop)))
        return failure();
      Cell induction;
      induction.ints = {i};
      SmallVector<Cell> arguments = {induction};
      arguments.append(carried.begin(), carried.end());
      if (failed(runBlock(*loop.getBody(), arguments, carried)))
        return failure();
      int64_t next = wrap(int64_t(uint64_t(i) + uint64_t(stepSize)), width);
      if (next <= i)
        return fault(loop) << "the induction variable wraps past the i"
                           << width << " limit after " << i;
      i = next;
    }
    setResults(loop, carried);
    return success();
  }

  /// Counts one iteration of `loop` against the program's budget: a loop
  /// that does not end (on the GPU, a hang) is an error, not a reference
  /// that never comes.
  LogicalResult countIteration(Operation *loop) {
    if (++iterations <= kMaxLoopIterations)
      return success();
    return fault(loop) << "runs more than " << kMaxLoopIterations
                       << " loop iterations (a loop that does not end? on "
                          "the GPU, a hang)";
  }

  LogicalResult runIf(scf::IfOp branch) {
    bool taken = get(branch.getCondition()).ints[0] != 0;
    Region &region = taken ? branch.getThenRegion() : branch.getElseRegion();
    SmallVector<Cell> results;
    if (!region.empty() && failed(runBlock(region.front(), {}, results)))
      return failure();
    setResults(branch, results);
    return success();
  }

  LogicalResult runWhile(scf::WhileOp loop) {
    SmallVector<Cell> carried;
    for (Value init : loop.getInits())
      carried.push_back(get(init));
    for (;;) {
      if (failed(countIteration(loop)))
        return failure();
      SmallVector<Cell> condition;
      if (failed(runBlock(loop.getBefore().front(), carried, condition)))
        return failure();
      // scf.condition's operands: the flag, then what goes on.
      bool proceeds = condition.front().ints[0] != 0;
      carried.assign(condition.begin() + 1, condition.end());
      if (!proceeds)
        break;
      SmallVector<Cell> next;
      if (failed(runBlock(loop.getAfter().front(), carried, next)))
        return failure();
      carried = std::move(next);
    }
    setResults(loop, carried);
    return success();
  }

  int64_t grid;
  const rt::ProgramShape &shape;
  const rt::ScalarValues &scalars;
  std::vector<Memory> &memories;
  Meeting *meeting;
  DenseMap<Value, Cell> values;
  int64_t programId = 0;
  /// Loop iterations the current program has run.
  int64_t iterations = 0;
};

/// At most this many programs of a meeting kernel run at once (a thread
/// each), as a persistent grid of a GPU keeps its resident programs.
constexpr int64_t kMeetingPrograms = 256;

/// The program a meeting kernel's thread runs (for its diagnostics).
thread_local int64_t meetingProgram = -1;

/// Runs a kernel whose programs meet (blk.program_barrier) as the GPU runs
/// it: a persistent grid of min(grid, kMeetingPrograms) programs at once,
/// a thread each, each walking its work. The first diagnostic of the
/// lowest failing program is the error; programs that gave up waiting
/// because another failed say nothing.
LogicalResult runMeetingKernel(func::FuncOp kernel,
                               std::vector<Memory> &memories, int64_t grid,
                               const rt::ProgramShape &shape,
                               const rt::ScalarValues &scalars) {
  int64_t programs = std::min(grid, kMeetingPrograms);
  Meeting meeting;
  meeting.running = programs;
  ProgramRunner reporter(memories, programs, shape, scalars, &meeting);
  FailureOr<SmallVector<Cell>> arguments = reporter.getArguments(kernel);
  if (failed(arguments))
    return failure();
  std::mutex reportLock;
  int64_t started = 0;
  int64_t lowest = programs;
  std::optional<Location> where;
  std::string message;
  {
    ScopedDiagnosticHandler collect(kernel.getContext(), [&](Diagnostic &d) {
      std::lock_guard<std::mutex> hold(reportLock);
      if (meetingProgram >= 0 && meetingProgram < lowest) {
        lowest = meetingProgram;
        where = d.getLocation();
        message = d.str();
      }
      return success();
    });
    started = rt::runSharesTogether(
        programs,
        [&](int64_t p) {
          meetingProgram = p;
          std::atomic<int64_t> failure(programs);
          ProgramRunner runner(memories, programs, shape, scalars, &meeting);
          runner.runPrograms(kernel, *arguments, p, p + 1, failure);
          std::lock_guard<std::mutex> hold(meeting.lock);
          --meeting.running;
          if (failure != programs)
            meeting.abandoned = true;
          meeting.arrived.notify_all();
        },
        [&](int64_t) {
          // Never started: those waiting for it give up.
          std::lock_guard<std::mutex> hold(meeting.lock);
          --meeting.running;
          meeting.abandoned = true;
          meeting.arrived.notify_all();
        });
  }
  if (started < programs)
    return kernel.emitError()
           << "float64 reference: the host started " << started << " of the "
           << programs << " threads this kernel's programs need (they meet "
           << "at blk.program_barrier: one thread each)";
  if (!where)
    return failure(meeting.abandoned);
  return emitError(*where) << message;
}

/// Runs `kernel`'s programs on up to the host's threads, each a contiguous
/// range of program ids (a program's result does not depend on which
/// thread runs it). Where programs fail, the error is the lowest one's,
/// whichever thread found it: the threads run quietly, and that program
/// runs again alone to report.
LogicalResult runKernel(func::FuncOp kernel, std::vector<Memory> &memories,
                        int64_t grid, const rt::ProgramShape &shape,
                        const rt::ScalarValues &scalars) {
  bool meets = kernel
                   .walk([](ProgramBarrierOp) { return WalkResult::interrupt(); })
                   .wasInterrupted();
  if (meets)
    return runMeetingKernel(kernel, memories, grid, shape, scalars);
  ProgramRunner reporter(memories, grid, shape, scalars);
  FailureOr<SmallVector<Cell>> arguments = reporter.getArguments(kernel);
  if (failed(arguments))
    return failure();
  // Every program of the grid and of each instance of a batch.
  int64_t programs = grid * shape.getInstances();
  int64_t shares = rt::getHostShares(programs);
  std::atomic<int64_t> firstFailure(programs);
  {
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    rt::runShares(shares, [&](int64_t share) {
      ProgramRunner runner(memories, grid, shape, scalars);
      runner.runPrograms(kernel, *arguments, programs * share / shares,
                         programs * (share + 1) / shares, firstFailure);
    });
  }
  int64_t failing = firstFailure;
  if (failing == programs)
    return success();
  std::atomic<int64_t> once(programs);
  reporter.runPrograms(kernel, *arguments, failing, failing + 1, once);
  if (once == programs) // Alone, after the others, it ran: say what is known.
    kernel.emitError() << "float64 reference, program " << failing
                       << ": failed beside the other programs, and ran "
                          "alone after them";
  return failure();
}

/// A tensor of the run as the interpreter holds it: an input's (or
/// output's) stored elements widened, every element of its layout (row and
/// instance strides included).
Memory getMemory(const rt::HostTensor &tensor) {
  Memory memory;
  memory.name = tensor.getName();
  memory.isFloat = tensor.isFloat();
  memory.rowStride = tensor.getRowStride();
  memory.batchStride = tensor.getBatchStride();
  memory.headStride = tensor.getHeadStride();
  // Outputs start unwritten (NaN, as the run's poison reads); the elements
  // between rows and instances are read as zeros.
  bool output = tensor.getDeclaration().role == rt::ArgRole::output;
  if (memory.isFloat)
    memory.floats.assign(tensor.getStorageElements(), output ? kNaN : 0.0);
  else
    memory.ints.assign(tensor.getStorageElements(), 0);
  if (output && memory.isFloat)
    memory.written.assign(tensor.getStorageElements(), 0);
  if (output)
    return memory;
  for (int64_t r = 0; r < tensor.getRows(); ++r)
    for (int64_t c = 0; c < tensor.getCols(); ++c) {
      int64_t index = tensor.getElementIndex(r, c);
      if (memory.isFloat)
        memory.floats[index] = tensor.get(r, c);
      else
        memory.ints[index] = tensor.getInteger(r, c);
    }
  return memory;
}

} // namespace

LogicalResult mlir::blk::interpretProgram(
    ModuleOp program, int64_t grid, const rt::ProgramShape &shape,
    const std::vector<rt::HostTensor> &tensors, const rt::ScalarValues &scalars,
    std::vector<rt::ReferenceOutput> &outputs) {
  std::vector<Memory> memories;
  for (const rt::HostTensor &tensor : tensors)
    memories.push_back(getMemory(tensor));
  for (auto kernel : program.getOps<func::FuncOp>())
    if (isKernel(kernel) &&
        failed(runKernel(kernel, memories, grid, shape, scalars)))
      return failure();
  for (const rt::HostTensor &tensor : tensors) {
    if (tensor.getDeclaration().role != rt::ArgRole::output)
      continue;
    const Memory *memory = nullptr;
    for (const Memory &candidate : memories)
      if (candidate.name == tensor.getName())
        memory = &candidate;
    rt::ReferenceOutput output{tensor.getName(), {}};
    for (int64_t r = 0; r < tensor.getRows(); ++r)
      for (int64_t c = 0; c < tensor.getCols(); ++c) {
        int64_t index = tensor.getElementIndex(r, c);
        output.values.push_back(memory->isFloat ? memory->floats[index]
                                                : double(memory->ints[index]));
      }
    outputs.push_back(std::move(output));
  }
  return success();
}
