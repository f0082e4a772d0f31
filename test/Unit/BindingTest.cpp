//===- BindingTest.cpp - the binding rules as tables ----------------------===//
//
// The binding is a pure function of (program, problem, target, options):
// what chooseBinding gives each built-in program on the shapes that
// exercise a rule (kept rows on clusters, wide peeled rows, f32 rows held
// on 8 x 4 or kept on 8 x 8, rows per program, split rows, chips without
// clusters or cp.async, the CPU, a caller's constants and warps). Each row
// was read from the binding the compiler gave at 286c229, whose PTX the
// benchmark tables measured, except where a row says what changed since; a
// change to a rule shows here as a row that changed, with the rule's name.
// Since 286c229: a block keeps room for blk-peel-alignment's shift only
// where the pass shifts it (bf16 1020 columns on a caller's 8 warps: 2048
// at 286c229), and a 16-bit row is bound as a kept row only where rows are
// kept (without: 4 x 8 at 286c229, as if kept), and a 16-bit row that 8
// CTAs of 16 warps cannot hold takes 16 (bf16 1048576: 8 x 16 until
// 2026-11-28, which the compiler refused), and a held row on a cluster
// whose block passes 128 elements a thread takes twice the warps, not
// only a wide one (bf16 1048573 on 16 x 16, 136 a thread, refused until
// then). Product programs, and the family's wide bf16 rows, from
// 2026-12-06; rows of whole vectors past a cluster's hold, in programs
// that read more than one row or write one, are split over programs that
// meet (blk-split-rows) since the same day.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Driver.h"
#include "blk/Programs/Programs.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::blk;
using ::blk::runtime::ElementType;

