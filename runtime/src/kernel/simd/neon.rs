//! The operations of generated aarch64 rows: NEON byte table lookups (`tbl`, `tbx`) over
//! one or two 16-byte registers, for elements of every size.
//!
//! Every operation is `#[inline(always)]` and carries no target feature of its own: inlined
//! into the code that `vectorize` compiles for NEON, its intrinsic inlines to one
//! instruction.

use super::table::{FullTiles, Unrolled, pitch, unroll};
use super::{Neon, TileRow};
use std::arch::aarch64::*;

vectorize!(Neon);

impl Neon {
    /// The 16 bytes of `bytes` at `at`.
    #[inline(always)]
    pub fn load(self, bytes: &[u8], at: usize) -> uint8x16_t {
        let bytes = &bytes[at..][..16];
        // SAFETY: `self` proves NEON; the 16 bytes read lie in `bytes` (sliced just above);
        // `vld1q` takes any alignment.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

    /// A register of zeros.
    #[inline(always)]
    pub fn zero(self) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vdupq_n_u8(0) }
    }

    /// Sixteen byte indices, a control of the lookups (`16 + i` names byte `i` of the
    /// second register of [`permute2`](Self::permute2); 255 names none).
    #[inline(always)]
    pub fn bytes(self, bytes: [u8; 16]) -> uint8x16_t {
        // SAFETY: `self` proves NEON; the 16 bytes read are `bytes`'.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

    /// Byte `i` of the result is byte `control[i]` of `register` (0 past it: `tbl`).
    #[inline(always)]
    pub fn permute(self, register: uint8x16_t, control: uint8x16_t) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbl1q_u8(register, control) }
    }

    /// Byte `i` of the result is byte `control[i]` of `a`, or of `b` for indices from 16
    /// (0 past them: `tbl` over two registers).
    #[inline(always)]
    pub fn permute2(self, a: uint8x16_t, control: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbl2q_u8(uint8x16x2_t(a, b), control) }
    }

    /// `into` with byte `i` replaced by byte `control[i]` of `register` where the index is
    /// in it (`tbx`: indices past it keep `into`'s byte).
    #[inline(always)]
    pub fn permute_into(
        self,
        into: uint8x16_t,
        register: uint8x16_t,
        control: uint8x16_t,
    ) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbx1q_u8(into, register, control) }
    }

    /// `into` with byte `i` replaced by byte `control[i]` of `a`, or of `b` for indices
    /// from 16, where the index is in them (`tbx` over two registers).
    #[inline(always)]
    pub fn permute2_into(
        self,
        into: uint8x16_t,
        a: uint8x16_t,
        control: uint8x16_t,
        b: uint8x16_t,
    ) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbx2q_u8(into, uint8x16x2_t(a, b), control) }
    }

    /// Writes `register` to the 16 bytes of `bytes` at `at`.
    #[inline(always)]
    pub fn store(self, bytes: &mut [u8], at: usize, register: uint8x16_t) {
        let bytes = &mut bytes[at..][..16];
        // SAFETY: `self` proves NEON; the 16 bytes written lie in `bytes` (sliced just
        // above); `vst1q` takes any alignment.
        unsafe { vst1q_u8(bytes.as_mut_ptr(), register) }
    }
}

/// NEON rows of `K`'s full tiles of `E`: its network for 16-byte registers, unrolled.
pub fn neon_rows<K: FullTiles, E>(cpu: Neon, src: &[u8], dst: &mut [u8], tiles: TileRow) {
    cpu.vectorize(
        #[inline(always)]
        || neon_tiles::<K, E>(cpu, src, dst, tiles),
    )
}

#[inline(always)]
fn neon_tiles<K: FullTiles, E>(cpu: Neon, src: &[u8], dst: &mut [u8], tiles: TileRow) {
    let [from_side, to_side] = const { Unrolled::<K, E>::NEON.sides };
    let pitch = pitch::<K>(tiles.pitches);
    for (from, to) in tiles.starts() {
        let (src, mut dst) = (
            from_side.window(src, from, pitch),
            to_side.window_mut(dst, to, pitch),
        );
        let mut register = cpu.zero();
        unroll!(I => {
            // Constant: steps past the network compile to nothing.
            if const { Unrolled::<K, E>::NEON.ops[I].present } {
                let op = const { Unrolled::<K, E>::NEON.ops[I] };
                let load = cpu.load(src.row(op.load.row), op.load.at);
                // Steps go in pairs, two-table lookups; indices past the tables (255) keep
                // the register's byte (`tbx`).
                register = match (op.identity, op.index % 2, op.last(), op.index) {
                    (true, ..) => load,
                    (_, 0, false, _) => register,
                    (_, 1, _, index) => {
                        let first = const { Unrolled::<K, E>::NEON.ops[I.saturating_sub(1)].load };
                        let first = cpu.load(src.row(first.row), first.at);
                        let control = cpu.bytes(const { Unrolled::<K, E>::NEON.pairs[I].bytes() });
                        match index {
                            1 => cpu.permute2(first, control, load),
                            _ => cpu.permute2_into(register, first, control, load),
                        }
                    }
                    (_, _, _, index) => {
                        let control = cpu.bytes(const { Unrolled::<K, E>::NEON.singles[I].bytes() });
                        match index {
                            0 => cpu.permute(load, control),
                            _ => cpu.permute_into(register, load, control),
                        }
                    }
                };
                if op.last() {
                    cpu.store(dst.row(op.store.row), op.store.at, register);
                }
            }
        });
    }
}
