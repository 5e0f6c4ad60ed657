//! Issue 25's untried designs, as hand-written WGSL (bench variants before any of them
//! becomes the library's path): each subgroup computes `16·fi × 16·fj` of C (4 × 4
//! fragments of 16 × 16 as the library's, or 4 × 2), and
//!
//! - **stream** (design a): each subgroup streams its own slices of A (`16·fi × ks`) and B
//!   (`ks × 16·fj`) through a private region of workgroup memory: later steps' slices are
//!   fetched into registers (plain `vec4<f16>` loads; one or two steps ahead) before this
//!   step's multiply-adds, put into the region after them, and ordered by
//!   `subgroupBarrier()` only: no workgroup barrier, so one subgroup's copies overlap
//!   another's multiply-adds. One region (two barriers a step) or two (double-buffered,
//!   one barrier a step).
//! - **direct** (design b): fragments loaded straight from storage with `coopLoadT`,
//!   software-pipelined: the loop is unrolled twice with two named sets of fragments, the
//!   next step's set loaded before this step's multiply-adds.
//!
//! Workgroups of `wm × wn` subgroups cover `16·fi·wm × 16·fj·wn` of C; `group` rows of workgroup
//! tiles are rastered together (L2 reuse; 0: row by row). Shapes must be multiples of the
//! workgroup tile and of `ks` (no edge handling: these are probes). Bindings as the
//! library's: A `m × k` and B `k × n` row-major as `array<vec4<f16>>`, C `m × n` f32.
//! Pure text, so that the lab's `tests/designs.rs` runs them on the CPU evaluator.

/// One design's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Stream {
    /// Subgroups of the workgroup along m and n.
    pub wm: usize,
    pub wn: usize,
    /// k per step (16 or 32).
    pub ks: usize,
    /// Design b (fragments from storage) instead of a (private regions).
    pub direct: bool,
    /// Design a: two regions per subgroup (one barrier a step) instead of one.
    pub double_buffer: bool,
    /// Rows of workgroup tiles rastered together (0: plain row-major order).
    pub group: usize,
    /// Fragments per subgroup along m and n (C's `16·fi × 16·fj` per subgroup).
    pub fi: usize,
    pub fj: usize,
    /// Design a: steps fetched ahead into registers (1 or 2; 2 unrolls the loop twice
    /// with two sets of registers).
    pub depth: usize,
}

impl Stream {
    /// C's tile per workgroup, `[m, n]`.
    pub fn tile(&self) -> [usize; 2] {
        [16 * self.fi * self.wm, 16 * self.fj * self.wn]
    }

    /// The dispatch for `m × n`: `[x, y]` (x along n).
    pub fn groups(&self, m: usize, n: usize) -> [u32; 2] {
        let [bm, bn] = self.tile();
        [(n / bn) as u32, (m / bm) as u32]
    }

    /// Bytes of workgroup memory.
    pub fn workgroup_bytes(&self) -> usize {
        match self.direct {
            true => 0,
            false => self.region_vec4s() * 8 * self.wm * self.wn * self.buffers(),
        }
    }

    fn buffers(&self) -> usize {
        1 + self.double_buffer as usize
    }

    /// A's slice: `16·fi` rows of `ks` f16 padded by 8 f16 (16 bytes), so that the eight
    /// rows of a fragment load's phase start on distinct groups of four banks (ks = 16: a
    /// pitch of 12 words, ks = 32: 20 words). B's slice: `ks` rows of `16·fj` padded by 8
    /// (fj = 4: 36 words, fj = 2: 20 words).
    fn a_pitch(&self) -> usize {
        (self.ks + 8) / 4
    }
    fn b_pitch(&self) -> usize {
        (16 * self.fj + 8) / 4
    }
    fn a_rows(&self) -> usize {
        16 * self.fi
    }
    fn region_vec4s(&self) -> usize {
        self.a_rows() * self.a_pitch() + self.ks * self.b_pitch()
    }

