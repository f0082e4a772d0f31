//===- Reference.cpp - float64 references of the row-wise kernels ---------===//
#include "blk/Runtime/Reference.h"
#include "blk/Runtime/Parallel.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>

using namespace blk::runtime;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct KindInfo {
  ReferenceKind kind;
  const char *name;
};
constexpr KindInfo kKinds[] = {
    {ReferenceKind::softmax, "softmax"},
    {ReferenceKind::log_softmax, "log_softmax"},
    {ReferenceKind::scaled_softmax, "scaled_softmax"},
    {ReferenceKind::softmax_backward, "softmax_backward"},
    {ReferenceKind::cross_entropy, "cross_entropy"},
    {ReferenceKind::rms_norm, "rms_norm"},
    {ReferenceKind::layer_norm, "layer_norm"},
    {ReferenceKind::matmul, "matmul"},
    {ReferenceKind::attention, "attention"},
    {ReferenceKind::attention_backward, "attention_backward"},
};

const ScalarValue *findScalar(const ScalarValues &scalars,
                              const std::string &name) {
  for (const auto &[scalarName, value] : scalars)
    if (scalarName == name)
      return &value;
  return nullptr;
}

double getScalar(const ScalarValues &scalars, const std::string &name,
                 double otherwise) {
  const ScalarValue *value = findScalar(scalars, name);
  return value ? value->value : otherwise;
}

/// Stores `scalar` in integer tensor `tensor`'s element (row, 0), exactly
/// where it is an integer.
void setScalar(HostTensor &tensor, int64_t row, const ScalarValue &scalar) {
  if (scalar.integer)
    tensor.setInteger(row, 0, *scalar.integer);
  else
    tensor.set(row, 0, scalar.value);
}

/// Whether `scalar` equals the integer `value`: exactly where the scalar
/// is an integer, else as a double.
bool isEqual(const ScalarValue &scalar, int64_t value) {
  return scalar.integer ? *scalar.integer == value
                        : scalar.value == double(value);
}

const char *describeExtent(ArgExtent extent) {
  switch (extent) {
  case ArgExtent::matrix:
    return "matrix";
  case ArgExtent::per_row:
    return "per_row";
  case ArgExtent::per_col:
    return "per_col";
  case ArgExtent::rows_by_inner:
    return "rows_by_inner";
  case ArgExtent::inner_by_cols:
    return "inner_by_cols";
  }
  return "?";
}

/// The tensor of `tensors` a contract entry stands for: the one of that
/// name, or for an unnamed entry the only matrix of that role.
const HostTensor *match(const std::vector<HostTensor> &tensors,
                        const TensorContract &entry, ArgRole role) {
  if (!entry.name.empty())
    return findTensor(tensors, entry.name);
  const HostTensor *found = nullptr;
  for (const HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == role &&
        tensor.getDeclaration().extent == ArgExtent::matrix) {
      if (found)
        return nullptr;
      found = &tensor;
    }
  return found;
}

/// Row `row` of a matrix (or the one row of a vector) as doubles.
std::vector<double> getRow(const HostTensor &tensor, int64_t row) {
  std::vector<double> values(tensor.getCols());
  for (int64_t col = 0; col < tensor.getCols(); ++col)
    values[col] = tensor.get(row, col);
  return values;
}

/// The first float input with a row per problem row (a matrix, or a
/// product's A): where special rows go.
HostTensor *primaryInput(std::vector<HostTensor> &tensors) {
  for (HostTensor &tensor : tensors) {
    ArgExtent extent = tensor.getDeclaration().extent;
    if (tensor.getDeclaration().role == ArgRole::input && tensor.isFloat() &&
        (extent == ArgExtent::matrix || extent == ArgExtent::rows_by_inner))
      return &tensor;
  }
  return nullptr;
}

using RowEdit = std::function<void(std::vector<double> &)>;

/// Rows whose softmax, log_softmax and cross-entropy torch defines: a
/// -inf element, only -inf (NaN), a +inf (NaN), a NaN, values near the
/// float limits, and rows scaled far up and down.
std::vector<RowEdit> softmaxSpecialRows() {
  return {
      [](std::vector<double> &x) { x[0] = -kInf; x[x.size() / 2] = -kInf; },
      [](std::vector<double> &x) { std::fill(x.begin(), x.end(), -kInf); },
      [](std::vector<double> &x) { x.back() = kInf; },
      [](std::vector<double> &x) { x[x.size() / 3] = kNaN; },
      [](std::vector<double> &x) { x.front() = 3e38; x.back() = -3e38; },
      [](std::vector<double> &x) { for (double &v : x) v *= 1e30; },
      [](std::vector<double> &x) { for (double &v : x) v *= 1e-38; },
  };
}