namespace {

struct BindingCase {
  const char *rule;
  const char *program;
  int64_t rows, cols;
  ElementType type;
  /// The options the case changes, applied to a GPU sm_90 record.
  void (*adjust)(CompileOptions &);
  /// Specialization::describe() and the grid, or "fails".
  const char *expected;
  /// A product's inner dimension (attention's keys), 0 for a row program.
  int64_t inner = 0;
};

void sm90(CompileOptions &) {}
void sm80(CompileOptions &o) { o.chip = "sm_80"; }
void sm75(CompileOptions &o) { o.chip = "sm_75"; }
void cpu(CompileOptions &o) { o.target = TargetKind::CPU; }
void block2048(CompileOptions &o) { o.constants["BLOCK"] = 2048; }
void rows8(CompileOptions &o) { o.constants["ROWS"] = 8; }
void warps4(CompileOptions &o) { o.numWarps = 4; }
void warps8(CompileOptions &o) { o.numWarps = 8; }
void warps16(CompileOptions &o) { o.numWarps = 16; }
void noCopies(CompileOptions &o) { o.asyncFillMinRuns = 0; }
void noKeeping(CompileOptions &o) { o.stageMinRegisters = 0; }
void h100(CompileOptions &o) { o.multiprocessors = 132; }
void sm90a(CompileOptions &o) { o.chip = "sm_90a"; }
void held(CompileOptions &o) { o.splitRows = "never"; }
void unstreamed(CompileOptions &o) { o.streamRows = "never"; }
void streamed(CompileOptions &o) { o.streamRows = "always"; }
void oneCta(CompileOptions &o) { o.numCtas = 1; }
void migSlice(CompileOptions &o) { o.multiprocessors = 32; }
void sm90aH100(CompileOptions &o) {
  o.chip = "sm_90a";
  o.multiprocessors = 132;
}
void sm90aH100Block128(CompileOptions &o) {
  sm90aH100(o);
  o.constants["BLOCK"] = 128;
}
void sm90aH100Stages4(CompileOptions &o) {
  sm90aH100(o);
  o.numStages = 4;
}
void sm80h100(CompileOptions &o) {
  o.chip = "sm_80";
  o.multiprocessors = 132;
}
void oneCtaPerSm(CompileOptions &o) { o.minCtasPerSm = 1; }
void causal(CompileOptions &o) {
  o.chip = "sm_90a";
  o.constants["CAUSAL"] = 1;
}
void causalSm80(CompileOptions &o) {
  o.chip = "sm_80";
  o.constants["CAUSAL"] = 1;
}

const ElementType f32 = ElementType::F32, bf16 = ElementType::BF16;

const BindingCase kCases[] = {
    {"short rows: BLOCK the next power of two", "softmax_fused", 4096, 1024,
     f32, sm90, "BLOCK=1024 grid 4096"},
    {"rows per program: max(2, 512 / BLOCK)", "softmax_multirow", 4096, 100,
     f32, sm90, "BLOCK=128 ROWS=4 grid 1024"},
    {"a caller's ROWS wins", "softmax_multirow", 4096, 100, f32, rows8,
     "BLOCK=128 ROWS=8 grid 512"},
    {"one run a thread: not peeled, no room", "softmax_fused", 4096, 1001, bf16,
     sm90, "BLOCK=1024 grid 4096"},
    {"a wide peeled row on 2 CTAs of 8 warps", "softmax_fused", 2048, 50257,
     bf16, sm90, "BLOCK=53248 warps=8 ctas=2 grid 2048"},
    {"a wide row past 24576 on 2 CTAs of 4 warps", "softmax_fused", 4096, 32001,
     bf16, sm90, "BLOCK=32768 ctas=2 grid 4096"},
    {"a kept 16-bit row: 4 CTAs of 8 warps", "softmax_fused", 1024, 65536, bf16,
     sm90, "BLOCK=65536 warps=8 ctas=4 grid 1024"},
    {"no kept rows: the 16-bit row on 8 x 4 in registers", "softmax_fused",
     1024, 65536, bf16, noKeeping, "BLOCK=65536 ctas=8 grid 1024"},
    {"a kept 16-bit row at 262144: 8 x 8", "softmax_fused", 256, 262144, bf16,
     sm90, "BLOCK=262144 warps=8 ctas=8 grid 256"},
    {"an f32 row held alone: 8 CTAs of 4 warps", "softmax_fused", 333, 100000,
     f32, sm90, "BLOCK=102400 ctas=8 grid 333"},
    {"an f32 row kept where copied: 8 x 8", "softmax_fused", 512, 151936, f32,
     sm90, "BLOCK=155648 warps=8 ctas=8 grid 512"},
    {"no copies: the f32 row stays on 16 x 4", "softmax_fused", 512, 151936,
     f32, noCopies, "BLOCK=155648 ctas=16 grid 512"},
    {"an f32 row of 262144 stays on 16 x 4", "softmax_fused", 256, 262144, f32,
     sm90, "BLOCK=262144 ctas=16 grid 256"},
    {"few rows keep the rule's CTAs (132 SMs)", "softmax_fused", 8, 100000,
     bf16, h100, "BLOCK=114688 warps=8 ctas=8 grid 8"},
    {"SMs not known: the kept row fitted to fewer CTAs", "softmax_fused", 8,
     100000, bf16, sm90, "BLOCK=106496 warps=8 ctas=4 grid 8"},
    {"a norm's rows: warps by the held row", "rms_norm", 4096, 24576, f32, sm90,
     "BLOCK=24576 warps=16 grid 4096"},
    {"weight and bias after the reductions: a cluster of 8", "layer_norm", 4096,
     32768, f32, sm90, "BLOCK=32768 warps=8 ctas=8 grid 4096"},
    // Since 2026-12-06: a 16-bit norm on one CTA of 16 warps asks for two
    // CTAs an SM; f32 (twice the registers) and 8 warps do not.
    {"a 16-bit norm on 16 warps: two CTAs an SM", "layer_norm", 4096, 16384,
     bf16, sm90, "BLOCK=16384 warps=16 ctas/sm=2 grid 4096"},
    {"one row after it (rms_norm): 16 warps, two CTAs an SM", "rms_norm", 4096,
     12288, bf16, sm90, "BLOCK=12288 warps=16 ctas/sm=2 grid 4096"},
    // Since 2026-12-07: two rows after it (LayerNorm's weight and bias), up
    // to 48 a thread on 8 warps: 8 warps, ptxas's registers.
    {"a 16-bit LayerNorm of 48 a thread on 8 warps", "layer_norm", 4096, 12288,
     bf16, sm90, "BLOCK=12288 warps=8 grid 4096"},
    {"a 16-bit LayerNorm of 40 a thread on 8 warps", "layer_norm", 4096, 10240,
     bf16, sm90, "BLOCK=10240 warps=8 grid 4096"},
    {"56 a thread on 8 warps: 16 warps", "layer_norm", 4096, 14336, bf16, sm90,
     "BLOCK=16384 warps=16 ctas/sm=2 grid 4096"},
    {"the f32 norm on 16 warps: ptxas's registers", "layer_norm", 4096, 12288,
     f32, sm90, "BLOCK=12288 warps=16 grid 4096"},
    {"a 16-bit norm on 8 warps: ptxas's registers", "layer_norm", 4096, 8192,
     bf16, sm90, "BLOCK=8192 warps=8 grid 4096"},
    {"a caller's CTAs an SM win", "layer_norm", 4096, 16384, bf16, oneCtaPerSm,
     "BLOCK=16384 warps=16 ctas/sm=1 grid 4096"},
    // Since 2026-12-06 (seventh): and on 16 CTAs of 8 warps, 64 a thread,
    // where a weight and a bias follow.
    {"a 16-bit norm of 64 a thread on 16 x 8: two CTAs an SM", "layer_norm",
     256, 262144, bf16, sm90,
     "BLOCK=262144 warps=8 ctas=16 ctas/sm=2 grid 256"},
    {"the f32 norm on 16 x 8: ptxas's registers", "layer_norm", 256, 262144,
     f32, sm90, "BLOCK=262144 warps=8 ctas=16 grid 256"},
    {"a 16-bit norm with one row after: ptxas's registers", "rms_norm", 256,
     262144, bf16, sm90, "BLOCK=262144 warps=8 ctas=16 grid 256"},
    {"a 16-bit norm of 56 a thread on 16 x 8: ptxas's registers", "layer_norm",
     256, 200000, bf16, sm90, "BLOCK=229376 warps=8 ctas=16 grid 256"},
    {"a short 16-bit norm on a caller's 16 warps: ptxas's registers",
     "layer_norm", 4096, 4099, bf16, warps16, "BLOCK=8192 warps=16 grid 4096"},
    {"y and dy held: a cluster", "softmax_backward", 4096, 32768, bf16, sm90,
     "BLOCK=32768 ctas=8 grid 4096"},
    // Since 2026-12-06 (wide bf16 rows of the family):
    {"y and dy held, unaligned: 4 x 4 up to 104 a thread", "softmax_backward",
     4096, 50257, bf16, sm90, "BLOCK=53248 ctas=4 grid 4096"},
    {"y and dy held, unaligned, 208 a thread on 4 x 4: the cluster rule",
     "softmax_backward", 1024, 100003, bf16, sm90,
     "BLOCK=131072 warps=8 ctas=16 grid 1024"},
    {"a row read and not written: the wide rows' shares on a cluster",
     "cross_entropy", 4096, 128256, bf16, sm90,
     "BLOCK=131072 warps=8 ctas=4 grid 4096"},
    // Since 2026-12-06 (read-only rows walked in tiles, blk-stream-rows):
    {"an f32 row read and not written, four rows an SM: tiles of 8192 on 16 "
     "warps",
     "cross_entropy", 4096, 128256, f32, sm90, "BLOCK=8192 warps=16 grid 4096"},
    {"held, asked for", "cross_entropy", 4096, 128256, f32, unstreamed,
     "BLOCK=131072 warps=8 ctas=8 grid 4096"},
    {"walked in tiles, f32, 528 rows (four an SM of 132)", "cross_entropy", 528,
     65536, f32, sm90, "BLOCK=8192 warps=16 grid 528"},
    {"under four rows an SM: held on its cluster", "cross_entropy", 527, 65536,
     f32, sm90, "BLOCK=65536 warps=8 ctas=4 grid 527"},
    {"a row no multiple of 16 bytes (tiles are not peeled): held",
     "cross_entropy", 4096, 50257, bf16, sm90,
     "BLOCK=53248 warps=8 ctas=2 grid 4096"},
    {"one CTA holds the row: held", "cross_entropy", 4096, 32768, f32, sm90,
     "BLOCK=32768 warps=16 grid 4096"},
    {"a row that is written (log_softmax): held", "log_softmax", 4096, 128256,
     f32, sm90, "BLOCK=131072 warps=8 ctas=8 grid 4096"},
    {"asked for, on few rows: walked in tiles", "cross_entropy", 64, 1048576,
     bf16, streamed, "BLOCK=8192 warps=16 grid 64"},
    {"on the CPU: never walked in tiles", "cross_entropy", 4096, 128256, f32,
     cpu, "BLOCK=131072 warps=16 grid 4096"},
    {"a row read and not written, off the cluster: as before", "cross_entropy",
     4096, 32000, bf16, sm90, "BLOCK=32768 warps=16 grid 4096"},
    {"a row read and not written, a caller's 4 warps: 8192 a CTA",
     "cross_entropy", 64, 65536, bf16, warps4,
     "BLOCK=65536 warps=4 ctas=8 grid 64"},
    {"a 16-bit row past 8 CTAs' hold, not split: 16 x 16 (8 x 16 refused, "
     "256 a thread)",
     "log_softmax", 64, 1048576, bf16, held,
     "BLOCK=1048576 warps=16 ctas=16 grid 64"},
    {"a row's max and sum, split: one meeting a part", "log_softmax", 64,
     1048576, bf16, sm90, "BLOCK=8192 SPLITS=128 warps=8 grid 8192"},
    {"a row read and not written stays on its cluster", "cross_entropy", 64,
     1048576, bf16, sm90, "BLOCK=1048576 warps=16 ctas=16 grid 64"},
    {"a row and a weight past a cluster's hold: split over programs that "
     "meet",
     "rms_norm", 64, 1048576, bf16, sm90,
     "BLOCK=8192 SPLITS=128 warps=8 grid 8192"},
    {"split-rows off: held on the cluster", "rms_norm", 64, 1048576, bf16, held,
     "BLOCK=1048576 warps=16 ctas=16 grid 64"},
    {"split rows of two inputs", "softmax_backward", 8, 524288, f32, sm90,
     "BLOCK=8192 SPLITS=64 warps=8 grid 512"},
    {"one CTA a program: split past softmax_fused's 32768", "layer_norm", 4099,
     40000, bf16, oneCta, "BLOCK=6144 SPLITS=8 warps=8 grid 32792"},
    {"not where a GPU cannot keep a row's parts resident", "softmax_backward",
     64, 1048576, f32, migSlice, "BLOCK=1048576 warps=16 ctas=16 grid 64"},
    {"not on the CPU", "rms_norm", 64, 1048576, f32, cpu,
     "BLOCK=1048576 warps=16 grid 64"},
    {"a held row past 128 a thread with its room: twice the warps",
     "softmax_backward", 8, 1048573, bf16, sm90,
     "BLOCK=1179648 warps=32 ctas=16 grid 8"},
    {"log_softmax's kept row", "log_softmax", 2048, 128256, bf16, sm90,
     "BLOCK=131072 warps=8 ctas=8 grid 2048"},
    {"a loop over tiles: a warp per 512", "softmax_online", 4096, 32768, f32,
     sm90, "BLOCK=8192 warps=16 grid 4096"},
    {"a split row: 128 parts of 8192", "softmax_split_resident", 64, 1048576,
     f32, sm90, "BLOCK=8192 SPLITS=128 grid 8192"},
    {"no clusters before sm_90", "softmax_fused", 1024, 65536, f32, sm80,
     "BLOCK=65536 warps=16 grid 1024"},
    {"no cp.async on sm_75", "softmax_fused", 1024, 32768, bf16, sm75,
     "BLOCK=32768 warps=16 grid 1024"},
    {"the CPU: powers of two, no clusters", "softmax_fused", 2, 50257, f32, cpu,
     "BLOCK=65536 warps=16 grid 2"},
    {"a caller's warps win", "softmax_fused", 4096, 1000, f32, warps8,
     "BLOCK=1024 warps=8 grid 4096"},
    {"a caller's warps leave one run a thread: not peeled, no room",
     "softmax_fused", 4096, 1020, bf16, warps8, "BLOCK=1024 warps=8 grid 4096"},
    {"a caller's BLOCK past the row is refused", "softmax_fused", 4096, 1000,
     f32, block2048, "fails"},
    // Since 2026-12-06 (attention's backward): a loop of four products, and
    // a program without a `cols` argument bound to its row length only.
    {"two chained products on wgmma: 128 x 128 deep on 8 warps",
     "attention_fwd", 4096, 128, bf16, causal,
     "CAUSAL=1 HEAD_DIM=128 KV=128 ROWS=128 warps=8 stages=2 grid 32", 4096},
    {"four products a step on wgmma: 128 x 64 on 8 warps", "attention_bwd",
     4096, 128, bf16, causal,
     "CAUSAL=1 HEAD_DIM=128 KV=64 ROWS=128 warps=8 stages=2 grid 32", 4096},
    {"four products a step on mma.sync: 64 x 32 on 8 warps", "attention_bwd",
     4096, 128, bf16, causalSm80,
     "CAUSAL=1 HEAD_DIM=128 KV=32 ROWS=64 warps=8 stages=2 grid 64", 4096},
    {"four products a step past head_dim 128: 64 x 32 on 4 warps, no rings",
     "attention_bwd", 4096, 256, bf16, causal,
     "CAUSAL=1 HEAD_DIM=256 KV=32 ROWS=64 warps=4 stages=1 grid 64", 4096},
    {"no `cols` argument: a head_dim of 96 is refused", "attention_fwd", 4096,
     96, bf16, causal, "fails", 4096},
    // Since 2026-12-06 (few rows): the K step deepens where the programs
    // leave SMs idle.
    {"few rows on 132 SMs, 64 programs: 256 deep", "matmul", 1, 4096, bf16,
     sm90aH100, "BLOCK=64 KT=256 ROWS=64 SPLITS=64 warps=4 stages=3 grid 64",
     4096},
    {"few rows on 132 SMs, 172 programs: 128 deep", "matmul", 1, 11008, bf16,
     sm90aH100, "BLOCK=64 KT=128 ROWS=64 SPLITS=172 warps=4 stages=3 grid 172",
     4096},
    {"few rows on 132 SMs, 448 programs: 64 deep", "matmul", 64, 28672, bf16,
     sm90aH100, "BLOCK=64 KT=64 ROWS=64 SPLITS=448 warps=4 stages=3 grid 448",
     4096},
    {"few rows, a K of 512: too short for 3 steps of 256", "matmul", 1, 4096,
     bf16, sm90aH100,
     "BLOCK=64 KT=128 ROWS=64 SPLITS=64 warps=4 stages=3 grid 64", 512},
    {"few rows, a caller's BLOCK: 64 deep", "matmul", 1, 4096, bf16,
     sm90aH100Block128,
     "BLOCK=128 KT=64 ROWS=64 SPLITS=32 warps=4 stages=3 grid 32", 4096},
    {"few rows, a caller's stages: 64 deep", "matmul", 1, 4096, bf16,
     sm90aH100Stages4,
     "BLOCK=64 KT=64 ROWS=64 SPLITS=64 warps=4 stages=4 grid 64", 4096},
    {"few rows, SMs not known: 64 deep", "matmul", 1, 4096, bf16, sm90a,
     "BLOCK=64 KT=64 ROWS=64 SPLITS=64 warps=4 stages=3 grid 64", 4096},
    {"few rows on mma.sync: 64 deep, 2 stages", "matmul", 1, 4096, bf16,
     sm80h100, "BLOCK=64 KT=64 ROWS=64 SPLITS=64 warps=4 stages=2 grid 64",
     4096},
};

class BindingTest : public ::testing::TestWithParam<BindingCase> {
protected:
  BindingTest() {
    DialectRegistry registry;
    registerCompilerDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  MLIRContext context;
};

TEST_P(BindingTest, Rule) {
  const BindingCase &c = GetParam();
  const BuiltinProgram *builtin = lookupBuiltinProgram(c.program);
  ASSERT_TRUE(builtin) << c.program;
  OwningOpRef<ModuleOp> program =
      parseSourceString<ModuleOp>(builtin->source, &context);
  ASSERT_TRUE(program);
  ProblemDesc problem;
  problem.rows = c.rows;
  problem.cols = c.cols;
  problem.elementType = c.type;
  problem.inner = c.inner;
  CompileOptions options;
  options.chip = "sm_90";
  c.adjust(options);

  std::string messages;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &d) {
    messages += d.str() + "\n";
    return success();
  });
  FailureOr<OwningOpRef<ModuleOp>> fitted =
      fitProgram(*program, problem, options);
  ASSERT_TRUE(succeeded(fitted)) << messages;
  FailureOr<Specialization> binding = chooseBinding(**fitted, problem, options);
  std::string got = failed(binding)
                        ? "fails"
                        : binding->describe() + " grid " +
                              std::to_string(binding->getGrid(c.rows));
  EXPECT_EQ(got, c.expected) << c.rule << " (" << c.program << " " << c.rows
                             << " x " << c.cols << ")\n"
                             << messages;
}

INSTANTIATE_TEST_SUITE_P(Rules, BindingTest, ::testing::ValuesIn(kCases));

} // namespace