    pub fn wgsl(&self, [m, n, k]: [usize; 3]) -> String {
        assert!(self.ks == 16 || self.ks == 32, "ks is 16 or 32");
        let [bm, bn] = self.tile();
        assert!(
            m % bm == 0 && n % bn == 0 && k % (2 * self.ks) == 0,
            "shape"
        );
        let [sm, sn] = [16 * self.fi, 16 * self.fj];
        let threads = 32 * self.wm * self.wn;
        let [gx, gy] = self.groups(m, n);
        let (kq, nq) = (k / 4, n / 4);
        let steps = k / self.ks;
        let mut w = String::new();
        let mut line = |s: &str| {
            w.push_str(s);
            w.push('\n');
        };
        line(HEADER.trim_end());
        let region = self.region_vec4s();
        if !self.direct {
            line(&format!(
                "// Each subgroup's private region{}: A's slice {sm} × {} at a pitch of {} vec4, then B's {} × {sn} at a pitch of {}.",
                if self.double_buffer { "s (two)" } else { "" },
                self.ks,
                self.a_pitch(),
                self.ks,
                self.b_pitch()
            ));
            line(&format!(
                "var<workgroup> tiles: array<vec4<f16>, {}>;",
                region * self.wm * self.wn * self.buffers()
            ));
        }
        line(&format!("@compute @workgroup_size({threads})"));
        line(
            "fn main(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) wid: vec3<u32>) {",
        );
        line("    let subgroup = thread / 32u;");
        line("    let lane = thread % 32u;");
        // Raster: `group` rows of workgroup tiles at a time, column by column within them.
        match self.group {
            0 => {
                line("    let tile_m = wid.y;");
                line("    let tile_n = wid.x;");
            }
            g => {
                line(&format!("    let id = wid.y * {gx}u + wid.x;"));
                line(&format!(
                    "    let first = id / {}u * {g}u;",
                    g * gx as usize
                ));
                line(&format!("    let rows = min({gy}u - first, {g}u);"));
                line(&format!("    let within = id % {}u;", g * gx as usize));
                line("    let tile_m = first + within % rows;");
                line("    let tile_n = within / rows;");
            }
        }
        line(&format!(
            "    let m0 = tile_m * {bm}u + subgroup / {}u * {sm}u;",
            self.wn
        ));
        line(&format!(
            "    let n0 = tile_n * {bn}u + subgroup % {}u * {sn}u;",
            self.wn
        ));
        let (fi, fj) = (self.fi, self.fj);
        let pairs = || fragments(fi, fj);
        line(accumulators(fi, fj).trim_end());
        let halves = self.ks / 16;
        if self.direct {
            // Fragment set `s` (a or p) for k0 = `k0` (an expression).
            let load = |set: &str, k0: &str, decl: bool| -> String {
                let mut out = String::new();
                for h in 0..halves {
                    for i in 0..fi {
                        out.push_str(&format!(
                            "        {}{set}a{h}_{i} = coopLoadT<coop_mat16x16<f16, A>>(&a[((m0 + {}u) * {k}u + {k0} + {}u) / 4u], {kq}u);\n",
                            if decl { "var " } else { "" },
                            16 * i,
                            16 * h
                        ));
                    }
                    for j in 0..fj {
                        out.push_str(&format!(
                            "        {}{set}b{h}_{j} = coopLoadT<coop_mat16x16<f16, B>>(&b[(({k0} + {}u) * {n}u + n0 + {}u) / 4u], {nq}u);\n",
                            if decl { "var " } else { "" },
                            16 * h,
                            16 * j
                        ));
                    }
                }
                out
            };
            let mads = |set: &str| -> String {
                let mut out = String::new();
                for h in 0..halves {
                    for (i, j) in pairs() {
                        out.push_str(&format!(
                            "        acc{i}_{j} = coopMultiplyAdd({set}a{h}_{i}, {set}b{h}_{j}, acc{i}_{j});\n"
                        ));
                    }
                }
                out
            };
            line(
                "    // Two sets of fragments: the next step's loaded before this step's multiply-adds.",
            );
            w.push_str(&load("x", "0u", true).replace("        ", "    "));
            w.push_str(&load("y", "0u", true).replace("        ", "    "));
            let pair = 2 * self.ks;
            w.push_str(&format!(
                "    for (var k0 = 0u; k0 < {k}u; k0 += {pair}u) {{\n"
            ));
            w.push_str(&load("y", &format!("(k0 + {}u)", self.ks), false));
            w.push_str(&mads("x"));
            w.push_str(&format!(
                "        let next = min(k0 + {pair}u, {}u);\n",
                k - pair
            ));
            w.push_str(&load("x", "next", false));
            w.push_str(&mads("y"));
            w.push_str("    }\n");
        } else {
            // The lane's copies: A's slice is `sm` rows of ks/4 vec4s, B's ks rows of
            // sn/4; 32 lanes, consecutive lanes along a row.
            let b_at = sm * self.a_pitch();
            let copies = Copies {
                lane: "lane",
                lanes: 32,
                a: Slice {
                    rows: sm,
                    row_vecs: self.ks / 4,
                    src_row: "m0",
                    src_col: "",
                    src_pitch: kq,
                    step: self.ks / 4,
                    dst_at: 0,
                    dst_pitch: self.a_pitch(),
                },
                b: Slice {
                    rows: self.ks,
                    row_vecs: sn / 4,
                    src_row: "",
                    src_col: "n0 / 4u",
                    src_pitch: nq,
                    step: self.ks * nq,
                    dst_at: b_at,
                    dst_pitch: self.b_pitch(),
                },
            };
            w.push_str(&format!(
                "    let own = subgroup * {}u;\n",
                region * self.buffers()
            ));
            w.push_str(
                "    // The lane's copies: where each is read in A and B, and put in the region.\n",
            );
            w.push_str(&copies.indices("    "));
            let fetch = |set: usize, step: &str, decl: bool, indent: &str| {
                copies.fetch(set, step, decl, indent)
            };
            let put = |set: usize, base: &str, indent: &str| copies.put(set, base, indent);
            let multiply = |base: &str| -> String {
                multiply_from_tiles(
                    [fi, fj, halves],
                    [(base, 0, self.a_pitch()), (base, b_at, self.b_pitch())],
                    "        ",
                )
            };
            let last = steps - 1;
            let clamp = |ahead: usize| format!("min(step + {ahead}u, {last}u)");
            w.push_str(&fetch(0, "0u", true, "    "));
            w.push_str(&put(0, "own", "    "));
            w.push_str("    subgroupBarrier();\n");
            match (self.depth, self.double_buffer) {
                (1, false) => {
                    w.push_str(&format!(
                        "    for (var step = 0u; step < {steps}u; step++) {{\n"
                    ));
                    w.push_str("        // The next step's slices into registers (the last step fetches its own again).\n");
                    w.push_str(&fetch(0, &clamp(1), false, "        "));
                    w.push_str(&multiply("own"));
                    w.push_str("        subgroupBarrier();\n");
                    w.push_str(&put(0, "own", "        "));
                    w.push_str("        subgroupBarrier();\n");
                }
                (1, true) => {
                    w.push_str(&format!(
                        "    for (var step = 0u; step < {steps}u; step++) {{\n"
                    ));
                    w.push_str("        // The next step's slices into registers (the last step fetches its own again).\n");
                    w.push_str(&fetch(0, &clamp(1), false, "        "));
                    w.push_str(&format!(
                        "        let here = own + step % 2u * {region}u;\n"
                    ));
                    w.push_str(&multiply("here"));
                    w.push_str(&format!(
                        "        let there = own + (step + 1u) % 2u * {region}u;\n"
                    ));
                    w.push_str(&put(0, "there", "        "));
                    w.push_str("        subgroupBarrier();\n");
                }
                (2, false) => {
                    // Two register sets, two steps ahead: set 0 holds odd steps, set 1 even.
                    w.push_str("    // Two sets of registers, each two steps ahead of the multiply-adds.\n");
                    w.push_str(&fetch(0, &format!("{}u", 1.min(last)), false, "    "));
                    w.push_str(&fetch(1, &format!("{}u", 2.min(last)), true, "    "));
                    w.push_str(&format!(
                        "    for (var step = 0u; step < {steps}u; step += 2u) {{\n"
                    ));
                    for (set, ahead) in [(0, 3), (1, 4)] {
                        w.push_str(&multiply("own"));
                        w.push_str("        subgroupBarrier();\n");
                        w.push_str(&put(set, "own", "        "));
                        w.push_str("        subgroupBarrier();\n");
                        w.push_str(&fetch(set, &clamp(ahead), false, "        "));
                    }
                }
                _ => panic!("depth 1 or 2, double buffers at depth 1"),
            }
            w.push_str("    }\n");
        }
        w.push_str(&store(fi, fj, n, "    "));
        w.push_str("}\n");
        w
    }
}

