//! Issue 25's design d, as hand-written WGSL beside designs a and b (`tc_stream.rs`, whose
//! helpers it shares): **producer and consumer subgroups**. A workgroup has `wm × wn`
//! consumer subgroups, each computing `16·fi × 16·fj` of C, and `p` producer subgroups.
//! Workgroup memory holds two stages of the workgroup's tiles: A's `BM × ks` (rows padded by
//! 8 f16) and B's `ks × BN` (padded by 8), `BM = 16·fi·wm`, `BN = 16·fj·wn`. At step `s` the
//! consumers load their fragments from stage `s % 2` and multiply-add, while the producers
//! copy step `s + 1`'s slices from storage (`vec4<f16>` loads, consecutive lanes along a
//! row) into stage `(s + 1) % 2`; then one `workgroupBarrier()`, in uniform control flow
//! after the role's `if`/`else`. With `ahead = 2` the producers hold step `s + 2`'s slices
//! in registers across the barrier (fetched at step `s`, put at step `s + 1`).
//!
//! naga 30 rejects this WGSL: its uniformity analysis knows no subgroup-uniform values
//! (only `workgroup_id`, `num_workgroups` and uniform or read-only memory are uniform), so
//! cooperative operations under a branch on `local_invocation_index / 32` (or on the
//! `subgroup_id` builtin, or on `subgroupBroadcastFirst(…)`) fail with
//! "Required uniformity of control flow for UniformityRequirements(COOP_OPS) in \[..\] is
//! not fulfilled because of Expression(\[0\])". The branch is uniform per subgroup, which is all
//! SPIR-V's cooperative matrices (subgroup scope) need, so the bench validates the module
//! with every check but control-flow uniformity ([`validate`]), writes its SPIR-V with naga
//! and hands that to wgpu as a passthrough shader (`tc_probe::Shader::Spirv`).
//!
//! Shapes must be multiples of the workgroup tile and of `ks` (no edge handling: probes).
//! Pure text and naga, so that the lab's `tests/designs.rs` runs them on the CPU evaluator.

use crate::tc_stream::{Copies, HEADER, Slice, accumulators, multiply_from_tiles, store};

/// One producer/consumer design's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Split {
    /// Consumer subgroups along m and n.
    pub wm: usize,
    pub wn: usize,
    /// Producer subgroups.
    pub p: usize,
    /// k per step (16 or 32).
    pub ks: usize,
    /// Fragments per consumer along m and n.
    pub fi: usize,
    pub fj: usize,
    /// Steps the producers fetch ahead of the consumers (1: fetch and put within the step;
    /// 2: the fetch's registers held across the barrier).
    pub ahead: usize,
    /// The producers move 16 × 16 fragments (`coopLoadT` from storage, `coopStoreT` into
    /// the stage) instead of `vec4<f16>`s.
    pub fragments: bool,
}

impl Split {
    /// C's tile per workgroup, `[m, n]`.
    pub fn tile(&self) -> [usize; 2] {
        [16 * self.fi * self.wm, 16 * self.fj * self.wn]
    }

    /// The dispatch for `m × n`: `[x, y]` (x along n).
    pub fn groups(&self, m: usize, n: usize) -> [u32; 2] {
        let [bm, bn] = self.tile();
        [(n / bn) as u32, (m / bm) as u32]
    }

    fn consumers(&self) -> usize {
        self.wm * self.wn
    }

    /// Invocations per workgroup.
    pub fn threads(&self) -> usize {
        32 * (self.consumers() + self.p)
    }

    /// Pitches in `vec4`s: rows padded by 8 f16 (ks = 32: 20 words, ks = 16: 12; BN = 128:
    /// 68 words), so that a fragment load's eight rows start on distinct groups of banks.
    fn a_pitch(&self) -> usize {
        (self.ks + 8) / 4
    }
    fn b_pitch(&self) -> usize {
        (self.tile()[1] + 8) / 4
    }
    /// A stage: A's tile, then B's, in `vec4`s.
    fn b_at(&self) -> usize {
        self.tile()[0] * self.a_pitch()
    }
    fn stage_vec4s(&self) -> usize {
        self.b_at() + self.ks * self.b_pitch()
    }

    /// Bytes of workgroup memory (two stages).
    pub fn workgroup_bytes(&self) -> usize {
        2 * self.stage_vec4s() * 8
    }