/// Rows whose norm torch defines without overflow in f32: a NaN (NaN
/// everywhere), a +inf and a -inf (NaN there, 0 elsewhere: x * rsqrt(inf)),
/// all zeros, and tiny values where eps dominates.
std::vector<RowEdit> normSpecialRows() {
  return {
      [](std::vector<double> &x) { x[x.size() / 3] = kNaN; },
      [](std::vector<double> &x) { x.back() = kInf; },
      [](std::vector<double> &x) { x.front() = -kInf; },
      [](std::vector<double> &x) { std::fill(x.begin(), x.end(), 0.0); },
      [](std::vector<double> &x) { for (double &v : x) v *= 1e-30; },
  };
}

/// Rows of A whose product torch defines whatever the order of the sums
/// and without overflow in f32 (B is finite and never 0): a NaN (a row of
/// NaN), a +inf (+-inf by B's signs), a +inf and a -inf (NaN where they
/// meet opposite signs), all -inf, all zeros, and large values whose sums
/// stay far from f32's limit.
std::vector<RowEdit> matmulSpecialRows() {
  return {
      [](std::vector<double> &x) { x[x.size() / 3] = kNaN; },
      [](std::vector<double> &x) { x.front() = kInf; },
      [](std::vector<double> &x) { x.front() = kInf; x.back() = -kInf; },
      [](std::vector<double> &x) { std::fill(x.begin(), x.end(), -kInf); },
      [](std::vector<double> &x) { std::fill(x.begin(), x.end(), 0.0); },
      [](std::vector<double> &x) { for (double &v : x) v *= 1e15; },
  };
}

/// Rows of Q whose attention torch defines as f32 computes it: a NaN (a
/// row of NaN), all zeros (every key weighs the same: the mean of V's
/// rows), and values 100 times larger (a softmax of one sharp peak, scores
/// far inside f32's range).
std::vector<RowEdit> attentionSpecialRows() {
  return {
      [](std::vector<double> &x) { x[x.size() / 3] = kNaN; },
      [](std::vector<double> &x) { std::fill(x.begin(), x.end(), 0.0); },
      [](std::vector<double> &x) { for (double &v : x) v *= 100; },
  };
}

/// Edits row r of `tensor` with edits[r] (an empty edit leaves it).
void applyRows(HostTensor &tensor, const std::vector<RowEdit> &edits) {
  for (int64_t r = 0; r < tensor.getRows() && r < int64_t(edits.size()); ++r) {
    if (!edits[r])
      continue;
    std::vector<double> row = getRow(tensor, r);
    edits[r](row);
    for (int64_t c = 0; c < tensor.getCols(); ++c)
      tensor.set(r, c, row[c]);
  }
}

/// Each row's values come from a generator of its own, seeded by the seed,
/// the tensor and the row: the data does not depend on the thread count.
std::mt19937_64 rowGenerator(unsigned seed, size_t tensor, int64_t row) {
  std::seed_seq sequence{uint64_t(seed), uint64_t(tensor), uint64_t(row)};
  return std::mt19937_64(sequence);
}

void fillRandom(HostTensor &tensor, size_t index, int64_t cols,
                unsigned seed) {
  bool matrix = hasRowStride(tensor.getDeclaration().extent);
  forEachRowInParallel(tensor.getRows(), [&](int64_t r) {
    std::mt19937_64 generator = rowGenerator(seed, index, r);
    std::normal_distribution<double> normal(matrix ? 0.0 : 1.0,
                                            matrix ? 2.0 : 0.5);
    std::uniform_int_distribution<int64_t> column(0, cols - 1);
    for (int64_t c = 0; c < tensor.getCols(); ++c)
      tensor.set(r, c, tensor.isFloat() ? normal(generator)
                                        : double(column(generator)));
  });
}