/// The enables and bindings of every design: A `m × k` and B `k × n` row-major as
/// `array<vec4<f16>>`, C `m × n` f32.
pub const HEADER: &str = "enable f16;
enable wgpu_cooperative_matrix;
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
";

/// A subgroup's `fi × fj` fragments of C, `(i, j)` row by row.
pub fn fragments(fi: usize, fj: usize) -> impl Iterator<Item = (usize, usize)> + Clone {
    (0..fi).flat_map(move |i| (0..fj).map(move |j| (i, j)))
}

/// The accumulators `acc{i}_{j}` of a subgroup's fragments, zero.
pub fn accumulators(fi: usize, fj: usize) -> String {
    fragments(fi, fj)
        .map(|(i, j)| format!("    var acc{i}_{j} = coop_mat16x16<f32, C>();\n"))
        .collect()
}

/// One step's multiply-adds from workgroup tiles, as a block at `indent`: for each 16 of
/// k (`halves` of them), the subgroup's `fi` fragments of A and `fj` of B loaded with
/// `coopLoadT` from `tiles`, then its `fi × fj` multiply-adds. A tile is `(base, at,
/// pitch)`: fragment `(i, h)` of A at `base + at + 16·i·pitch + 4·h` (vec4s), `(h, j)` of
/// B at `base + at + 16·h·pitch + 4·j`.
pub fn multiply_from_tiles(
    [fi, fj, halves]: [usize; 3],
    [(a_base, a_at, a_pitch), (b_base, b_at, b_pitch)]: [(&str, usize, usize); 2],
    indent: &str,
) -> String {
    let mut out = format!("{indent}{{\n");
    for h in 0..halves {
        for i in 0..fi {
            out.push_str(&format!(
                "{indent}let a{h}_{i} = coopLoadT<coop_mat16x16<f16, A>>(&tiles[{a_base} + {}u], {a_pitch}u);\n",
                a_at + 16 * i * a_pitch + 4 * h,
            ));
        }
        for j in 0..fj {
            out.push_str(&format!(
                "{indent}let b{h}_{j} = coopLoadT<coop_mat16x16<f16, B>>(&tiles[{b_base} + {}u], {b_pitch}u);\n",
                b_at + 16 * h * b_pitch + 4 * j,
            ));
        }
        for (i, j) in fragments(fi, fj) {
            out.push_str(&format!(
                "{indent}acc{i}_{j} = coopMultiplyAdd(a{h}_{i}, b{h}_{j}, acc{i}_{j});\n"
            ));
        }
    }
    out.push_str(&format!("{indent}}}\n"));
    out
}