    pub fn wgsl(&self, [m, n, k]: [usize; 3]) -> String {
        assert!(self.ks == 16 || self.ks == 32, "ks is 16 or 32");
        assert!(self.ahead == 1 || self.ahead == 2, "ahead is 1 or 2");
        let [bm, bn] = self.tile();
        assert!(m % bm == 0 && n % bn == 0 && k % self.ks == 0, "shape");
        let (fi, fj, ks) = (self.fi, self.fj, self.ks);
        let [sm, sn] = [16 * fi, 16 * fj];
        let (kq, nq) = (k / 4, n / 4);
        let steps = k / ks;
        let stage = self.stage_vec4s();
        let copies = Copies {
            lane: "producer",
            lanes: 32 * self.p,
            a: Slice {
                rows: bm,
                row_vecs: ks / 4,
                src_row: "tile_m",
                src_col: "",
                src_pitch: kq,
                step: ks / 4,
                dst_at: 0,
                dst_pitch: self.a_pitch(),
            },
            b: Slice {
                rows: ks,
                row_vecs: bn / 4,
                src_row: "",
                src_col: "tile_n",
                src_pitch: nq,
                step: ks * nq,
                dst_at: self.b_at(),
                dst_pitch: self.b_pitch(),
            },
        };
        let consumers = self.consumers();
        let movers = FragmentMoves {
            producers: self.p,
            a: [bm / 16, ks / 16, kq, ks / 4, 0, self.a_pitch()],
            b: [ks / 16, bn / 16, nq, ks * nq, self.b_at(), self.b_pitch()],
        };
        let mover: &dyn Mover = match self.fragments {
            true => &movers,
            false => &copies,
        };
        let mut w = String::from(HEADER);
        w.push_str(&format!(
            "// Two stages of the workgroup's tiles: A's {bm} × {ks} at a pitch of {} vec4, then B's {ks} × {bn} at a pitch of {}.\n",
            self.a_pitch(),
            self.b_pitch()
        ));
        w.push_str(&format!(
            "var<workgroup> tiles: array<vec4<f16>, {}>;\n",
            2 * stage
        ));
        w.push_str(&format!("@compute @workgroup_size({})\n", self.threads()));
        w.push_str(
            "fn main(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) wid: vec3<u32>) {\n",
        );
        w.push_str("    let subgroup = thread / 32u;\n");
        w.push_str(&format!(
            "    // Subgroups 0..{consumers} multiply-add, the {} after them copy.\n",
            self.p
        ));
        w.push_str(&format!("    let consumer = subgroup < {consumers}u;\n"));
        w.push_str(&format!("    let tile_m = wid.y * {bm}u;\n"));
        w.push_str(&format!("    let tile_n = wid.x * {}u;\n", bn / 4));
        w.push_str(&format!(
            "    let m0 = tile_m + subgroup / {}u * {sm}u;\n",
            self.wn
        ));
        w.push_str(&format!(
            "    let n0 = wid.x * {bn}u + subgroup % {}u * {sn}u;\n",
            self.wn
        ));
        w.push_str("    // The consumer's fragments in a stage.\n");
        w.push_str(&format!(
            "    let a_frag = (m0 - tile_m) * {}u;\n",
            self.a_pitch()
        ));
        w.push_str(&format!(
            "    let b_frag = (n0 - wid.x * {bn}u) / 4u + {}u;\n",
            self.b_at()
        ));
        w.push_str(&accumulators(fi, fj));
        w.push_str(&format!(
            "    // The producer's copies (lane among {}, subgroup among {}; consumers compute unused values).\n",
            32 * self.p,
            self.p
        ));
        w.push_str(&format!(
            "    let producer = thread - {}u;\n",
            32 * consumers
        ));
        w.push_str(&mover.indices("    "));
        w.push_str(&mover.declare(0, "    "));
        let mut line = |indent: usize, s: &str| {
            w.push_str(&" ".repeat(indent));
            w.push_str(s);
            w.push('\n');
        };
        line(4, "if (!consumer) {");
        w.push_str(&mover.fetch(0, "0u", false, "        "));
        w.push_str(&mover.put(0, "0u", "        "));
        if self.ahead == 2 {
            w.push_str(&mover.fetch(0, &format!("{}u", 1.min(steps - 1)), false, "        "));
        }
        w.push_str("    }\n    workgroupBarrier();\n");
        w.push_str(&format!(
            "    for (var step = 0u; step < {steps}u; step++) {{\n"
        ));
        w.push_str(&format!(
            "        let here = step % 2u * {stage}u;\n        let there = (step + 1u) % 2u * {stage}u;\n"
        ));
        w.push_str("        if (consumer) {\n");
        w.push_str(&multiply_from_tiles(
            [fi, fj, ks / 16],
            [
                ("here + a_frag", 0, self.a_pitch()),
                ("here + b_frag", 0, self.b_pitch()),
            ],
            "            ",
        ));
        w.push_str(&format!("        }} else if (step + 1u < {steps}u) {{\n"));
        match self.ahead {
            1 => {
                w.push_str(&mover.fetch(0, "(step + 1u)", false, "            "));
                w.push_str(&mover.put(0, "there", "            "));
            }
            _ => {
                w.push_str("            // Step + 1 from registers; step + 2 into them, in flight across the barrier.\n");
                w.push_str(&mover.put(0, "there", "            "));
                w.push_str(&mover.fetch(
                    0,
                    &format!("min(step + 2u, {}u)", steps - 1),
                    false,
                    "            ",
                ));
            }
        }
        w.push_str("        }\n        workgroupBarrier();\n    }\n");
        w.push_str("    if (consumer) {\n");
        w.push_str(&store(fi, fj, n, "        "));
        w.push_str("    }\n}\n");
        w
    }
}

