#ifndef BLK_TRANSFORMS_PASSES_TD
#define BLK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BlkAttachTarget : Pass<"blk-attach-target", "::mlir::ModuleOp"> {
  let summary = "Say on the module which chip the code is for (#blk.target)";
  let description = [{
    The first pass of `blk-to-ptx`. Every later pass that asks a chip
    question (shared memory a CTA may have, `cp.async`, clusters, packed
    16-bit max) reads the module's `blk.target` attribute; no pass takes a
    chip of its own. A module without one gets the options' chip and
    features (empty: sm_90, and the chip's default PTX features); a module
    that has one keeps it, and options that name another chip or other
    features are an error that shows both.

    ```mlir
    module attributes {blk.target = #blk.target<chip = "sm_90", features = "+ptx80">} {...}
    ```

    A pass run alone on a module without the attribute answers for sm_90.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"\"",
           "Target chip, sm_70 or newer (empty: the module's, else sm_90)">,
    Option<"features", "features", "std::string", "\"\"",
           "Target features naming a PTX version (empty: the module's, "
           "else the chip's default)">,
  ];
  // #blk.target is the blk dialect's, which a module of other ops alone
  // (an empty one) has not loaded.
  let dependentDialects = ["::mlir::blk::BlkDialect"];
}

def BlkSetLaunchShape : Pass<"blk-set-launch-shape", "::mlir::ModuleOp"> {
  let summary = "Give every kernel the warps, CTAs, stages and CTAs an SM asked for";
  let description = [{
    A kernel's launch shape lives in its `#blk.kernel` only: this pass
    writes the options' values there (the attribute's verifier checks them:
    warps a power of two up to 32, CTAs up to 16, stages 1 to 4, CTAs an SM
    up to 32), and every later pass (`blk-peel-alignment`,
    `blk-pipeline-loads`, `blk-distribute`, ..., `convert-blk-to-gpu`) reads
    the kernel's. `blk-to-ptx`'s `num-warps`, `num-ctas`, `num-stages` and
    `min-ctas-per-sm` run it first; the compile driver writes its binding's
    shape the same way.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", "0",
           "Warps per program (0 keeps each kernel's num_warps)">,
    Option<"numCtas", "num-ctas", "int64_t", "0",
           "CTAs (a thread-block cluster) per program (0 keeps each "
           "kernel's num_ctas)">,
    Option<"numStages", "num-stages", "int64_t", "0",
           "Loop iterations whose loads are in flight at once (0 keeps "
           "each kernel's num_stages)">,
    Option<"minCtasPerSm", "min-ctas-per-sm", "int64_t", "0",
           "CTAs an SM must have registers for (0 keeps each kernel's "
           "min_ctas_per_sm)">,
  ];
}

def BlkSpecialize : Pass<"blk-specialize", "::mlir::ModuleOp"> {
  let summary = "Bind compile-time constants and make every block shape static";
  let description = [{
    A block program names its compile-time constants (`blk.constexpr BLOCK`,
    shapes such as `[BLOCK]`). This pass binds them, as Triton binds
    `tl.constexpr` arguments when a kernel is launched:

    * each `blk.constexpr NAME` becomes an `arith.constant`;
    * each shape entry `NAME` in `blk.arange`, `blk.splat`, `blk.broadcast`
      becomes the number;
    * the now static shapes are propagated through every op that uses them
      (elementwise `arith`/`math` ops, `blk` ops, `scf.for`/`scf.if` results
      and region arguments).

    Bindings are written `NAME=VALUE`, separated by spaces or commas:
    `--blk-specialize="BLOCK=1024"` or
    `--pass-pipeline='builtin.module(blk-specialize{bind=ROWS=4,BLOCK=128})'`.
    A constant that is used but not bound, or a shape that stays dynamic, is
    an error at the op that needs it.
  }];
  let options = [
    ListOption<"bindings", "bind", "std::string",
               "Compile-time constants to bind, as NAME=VALUE">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkSplitRows : Pass<"blk-split-rows", "::mlir::ModuleOp"> {
  let summary = "Split a program's row over programs that meet in one "
                "persistent launch";
  let description = [{
    A kernel that holds one row a program (`row_block` columns, one program
    a row) is rewritten into one whose programs each hold a part of
    `row_block` columns of a row, SPLITS parts a row, as
    `softmax_split_resident.mlir` is written by hand:

    * a persistent loop (`grid = persistent`) walks the parts of the rows
      (`item` from `blk.program_id x` by `blk.num_programs x`; row = item /
      SPLITS, part = item % SPLITS), in increasing order, so that the row
      of the lowest index not yet done always has all its parts in flight;
    * `blk.program_id x` becomes the row, and every `blk.arange 0 to
      row_block` the part's columns (plus part * row_block): masks, loads
      and stores of the row apply to the part unchanged;
    * every `blk.reduce` of a row's block becomes the part's reduction, its
      partial stored in the row's line of a scratch matrix
      (`row_partials_<type>`), a `blk.program_barrier` at the row's counter
      (`row_arrivals`, per row) for SPLITS programs, and the reduction of
      the row's SPLITS partials, which every part computes alike;
    * a row's max and its sum of exp(x - max) (the pair
      blk-combine-reductions matches) meet once, as (max, sum) pairs: the
      part's sum against its own max, the row's S = sum of s * exp(m - M)
      over the parts with a finite value, M = max m (NaN where the row has
      none, as unsplit);
    * a row's sum and its sum of squares about the mean (layer_norm's mean
      and variance: `sum(select(mask, x - sum(x) / n, 0)^2)`, the select
      optional, masked lanes of `x` loaded as 0) meet once: each part
      stores its sum, its count of lanes (`clamp(n_cols - first column, 0,
      row_block)` where the mask is the bounds check, else reduced) and its
      squares about its own mean, merged as Chan, Golub and LeVeque's
      parallel variance, `Q = sum of q + c (s / c - mean)^2`;
    * the kernel declares `row_splits = SPLITS` (a name the kernel does not
      use: SPLITS, or SPLITS_1, ...) and two stages, so that the next part's
      loads are in flight while a part waits.

    ```mlir
    %m = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
    // becomes
    %m0 = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
    blk.store %line[%at], %m0_block : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
    blk.program_barrier %counter, %splits : !blk.ptr<i64>, i32
    %ms = blk.load %line[%parts] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %m = blk.reduce max %ms axis 0 : tensor<?xf32> -> f32
    ```

    Every element is read once, where a cluster cannot hold the row: the
    compile driver (fitProgram) splits a program's rows on a GPU that keeps
    every part of a row resident, for rows of whole 16-byte vectors longer
    than a cluster holds, in every program but one that reads one row and
    writes none (blk/Programs/Programs.h, splitsHeldRows: cross_entropy ran
    at 58.3 / 46.7% of a copy split, 59.2 / 47.3% held, f32 / bf16). A
    kernel it cannot split (a loop, 2-D blocks, a cluster or a persistent
    grid of its own, blocks of another length, the row block's value read,
    rows or cols not i32, a dot, a reduction of the row to other than f32,
    i32 or i64, or none) is an error that says why. The names it adds
    (SPLITS, `row_arrivals`, `row_partials_<type>`, or the same with a
    number where the module uses them) are the same in every kernel of the
    module. Each partials matrix is rows x cols, as softmax_split_resident's
    (a row of it takes one SPLITS-long slot a reduction, three for a sum
    and its squares). GPU only: the CPU path runs programs
    one after another, and refuses programs that meet.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def BlkStreamRows : Pass<"blk-stream-rows", "::mlir::ModuleOp"> {
  let summary = "Walk a read-only row in tiles, each lane keeping a running "
                "value of every reduction";
  let description = [{
    A kernel that holds one row a program (`row_block` columns, one program
    a row), reduces it and writes none of it is rewritten into one that
    walks its row in tiles of `row_block` columns, as the first pass of
    `softmax_online.mlir` is written by hand:

    * a loop over the row's columns (`0` to `cols`, `row_block` a step)
      goes before the row's first reduction; each tile computes the row's
      blocks again on its columns (every `blk.arange 0 to row_block` plus
      the tile's first column), so masks and loads apply to the tile
      unchanged;
    * each lane of a tile keeps a running value of every reduction of the
      row (its sum, max or min), which the reduction then combines once;
    * a row's max and its sum of exp(x - max) (the pair
      blk-combine-reductions matches) are running (max, sum) pairs: a lane's
      sum is rescaled by exp(m - m') where its max grows to m'; the row's
      S = sum of s * exp(m - M) over the lanes with a finite value, M = max
      m (NaN where the row has none, as held).

    ```mlir
    %x = blk.load %row[%cols] mask %in other %ninf : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %m = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
    // becomes
    %lanes = scf.for %first = %c0 to %n_cols step %block
        iter_args(%running = %ninf_block) -> (tensor<?xf32>) : i32 {
      // %x of the tile's columns
      %next = arith.maximumf %running, %x : tensor<?xf32>
      scf.yield %next : tensor<?xf32>
    }
    %m = blk.reduce max %lanes axis 0 : tensor<?xf32> -> f32
    ```

    Each element is read once, by one program of one CTA, where holding the
    row takes a cluster: the compile driver (fitProgram) streams a program
    that reads one row and writes none (cross_entropy) on a GPU, for f32
    rows longer than one CTA holds over enough rows to fill the GPU
    (blk/Programs/Programs.h, streamsHeldRows). A kernel it cannot stream
    (what blk-split-rows refuses but reductions to other types and rows
    that are not i32; an op with regions, such as `scf.if`, in its body; a
    block of the row that reaches a store or anything but a reduction of
    the row; a block computed from a reduction of the row other than a
    max's sum of exps; one computed from a value, not a constant, that
    comes after the first reduction; an op that may write memory between
    the row's loads and its first reduction, where the tiles' loads go) is
    an error that says why. The tiles past the row's last one are not
    visited: a reduction sees the padding of the last tile, not that of a
    held block.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

def BlkPeelAlignment : Pass<"blk-peel-alignment", "::mlir::ModuleOp"> {
  let summary = "Shift a row's block so that its vectors start on the 16-byte grid";
  let description = [{
    A row of 50257 bf16 starts anywhere on the 16-byte grid, so no load or
    store of it is provably aligned and `blk-distribute` cannot give its
    threads 16-byte vectors. This pass shifts the block instead: slot `s` of
    the row's `blk.arange 0 to BLOCK` holds column `s - shift`, where
    `shift` is the row start's distance past the 16-byte grid (`start &
    (v - 1)`, v elements in 16 bytes). Each thread's runs then fall on
    whole aligned vectors; only the first and the last run of a row are
    partly outside it.

    * Every mask `cols < n` becomes `0 <= cols' < n` with `cols' = cols -
      shift`; the `shift` slots before the row read the load's fill value,
      as the slots past its end do, so a row keeps `BLOCK - n` slots of
      padding and every reduction sees the same values.
    * Every other comparison of the columns with a splatted scalar (a
      causal mask's `cols > last`) is positional too: it compares `cols'`.
      Such a predicate must be used only through conjunctions and
      negations that end in a value implying the row bound (the causal
      load's `in_bounds & !(cols > last)`): alone it would differ on the
      slots before the row from what the unshifted block has past it.
    * Each load and store becomes an `scf.if`: where its own row start is
      `shift` past the grid, it reads `base'[arange]` through the aligned
      `base' = start & ~(v - 1)`, which `blk-distribute` proves aligned;
      otherwise (an output whose stride puts its rows elsewhere on the
      grid) it runs the original access on `cols'`, marked `blk.fallback`.
    * An access of the same columns of every row (no `blk.addptr`: a norm's
      weight and bias) through a 16-byte-aligned pointer is versioned the
      same way, aligned only where `shift` is 0: it gives up its vectors
      on the other rows, so that the row's own accesses, whose bytes come
      from memory once a row (the weight's come from cache), get theirs.
      At least one access must address a misaligned row; the first one
      gives `shift`.
    * A row that would not fit the shifted block (`n + shift > BLOCK`, at
      most v - 1 columns from the end) is not shifted (`shift = 0`): every
      misaligned access then takes its fallback.
    * A row split over programs (softmax_split.mlir) compares `arange +
      first` with the bound, where `first`, the part's first column, is a
      provable multiple of BLOCK and every access starts at `row start +
      first`: each part has the row's misalignment, so every part shifts
      by the same amount and the shifted parts still tile the row. Masks
      become `0 <= cols' + first < n`; the row fits where `n + shift <=
      ceil(n / BLOCK) * BLOCK`.

    The pass applies to a kernel whose `blk.arange 0 to BLOCK` is used only
    as the offsets of loads and stores, as the left side of `cmpi slt`
    against one splatted bound (directly, or through `+ splat(first)`), and
    in other comparisons with splatted scalars, where every such access is
    masked by one of the bound's comparisons, or by a conjunction
    (`arith.andi`) with one among its terms (the bound is the one scalar
    whose comparison every mask has so; with two such scalars the row is
    left as it is), and addresses either a row through `blk.addptr` from a 16-byte-aligned
    pointer with a start that is not provably aligned, or (not in a split
    row) the same aligned columns of every row (a row whose start is
    provably aligned is neither: its program is left as it is), and whose
    block gives each
    thread (32 x `num_warps` x `num_ctas` of the kernel) at least two
    16-byte runs: with one run a thread (bf16 rows of 513-1023 columns on
    a block of 1024 and 4 warps) the partial end runs and the versioning
    cost more than the vectors save (bf16 4096 x 1001 peeled ran 0.96x
    the element path on the H100 and the H200). Other programs (a loop over
    tiles) are left unchanged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def BlkDistribute : Pass<"blk-distribute", "::mlir::ModuleOp"> {
  let summary = "Decide how every block is spread over the threads of a program";
  let description = [{
    Triton's blocked layout and coalescing, made explicit. The blocks of a
    kernel fall into classes that must share a layout: every block an op
    reads or writes, a loop's carried values, the 1-D blocks expanded to or
    reduced from a 2-D one; only the A and B of a `blk.dot` are free of
    its accumulator (the dot stores them to shared memory from any
    layout). For each class the pass picks a `#blk.blocked` layout for its
    blocks of highest rank, from its largest block and its own loads and
    stores, and writes it into every block type as the tensor encoding; 1-D
    blocks of a 2-D class (per-row values, column indices) get the
    `#blk.slice` of that layout they are reduced to or expanded from.
    Index arithmetic computed from scalars alone (aranges, splats, their
    reshapes and sums) that several classes share is copied for each use
    first, so that it does not tie their layouts together; copies that end
    up in the same layout are merged again.

    * A class holding the accumulators of `blk.dot`s that fit `mma.sync`
      on the target gets the layout that holds them as mma fragments (the
      dot keeps them in registers); the tiles of A and B loaded for it get
      coalesced layouts of their own.

    * Vector width: up to 16 bytes of consecutive elements per thread, as
      far as every load and store is provably contiguous and aligned
      (`blk.divisibility` on arguments, `blk.addptr`, `blk.arange`, ...).
      Each load and store records the width it may use as `blk.vector`.
      On a kernel whose rows are held by a cluster (`num_ctas` > 1), an
      access contiguous along its whole row whose start is not provably
      aligned (rows of 50257 elements), unmasked or masked by `cols < n`,
      keeps the full width and is marked `blk.realign`: the conversion
      aligns its vectors at run time. With one CTA a row such an access
      goes element by element, one element per thread (measured as fast).
    * Lanes go along the last dimension first (a warp reads consecutive
      memory), then down the rows; warps go down the rows first (a row held
      by one warp needs no shared memory to reduce), then along them.
    * Threads per program: 32 x `num_warps` of the kernel
      (`blk-set-launch-shape` writes another there).
    * CTAs per program: `num_ctas` of the kernel; with more than one, the
      CTAs of the cluster split the last dimension (`ctas`).

    A block that would need more than 128 registers per thread is an error
    that names it and suggests more warps or a tiled loop.
  }];
}

def BlkStorageType : Pass<"blk-storage-type", "::mlir::ModuleOp"> {
  let summary = "Keep f32 data in memory as f16 or bf16, computing in f32";
  let description = [{
    Programs are written for `!blk.ptr<f32>`. This pass makes every kernel
    read and write 16-bit floats instead, as the f16/bf16 softmax needs:
    f32 pointer arguments become `!blk.ptr<f16>` (or bf16), a load reads the
    narrow type and widens it with `arith.extf`, a store narrows with
    `arith.truncf`; all arithmetic stays in f32. A tensor marked
    `blk.keep_f32` (attention's logsumexp) stays f32. With 2-byte elements,
    `blk-distribute` then gives each thread 8 elements (16 bytes) per access.
    A `blk.dot` multiplies numbers of the storage type: an operand computed
    in f32 (attention's P, not read from memory) is rounded to it first, as
    tensor cores need and as a Triton program writes `p.to(v.dtype)`.
  }];
  let options = [
    Option<"storageType", "type", "std::string", "\"bf16\"",
           "Element type in memory: f16, bf16 (or f32, which changes nothing)">,
  ];
}

def BlkWidenOffsets : Pass<"blk-widen-offsets", "::mlir::ModuleOp"> {
  let summary = "Compute the scalar offsets of blk.addptr in 64 bits";
  let description = [{
    Programs compute a row's start in i32 (`arith.muli %row, %stride : i32`,
    then `blk.addptr %p, %start : !blk.ptr<f32>, i32`), which wraps once a
    tensor holds 2^31 elements or more. For every `blk.addptr` whose offset
    is i32, this pass rebuilds the scalar integer chain that computes the
    offset in i64, so that no intermediate product or sum wraps, and gives
    the addptr the i64 offset:

    * `arith.muli`, `arith.addi`, `arith.subi` are rebuilt in i64 over their
      widened operands;
    * function arguments (sizes, strides), `blk.program_id`,
      `blk.num_programs`, `blk.constexpr`, `scf.for` induction variables
      and integer constants are sign-extended: they are signed i32 values
      (a stride may be negative), and for the non-negative ones sign and
      zero extension agree;
    * `arith.divui` and `arith.remui` are unsigned and below 2^32: their
      32-bit result is zero-extended, which equals dividing the
      zero-extended operands, and keeps the division 32-bit (a 64-bit
      division is a long software routine on the GPU).

    The offsets blocks of `blk.load` and `blk.store` stay i32: they index
    inside a row or a program's few rows. A program should therefore reach
    every large region (a row of the tensor, a row of a scratch matrix)
    through a scalar `blk.addptr`.

    An offset that depends on any other value (a loop-carried `scf.for`
    argument, an `scf.if` result, a select, a shift, ...) is an error at
    the addptr, with a note at that value: the pass runs when a problem
    needs 64-bit offsets, where a 32-bit one would silently address the
    wrong memory.

    The 32-bit ops that no longer have users are erased. Small problems
    should not run this pass: their kernels keep 32-bit arithmetic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkFoldOffsets : Pass<"blk-fold-offsets", "::mlir::ModuleOp"> {
  let summary = "Fold 32-bit blk.addptr offsets into the offsets blocks of "
                "the loads and stores they address";
  let description = [{
    Rewrites `blk.addptr %p, %start : i32` whose every use is the base of a
    `blk.load` or `blk.store` with a static 2-D i32 offsets block (rows x
    columns) into those accesses, `%p[%offsets + splat(%start)]`, and
    erases the addptr (innermost last, so chains of addptrs fold too). An
    addptr that also feeds anything else (a loop-carried pointer, another
    op) or a 1-D access (one row's columns, whose accesses share the
    addptr's base more cheaply) is kept.

    The sum is computed in i32, so the pass is valid where every element
    accessed lies within 2^31 - 1 elements of the pointer the chain starts
    from. The blk-to-ptx pipeline runs it first: it folds only i32
    addptrs, and the compile driver leaves a row offset in i32 only where
    every matrix of the problem has fewer than 2^31 elements (otherwise
    blk-widen-offsets made it i64). The gain is in the address
    arithmetic: the start merges into the offsets' row index instead of a
    64-bit pointer sum per thread before the first load (see
    FoldOffsets.cpp for the measurements).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkPipelineLoads : Pass<"blk-pipeline-loads", "::mlir::ModuleOp"> {
  let summary = "Software-pipeline the loads of loops: issue the next "
                "iterations' loads before the current one's work";
  let description = [{
    Triton's `num_stages` for programs that loop (the persistent program's
    rows, the online and tiled programs' tiles), read from each kernel's
    `#blk.kernel<..., num_stages = N>`: a `blk.load` directly in
    an `scf.for` body whose address, mask and fill are computed from the
    induction variable and values defined outside the loop (pure ops of
    the body, no loop-carried value) is issued `num-stages - 1` iterations
    ahead. The first `num-stages - 1` loads move before the loop; each
    iteration starts by loading iteration `i + num-stages - 1` into a
    loop-carried block and works on the block loaded for `i`:

    ```mlir
    %x0 = blk.load %p(lb)[%cols] mask %m & splat(lb < ub)
    scf.for %i = %lb to %ub step %s iter_args(%x = %x0) {
      %next = blk.load %p(i + s)[%cols] mask %m & splat(i < ub - s)
      ... the work on %x ...
      scf.yield %next
    }
    ```

    A loop around another loop is left alone: its iterations are whole
    inner loops, which hide a load's latency many times over, and the next
    iteration's blocks would sit in registers through them.

    A load past the last iteration is masked off (no memory is touched),
    so the loop's bounds need not be known. The memory traffic stays
    what it was; what changes is that a loop's loads are in flight while
    the previous iteration reduces and stores (registers hold
    `num-stages` blocks instead of one). The loads move ahead of the
    stores of earlier iterations: a loop whose iteration reads what an
    earlier one wrote must not be pipelined (the row-wise programs read
    and write disjoint rows or tiles, in place or not). Loads after a
    `blk.store` or a `blk.program_barrier` of the body (also one inside a
    branch) stay where they are: they may read what their own iteration
    wrote, or what other programs wrote before meeting. Blocks must be
    static (run after blk-specialize); loads of dynamic shape are left
    alone. `num_stages = 1` changes nothing (`blk-set-launch-shape` writes
    another `num_stages` into the kernels).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def BlkCombineReductions : Pass<"blk-combine-reductions", "::mlir::ModuleOp"> {
  let summary = "Reduce a row's max and its sum of exp against it in one "
                "exchange (blk.max_exp_sum)";
  let description = [{
    Replaces the two reductions of softmax-like kernels,

    ```mlir
    %m = blk.reduce max %x axis 0 : tensor<8192xf32, #l> -> f32
    %mb = blk.splat %m : f32 -> tensor<8192xf32, #l>
    %d = arith.subf %x, %mb : tensor<8192xf32, #l>
    %e = math.exp %d : tensor<8192xf32, #l>
    %s = blk.reduce sum %e axis 0 : tensor<8192xf32, #l> -> f32
    ```

    (or, on a 2-D block of rows, the max repeated by `blk.expand_dims` and
    `blk.broadcast`), by

    ```mlir
    %m, %s, %e = blk.max_exp_sum %x axis 0
        : tensor<8192xf32, #l> -> f32, f32, tensor<8192xf32, #l>
    ```

    which exchanges (max, sum) pairs between threads once where the two
    reductions did twice (one barrier, or one cluster barrier, instead of
    two). Applies where the reduction crosses warps or the CTAs of a
    cluster, outside loops (in a loop the exps live beside the next
    iteration's row: 71 -> 96 registers and a spill, persistent program,
    sm_90). Runs after blk-distribute (it reads the layouts) and after
    blk-stage-held-loads, whose kept rows compute the exp for the sum from
    a reload and so do not match (combined, such a row is held in registers
    across the exchange: 0.95x and 0.89x on the H100). f32 rows only (what
    `math.exp` computes in).

    Not in blk-to-ptx unless `combine-reductions` is set (`softmax-run
    --combine-reductions`): on the H100 it measured 0.99-1.01x where rows
    are held in registers (f32 1024 x 65536 on 4 CTAs 1.01x), 0.98x for
    bf16 4096 x 1024, and 0.72-0.78x where the pairs of 16 warps or 16
    CTAs raise a thread's registers past an occupancy step (bf16 4096 x
    16384: 53 -> 79; f32 256 x 262144: 109 -> 149): docs/benchmarks.md,
    "One exchange for max and sum".
  }];
  let dependentDialects = ["::mlir::blk::BlkDialect"];
}

def BlkCombineCenteredSquares
    : Pass<"blk-combine-centered-squares", "::mlir::ModuleOp"> {
  let summary = "Reduce a row's sum and its squares about the mean in one "
                "exchange (blk.sum_centered_squares)";
  let description = [{
    Replaces layer_norm's two reductions of a row, its sum and then the sum
    of its squares about the mean that sum gives,

    ```mlir
    %s = blk.reduce sum %x axis 0 : tensor<8192xf32, #l> -> f32
    %mean = arith.divf %s, %n : f32
    %mb = blk.splat %mean : f32 -> tensor<8192xf32, #l>
    %d = arith.subf %x, %mb : tensor<8192xf32, #l>
    %c = arith.select %in_bounds, %d, %zeros
        : tensor<8192xi1, #l>, tensor<8192xf32, #l>
    %c2 = arith.mulf %c, %c : tensor<8192xf32, #l>
    %q = blk.reduce sum %c2 axis 0 : tensor<8192xf32, #l> -> f32
    ```

    (the select optional; with it, `%x` must be 0 where `%in_bounds` is
    false: a load under that mask with 0 for `other`, widened or not,
    versioned by blk-peel-alignment or not), by

    ```mlir
    %s, %q = blk.sum_centered_squares %x mask %in_bounds divisor %n axis 0
        : tensor<8192xf32, #l>, tensor<8192xi1, #l>
    ```

    which exchanges (count, sum, mean, squares) between threads once,
    where the two reductions exchanged twice and the second waited for the
    first. Applies to rows (1-D f32 blocks) whose reduction crosses warps
    or the CTAs of a cluster, outside loops. Runs after blk-distribute (it
    reads the layouts) and blk-stage-held-loads (a row kept in shared
    memory is centered from a reload, and does not match).

    With `peeled-min-elements=N` (N > 0) it combines only rows that
    blk-peel-alignment versioned (their start not 16-byte aligned), and
    only where each thread holds at least N elements of the row: the
    rows where one exchange measured faster than two (docs/benchmarks.md,
    the layer_norm miss; docs/bench-data/rowwise/
    layer-norm-one-exchange-h100/).
  }];
  let options = [
    Option<"peeledMinElements", "peeled-min-elements", "int64_t", "0",
           "Combine only rows blk-peel-alignment versioned, with at least "
           "this many elements a thread (0: every row)">,
  ];
  let dependentDialects = ["::mlir::blk::BlkDialect"];
}

def BlkNarrowReductions : Pass<"blk-narrow-reductions", "::mlir::ModuleOp"> {
  let summary = "Take the max or min of 16-bit floats before widening them";
  let description = [{
    Programs compute in f32 and keep 16-bit data in memory (blk-storage-type
    widens each load), so a row's max reduces the widened row. Widening is
    monotone and keeps every value, NaN included, so the max (or min) of the
    widened block is the widened max of the 16-bit block, exactly:

    ```mlir
    %w = arith.extf %x : tensor<65536xbf16, #l> to tensor<65536xf32, #l>
    %m = blk.reduce max %w axis 0 : tensor<65536xf32, #l> -> f32
    ```

    becomes

    ```mlir
    %m16 = blk.reduce max %x axis 0 : tensor<65536xbf16, #l> -> bf16
    %m = arith.extf %m16 : bf16 to f32
    ```

    A widening used only after the reduction moves after it, so that the
    16-bit block is what lives across the reduction (left before it, ptxas
    held both: a peeled bf16 row of 50257 on 2 CTAs, 128 -> 147 registers,
    0.71x on the H100). The GPU lowering takes a thread's 16-bit elements
    two at a time (`max.NaN.bf16x2`, sm_80+) with no conversion; its
    partials cross threads as f32. In blk-to-ptx after
    blk-combine-reductions (whose pattern is a max of the f32 block): bf16
    1024 x 65536 softmax on 4 CTAs, sm_90, 1288 -> 1152 instructions a
    thread (ptxas, the cubin's .text), 1.037x on the H100 (512 x 131072:
    1.060x; docs/benchmarks.md, "Fewer instructions per element"). Sums are
    left alone: they round in their type.

    Only where it pays: on chips with 16-bit float pair max and min (sm_80+;
    on sm_75 LLVM's emulation grew a bf16 multirow kernel from 64 to 99
    registers), and, once the block is distributed, where a thread holds at
    least 4 elements of each result (fewer save less than the result's
    narrowing and widening back cost). The chip is the module's
    (#blk.target).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkDivideBySplat : Pass<"blk-divide-by-splat", "::mlir::ModuleOp"> {
  let summary = "Divide a block by a splat (or a broadcast) as a product "
                "with reciprocals";
  let description = [{
    `x / splat(s)` becomes `x * splat(1 / s)`: one division a program (a
    thread, on the GPU) instead of one an element, at most one more
    rounding (Triton's f32 division is an approximate one too). `x /
    broadcast(v)` becomes `x * broadcast(1 / v)` the same way: one
    division an element of `v` (a row's sum divides its row: attention's
    O / l, a thread's 2 rows instead of its 64 elements). Both
    pipelines run it before they part (blk-to-ptx before
    convert-blk-to-gpu, blk-to-cpu before convert-blk-to-cpu), so the CPU's
    results are those the GPU's are checked against. Blocks of 16-bit
    floats divide in f32 (the reciprocal and the product, rounded once at
    the end): 1 / s in f16 overflows for |s| < 2^-16.

    ```mlir
    %y = arith.divf %x, %s_block : tensor<1024xf32>
    // becomes
    %r = arith.divf %one, %s : f32
    %r_block = blk.splat %r [1024] : f32 -> tensor<1024xf32>
    %y = arith.mulf %x, %r_block : tensor<1024xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkDivideInExponent : Pass<"blk-divide-in-exponent", "::mlir::ModuleOp"> {
  let summary = "Divide exp(a) by a sum of exponentials in the exponent: "
                "exp2(a log2 e - log2 s)";
  let description = [{
    A kernel that keeps its row in shared memory (blk-stage-held-loads)
    recomputes `exp(x - m)` to write the row and divides it by the row's
    sum: per element a multiplication by log2 e, ex2 and a multiplication
    by 1/s. Where `exp(a)` has no other user and the divisor is a
    `blk.reduce sum` of exponentials spread by splat, expand_dims or
    broadcast,

    ```mlir
    %e = math.exp %a : tensor<65536xf32, #l>
    %sb = blk.splat %s : f32 -> tensor<65536xf32, #l>
    %y = arith.divf %e, %sb : tensor<65536xf32, #l>
    ```

    becomes one FMA and ex2 an element, and one approximate log2 a thread
    (`afn`: the GPU's lg2.approx, whose absolute error of 2^-22 is what a
    shift in an exponent needs):

    ```mlir
    %l = math.log2 %s fastmath<afn> : f32
    %n = arith.negf %l : f32
    %nb = blk.splat %n : f32 -> tensor<65536xf32, #l>
    %k = blk.splat %log2e : f32 -> tensor<65536xf32, #l>
    %t = math.fma %a, %k, %nb : tensor<65536xf32, #l>
    %y = math.exp2 %t : tensor<65536xf32, #l>
    ```

    A sum of exponentials is +0, positive, +inf or NaN, so log2 s is
    defined and the special sums give what the division gave (+inf or NaN
    at +0, 0 at +inf, NaN with a NaN); where exp(a) alone overflows or
    flushes to zero (an unshifted exp(x) / sum), the quotient is now the
    finite one. bf16 1024 x 65536 softmax on
    4 CTAs, sm_90: 1152 -> 1016 instructions a thread (ptxas, the cubin's
    .text). A row held in registers keeps exp(a) for its sum: there the
    division costs one multiplication an element and is left alone. f32
    blocks of static shape (after blk-specialize). Not in blk-to-ptx
    unless `divide-in-exponent` is set (then after blk-narrow-reductions):
    no faster on the H100 (0.994-1.005x on kept bf16 rows,
    docs/benchmarks.md), and without rcp.rn's slow path ptxas may take
    more registers (softmax_scaled_masked bf16 50257 on 2 CTAs: 128 with
    8 bytes spilled -> 238, one CTA an SM instead of two; not measured).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def BlkStageHeldLoads : Pass<"blk-stage-held-loads", "::mlir::ModuleOp"> {
  let summary = "Keep rows needed after a reduction in shared memory, and "
                "recompute from them, instead of holding them in registers";
  let description = [{
    A fused row kernel needs its row again after each reduction. For every
    `blk.reduce` that combines several warps of a distributed
    kernel, the blocks defined before it and used after it are recomputed
    right after it: their pure ops are cloned, and the `blk.load`s they
    come from are kept in shared memory (`blk.local_alloc` after the load,
    in the loaded type) and read back (`blk.local_load`). A thread then
    holds nothing of the row across the reduction:

    ```mlir
    %x = blk.load %p[%cols] : ... -> tensor<32768xbf16, #l>
    %buf = blk.local_alloc %x : tensor<32768xbf16, #l> -> !blk.shared<32768xbf16>
    %m = blk.reduce max (extf %x) ...
    %x1 = blk.local_load %buf : !blk.shared<32768xbf16> -> tensor<32768xbf16, #l>
    ... exp(extf %x1 - %m) ...
    ```

    It applies to rows of 16-bit elements, and on clusters to rows of
    32-bit elements that blk-async-fill will copy (`wide-min-runs`:
    through registers they ran 0.99x, copied 1.01-1.44x on clusters,
    0.86-1.02x on one CTA), in kernels on one CTA (or on a
    cluster of CTAs of 8 warps or more, keeping one row), where the
    blocks held across a reduction would take at least `min-registers`
    32-bit registers of a thread, the rows kept for a CTA fit in half the
    shared memory the module's chip (#blk.target) gives a CTA (room for a second CTA on the SM),
    the kernel still needs its rows after its last reduction (to write a
    row), and it does not load two rows or more after that reduction (a
    norm's weight and bias). Each rule is measured (docs/benchmarks.md,
    "Rows kept in shared memory"). Blocks that cannot be recomputed
    (loop-carried, made by ops with effects or regions) stay held.
    With `peeled-rows`, a row blk-peel-alignment versioned (an `scf.if`
    each of whose branches yields its own `blk.load`) is kept as a load is,
    from the `scf.if`'s result, where its elements are 16-bit.
    Reductions of shuffles alone are left alone: without their barrier,
    LLVM forwards the stored row to the reloads; so is a row a loop body
    only yields (blk-pipeline-loads' next row). Runs after blk-distribute
    (it reads the layouts); on a program without layouts it does nothing.
  }];
  let options = [
    Option<"onClusters", "on-clusters", "bool", "false",
           "Also keep rows in shared memory in kernels on clusters of CTAs "
           "under 8 warps (measured slower: 0.92x)">,
    Option<"minRegisters", "min-registers", "int64_t",
           "::blk::CompileOptions().stageMinRegisters",
           "32-bit registers per thread the blocks held across a reduction "
           "must take before they are recomputed from shared memory (0: "
           "never)">,
    Option<"wideMinRuns", "wide-min-runs", "int64_t", "0",
           "Also keep rows of 32-bit elements that blk-async-fill with this "
           "min-runs copies by cp.async (0: never; blk-to-ptx gives it "
           "async-fill-min-runs)">,
    Option<"peeledRows", "peeled-rows", "bool", "false",
           "Also keep 16-bit rows that blk-peel-alignment versioned (an "
           "scf.if of the shifted load and its fallback), kept whichever "
           "branch ran (slower where measured; docs/benchmarks.md)">,
  ];
}

def BlkPipelineDotOperands : Pass<"blk-pipeline-dot-operands", "::mlir::ModuleOp"> {
  let summary = "Copy a K loop's dot operands into rings of swizzled shared "
                "buffers, num_stages - 1 iterations ahead (cp.async, wgmma)";
  let description = [{
    Where a `blk.dot` directly in an `scf.for` runs on wgmma (sm_90a, its
    accumulator laid out for it by blk-distribute) and A and B are
    `blk.load`s that can be made for another iteration (as
    blk-pipeline-loads needs; it leaves these loads alone:
    `isCopiedAheadToDot`), of 16-byte runs their masks take whole and
    masked-off elements 0, the loads become `blk.async_copy_into` a ring of
    `num_stages` `#blk.swizzled` buffers per operand (`blk.local_alloc`,
    `blk.local_index`), made `num_stages - 1` iterations ahead, and the dot
    a `blk.warpgroup_dot` of this iteration's slots:

    ```mlir
    %ring_a = blk.local_alloc -> !blk.shared<3x128x64xbf16, #blk.swizzled<...>>
    ... copies of iterations 0 and 1 into slots 0 and 1, a group each ...
    scf.for %k = %lb to %ub step %s iter_args(%acc = %init) {
      blk.async_wait_group 1
      %c = blk.warpgroup_dot %a_slot, %b_slot, %acc : ...
      ... copies of iteration i + 2 into slot (i + 2) mod 3, a group ...
      scf.yield %c
    }
    blk.async_wait_group 0
    ```

    The bytes in flight hold no registers, and no store or extra barrier
    stands between two products. Where the loop chains the accumulator
    (nothing else reads it), the products are also left in flight
    (`pending = 1`, `blk.warpgroup_wait` after the loop) and the copies
    run 2 iterations ahead: with 3 stages after a `blk.barrier` (their
    slot is the one the products still in flight in another warpgroup may
    read), with 4 into the slot read 2 iterations before. Needs `num_stages` of 3 or more (at
    2 the operands carried in registers by blk-pipeline-loads are faster)
    and an i32 induction variable with signed bounds, and rings that fit
    a CTA's shared memory; other dots stay as they are. A loop inside
    another (attention backward's loop over key tiles) ends with a
    `blk.barrier` after its waits: the next entry's first copies and
    stored A's must not overwrite what another warpgroup's last products
    still read. The chip is the module's (#blk.target).

    A loop of several products (attention: `S = Q K^T`, then `O += P V`)
    takes part as a whole: each product's B must be such a load (K^T may
    run down its columns: its ring is then `#blk.swizzled<transposed =
    true>`, read K-major), and A one too or a value the threads store with
    `blk.local_alloc` into a swizzled buffer before the loop where it is
    defined outside it (Q). An A computed in the loop in the accumulator's
    layout (P, from S) stays in registers, wgmma's fragments of A, and its
    product makes no barrier (`synchronize = false`: its B came in the
    group the first product's barrier published); any other is stored
    before its product (after a barrier where no product of the iteration
    comes first). One group of copies an iteration, after the first
    product; `num_stages` of 2 or more; every product waited for where it
    is made.

    With `tensor-maps` (the default) on a chip with the tensor memory
    accelerator (sm_90+), a loop of one product whose A and B each read a
    box of a matrix argument (TileAccess.h: offsets `(r0 + i) * stride +
    (c0 + j)`, masked exactly by the matrix's rows and columns, 16-byte
    aligned rows), A's tile of 128 rows or more, in no other loop, is
    copied by TMA instead: the kernel gets a
    `!blk.tensor_map` argument per operand (`#blk.arg<tensor_map "a">`,
    which the launcher builds), the rings a `blk.init_barriers` of one
    barrier per slot, and each iteration's copies one thread's
    `blk.barrier_expect` of their bytes and a `blk.tensor_copy_into` per
    operand (no address math, no registers, no groups); the product waits
    at its slot's barrier (`blk.wait_barrier`, the loop carrying the
    phase) where it waited for a group, and makes no barrier of its own
    (every thread waited for the copies): a `blk.barrier` after the
    products goes before every iteration's copies, whatever the stages.
  }];
  let options = [
    Option<"tensorMaps", "tensor-maps", "bool", /*default=*/"true",
           "Copy the operands of a loop of one product by TMA where both "
           "read a box of a matrix argument (sm_90+)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkAsyncFill : Pass<"blk-async-fill", "::mlir::ModuleOp"> {
  let summary = "Fill the rows kept in shared memory with asynchronous "
                "16-byte copies instead of through registers";
  let description = [{
    A row blk-stage-held-loads keeps is loaded into registers and stored
    to shared memory from there (`blk.load`, then `blk.local_alloc` of the
    loaded block). Where the load moves runs of 16 bytes whose mask is the
    same over each run, this pass copies the row straight into its buffer
    (`blk.async_copy`, `cp.async` on the GPU), waits for it, and reads
    the block back for the load's other uses:

    ```mlir
    %buf = blk.async_copy %p[%cols] {blk.vector = 8 : i64} : ... -> !blk.shared<32768xbf16>
    blk.async_wait %buf : !blk.shared<32768xbf16>
    %x = blk.local_load %buf : !blk.shared<32768xbf16> -> tensor<32768xbf16, #l>
    ```

    The thread's bytes in flight then hold no registers. It applies where
    a thread keeps at least `min-runs` runs: rows of 13 runs a thread ran
    1.08-1.13x faster copied (bf16 333 x 100000 and 256 x 200000 on 4 and
    8 CTAs of 8 warps, H100 and H200), rows of 8 to 10 runs on clusters
    0.95-1.01x (the copies are waited for before the max can start, where
    the loads into registers fed it as they came; docs/benchmarks.md,
    "Kept rows filled by cp.async"). Loads in loops (a persistent
    program's row after row) stay as they are: softmax_persistent copied
    ran 0.93-1.00x at those rows, 1.10x only at 256 x 200000. Runs after
    blk-stage-held-loads on chips with `cp.async` (sm_80 or newer); other
    loads (element by element, realigned, peeled) stay as they are. The
    chip is the module's (#blk.target).
  }];
  let options = [
    Option<"minRuns", "min-runs", "int64_t",
           "::blk::CompileOptions().asyncFillMinRuns",
           "16-byte runs a thread must keep before its row is copied "
           "asynchronously (0: never)">,
  ];
}

#endif // BLK_TRANSFORMS_PASSES_TD