/// The accumulators stored to C (`n` columns) at the subgroup's corner `(m0, n0)`.
pub fn store(fi: usize, fj: usize, n: usize, indent: &str) -> String {
    fragments(fi, fj)
        .map(|(i, j)| {
            format!(
                "{indent}coopStoreT(acc{i}_{j}, &c[(m0 + {}u) * {n}u + n0 + {}u], {n}u);\n",
                16 * i,
                16 * j
            )
        })
        .collect()
}

/// One operand's slice of a step, copied row-major from storage into workgroup memory by
/// [`Copies::lanes`] lanes, consecutive lanes along a row (`vec4<f16>` moves).
pub struct Slice {
    /// Rows, and `vec4`s per row.
    pub rows: usize,
    pub row_vecs: usize,
    /// The slice's first row and first `vec4` column in storage at step 0 (expressions;
    /// empty for 0), and storage's pitch in `vec4`s.
    pub src_row: &'static str,
    pub src_col: &'static str,
    pub src_pitch: usize,
    /// `vec4`s from one step's slice to the next in storage.
    pub step: usize,
    /// Where the slice starts in its region of `tiles`, and its pitch there (`vec4`s).
    pub dst_at: usize,
    pub dst_pitch: usize,
}

impl Slice {
    /// `vec4`s per lane of `lanes`.
    fn per_lane(&self, lanes: usize) -> usize {
        assert!(
            (self.rows * self.row_vecs).is_multiple_of(lanes),
            "a slice of {} × {} vec4 over {lanes} lanes",
            self.rows,
            self.row_vecs
        );
        self.rows * self.row_vecs / lanes
    }
}

/// A step's copies of A's and B's slices: each lane's `vec4`s fetched into registers
/// `ra{set}_{r}`, `rb{set}_{r}` and put into `tiles`.
pub struct Copies {
    /// The copying lane's index (an expression) among `lanes`.
    pub lane: &'static str,
    pub lanes: usize,
    pub a: Slice,
    pub b: Slice,
}