/// How the producers move a step's slices: where each move reads and writes (`let`s), its
/// registers, the fetch of step `step` into them and their put into a stage.
pub trait Mover {
    fn indices(&self, indent: &str) -> String;
    fn declare(&self, set: usize, indent: &str) -> String;
    fn fetch(&self, set: usize, step: &str, decl: bool, indent: &str) -> String;
    fn put(&self, set: usize, base: &str, indent: &str) -> String;
}

impl Mover for Copies {
    fn indices(&self, indent: &str) -> String {
        Copies::indices(self, indent)
    }
    fn declare(&self, set: usize, indent: &str) -> String {
        Copies::declare(self, set, indent)
    }
    fn fetch(&self, set: usize, step: &str, decl: bool, indent: &str) -> String {
        Copies::fetch(self, set, step, decl, indent)
    }
    fn put(&self, set: usize, base: &str, indent: &str) -> String {
        Copies::put(self, set, base, indent)
    }
}

/// The producers' moves as 16 × 16 fragments, round-robin over the producer subgroups:
/// each operand's `[rows, cols]` of fragments in a step, its storage pitch and step in
/// `vec4`s, and where its tile starts in a stage and its pitch there (`vec4`s).
pub struct FragmentMoves {
    pub producers: usize,
    pub a: [usize; 6],
    pub b: [usize; 6],
}

impl FragmentMoves {
    fn operands(&self) -> [(&'static str, &'static str, [usize; 6]); 2] {
        [("a", "A", self.a), ("b", "B", self.b)]
    }
    fn per_producer([rows, cols, ..]: [usize; 6], producers: usize) -> usize {
        assert!(
            (rows * cols).is_multiple_of(producers),
            "fragments over producers"
        );
        rows * cols / producers
    }
}

impl Mover for FragmentMoves {
    fn indices(&self, indent: &str) -> String {
        let mut out = format!("{indent}let mover = producer / 32u;\n");
        for (x, _, at @ [_, cols, pitch, _, dst_at, dst_pitch]) in self.operands() {
            let (first_row, first_col) = match x {
                "a" => ("tile_m", ""),
                _ => ("", " + tile_n"),
            };
            for r in 0..Self::per_producer(at, self.producers) {
                let f = format!("(mover + {}u)", self.producers * r);
                let row = match first_row {
                    "" => format!("{f} / {cols}u * 16u * {pitch}u"),
                    first => format!("({first} + {f} / {cols}u * 16u) * {pitch}u"),
                };
                out.push_str(&format!(
                    "{indent}let f{x}_src{r} = {row}{first_col} + {f} % {cols}u * 4u;\n"
                ));
                let at = match dst_at {
                    0 => String::new(),
                    at => format!("{at}u + "),
                };
                out.push_str(&format!(
                    "{indent}let f{x}_dst{r} = {at}{f} / {cols}u * {}u + {f} % {cols}u * 4u;\n",
                    16 * dst_pitch
                ));
            }
        }
        out
    }
    fn declare(&self, set: usize, indent: &str) -> String {
        let mut out = String::new();
        for (x, role, at) in self.operands() {
            for r in 0..Self::per_producer(at, self.producers) {
                out.push_str(&format!(
                    "{indent}var f{x}{set}_{r}: coop_mat16x16<f16, {role}>;\n"
                ));
            }
        }
        out
    }
    fn fetch(&self, set: usize, step: &str, decl: bool, indent: &str) -> String {
        let v = if decl { "var " } else { "" };
        let mut out = String::new();
        for (x, role, at @ [_, _, pitch, per_step, ..]) in self.operands() {
            for r in 0..Self::per_producer(at, self.producers) {
                out.push_str(&format!(
                    "{indent}{v}f{x}{set}_{r} = coopLoadT<coop_mat16x16<f16, {role}>>(&{x}[f{x}_src{r} + {step} * {per_step}u], {pitch}u);\n"
                ));
            }
        }
        out
    }
    fn put(&self, set: usize, base: &str, indent: &str) -> String {
        let mut out = String::new();
        for (x, _, at @ [.., dst_pitch]) in self.operands() {
            for r in 0..Self::per_producer(at, self.producers) {
                out.push_str(&format!(
                    "{indent}coopStoreT(f{x}{set}_{r}, &tiles[{base} + f{x}_dst{r}], {dst_pitch}u);\n"
                ));
            }
        }
        out
    }
}

