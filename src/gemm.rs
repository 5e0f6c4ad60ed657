//! The layouts of the library's GEMM ([`config`]): a `layout!` block like any user's, which
//! [`Gpu::gemm_kernel`](crate::gpu::Gpu::gemm_kernel) turns into one WGSL kernel. Each
//! workgroup computes a 128 × 128 tile of C from 128 × 16 tiles of A and 16 × 128 tiles of
//! B, with 256 threads of 8 × 8 values each. The comments say why each layout is as it is;
//! `swizzle show` and `swizzle svg` draw them ([`guide::gpu`](crate::guide::gpu), "Writing a
//! GPU kernel with swizzle").

#![cfg_attr(
    not(feature = "gpu"),
    allow(
        rustdoc::broken_intra_doc_links,
        reason = "the configs' docs link the device that runs them, which docs.rs documents (feature `gpu`)"
    )
)]

use crate::gpu::{
    Accumulate, BoundsChecks, Gemm, KLoop, Operands, Stored, TensorCores, WorkgroupMatrices,
};
use crate::ir::Descriptor;
use crate::raster::Raster;

crate::layout! {
    /// One write of A's loads into A's tile: a thread writes four k's of one m (lane `l`
    /// is thread `l` of the first subgroup of `GemmALoads`: m = l / 4, k = 4 · (l % 4)).
    pub access ALoadWrite { lanes 32; bytes 4; m = lane / 4; k = lane % 4 * 4; }
    /// One read of the fragments from A's tile: a subgroup is 4 × 8 threads of
    /// `GemmFragments`, each reading four consecutive rows as a `vec4`.
    pub access AFragmentRead { lanes 32; bytes 4; vector 4 along m; m = lane / 8 * 4; k = 0; }

    /// A's workgroup tile, 128 × 16 over `[m, k]`, stored k-major: for each k, the 128 m's
    /// in a row, so that a thread reads its four consecutive rows of A as one `vec4`. The
    /// loads write four k's of one m each, and a subgroup's 32 lanes meet as 8 m's × 4
    /// groups of k: k-major rows are 128 words, a multiple of the 32 banks, so without a
    /// swizzle four words would share each bank. The macro chooses the swizzle for both
    /// accesses: CuTe `Swizzle<2, 3, 6>`, k's group of four XOR-ed into m's groups of
    /// eight, which gives each group of k its own eight banks and keeps `vec4`s of m whole.
    /// The copy's stores differ by constants above the XOR's bits, so they print as one
    /// base plus immediate offsets, and the fragment reads of each group of k from one
    /// base (four in all, the two groups of rows 64 apart sharing theirs);
    /// `Gemm::share_cost` ranks this tile first (20 cycles a step, rows padded to 132
    /// words 26), and the two run as fast as each other: the cycles the padding costs
    /// hide behind the multiply-adds (BENCHMARKS.md#gemm).
    pub layout GemmA {
        memory [offset: 2048];
        swizzle offset -> swizzled (auto for ALoadWrite, AFragmentRead);
        unmerge swizzled -> [k: 16, m: 128];
        coords [m, k];
        assert conflict_free(for ALoadWrite);
        assert conflict_free(for AFragmentRead);
    }

    /// B's workgroup tile, 16 × 128 over `[k, n]`, row-major as B is: the loads write whole
    /// `vec4`s along n and a thread reads its columns as `vec4`s, both conflict-free.
    pub layout GemmB {
        memory [k: 16, n: 128];
        coords [k, n];
    }

    /// Who loads A's tile: 256 threads, each two `vec4`s along k, 64 rows apart.
    pub threads GemmALoads {
        tile [m: 128, k: 16];
        unmerge m -> [mr: 2, ms: 64];
        unmerge k -> [kv: 4, v: 4];
        merge [ms, kv] -> thread;
        threads [thread];
        values [mr, v];
    }

    /// Who loads B's tile: 256 threads, each two `vec4`s along n, 8 rows apart.
    pub threads GemmBLoads {
        tile [k: 16, n: 128];
        unmerge k -> [kr: 2, ks: 8];
        unmerge n -> [nv: 32, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }

    /// One write of B's transposed loads into B's tile: four k's of one n per thread.
    pub access BTransposedLoadWrite { lanes 32; bytes 4; n = lane / 4; k = lane % 4 * 4; }
    /// One read of the fragments from B's tile: 8 threads of a subgroup's row, a `vec4` of
    /// consecutive columns each.
    pub access BFragmentRead { lanes 32; bytes 4; vector 4 along n; k = 0; n = lane % 8 * 4; }

    /// B's tile where B is stored transposed: the loads then write four k's of one n, as
    /// A's do, and the same reasoning gives the same swizzle.
    pub layout GemmBSwizzled {
        memory [offset: 2048];
        swizzle offset -> swizzled (auto for BTransposedLoadWrite, BFragmentRead);
        unmerge swizzled -> [k: 16, n: 128];
        coords [k, n];
        assert conflict_free(for BTransposedLoadWrite);
        assert conflict_free(for BFragmentRead);
    }

    /// Who loads A's tile where A is stored transposed (`k × m`): two `vec4`s along m each.
    pub threads GemmATransposedLoads {
        tile [k: 16, m: 128];
        unmerge k -> [kr: 2, ks: 8];
        unmerge m -> [mv: 32, v: 4];
        merge [ks, mv] -> thread;
        threads [thread];
        values [kr, v];
    }

    /// Who loads B's tile where B is stored transposed (`n × k`): two `vec4`s along k each.
    pub threads GemmBTransposedLoads {
        tile [n: 128, k: 16];
        unmerge n -> [nr: 2, ns: 64];
        unmerge k -> [kv: 4, v: 4];
        merge [ns, kv] -> thread;
        threads [thread];
        values [nr, v];
    }

    /// Who accumulates which element of C's 128 × 128 tile: 16 × 16 threads of 8 × 8
    /// values, two groups of four rows 64 apart by two groups of four columns 64 apart, so
    /// every read of A's and B's tile is a `vec4`. A subgroup is 4 × 8 threads (CUTLASS's
    /// warp shape): each step of k it reads 4 distinct vectors of A and 8 of B.
    pub threads GemmFragments {
        tile [m: 128, n: 128];
        unmerge m -> [mh: 2, wr: 4, lr: 4, ml: 4];
        unmerge n -> [nh: 2, wc: 2, lc: 8, nl: 4];
        threads [wr, wc, lr, lc];
        values [mh, ml, nh, nl];
    }

    /// One write of the tensor-core loads into A's tile: 16 bytes (8 f16) per lane, 8
    /// lanes a phase, eight rows of one column of moves per phase, as `TcALoads` assigns
    /// them.
    pub access TcALoadWrite { lanes 32; bytes 2; vector 8 along k; m = lane % 8 + lane / 16 * 8; k = lane / 8 % 2 * 8; }
    /// One read of a 16 × 16 f16 fragment of A by the tensor cores, as `ldmatrix` reads it:
    /// a lane gives one row's 16 bytes (rows 0–15, then the second 8 columns of k).
    pub access TcAFragmentRead { lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8; }
    /// One write of the tensor-core loads into B's tile: 32 lanes of 16 bytes along one
    /// row, as `TcBLoads` assigns them.
    pub access TcBLoadWrite { lanes 32; bytes 2; vector 8 along n; k = 0; n = lane * 8; }
    /// One read of a 16 × 16 f16 fragment of B: a lane gives one row (of k) of 16 bytes.
    pub access TcBFragmentRead { lanes 32; bytes 2; vector 8 along n; k = lane % 16; n = lane / 16 * 8; }
    /// One read of the stage by the epilogue: 8 rows × one `vec4` per 8 lanes.
    pub access TcCStageRead { lanes 32; bytes 4; vector 4 along c; s = 0; r = lane % 8; c = lane / 8 * 4; }

    /// A's workgroup tile for the tensor cores: 128 × 16 f16 over `[m, k]`, rows padded to
    /// 24 f16 (48 bytes, 12 words, as NVIDIA's Vulkan reference pads them): eight rows start
    /// on eight distinct groups of four banks (12 · r mod 32 = 0, 12, 24, 4, 16, 28, 8, 20),
    /// so the copies' 16-byte writes and the fragment loads, eight rows per phase, are
    /// conflict-free.
    pub layout TcA {
        memory [m: 128, k: 16] strides [24, 1];
        coords [m, k];
        assert conflict_free(for TcALoadWrite);
        assert conflict_free(for TcAFragmentRead);
    }

    /// B's workgroup tile: 16 × 256 f16 over `[k, n]`, rows padded to 264 f16 (528 bytes,
    /// 132 words): row `r` starts on bank 4 · r, so the eight rows of a fragment load's
    /// phase hit eight distinct groups of banks.
    pub layout TcB {
        memory [k: 16, n: 256] strides [264, 1];
        coords [k, n];
        assert conflict_free(for TcBLoadWrite);
        assert conflict_free(for TcBFragmentRead);
    }

    /// Where each subgroup puts one 16 × 16 f32 fragment of C on its way out: a stage per
    /// subgroup, rows padded to 20 words (5 `vec4`s). The epilogue's reads, eight rows of
    /// one `vec4` per phase, are conflict-free.
    pub layout TcCStage {
        memory [s: 8, r: 16, c: 16] strides [320, 20, 1];
        coords [s, r, c];
        assert conflict_free(for TcCStageRead);
    }

    /// Who loads A's tile: 256 threads, one 16-byte move (8 f16) each. Eight consecutive
    /// threads take eight rows of one column of moves (a conflict-free phase); a subgroup
    /// reads whole 32-byte sectors of sixteen rows.
    pub threads TcALoads {
        tile [m: 128, k: 16];
        unmerge m -> [mh: 16, ml: 8];
        unmerge k -> [kv: 2, v: 8];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [v];
    }

    /// Who loads B's tile: 256 threads, two 16-byte moves each, 8 rows apart; a subgroup
    /// reads one whole row of 512 bytes.
    pub threads TcBLoads {
        tile [k: 16, n: 256];
        unmerge k -> [kr: 2, ks: 8];
        unmerge n -> [nv: 32, v: 8];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }

    /// Which subgroup computes which 16 × 16 fragments of C's 128 × 256 tile: a
    /// thread-value layout over the 8 × 16 grid of fragments whose threads are the
    /// workgroup's 8 subgroups (2 × 4) and whose values are each subgroup's 4 × 4
    /// fragments (64 × 64 of C). A subgroup loads 4 fragments of A and 4 of B per 16 of k
    /// and issues 16 multiply-adds.
    pub threads TcFragments {
        tile [fi: 8, fj: 16];
        unmerge fi -> [wr: 2, fr: 4];
        unmerge fj -> [wc: 4, fc: 4];
        threads [wr, wc];
        values [fr, fc];
    }

    /// Who stores a staged fragment to C: a subgroup's 32 lanes, two `vec4`s of f32 each,
    /// 8 rows apart; eight consecutive lanes take eight rows of one column of `vec4`s.
    pub threads TcCStores {
        tile [r: 16, c: 16];
        unmerge r -> [rr: 2, rl: 8];
        unmerge c -> [cv: 4, v: 4];
        merge [cv, rl] -> lane;
        threads [lane];
        values [rr, v];
    }
}

static A_TILE: Descriptor = GemmA::DESCRIPTOR;
static B_TILE: Descriptor = GemmB::DESCRIPTOR;
static B_SWIZZLED: Descriptor = GemmBSwizzled::DESCRIPTOR;
static TC_A: Descriptor = TcA::DESCRIPTOR;
static TC_B: Descriptor = TcB::DESCRIPTOR;
static TC_C: Descriptor = TcCStage::DESCRIPTOR;

/// The fragment kernel: both operands through workgroup tiles, 16 of k per step.
static TC_TILED: TensorCores<'static> = TensorCores {
    a_tile: &TC_A,
    b_tile: &TC_B,
    c_stage: &TC_C,
    a_loads: TcALoads::THREAD_VALUES,
    b_loads: TcBLoads::THREAD_VALUES,
    fragments: TcFragments::THREAD_VALUES,
    c_stores: TcCStores::THREAD_VALUES,
    order: Raster::RowMajor,
    k_loop: KLoop::Prefetched,
    accumulate: Accumulate::F32,
    workgroup: None,
};