impl Copies {
    fn operands(&self) -> [(&'static str, &Slice); 2] {
        [("a", &self.a), ("b", &self.b)]
    }

    /// Where each of the lane's copies is read (`a_src{r}`, at step 0) and put
    /// (`a_dst{r}`, in the region), as `let`s at `indent`.
    pub fn indices(&self, indent: &str) -> String {
        let mut out = String::new();
        for (x, slice) in self.operands() {
            let w = slice.row_vecs;
            for r in 0..slice.per_lane(self.lanes) {
                let e = format!("({} + {}u)", self.lane, self.lanes * r);
                let row = match slice.src_row {
                    "" => format!("{e} / {w}u * {}u", slice.src_pitch),
                    first => format!("({first} + {e} / {w}u) * {}u", slice.src_pitch),
                };
                let col = match slice.src_col {
                    "" => String::new(),
                    first => format!(" + {first}"),
                };
                out.push_str(&format!(
                    "{indent}let {x}_src{r} = {row}{col} + {e} % {w}u;\n"
                ));
                let at = match slice.dst_at {
                    0 => String::new(),
                    at => format!("{at}u + "),
                };
                out.push_str(&format!(
                    "{indent}let {x}_dst{r} = {at}{e} / {w}u * {}u + {e} % {w}u;\n",
                    slice.dst_pitch
                ));
            }
        }
        out
    }

    /// Register set `set` declared, unset.
    pub fn declare(&self, set: usize, indent: &str) -> String {
        let mut out = String::new();
        for (x, slice) in self.operands() {
            for r in 0..slice.per_lane(self.lanes) {
                out.push_str(&format!("{indent}var r{x}{set}_{r}: vec4<f16>;\n"));
            }
        }
        out
    }

    /// Register set `set` ← step `step` (an expression); `decl` declares it.
    pub fn fetch(&self, set: usize, step: &str, decl: bool, indent: &str) -> String {
        let v = if decl { "var " } else { "" };
        let mut out = String::new();
        for (x, slice) in self.operands() {
            for r in 0..slice.per_lane(self.lanes) {
                out.push_str(&format!(
                    "{indent}{v}r{x}{set}_{r} = {x}[{x}_src{r} + {step} * {}u];\n",
                    slice.step
                ));
            }
        }
        out
    }

    /// Register set `set` put into the region at `base` (an expression).
    pub fn put(&self, set: usize, base: &str, indent: &str) -> String {
        let mut out = String::new();
        for (x, slice) in self.operands() {
            for r in 0..slice.per_lane(self.lanes) {
                out.push_str(&format!(
                    "{indent}tiles[{base} + {x}_dst{r}] = r{x}{set}_{r};\n"
                ));
            }
        }
        out
    }
}

/// The designs the bench times, labelled.
pub fn designs() -> Vec<(&'static str, Stream)> {
    let a1 = Stream {
        wm: 2,
        wn: 2,
        ks: 16,
        direct: false,
        double_buffer: false,
        group: 0,
        fi: 4,
        fj: 4,
        depth: 1,
    };
    let a6 = Stream { depth: 2, ..a1 };
    let a8 = Stream { fj: 2, wn: 4, ..a1 };
    let b1 = Stream { direct: true, ..a1 };
    vec![
        (
            "a1: stream, 2×2 subgroups of 4×4 fragments, 16 of k, one region",
            a1,
        ),
        (
            "a2: a1 double-buffered",
            Stream {
                double_buffer: true,
                ..a1
            },
        ),
        ("a3: a1 with 4×2 subgroups", Stream { wm: 4, ..a1 }),
        ("a4: a1 with 32 of k", Stream { ks: 32, ..a1 }),
        (
            "a5: a2, rows of 8 workgroup tiles rastered together",
            Stream {
                double_buffer: true,
                group: 8,
                ..a1
            },
        ),
        ("a6: a1 fetching two steps ahead (two register sets)", a6),
        ("a7: a1 with 1×2 subgroups", Stream { wm: 1, ..a1 }),
        ("a8: a1 with 2×4 subgroups of 4×2 fragments", a8),
        ("a9: a8 fetching two steps ahead", Stream { depth: 2, ..a8 }),
        ("a10: a6 with 1×2 subgroups", Stream { wm: 1, ..a6 }),
        (
            "a11: a9 with 2×2 subgroups",
            Stream {
                depth: 2,
                wn: 2,
                ..a8
            },
        ),
        (
            "b1: direct, 2×2 subgroups of 4×4 fragments, 16 of k, two fragment sets",
            b1,
        ),
        (
            "b2: b1, rows of 8 workgroup tiles rastered together",
            Stream { group: 8, ..b1 },
        ),
    ]
}