void shapeSoftmaxBackward(std::vector<HostTensor> &tensors, bool special) {
  HostTensor &y = *findTensor(tensors, "y");
  forEachRowInParallel(y.getRows(), [&](int64_t r) {
    std::vector<double> row = getRow(y, r), probabilities(row.size());
    softmaxRow(row.data(), row.size(), probabilities.data());
    for (int64_t c = 0; c < y.getCols(); ++c)
      y.set(r, c, probabilities[c]);
  });
  if (!special)
    return;
  // dy with a NaN and a +inf (NaN everywhere: y * inf in the sum), and y
  // all zero (dx = 0, dy being finite).
  applyRows(*findTensor(tensors, "dy"),
            {[](std::vector<double> &x) { x[x.size() / 3] = kNaN; },
             [](std::vector<double> &x) { x.front() = kInf; }});
  if (y.getRows() > 2)
    for (int64_t c = 0; c < y.getCols(); ++c)
      y.set(2, c, 0.0);
}

void shapeCrossEntropy(std::vector<HostTensor> &tensors,
                       const ScalarValues &scalars, bool special) {
  HostTensor &logits = *findTensor(tensors, "logits");
  HostTensor &labels = *findTensor(tensors, "labels");
  if (const ScalarValue *ignore = findScalar(scalars, "ignore_index"))
    for (int64_t r = 3; r < labels.getRows(); r += 8)
      setScalar(labels, r, *ignore);
  if (!special)
    return;
  // softmax's rows of infinities and NaN (not its huge rows: a loss of
  // 1e30 would hide every other row's error in the relative L2 norm), and
  // a row whose label's logit is -inf: the loss is +inf.
  std::vector<RowEdit> rows = softmaxSpecialRows();
  rows.resize(4);
  rows.push_back([](std::vector<double> &x) { x[0] = -kInf; });
  applyRows(logits, rows);
  if (labels.getRows() > int64_t(rows.size() - 1))
    labels.set(rows.size() - 1, 0, 0.0);
}

void scaledSoftmaxRow(std::vector<double> &row, int64_t r,
                      const ScalarValues &scalars, double *output) {
  double scale = getScalar(scalars, "scale", 1.0);
  bool causal = getScalar(scalars, "CAUSAL", 0.0) != 0.0;
  double offset = getScalar(scalars, "offset", 0.0);
  for (size_t c = 0; c < row.size(); ++c) {
    // The kernel scales in f32: a product beyond its range is infinite.
    row[c] = double(float(row[c] * scale));
    if (causal && double(c) > double(r) + offset)
      row[c] = -kInf;
  }
  softmaxRow(row.data(), row.size(), output);
}

/// y = (x - shift) * rsqrt(meanSquare + eps) * weight (+ bias): both norms,
/// shift 0 for RMSNorm.
void normRow(const std::vector<double> &x, bool centered, double eps,
             const std::vector<double> &weight, const std::vector<double> *bias,
             double *output) {
  double n = double(x.size()), mean = 0, meanSquare = 0;
  if (centered) {
    for (double v : x)
      mean += v;
    mean /= n;
  }
  for (double v : x)
    meanSquare += (v - mean) * (v - mean);
  meanSquare /= n;
  double rstd = 1.0 / std::sqrt(meanSquare + eps);
  for (size_t c = 0; c < x.size(); ++c)
    output[c] = (x[c] - mean) * rstd * weight[c] + (bias ? (*bias)[c] : 0.0);
}

/// The scaled, masked scores of query row `row` of `q` against every key
/// of its instance: the row of S the forward and the backward share.
std::vector<double> attentionScores(const HostTensor &q, const HostTensor &k,
                                    int64_t row, double scale, bool causal) {
  int64_t queries = q.getInstanceRows(), keys = k.getInstanceRows();
  int64_t i = row % queries, first = row / queries * keys;
  std::vector<double> query = getRow(q, row), scores(size_t(keys), 0.0);
  for (int64_t j = 0; j < keys; ++j) {
    for (int64_t d = 0; d < q.getCols(); ++d)
      scores[size_t(j)] += query[size_t(d)] * k.get(first + j, d);
    scores[size_t(j)] = causal && j > i ? -kInf : scores[size_t(j)] * scale;
  }
  return scores;
}

/// What both attention references read: q, k and v, the scale and the
/// causal mask.
struct AttentionInputs {
  const HostTensor &q, &k, &v;
  double scale;
  bool causal;

