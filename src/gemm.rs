//! The layouts of the library's GEMM ([`config`]): a `layout!` block like any user's, which
//! [`Gpu::gemm_kernel`](crate::gpu::Gpu::gemm_kernel) turns into one WGSL kernel. Each
//! workgroup computes a 128 × 128 tile of C from 128 × 16 tiles of A and 16 × 128 tiles of
//! B, with 256 threads of 8 × 8 values each. The comments say why each layout is as it is;
//! `swizzle show` and `swizzle svg` draw them ([`guide::gpu`](crate::guide::gpu), "Writing a
//! GPU kernel with swizzle").

use crate::gpu::{BoundsChecks, Gemm, Operands, Stored};
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
}

static A_TILE: Descriptor = GemmA::DESCRIPTOR;
static B_TILE: Descriptor = GemmB::DESCRIPTOR;
static B_SWIZZLED: Descriptor = GemmBSwizzled::DESCRIPTOR;

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
/// [`GemmKernel::run`](crate::gpu::GemmKernel::run) checks the buffers' lengths; with
/// them on, the H100 ran 10 % slower, BENCHMARKS.md).
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
    }
}