/// The GEMM on per-subgroup fragments (subgroup-scope 16 × 16 cooperative matrices, the
/// portable path): NVIDIA's Vulkan reference design (`vk_cooperative_matrix_perf`'s
/// shared-memory kernel, at its best tile on the largest shapes) from layouts: 128 × 256
/// tiles of C from 128 × 16 tiles of A and 16 × 256 of B, 8 subgroups of 4 × 4 fragments
/// each, f32 accumulators, the operands copied in 16-byte moves and the next step's held in
/// registers across the multiply-adds, so that their latency hides behind them. The 16-byte
/// moves are what the reference's `uvec4` loads are; the designs before it (256 × 128 tiles,
/// 32 of k a step, `vec4` moves, A straight from memory) held 220 to 255 registers an
/// invocation and ran slower (BENCHMARKS.md#tensor-core-gemm, and its git history). Any
/// shape and storage order the fragment kernel takes.
pub fn tensor_cores_tiled() -> TensorCores<'static> {
    TC_TILED
}

/// The GEMM on workgroup-scope cooperative matrices, where the device has them
/// (`VK_NV_cooperative_matrix2`, NVIDIA's Vulkan driver): 128 × 256 tiles of C, 32 of k a
/// step, 8 steps a loop iteration, 256 invocations, in bands of 8 rows of tiles. The fastest
/// of the designs tried (BENCHMARKS.md#tensor-core-gemm, and its git history): smaller tiles
/// (128 × 128) reuse each load over less of C, and 64 of k a step were slower too; larger
/// tiles (256 × 256) need more registers than an invocation has, spill, and collapse, as did
/// sides off the powers of two; the bands keep the operands' slices that neighbouring
/// workgroups read in L2. Where the driver has the extension it runs in place of the fragment
/// kernel of [`tensor_cores`], which it outruns.
pub fn workgroup_matrices() -> WorkgroupMatrices {
    WorkgroupMatrices {
        tile: [128, 256, 32],
        invocations: 256,
        unroll: 8,
        order: Raster::Grouped(8),
    }
}