  AttentionInputs(const std::vector<HostTensor> &tensors,
                  const ScalarValues &scalars)
      : q(*findTensor(tensors, "q")), k(*findTensor(tensors, "k")),
        v(*findTensor(tensors, "v")),
        scale(getScalar(scalars, "scale", 1.0)),
        causal(getScalar(scalars, "CAUSAL", 0.0) != 0.0) {}
};

/// o = softmax(scale q k^T) v per instance of a batch, with columns j > i
/// of row i masked (-inf) where CAUSAL is 1 (torch's is_causal: the mask's
/// top-left corner on the diagonal), and lse (if given) each row's
/// logsumexp of the scaled, masked scores.
void attentionReference(const std::vector<HostTensor> &tensors,
                        const ScalarValues &scalars, double *out,
                        ReferenceOutput *lse) {
  AttentionInputs in(tensors, scalars);
  const HostTensor &q = in.q, &k = in.k, &v = in.v;
  double scale = in.scale;
  bool causal = in.causal;
  int64_t queries = q.getInstanceRows(), keys = k.getInstanceRows();
  int64_t valueDim = v.getCols();
  forEachRowInParallel(q.getRows(), [&](int64_t row) {
    int64_t first = row / queries * keys;
    std::vector<double> scores = attentionScores(q, k, row, scale, causal);
    if (lse)
      lse->values[size_t(row)] = logSumExpRow(scores.data(), keys);
    std::vector<double> weights(static_cast<size_t>(keys));
    softmaxRow(scores.data(), keys, weights.data());
    double *o = out + row * valueDim;
    for (int64_t j = 0; j < keys; ++j)
      for (int64_t d = 0; d < valueDim; ++d)
        o[d] += weights[j] * v.get(first + j, d);
  });
}

/// The gradients of o = softmax(scale q k^T) v given do (and delta, each
/// row's sum of do * o), in two passes of
/// O(queries x keys x dim) each and no queries x keys matrix (a 16384^2
/// one per instance would not fit): per query row, its logsumexp, delta =
/// sum_j P dP and dq = scale sum_j dS k_j; then per key row, dv = sum_i P
/// do_i and dk = scale sum_i dS q_i, its column of P and dS recomputed
/// from the rows' logsumexps and deltas. dS = P (dP - delta), dP = do v^T.
void attentionBackwardReference(const std::vector<HostTensor> &tensors,
                                const ScalarValues &scalars, double *dq,
                                double *dk, double *dv, double *delta) {
  AttentionInputs in(tensors, scalars);
  const HostTensor &q = in.q, &k = in.k, &v = in.v;
  const HostTensor &dO = *findTensor(tensors, "do");
  double scale = in.scale;
  bool causal = in.causal;
  int64_t queries = q.getInstanceRows(), keys = k.getInstanceRows();
  int64_t dim = q.getCols(), valueDim = v.getCols();
  std::vector<double> lse(size_t(q.getRows())), deltas(size_t(q.getRows()));
  // dP[i][j] = do_i . v_j.
  auto gradientOfScore = [&](int64_t row, int64_t keyRow) {
    double sum = 0;
    for (int64_t d = 0; d < valueDim; ++d)
      sum += dO.get(row, d) * v.get(keyRow, d);
    return sum;
  };
  forEachRowInParallel(q.getRows(), [&](int64_t row) {
    int64_t first = row / queries * keys;
    std::vector<double> scores = attentionScores(q, k, row, scale, causal);
    double logSumExp = logSumExpRow(scores.data(), size_t(keys));
    std::vector<double> p(static_cast<size_t>(keys)),
        dP(static_cast<size_t>(keys));
    double sum = 0;
    for (int64_t j = 0; j < keys; ++j) {
      p[size_t(j)] = std::exp(scores[size_t(j)] - logSumExp);
      dP[size_t(j)] = gradientOfScore(row, first + j);
      sum += p[size_t(j)] * dP[size_t(j)];
    }
    lse[size_t(row)] = logSumExp;
    deltas[size_t(row)] = sum;
    double *dqRow = dq + row * dim;
    for (int64_t j = 0; j < keys; ++j) {
      double dS = p[size_t(j)] * (dP[size_t(j)] - sum);
      for (int64_t d = 0; d < dim; ++d)
        dqRow[d] += scale * dS * k.get(first + j, d);
    }
  });
  // The kernel's delta is sum_d do o of the o it is given (the forward's
  // rounded to the tensors' type): compared as such, in f32's tolerance.
  if (delta) {
    const HostTensor &o = *findTensor(tensors, "o");
    for (int64_t row = 0; row < q.getRows(); ++row)
      for (int64_t d = 0; d < valueDim; ++d)
        delta[row] += dO.get(row, d) * o.get(row, d);
  }
  forEachRowInParallel(k.getRows(), [&](int64_t keyRow) {
    int64_t j = keyRow % keys, first = keyRow / keys * queries;
    std::vector<double> key = getRow(k, keyRow);
    double *dkRow = dk + keyRow * dim, *dvRow = dv + keyRow * valueDim;
    for (int64_t i = causal ? std::min(j, queries) : 0; i < queries; ++i) {
      int64_t row = first + i;
      double score = 0;
      for (int64_t d = 0; d < dim; ++d)
        score += q.get(row, d) * key[size_t(d)];
      double p = std::exp(score * scale - lse[size_t(row)]);
      double dS = p * (gradientOfScore(row, keyRow) - deltas[size_t(row)]);
      for (int64_t d = 0; d < valueDim; ++d)
        dvRow[d] += p * dO.get(row, d);
      for (int64_t d = 0; d < dim; ++d)
        dkRow[d] += scale * dS * q.get(row, d);
    }
  });
}

