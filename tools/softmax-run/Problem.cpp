//===- Problem.cpp - the problem, its kernel ABI and its fitting ----------===//
#include "Problem.h"

#include "blk/IR/BlkDialect.h"
#include "blk/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

#include <cstring>

using namespace softmax_run;

mlir::blk::SoftmaxShape softmax_run::shapeOf(const Problem &problem) {
  return {problem.rows, problem.cols,
          static_cast<int64_t>(blk::runtime::elementSize(problem.type))};
}

/// As Triton does for integer arguments: a value divisible by 16 is compiled
/// as such, which lets masks on row ends cover whole vector runs.
constexpr int64_t kSpecializedDivisibility = 16;

static void specializeDivisibility(mlir::ModuleOp program,
                                   const Problem &problem) {
  // The softmax kernel ABI: (out, in, in_row_stride, out_row_stride,
  // n_rows, n_cols).
  const int64_t values[] = {problem.inStride, problem.outStride, problem.rows,
                            problem.cols};
  auto name = mlir::blk::BlkDialect::getDivisibilityAttrName();
  for (auto func : program.getOps<mlir::func::FuncOp>()) {
    if (!mlir::blk::isKernel(func) || func.getNumArguments() < 6)
      continue;
    for (unsigned i = 0; i < 4; ++i) {
      auto divisibility = func.getArgAttrOfType<mlir::IntegerAttr>(2 + i, name);
      if (divisibility && values[i] % divisibility.getInt() != 0)
        func.removeArgAttr(2 + i, name);
      else if (!divisibility && values[i] % kSpecializedDivisibility == 0)
        func.setArgAttr(2 + i, name,
                        mlir::IntegerAttr::get(
                            mlir::IntegerType::get(func.getContext(), 64),
                            kSpecializedDivisibility));
    }
  }
}

mlir::OwningOpRef<mlir::ModuleOp>
softmax_run::fitToProblem(mlir::ModuleOp program, const Problem &problem) {
  mlir::OwningOpRef<mlir::ModuleOp> fitted = program.clone();
  specializeDivisibility(*fitted, problem);
  if (problem.type == blk::runtime::ElementType::F32)
    return fitted;
  mlir::PassManager pm(program.getContext());
  pm.addPass(mlir::blk::createBlkStorageType(mlir::blk::BlkStorageTypeOptions{
      blk::runtime::elementTypeName(problem.type)}));
  if (mlir::failed(pm.run(*fitted)))
    return nullptr;
  return fitted;
}

std::vector<uint8_t> softmax_run::stageInput(const Problem &problem) {
  size_t elementBytes = blk::runtime::elementSize(problem.type);
  std::vector<uint8_t> staged(problem.input.size() * elementBytes);
  for (size_t i = 0; i < problem.input.size(); ++i) {
    float value = problem.input[i];
    uint16_t bits = 0;
    switch (problem.type) {
    case blk::runtime::ElementType::F32:
      std::memcpy(&staged[i * 4], &value, 4);
      continue;
    case blk::runtime::ElementType::F16:
      bits = blk::runtime::floatToHalfBits(value);
      break;
    case blk::runtime::ElementType::BF16:
      bits = blk::runtime::floatToBf16Bits(value);
      break;
    }
    std::memcpy(&staged[i * 2], &bits, 2);
  }
  return staged;
}

bool KernelABI::read(mlir::ModuleOp program, const Problem &problem,
                     KernelABI &abi, std::string &error) {
  mlir::MLIRContext *context = program.getContext();
  mlir::Type pointer = mlir::blk::PtrType::get(
      context, problem.type == blk::runtime::ElementType::F32
                   ? mlir::Type(mlir::Float32Type::get(context))
               : problem.type == blk::runtime::ElementType::F16
                   ? mlir::Type(mlir::Float16Type::get(context))
                   : mlir::Type(mlir::BFloat16Type::get(context)));
  mlir::Type i32 = mlir::IntegerType::get(context, 32);
  bool first = true;
  for (auto func : program.getOps<mlir::func::FuncOp>()) {
    if (!mlir::blk::isKernel(func))
      continue;
    auto types = func.getArgumentTypes();
    bool fixedPart = types.size() >= 6 && types[0] == pointer &&
                     types[1] == pointer &&
                     llvm::all_of(types.slice(2, 4),
                                  [&](mlir::Type t) { return t == i32; });
    std::vector<std::string> kinds;
    for (unsigned i = 6; fixedPart && i < types.size(); ++i) {
      auto kind = func.getArgAttrOfType<mlir::StringAttr>(
          i, mlir::blk::BlkDialect::getScratchAttrName());
      if (types[i] != pointer || !kind) {
        fixedPart = false;
        break;
      }
      kinds.push_back(kind.str());
    }
    if (!fixedPart) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "kernel @" << func.getSymName() << " takes " << func.getFunctionType()
         << "; softmax-run runs kernels taking (out: " << pointer
         << ", in: " << pointer
         << ", in_row_stride: i32, out_row_stride: i32, n_rows: i32, "
            "n_cols: i32) followed by scratch pointers marked blk.scratch";
      error = text;
      return false;
    }
    if (first)
      abi.scratchKinds = kinds;
    else if (kinds != abi.scratchKinds) {
      error = "kernel @" + func.getSymName().str() +
              " declares other scratch buffers than the program's first "
              "kernel; the k-th scratch argument of every kernel is the same "
              "buffer";
      return false;
    }
    first = false;
  }
  return true;
}

size_t KernelABI::scratchBytes(size_t index, const Problem &problem) const {
  size_t elements = scratchKinds[index] == "rows"
                        ? problem.rows
                        : problem.rows * problem.cols;
  return elements * blk::runtime::elementSize(problem.type);
}

KernelArguments::KernelArguments(uint64_t out, uint64_t in,
                                 const Problem &problem,
                                 const std::vector<uint64_t> &scratch)
    : scalars{static_cast<int32_t>(problem.inStride),
              static_cast<int32_t>(problem.outStride),
              static_cast<int32_t>(problem.rows),
              static_cast<int32_t>(problem.cols)} {
  pointers = {out, in};
  pointers.insert(pointers.end(), scratch.begin(), scratch.end());
  slots = {&pointers[0], &pointers[1], &scalars[0],
           &scalars[1],  &scalars[2],  &scalars[3]};
  for (size_t i = 2; i < pointers.size(); ++i)
    slots.push_back(&pointers[i]);
}