/// naga's module of `wgsl` and its validation info, every check but control-flow
/// uniformity (see the module's docs), with the capabilities of the tensor-core path.
pub fn validate(wgsl: &str) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    let info = validator(
        naga::valid::ValidationFlags::all() ^ naga::valid::ValidationFlags::CONTROL_FLOW_UNIFORMITY,
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(wgsl))?;
    Ok((module, info))
}

/// `wgsl`'s SPIR-V for a passthrough shader: validated as [`validate`] does, written with
/// the options wgpu's Vulkan backend gives naga on an adapter with cooperative matrices
/// (SPIR-V 1.6, no debug info, indices clamped, buffer accesses unchecked as with robust
/// buffer access 2, loops bounded), except that workgroup memory is not zeroed (every
/// design puts before it reads).
pub fn spirv(wgsl: &str) -> Result<Vec<u32>, String> {
    use naga::back::spv;
    let (module, info) = validate(wgsl)?;
    let options = spv::Options {
        lang_version: (1, 6),
        flags: spv::WriterFlags::empty(),
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: naga::proc::BoundsCheckPolicy::Restrict,
            buffer: naga::proc::BoundsCheckPolicy::Unchecked,
            image_load: naga::proc::BoundsCheckPolicy::Unchecked,
            binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
        },
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::None,
        ..Default::default()
    };
    let pipeline = spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: "main".into(),
    };
    spv::write_vec(&module, &info, &options, Some(&pipeline)).map_err(|e| e.to_string())
}

/// A validator with `flags` and the capabilities of the tensor-core path.
pub fn validator(flags: naga::valid::ValidationFlags) -> naga::valid::Validator {
    let capabilities = naga::valid::Capabilities::default()
        | naga::valid::Capabilities::SHADER_FLOAT16
        | naga::valid::Capabilities::COOPERATIVE_MATRIX
        | naga::valid::Capabilities::SUBGROUP
        | naga::valid::Capabilities::SUBGROUP_BARRIER;
    let mut validator = naga::valid::Validator::new(flags, capabilities);
    validator
        .subgroup_stages(naga::valid::ShaderStages::COMPUTE)
        .subgroup_operations(naga::valid::SubgroupOperationSet::all());
    validator
}

/// The designs the bench times, labelled.
pub fn designs() -> Vec<(&'static str, Split)> {
    let d1 = Split {
        wm: 2,
        wn: 2,
        p: 4,
        ks: 32,
        fi: 4,
        fj: 4,
        ahead: 1,
        fragments: false,
    };
    vec![
        (
            "d1: 2×2 consumers of 4×4 fragments (128×128), 4 producers, 32 of k",
            d1,
        ),
        ("d2: d1 with 2 producers", Split { p: 2, ..d1 }),
        (
            "d3: 4×2 consumers (256×128), 4 producers, 16 of k",
            Split {
                wm: 4,
                ks: 16,
                ..d1
            },
        ),
        (
            "d4: d1, producers fetching two steps ahead",
            Split { ahead: 2, ..d1 },
        ),
        ("d5: d1 with 16 of k", Split { ks: 16, ..d1 }),
        (
            "d6: d4 with 2 producers",
            Split {
                ahead: 2,
                p: 2,
                ..d1
            },
        ),
        ("d7: d1 with 8 producers", Split { p: 8, ..d1 }),
        (
            "d8: d1, producers moving 16×16 fragments (coopLoadT from storage, coopStoreT)",
            Split {
                fragments: true,
                ..d1
            },
        ),
        (
            "d9: d8 fetching two steps ahead",
            Split {
                fragments: true,
                ahead: 2,
                ..d1
            },
        ),
        (
            "d10: d8 with 8 producers",
            Split {
                fragments: true,
                p: 8,
                ..d1
            },
        ),
    ]
}