/// attention_backward's o and lse: the forward's, in float64, of q, k and
/// v; each unless `given` names it.
void deriveAttentionForward(std::vector<HostTensor> &tensors,
                            const ScalarValues &scalars,
                            const std::vector<std::string> &given) {
  auto isGiven = [&](const char *name) {
    return std::find(given.begin(), given.end(), name) != given.end();
  };
  // The forward is O(queries x keys x dim) an instance: not for nothing.
  if (isGiven("o") && isGiven("lse"))
    return;
  HostTensor &o = *findTensor(tensors, "o");
  HostTensor &lse = *findTensor(tensors, "lse");
  ReferenceOutput lseValues{"lse", std::vector<double>(size_t(lse.getRows()))};
  std::vector<double> oValues(size_t(o.getRows()) * size_t(o.getCols()));
  attentionReference(tensors, scalars, oValues.data(), &lseValues);
  for (int64_t r = 0; r < o.getRows(); ++r) {
    if (!isGiven("lse"))
      lse.set(r, 0, lseValues.values[size_t(r)]);
    if (!isGiven("o"))
      for (int64_t c = 0; c < o.getCols(); ++c)
        o.set(r, c, oValues[size_t(r * o.getCols() + c)]);
  }
}

} // namespace

ScalarValue ScalarValue::fromText(const std::string &text) {
  errno = 0;
  char *end = nullptr;
  long long integer = std::strtoll(text.c_str(), &end, 10);
  if (!text.empty() && *end == '\0' && errno == 0)
    return fromInteger(integer);
  return {std::strtod(text.c_str(), nullptr), std::nullopt};
}

std::vector<std::string> blk::runtime::getReferenceKindNames() {
  std::vector<std::string> names;
  for (const KindInfo &info : kKinds)
    names.push_back(info.name);
  return names;
}

const char *blk::runtime::getReferenceKindName(ReferenceKind kind) {
  for (const KindInfo &info : kKinds)
    if (info.kind == kind)
      return info.name;
  return "?";
}

Status blk::runtime::parseReferenceKind(const std::string &name,
                                        ReferenceKind &kind) {
  std::string names;
  for (const KindInfo &info : kKinds) {
    if (name == info.name) {
      kind = info.kind;
      return Status::success();
    }
    names += (names.empty() ? "" : ", ") + std::string(info.name);
  }
  return Status::failure("unknown kernel kind '" + name + "' (known: " + names +
                         ")");
}