/// The tensor-core GEMM **summing in f16**, for callers who accept a coarser C: each step's
/// sums rounded to f16 ([`Accumulate::F16`]; C is still stored as f32). Half the accumulators'
/// registers let a workgroup hold a 256 × 256 tile of C on workgroup-scope matrices, which f32
/// sums spill: the larger tile reuses each load over more of C, so from 4096 up it runs faster
/// than the f32 kernel, and below 4096 slower (fewer tiles than multiprocessors):
/// BENCHMARKS.md#tensor-core-gemm. Where the driver lists no f16 sums for its tile, or the
/// device has no workgroup-scope matrices, the scalar kernel runs (with f32 sums: the fragment
/// kernel's f16 sums were wrong on the one driver tried) and [`GemmKernel::path`] says why.
///
/// [`GemmKernel::path`]: crate::gpu::GemmKernel::path
pub fn tensor_cores_f16_sums() -> TensorCores<'static> {
    TensorCores {
        accumulate: Accumulate::F16,
        workgroup: Some(WorkgroupMatrices {
            tile: [256, 256, 32],
            ..workgroup_matrices()
        }),
        ..tensor_cores()
    }
}

/// The tensor-core GEMM's layouts (f16 operands on cooperative matrices): on workgroup-scope
/// matrices ([`workgroup_matrices`]) where the device has them, for any shape and storage
/// order; elsewhere on per-subgroup fragments, the design of [`tensor_cores_tiled`].
pub fn tensor_cores() -> TensorCores<'static> {
    TensorCores {
        workgroup: Some(workgroup_matrices()),
        ..TC_TILED
    }
}

