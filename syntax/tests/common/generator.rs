//! A random but always valid layout pipeline, written in the language, for property tests.

/// Upper bound on the number of coordinates of a generated layout.
const MAX_SIZE: usize = 4096;

/// A random but always valid layout, written in the language.
pub struct Generator {
    state: u64,
    /// Only power-of-two lengths and bit-preserving transforms, to exercise the F2 form.
    power_of_two: bool,
    live: Vec<(String, usize)>,
    statements: Vec<String>,
    names: usize,
}

impl Generator {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        (self.state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    fn length(&mut self) -> usize {
        if self.power_of_two {
            1 << self.below(4)
        } else {
            1 + self.below(8)
        }
    }

    fn fresh(&mut self, len: usize) -> String {
        self.names += 1;
        let name = format!("d{}", self.names);
        self.live.push((name.clone(), len));
        name
    }

    /// Removes and returns a random live dim satisfying `pred`.
    fn take(&mut self, pred: impl Fn(usize) -> bool) -> Option<(String, usize)> {
        let candidates: Vec<usize> = (0..self.live.len())
            .filter(|&i| pred(self.live[i].1))
            .collect();
        let pick = *candidates.get(self.below(candidates.len()))?;
        Some(self.live.remove(pick))
    }

    fn size(&self) -> usize {
        self.live.iter().map(|(_, l)| l).product()
    }

    /// A random valid layout named `Random`; with `power_of_two`, only power-of-two lengths
    /// and bit-preserving transforms, to exercise the F2 form.
    pub fn generate(seed: u64, power_of_two: bool) -> String {
        let mut g = Generator {
            state: seed | 1,
            power_of_two,
            live: Vec::new(),
            statements: Vec::new(),
            names: 0,
        };
        g.memory();
        for _ in 0..g.below(7) {
            g.transform();
        }
        let mut coords: Vec<String> = g.live.iter().map(|(n, _)| n.clone()).collect();
        for i in (1..coords.len()).rev() {
            let j = g.below(i + 1);
            coords.swap(i, j);
        }
        g.statements
            .push(format!("coords [{}];", coords.join(", ")));
        format!("layout Random {{\n    {}\n}}", g.statements.join("\n    "))
    }

    fn memory(&mut self) {
        let lens: Vec<usize> = (0..1 + self.below(3)).map(|_| self.length()).collect();
        let decls: Vec<String> = lens
            .iter()
            .map(|&len| format!("{}: {len}", self.fresh(len)))
            .collect();
        let strides = match self.below(3) {
            0 => String::new(),
            1 => {
                // A permutation of the packed strides: still a bijection.
                let mut order: Vec<usize> = (0..lens.len()).collect();
                for i in (1..order.len()).rev() {
                    let j = self.below(i + 1);
                    order.swap(i, j);
                }
                let mut strides = vec![0; lens.len()];
                let mut stride = 1;
                for &dim in order.iter().rev() {
                    strides[dim] = stride;
                    stride *= lens[dim];
                }
                format!(" strides [{}]", join(&strides))
            }
            _ => {
                let strides: Vec<usize> = lens
                    .iter()
                    .map(|_| {
                        if self.power_of_two {
                            1 << self.below(6)
                        } else {
                            self.below(20)
                        }
                    })
                    .collect();
                format!(" strides [{}]", join(&strides))
            }
        };
        self.statements
            .push(format!("memory [{}]{strides};", decls.join(", ")));
    }

    fn transform(&mut self) {
        type Make = fn(&mut Generator) -> Option<String>;
        // Bit-preserving transforms first: the power-of-two layouts draw only from these.
        const BIT_PRESERVING: usize = 7;
        const TRANSFORMS: &[Make] = &[
            Generator::unmerge,
            Generator::merge,
            Generator::xor,
            Generator::morton,
            Generator::swizzle,
            Generator::replicate,
            Generator::bits,
            Generator::pad,
            Generator::slice,
            Generator::offset,
            Generator::freeze,
            Generator::embed,
            Generator::cyclic_shift,
            Generator::modulo,
            Generator::unmerge,
        ];
        let count = match self.power_of_two {
            true => BIT_PRESERVING,
            false => TRANSFORMS.len(),
        };
        let make = TRANSFORMS[self.below(count)];
        if let Some(statement) = make(self) {
            self.statements.push(statement);
        }
    }

    fn unmerge(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| (2..l).any(|d| l % d == 0))?;
        let divisors: Vec<usize> = (2..len).filter(|d| len % d == 0).collect();
        let d = divisors[self.below(divisors.len())];
        let (a, b) = (self.fresh(d), self.fresh(len / d));
        Some(format!("unmerge {lower} -> [{a}: {d}, {b}: {}];", len / d))
    }

    fn merge(&mut self) -> Option<String> {
        if self.live.len() < 2 {
            return None;
        }
        let (a, la) = self.take(|_| true)?;
        let (b, lb) = self.take(|_| true)?;
        let upper = self.fresh(la * lb);
        Some(format!("merge [{a}, {b}] -> {upper};"))
    }

    fn xor(&mut self) -> Option<String> {
        if self.live.len() < 2 {
            return None;
        }
        let target = self.take(|l| l.is_power_of_two() && l >= 2)?;
        let pick = self.below(self.live.len());
        let key = self.live[pick].0.clone();
        self.live.push(target.clone());
        Some(format!("xor {} by {key};", target.0))
    }