ReferenceContract blk::runtime::getContract(ReferenceKind kind) {
  const ArgExtent matrix = ArgExtent::matrix, perRow = ArgExtent::per_row,
                  perCol = ArgExtent::per_col;
  switch (kind) {
  case ReferenceKind::softmax:
  case ReferenceKind::log_softmax:
    return {{{"", matrix}}, {{"", matrix}}, {}, {}};
  case ReferenceKind::scaled_softmax:
    return {{{"", matrix}}, {{"", matrix}}, {"scale"}, {"CAUSAL", "offset"}};
  case ReferenceKind::softmax_backward:
    return {{{"y", matrix}, {"dy", matrix}}, {{"dx", matrix}}, {}, {}};
  case ReferenceKind::cross_entropy:
    return {{{"logits", matrix}, {"labels", perRow, /*integer=*/true}},
            {{"loss", perRow}, {"lse", perRow, false, /*optional=*/true}},
            {},
            {"ignore_index"}};
  case ReferenceKind::rms_norm:
    return {{{"x", matrix}, {"weight", perCol}}, {{"y", matrix}}, {"eps"}, {}};
  case ReferenceKind::layer_norm:
    return {{{"x", matrix}, {"weight", perCol}, {"bias", perCol}},
            {{"y", matrix}},
            {"eps"},
            {}};
  case ReferenceKind::matmul:
    return {{{"a", ArgExtent::rows_by_inner}, {"b", ArgExtent::inner_by_cols}},
            {{"c", matrix}},
            {},
            {}};
  case ReferenceKind::attention:
    return {{{"q", matrix},
             {"k", ArgExtent::inner_by_cols},
             {"v", ArgExtent::inner_by_cols}},
            {{"o", matrix}, {"lse", perRow, false, /*optional=*/true}},
            {"scale"},
            {"CAUSAL"}};
  case ReferenceKind::attention_backward:
    return {{{"q", matrix},
             {"k", ArgExtent::inner_by_cols},
             {"v", ArgExtent::inner_by_cols},
             {"o", matrix},
             {"do", matrix},
             {"lse", perRow}},
            {{"dq", matrix},
             {"dk", ArgExtent::inner_by_cols},
             {"dv", ArgExtent::inner_by_cols},
             {"delta", perRow, false, /*optional=*/true}},
            {"scale"},
            {"CAUSAL"}};
  }
  return {};
}

Status blk::runtime::checkContract(ReferenceKind kind,
                                   const std::vector<HostTensor> &tensors,
                                   const ScalarValues &scalars) {
  std::string what = std::string("a ") + getReferenceKindName(kind) + " kernel";
  ReferenceContract contract = getContract(kind);
  std::vector<const HostTensor *> known;
  auto checkEntry = [&](const TensorContract &entry, ArgRole role) -> Status {
    const char *roleName = role == ArgRole::input ? "input" : "output";
    const HostTensor *tensor = match(tensors, entry, role);
    if (!tensor) {
      if (entry.optional)
        return Status::success();
      return Status::failure(
          what + " has " +
          (entry.name.empty() ? std::string("one matrix ") + roleName
                              : std::string(roleName) + " '" + entry.name +
                                    "' (" + describeExtent(entry.extent) + ")") +
          ", but the program declares none");
    }
    known.push_back(tensor);
    const KernelArgument &declared = tensor->getDeclaration();
    if (declared.role != role || declared.extent != entry.extent ||
        tensor->isFloat() == entry.integer)
      return Status::failure(
          what + " has " + roleName + " '" + declared.name + "' as a " +
          describeExtent(entry.extent) + " of " +
          (entry.integer ? "integers" : "floats") + ", but the program " +
          "declares it " + (declared.role == ArgRole::input ? "an input" : "an output") +
          " " + describeExtent(declared.extent) + " of " + declared.type);
    return Status::success();
  };
  for (const TensorContract &entry : contract.inputs)
    if (Status status = checkEntry(entry, ArgRole::input); !status)
      return status;
  for (const TensorContract &entry : contract.outputs)
    if (Status status = checkEntry(entry, ArgRole::output); !status)
      return status;
  for (const HostTensor &tensor : tensors)
    if (std::find(known.begin(), known.end(), &tensor) == known.end())
      return Status::failure("tensor '" + tensor.getName() +
                             "' of the program is not one " + what +
                             " reads or writes");
  // References that read every row on its own serve a batch (its rows one
  // after another); attention works per instance. The others read one
  // weight or one B for every row.
  bool perRow = kind == ReferenceKind::softmax ||
                kind == ReferenceKind::log_softmax ||
                kind == ReferenceKind::softmax_backward ||
                kind == ReferenceKind::cross_entropy ||
                kind == ReferenceKind::attention ||
                kind == ReferenceKind::attention_backward;
  for (const HostTensor &tensor : tensors)
    if (!perRow && tensor.getInstanceRows() != tensor.getRows())
      return Status::failure(what + " has no reference for a batch of "
                                    "problems (--batch, --heads)");
  for (const std::string &param : contract.params)
    if (!findScalar(scalars, param))
      return Status::failure(what + " takes the scalar '" + param +
                             "', which the program does not declare");
  if (kind == ReferenceKind::scaled_softmax &&
      getScalar(scalars, "CAUSAL", 0.0) != 0.0 && !findScalar(scalars, "offset"))
    return Status::failure(what + " with CAUSAL=1 takes the parameter "
                                  "'offset' (columns past row + offset are "
                                  "masked), which the program does not declare");
  return Status::success();
}

