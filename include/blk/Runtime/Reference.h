//===- Reference.h - float64 references of the kernels ----------*- C++ -*-===//
//
// The memory-bound row-wise kernels language models run (softmax and its
// relatives, cross-entropy, the norms) and the matrix product, each with
// the tensors and
// parameters it reads and writes, the inputs a check of it uses, and a
// double-precision reference with torch's semantics for special values.
// A program computing one of them names its tensors and parameters as the
// kind's contract says (getContract); the launcher needs nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_REFERENCE_H
#define BLK_RUNTIME_REFERENCE_H

#include "blk/Runtime/HostTensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace blk::runtime {

enum class ReferenceKind {
  /// y = softmax(x) along each row.
  softmax,
  /// y = log_softmax(x).
  log_softmax,
  /// y = softmax(scale * x), with columns c > r + offset of row r set to
  /// -inf first where the constant CAUSAL is 1 (Apex's
  /// scaled_masked_softmax; a row with every column masked is NaN, as
  /// torch.softmax gives for a row of -inf).
  scaled_softmax,
  /// dx = y * (dy - sum(y * dy)) from softmax's output y and its gradient
  /// dy.
  softmax_backward,
  /// Per row: lse = logsumexp(logits) and loss = lse - logits[label]
  /// (torch.nn.functional.cross_entropy(reduction='none')); loss is 0 where
  /// the label is ignore_index. Labels outside [0, cols) are the caller's
  /// error (torch raises); the reference gives NaN there.
  cross_entropy,
  /// y = x * rsqrt(mean(x^2) + eps) * weight (torch's rms_norm).
  rms_norm,
  /// y = (x - mean) * rsqrt(var + eps) * weight + bias, var the biased
  /// variance (torch's layer_norm).
  layer_norm,
  /// c = a b, a of rows x inner, b of inner x cols (torch.matmul), every
  /// product and sum in double: an infinity times 0 is NaN.
  matmul,
  /// o = softmax(scale q k^T) v for each instance of a batch (q of rows x
  /// cols, k and v of inner x cols: keys and values), columns j > i of row
  /// i masked where the constant CAUSAL is 1 (torch's
  /// scaled_dot_product_attention with is_causal); lse, if the program
  /// writes it, is each row's logsumexp of the scaled scores.
  attention,
  /// attention's gradients: dq, dk and dv of o = softmax(scale q k^T) v
  /// given do, the gradient of o (torch's autograd of
  /// scaled_dot_product_attention), from the forward's o and lse, which a
  /// check computes in float64 from q, k and v; delta, if the program
  /// writes it, is each query row's sum of do * o.
  attention_backward,
};

/// The kinds' names ("log_softmax", ...), in enum order.
std::vector<std::string> getReferenceKindNames();
const char *getReferenceKindName(ReferenceKind kind);
/// Fails, listing the kinds, on an unknown name.
Status parseReferenceKind(const std::string &name, ReferenceKind &kind);

/// A tensor a kind reads or writes: its name (empty for softmax's and
/// log_softmax's one input and one output, which may have any), its shape
/// and whether it holds integers.
struct TensorContract {
  std::string name;
  ArgExtent extent = ArgExtent::matrix;
  bool integer = false;
  bool optional = false;
};

/// What a kind reads and writes. `params` are scalars (runtime parameters
/// or compile-time constants) the reference reads; `optionalParams` ones
/// it reads when present.
struct ReferenceContract {
  std::vector<TensorContract> inputs, outputs;
  std::vector<std::string> params, optionalParams;
};
ReferenceContract getContract(ReferenceKind kind);

/// A scalar the reference reads. An integer (a parameter written as one, a
/// bound constant) is kept exactly beside its double: a double holds 53
/// bits, and an i64 `ignore_index` of 2^53 + 1 must compare with the labels
/// as the kernel compares it.
struct ScalarValue {
  double value = 0;
  std::optional<int64_t> integer;

  static ScalarValue fromInteger(int64_t integer) {
    return {double(integer), integer};
  }
  /// A parameter's text: exactly an integer where it is a decimal integer
  /// that int64_t holds, else the double strtod reads.
  static ScalarValue fromText(const std::string &text);
};

/// Scalars the reference reads: parameters and bound constants, by name.
using ScalarValues = std::vector<std::pair<std::string, ScalarValue>>;

/// Fails, saying what is missing or mistyped, unless `tensors` and
/// `scalars` hold what `kind` reads and writes (extents and element kinds
/// included); tensors the kind does not know are an error too.
Status checkContract(ReferenceKind kind, const std::vector<HostTensor> &tensors,
                     const ScalarValues &scalars);

/// Fills every input tensor of a problem of `cols` columns with seeded
/// data: floats normal(0, 2) in
/// matrices and normal(1, 0.5) in vectors, integers uniform in [0, cols).
/// `kind`, when given, shapes the data: softmax_backward's y is a softmax
/// of random rows; cross_entropy's labels are ignore_index in every
/// eighth row. With `special`, the first rows hold special values
/// (+-inf, NaN, values near the float limits, all-masked rows), those
/// whose torch result the kind defines (no kind: a product's where the
/// program multiplies - its first float input of a row per problem row is
/// rows x inner, a product's A -, else a softmax's).
void fillInputs(const ReferenceKind *kind, int64_t cols,
                std::vector<HostTensor> &tensors,
                const ScalarValues &scalars, unsigned seed, bool special);

/// Sets the inputs `kind` derives from the others, once those are in place
/// (random, or read from files), unless `given` names them (read from
/// files too): attention_backward's o and lse, the forward's in float64 of
/// q, k and v, so that the gradients a check computes are those of the o
/// and lse the kernel reads.
void deriveInputs(ReferenceKind kind, std::vector<HostTensor> &tensors,
                  const ScalarValues &scalars,
                  const std::vector<std::string> &given);

/// One output of a reference: rows x cols doubles, dense.
struct ReferenceOutput {
  std::string name;
  std::vector<double> values;
};

/// The outputs of `kind` on the inputs in `tensors` (checkContract first).
void computeReference(ReferenceKind kind,
                      const std::vector<HostTensor> &tensors,
                      const ScalarValues &scalars,
                      std::vector<ReferenceOutput> &outputs);

} // namespace blk::runtime

#endif // BLK_RUNTIME_REFERENCE_H