    fn morton(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l.is_power_of_two() && l >= 4)?;
        let width = len.trailing_zeros() as usize;
        let split = self.below(width + 1);
        let (a, b) = (1 << split, 1 << (width - split));
        let (na, nb) = (self.fresh(a), self.fresh(b));
        Some(format!("morton {lower} -> [{na}: {a}, {nb}: {b}];"))
    }

    fn swizzle(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l.is_power_of_two() && l >= 4)?;
        let width = len.trailing_zeros() as usize;
        let bits = 1 + self.below(width / 2);
        let upper = self.fresh(len);
        if self.below(2) == 0 {
            // S ≥ B: target bits base..base+bits must fit.
            let base = self.below(width - bits + 1);
            let shift = bits + self.below(width);
            Some(format!(
                "swizzle {lower} -> {upper} ({bits}, {base}, {shift});"
            ))
        } else {
            // S ≤ −B: target bits base+|S|..base+|S|+bits must fit.
            let shift = bits + self.below(width - 2 * bits + 1);
            let base = self.below(width - bits - shift + 1);
            Some(format!(
                "swizzle {lower} -> {upper} ({bits}, {base}, -{shift});"
            ))
        }
    }

    /// A GF(2) map of a power-of-two dim onto two: a random invertible matrix (a permutation
    /// of the input bits with other bits XORed in) or, one time in four, random rows.
    fn bits(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l.is_power_of_two() && l >= 2)?;
        let width = len.trailing_zeros() as usize;
        let split = self.below(width + 1);
        let (la, lb) = (1usize << split, 1usize << (width - split));
        let (a, b) = (self.fresh(la), self.fresh(lb));
        // Input bit k is b[k] below a's bits.
        let name = |k: usize| match k < width - split {
            true => format!("{b}[{k}]"),
            false => format!("{a}[{}]", k - (width - split)),
        };
        let mut rows: Vec<u64> = (0..width).map(|k| 1 << k).collect();
        for i in (1..width).rev() {
            let j = self.below(i + 1);
            rows.swap(i, j);
        }
        for _ in 0..width {
            let (i, j) = (self.below(width), self.below(width));
            if i != j {
                rows[i] ^= rows[j];
            }
        }
        if self.below(4) == 0 {
            rows = (0..width).map(|_| self.below(1 << width) as u64).collect();
        }
        let rows: Vec<String> = rows
            .iter()
            .map(|&row| {
                let terms: Vec<String> =
                    (0..width).filter(|k| row >> k & 1 == 1).map(name).collect();
                match terms.is_empty() {
                    true => "0".to_owned(),
                    false => terms.join(" ^ "),
                }
            })
            .collect();
        Some(format!(
            "bits {lower} -> [{a}: {la}, {b}: {lb}] ({});",
            rows.join(", ")
        ))
    }

    fn cyclic_shift(&mut self) -> Option<String> {
        if self.live.len() < 2 {
            return None;
        }
        let target = self.take(|l| l >= 2)?;
        let pick = self.below(self.live.len());
        let key = self.live[pick].0.clone();
        self.live.push(target.clone());
        Some(format!("cyclic_shift {} by {key};", target.0))
    }

    /// A wrap onto the dim (longer than it, within the size budget) or, one time in three,
    /// a prefix of it.
    fn modulo(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l >= 2)?;
        let longest = (MAX_SIZE / self.size().max(1) / len).clamp(1, 3) * len;
        let upper_len = match self.below(3) {
            0 => 1 + self.below(len),
            _ => len + self.below(longest - len + 1),
        };
        let upper = self.fresh(upper_len);
        Some(format!("modulo {lower} -> {upper} ({upper_len});"))
    }

    fn replicate(&mut self) -> Option<String> {
        let len = 1 << self.below(2);
        (self.size() * len <= MAX_SIZE)
            .then(|| format!("replicate -> [{}: {len}];", self.fresh(len)))
    }

    fn pad(&mut self) -> Option<String> {
        let (left, right) = (self.below(3), self.below(3));
        if self.size() * 2 > MAX_SIZE {
            return None;
        }
        let (lower, len) = self.take(|l| l >= 2)?;
        let upper = self.fresh(len + left + right);
        Some(format!("pad {lower} -> {upper} ({left}, {right});"))
    }

    fn slice(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l >= 2)?;
        let begin = self.below(len);
        let end = begin + 1 + self.below(len - begin);
        let upper = self.fresh(end - begin);
        Some(format!("slice {lower} -> {upper} ({begin}..{end});"))
    }

    fn offset(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l >= 2)?;
        let by = self.below(len);
        let upper = self.fresh(len - by);
        Some(format!("offset {lower} -> {upper} (+{by});"))
    }

    fn freeze(&mut self) -> Option<String> {
        if self.live.len() < 2 {
            return None;
        }
        let (lower, len) = self.take(|_| true)?;
        Some(format!("freeze {lower} = {};", self.below(len)))
    }

    fn embed(&mut self) -> Option<String> {
        let (lower, len) = self.take(|l| l >= 4)?;
        let (sa, sb) = (1 + self.below(3), 1 + self.below(4));
        let a = 1 + self.below(1 + (len - 1) / sa / 2);
        let b = 1 + (len - 1 - (a - 1) * sa) / sb;
        let (na, nb) = (self.fresh(a), self.fresh(b));
        Some(format!(
            "embed {lower} -> [{na}: {a}, {nb}: {b}] strides [{sa}, {sb}];"
        ))
    }
}

fn join(values: &[usize]) -> String {
    values
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