void blk::runtime::fillInputs(const ReferenceKind *kind, int64_t cols,
                              std::vector<HostTensor> &tensors,
                              const ScalarValues &scalars, unsigned seed,
                              bool special) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].getDeclaration().role == ArgRole::input)
      fillRandom(tensors[i], i, cols, seed);
  // A program of no kind takes the special rows of what it computes: a
  // product's (its A, rows x inner) where it multiplies, else a softmax's.
  // A softmax's rows near f32's limit overflow a product's sums, whose
  // order the float64 check does not follow.
  HostTensor *primary = primaryInput(tensors);
  bool multiplies =
      primary && primary->getDeclaration().extent == ArgExtent::rows_by_inner;
  ReferenceKind shape = kind         ? *kind
                        : multiplies ? ReferenceKind::matmul
                                     : ReferenceKind::softmax;
  switch (shape) {
  case ReferenceKind::softmax_backward:
    return shapeSoftmaxBackward(tensors, special);
  case ReferenceKind::cross_entropy:
    return shapeCrossEntropy(tensors, scalars, special);
  case ReferenceKind::rms_norm:
  case ReferenceKind::layer_norm:
    if (special)
      applyRows(*findTensor(tensors, "x"), normSpecialRows());
    return;
  case ReferenceKind::softmax:
  case ReferenceKind::log_softmax:
  case ReferenceKind::scaled_softmax:
    if (HostTensor *input = primaryInput(tensors); input && special)
      applyRows(*input, softmaxSpecialRows());
    return;
  case ReferenceKind::matmul:
    if (special)
      applyRows(kind ? *findTensor(tensors, "a") : *primary,
                matmulSpecialRows());
    return;
  case ReferenceKind::attention:
    if (special)
      applyRows(*findTensor(tensors, "q"), attentionSpecialRows());
    return;
  case ReferenceKind::attention_backward: {
    // Not the NaN row: every key's dk and dv would be NaN, and the check
    // of the other rows with them. Nor, in f32, the sharp row: its scores
    // of 1e3, rounded to f32 as the kernel holds them, already move its
    // gradients past f32's tolerance.
    HostTensor &q = *findTensor(tensors, "q");
    std::vector<RowEdit> rows = attentionSpecialRows();
    rows.front() = nullptr;
    if (q.getElementType() == ElementType::F32)
      rows.pop_back();
    if (special)
      applyRows(q, rows);
    return;
  }
  }
}

void blk::runtime::deriveInputs(ReferenceKind kind,
                                std::vector<HostTensor> &tensors,
                                const ScalarValues &scalars,
                                const std::vector<std::string> &given) {
  if (kind == ReferenceKind::attention_backward)
    deriveAttentionForward(tensors, scalars, given);
}