/// The library's GEMM for operands stored as `a` and `b` say: [`config`] with the loads of
/// a transposed operand distributed along its rows as it lies in memory (and, for B, the
/// tile swizzled as A's is, since its loads then write as A's do).
pub fn config_for(a: Stored, b: Stored) -> Gemm<'static> {
    Gemm {
        a_order: a,
        b_order: b,
        a_loads: match a {
            Stored::RowMajor => GemmALoads::THREAD_VALUES,
            Stored::Transposed => GemmATransposedLoads::THREAD_VALUES,
        },
        b_tile: match b {
            Stored::RowMajor => &B_TILE,
            Stored::Transposed => &B_SWIZZLED,
        },
        b_loads: match b {
            Stored::RowMajor => GemmBLoads::THREAD_VALUES,
            Stored::Transposed => GemmBTransposedLoads::THREAD_VALUES,
        },
        ..config()
    }
}

/// The library's GEMM: the layouts above, row-major over C's tiles, without wgpu's bounds
/// checks (every index is in range by construction: the tiles' offsets lie in their
/// spaces, the matrices' reads and C's writes under guards derived from the extents, and
/// [`Dispatch::run`](crate::gpu::Dispatch::run) checks the buffers' lengths; with
/// them on, every access pays a clamp: BENCHMARKS.md#gemm).
pub fn config() -> Gemm<'static> {
    Gemm {
        a_tile: &A_TILE,
        b_tile: &B_TILE,
        operands: Operands::F32,
        a_order: Stored::RowMajor,
        b_order: Stored::RowMajor,
        a_loads: GemmALoads::THREAD_VALUES,
        b_loads: GemmBLoads::THREAD_VALUES,
        fragments: GemmFragments::THREAD_VALUES,
        order: Raster::RowMajor,
        bounds_checks: BoundsChecks::Off,
        tensor_cores: Some(tensor_cores()),
    }
}