void blk::runtime::computeReference(ReferenceKind kind,
                                    const std::vector<HostTensor> &tensors,
                                    const ScalarValues &scalars,
                                    std::vector<ReferenceOutput> &outputs) {
  outputs.clear();
  ReferenceContract contract = getContract(kind);
  const HostTensor &input = *match(tensors, contract.inputs[0], ArgRole::input);
  int64_t rows = input.getRows(), cols = input.getCols();
  auto addOutput = [&](const TensorContract &entry) -> double * {
    const HostTensor *tensor = match(tensors, entry, ArgRole::output);
    if (!tensor)
      return nullptr;
    outputs.push_back({tensor->getName(),
                       std::vector<double>(size_t(tensor->getRows()) *
                                           size_t(tensor->getCols()))});
    return outputs.back().values.data();
  };
  switch (kind) {
  case ReferenceKind::softmax:
  case ReferenceKind::log_softmax:
  case ReferenceKind::scaled_softmax: {
    double *y = addOutput(contract.outputs[0]);
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> x = getRow(input, r);
      if (kind == ReferenceKind::softmax)
        softmaxRow(x.data(), cols, y + r * cols);
      else if (kind == ReferenceKind::log_softmax)
        logSoftmaxRow(x.data(), cols, y + r * cols);
      else
        scaledSoftmaxRow(x, r, scalars, y + r * cols);
    }
    return;
  }
  case ReferenceKind::softmax_backward: {
    const HostTensor &dy = *findTensor(tensors, "dy");
    double *dx = addOutput(contract.outputs[0]);
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> y = getRow(input, r), g = getRow(dy, r);
      double dot = 0;
      for (int64_t c = 0; c < cols; ++c)
        dot += y[c] * g[c];
      for (int64_t c = 0; c < cols; ++c)
        dx[r * cols + c] = y[c] * (g[c] - dot);
    }
    return;
  }
  case ReferenceKind::cross_entropy: {
    const HostTensor &labels = *findTensor(tensors, "labels");
    const ScalarValue *ignore = findScalar(scalars, "ignore_index");
    // Both outputs are made before either pointer is kept: a second
    // push_back may move the first.
    bool withLse = match(tensors, contract.outputs[1], ArgRole::output);
    addOutput(contract.outputs[0]);
    if (withLse)
      addOutput(contract.outputs[1]);
    double *loss = outputs[0].values.data();
    double *lse = withLse ? outputs[1].values.data() : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> x = getRow(input, r);
      double logSumExp = logSumExpRow(x.data(), cols);
      int64_t label = labels.getInteger(r, 0);
      if (lse)
        lse[r] = logSumExp;
      // The kernel's contract (cross_entropy.mlir): a label outside [0,
      // cols) is the caller's error (torch raises), and its logit reads as
      // 0, so the loss is the logsumexp. Labels compare as integers, as the
      // kernel compares them.
      if (ignore && isEqual(*ignore, label))
        loss[r] = 0;
      else
        loss[r] = label >= 0 && label < cols ? logSumExp - x[size_t(label)]
                                             : logSumExp;
    }
    return;
  }
  case ReferenceKind::rms_norm:
  case ReferenceKind::layer_norm: {
    bool layer = kind == ReferenceKind::layer_norm;
    std::vector<double> weight = getRow(*findTensor(tensors, "weight"), 0);
    std::vector<double> bias =
        layer ? getRow(*findTensor(tensors, "bias"), 0) : std::vector<double>();
    double eps = getScalar(scalars, "eps", 0.0);
    double *y = addOutput(contract.outputs[0]);
    for (int64_t r = 0; r < rows; ++r)
      normRow(getRow(input, r), layer, eps, weight, layer ? &bias : nullptr,
              y + r * cols);
    return;
  }
  case ReferenceKind::matmul: {
    // `input` is A (rows x inner): `cols` is the inner dimension here.
    const HostTensor &b = *findTensor(tensors, "b");
    int64_t inner = cols, n = b.getCols();
    std::vector<double> bValues(size_t(inner) * size_t(n));
    for (int64_t k = 0; k < inner; ++k)
      for (int64_t c = 0; c < n; ++c)
        bValues[size_t(k * n + c)] = b.get(k, c);
    double *out = addOutput(contract.outputs[0]);
    forEachRowInParallel(rows, [&](int64_t r) {
      std::vector<double> a = getRow(input, r);
      double *row = out + r * n;
      for (int64_t k = 0; k < inner; ++k)
        for (int64_t c = 0; c < n; ++c)
          row[c] += a[size_t(k)] * bValues[size_t(k * n + c)];
    });
    return;
  }
  case ReferenceKind::attention: {
    // Both outputs are made before either is kept (push_back may move).
    addOutput(contract.outputs[0]);
    bool withLse = addOutput(contract.outputs[1]);
    return attentionReference(tensors, scalars, outputs[0].values.data(),
                              withLse ? &outputs[1] : nullptr);
  }
  case ReferenceKind::attention_backward: {
    // Every output is made before any is kept (push_back may move).
    for (int i = 0; i < 3; ++i)
      addOutput(contract.outputs[size_t(i)]);
    bool withDelta = addOutput(contract.outputs[3]);
    return attentionBackwardReference(
        tensors, scalars, outputs[0].values.data(), outputs[1].values.data(),
        outputs[2].values.data(),
        withDelta ? outputs[3].values.data() : nullptr);
  }
  }
}
