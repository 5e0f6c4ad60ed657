//! WGSL expressions as values: kernels build `m0 + row * 16u` from names, literals and
//! operators instead of formatting strings, and the printer adds exactly the parentheses
//! WGSL's grammar asks for. WGSL is stricter than Rust there: the operands of a shift or a
//! bitwise operator must be unary expressions (`(a + b) & 3u`), a bitwise chain takes one
//! operator (`a & b & c`, never `a & b | c`), and `&&` and `||` do not mix.
//!
//! ```
//! use swizzle_core::emit::wgsl::expr::{call, name, u};
//!
//! let row = name("m0") + name("r") * u(16);
//! let index = (row.clone() * u(64) + name("column")) / u(4);
//! assert_eq!(index.to_string(), "((m0 + r * 16u) * 64u + column) / 4u");
//! let store = name("c").index(index);
//! assert_eq!(store.to_string(), "c[((m0 + r * 16u) * 64u + column) / 4u]");
//! let inside = row.lt(u(100)).and(name("column").lt(u(64)));
//! assert_eq!(inside.to_string(), "m0 + r * 16u < 100u && column < 64u");
//! assert_eq!((!inside).to_string(), "!(m0 + r * 16u < 100u && column < 64u)");
//! assert_eq!((name("w") >> u(8) & u(0xff)).to_string(), "(w >> 8u) & 255u");
//! assert_eq!(call("min", [name("step") + u(1), u(7)]).to_string(), "min(step + 1u, 7u)");
//! ```

use std::fmt::{self, Display};
use std::ops;

/// A WGSL expression. Built with [`name`], [`u`], [`int`], [`hex`], [`hex_word`], [`call`],
/// the operators (`+ - * / % & | ^ << >> !`), [`Expr::lt`] and its kin, [`Expr::and`],
/// [`Expr::or`], [`Expr::index`], [`Expr::field`] and [`Expr::address_of`]; printed by
/// `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    text: String,
    class: Class,
}

/// Where an expression sits in WGSL's grammar: what it may be an operand of unparenthesised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// A name, literal, call, index or member access.
    Primary,
    /// `!e`, `-e`, `~e`.
    Unary,
    Multiplicative,
    Additive,
    Shift,
    Relational,
    /// A chain of one bitwise operator.
    Bitwise(Binary),
    /// A chain of `&&`, or of `||`.
    Logical(Binary),
    /// Text printed elsewhere whose form is not known: parenthesised as any operand.
    Text,
}

/// WGSL's binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Binary {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

impl Binary {
    fn symbol(self) -> &'static str {
        match self {
            Binary::Mul => "*",
            Binary::Div => "/",
            Binary::Rem => "%",
            Binary::Add => "+",
            Binary::Sub => "-",
            Binary::Shl => "<<",
            Binary::Shr => ">>",
            Binary::Lt => "<",
            Binary::Le => "<=",
            Binary::Gt => ">",
            Binary::Ge => ">=",
            Binary::Eq => "==",
            Binary::Ne => "!=",
            Binary::BitAnd => "&",
            Binary::BitOr => "|",
            Binary::BitXor => "^",
            Binary::And => "&&",
            Binary::Or => "||",
        }
    }

    fn class(self) -> Class {
        match self {
            Binary::Mul | Binary::Div | Binary::Rem => Class::Multiplicative,
            Binary::Add | Binary::Sub => Class::Additive,
            Binary::Shl | Binary::Shr => Class::Shift,
            Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge | Binary::Eq | Binary::Ne => {
                Class::Relational
            }
            Binary::BitAnd | Binary::BitOr | Binary::BitXor => Class::Bitwise(self),
            Binary::And | Binary::Or => Class::Logical(self),
        }
    }

    /// Whether `operand` may stand unparenthesised on this operator's left (`left`) or
    /// right, as WGSL's grammar derives it.
    fn takes(self, operand: Class, left: bool) -> bool {
        use Class::*;
        let unary = matches!(operand, Primary | Unary);
        let product = unary || operand == Multiplicative;
        let sum = product || operand == Additive;
        match self.class() {
            Multiplicative => product && (left || unary),
            Additive => sum && (left || operand != Additive),
            Shift => unary,
            Relational => sum || operand == Shift,
            chain @ (Bitwise(_) | Logical(_)) => {
                let element = match chain {
                    Bitwise(_) => unary,
                    _ => sum || matches!(operand, Shift | Relational),
                };
                element || (left && operand == chain)
            }
            Primary | Unary | Text => unreachable!("an operator's class"),
        }
    }
}

/// A name: a variable, a parameter, a constant, a function's.
pub fn name(name: impl Display) -> Expr {
    Expr::primary(name.to_string())
}

/// A name and its numbers: `numbered("acc", [1, 2])` is `acc1_2`, the name a kernel gives
/// one of an unrolled loop's values.
pub fn numbered(stem: &str, numbers: impl IntoIterator<Item = usize>) -> Expr {
    let numbers: Vec<String> = numbers.into_iter().map(|n| n.to_string()).collect();
    Expr::primary([stem, &numbers.join("_")].concat())
}

/// The `u32` literal `value` (`16u`): a count, an index or an offset.
pub fn u(value: usize) -> Expr {
    Expr::primary([value.to_string(), "u".to_owned()].concat())
}

/// The abstract integer literal `value` (`1`): an index that takes the type WGSL gives it
/// where it stands (`c[1]`, a register array's entry, a matrix's column), which WGSL
/// writes without a suffix.
pub fn int(value: usize) -> Expr {
    Expr::primary(value.to_string())
}

/// The `u32` literal `value` in hexadecimal (`0xffu`), for masks.
pub fn hex(value: u64) -> Expr {
    Expr::primary(format!("{value:#x}u"))
}

/// The `u32` literal `value` in hexadecimal with all eight digits (`0x00ff00ffu`), for a
/// mask of a word's lanes, which line up that way.
pub fn hex_word(value: u32) -> Expr {
    Expr::primary(format!("{value:#010x}u"))
}

/// `function(args…)`: a call of a function, a built-in or a type's constructor
/// (`vec4<u32>`).
pub fn call<A: Into<Expr>>(function: impl Display, args: impl IntoIterator<Item = A>) -> Expr {
    let args: Vec<String> = args.into_iter().map(|a| a.into().text).collect();
    Expr::primary(format!("{function}({})", args.join(", ")))
}

impl Expr {
    fn primary(text: String) -> Expr {
        Expr {
            text,
            class: Class::Primary,
        }
    }

    /// Text printed elsewhere (a layout function's call, a canonical expression): a
    /// primary expression where it has no operator outside brackets, else parenthesised as
    /// an operand.
    pub fn text(text: impl Into<String>) -> Expr {
        let text = text.into();
        let class = match is_primary(&text) {
            true => Class::Primary,
            false => Class::Text,
        };
        Expr { text, class }
    }

    /// `self[index]`.
    pub fn index(self, index: impl Into<Expr>) -> Expr {
        Expr::primary(format!("{}[{}]", self.operand(), index.into().text))
    }

    /// `self.field`: a member, or a swizzle of a vector's lanes.
    pub fn field(self, field: impl Display) -> Expr {
        Expr::primary(format!("{}.{field}", self.operand()))
    }

    /// `self < other`.
    pub fn lt(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Lt, other.into())
    }

    /// `self <= other`.
    pub fn le(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Le, other.into())
    }

    /// `self > other`.
    pub fn gt(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Gt, other.into())
    }

    /// `self >= other`.
    pub fn ge(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Ge, other.into())
    }

    /// `self == other`.
    pub fn equals(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Eq, other.into())
    }

    /// `self != other`.
    pub fn differs(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Ne, other.into())
    }

    /// `self && other`.
    pub fn and(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::And, other.into())
    }

    /// `self || other`.
    pub fn or(self, other: impl Into<Expr>) -> Expr {
        self.binary(Binary::Or, other.into())
    }

    /// `-self`.
    pub fn negate(self) -> Expr {
        self.unary("-")
    }

    /// `~self`: every bit flipped.
    pub fn complement(self) -> Expr {
        self.unary("~")
    }

    /// `&self`: a pointer to a variable or to an element of one (an atomic's, for
    /// `atomicOr`; a cooperative load's source).
    pub fn address_of(self) -> Expr {
        self.unary("&")
    }

    fn unary(self, symbol: &str) -> Expr {
        Expr {
            text: [symbol, &self.operand()].concat(),
            class: Class::Unary,
        }
    }

    fn binary(self, op: Binary, right: Expr) -> Expr {
        let left = match op.takes(self.class, true) {
            true => self.text,
            false => format!("({})", self.text),
        };
        // WGSL reads `a < b >> 1u` as the template `a<b>` followed by `> 1u`: a `>` after
        // `<` closes a template list unless parentheses hide it.
        let template = matches!(op, Binary::Lt | Binary::Le)
            && outside_brackets(&right.text).is_none_or(|outside| outside.contains('>'));
        let right = match op.takes(right.class, false) && !template {
            true => right.text,
            false => format!("({})", right.text),
        };
        Expr {
            text: format!("{left} {} {right}", op.symbol()),
            class: op.class(),
        }
    }

    /// The text as the operand of a unary operator, an index or a member access.
    fn operand(self) -> String {
        match self.class {
            Class::Primary => self.text,
            _ => format!("({})", self.text),
        }
    }
}

/// Whether `text` reads as one primary expression: no space, and no operator character,
/// outside brackets (`f(a + b)[i].x`, `vec4<u32>(1u)`, `12u`).
fn is_primary(text: &str) -> bool {
    let outside = outside_brackets(text);
    let name = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    !text.is_empty() && outside.is_some_and(|outside| outside.chars().all(name))
}

/// The characters of `text` outside its brackets (`()`, `[]`, and a template's `<>`, which
/// opens right after a name: `vec4<u32>`), or `None` where they do not balance.
fn outside_brackets(text: &str) -> Option<String> {
    let mut closers = Vec::new();
    let mut outside = String::new();
    let mut previous = ' ';
    for c in text.chars() {
        match c {
            '(' => closers.push(')'),
            '[' => closers.push(']'),
            '<' if previous.is_alphanumeric() || previous == '_' => closers.push('>'),
            c if closers.last() == Some(&c) => {
                closers.pop();
            }
            ')' | ']' => return None,
            c if closers.is_empty() => outside.push(c),
            _ => {}
        }
        previous = c;
    }
    closers.is_empty().then_some(outside)
}

impl Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<&str> for Expr {
    fn from(text: &str) -> Expr {
        Expr::text(text)
    }
}

impl From<String> for Expr {
    fn from(text: String) -> Expr {
        Expr::text(text)
    }
}

impl From<&Expr> for Expr {
    fn from(expr: &Expr) -> Expr {
        expr.clone()
    }
}

/// A count or an index: its `u32` literal.
impl From<usize> for Expr {
    fn from(value: usize) -> Expr {
        u(value)
    }
}

macro_rules! operators {
    ($($trait:ident $method:ident $op:ident),* $(,)?) => {$(
        impl<R: Into<Expr>> ops::$trait<R> for Expr {
            type Output = Expr;

            fn $method(self, right: R) -> Expr {
                self.binary(Binary::$op, right.into())
            }
        }
    )*};
}

operators! {
    Add add Add,
    Sub sub Sub,
    Mul mul Mul,
    Div div Div,
    Rem rem Rem,
    BitAnd bitand BitAnd,
    BitOr bitor BitOr,
    BitXor bitxor BitXor,
    Shl shl Shl,
    Shr shr Shr,
}

impl ops::Not for Expr {
    type Output = Expr;

    fn not(self) -> Expr {
        self.unary("!")
    }
}

#[cfg(test)]
mod tests {
    use super::{Expr, call, hex, hex_word, int, name, numbered, u};

    fn x() -> Expr {
        name("x")
    }

    #[test]
    fn arithmetic_takes_parentheses_only_against_precedence_and_on_the_right() {
        assert_eq!((x() + u(1) * u(2)).to_string(), "x + 1u * 2u");
        assert_eq!(((x() + u(1)) * u(2)).to_string(), "(x + 1u) * 2u");
        assert_eq!((x() - (x() - u(1))).to_string(), "x - (x - 1u)");
        assert_eq!((x() - x() - u(1)).to_string(), "x - x - 1u");
        assert_eq!((x() / (x() * u(2))).to_string(), "x / (x * 2u)");
        assert_eq!((x() * u(2) % u(3)).to_string(), "x * 2u % 3u");
    }

    #[test]
    fn shifts_and_bitwise_operators_take_only_unary_operands() {
        assert_eq!((x() << (u(2) + x())).to_string(), "x << (2u + x)");
        assert_eq!(((x() >> u(2)) >> u(1)).to_string(), "(x >> 2u) >> 1u");
        assert_eq!((x() & u(3) & x()).to_string(), "x & 3u & x");
        assert_eq!((x() & u(3) | x()).to_string(), "(x & 3u) | x");
        assert_eq!((x() ^ (x() * u(4))).to_string(), "x ^ (x * 4u)");
        assert_eq!((x() ^ hex(255)).to_string(), "x ^ 0xffu");
        assert_eq!((x() & hex_word(0xff00ff)).to_string(), "x & 0x00ff00ffu");
    }

    #[test]
    fn comparisons_and_logic_follow_wgsls_grammar() {
        let lt = x().lt(u(4));
        assert_eq!(
            lt.clone().and(x().ge(u(1))).to_string(),
            "x < 4u && x >= 1u"
        );
        assert_eq!(
            lt.clone().and(lt.clone()).and(lt.clone()).to_string(),
            "x < 4u && x < 4u && x < 4u"
        );
        assert_eq!(
            lt.clone().and(lt.clone()).or(lt.clone()).to_string(),
            "(x < 4u && x < 4u) || x < 4u"
        );
        assert_eq!((x() << u(1)).lt(x()).to_string(), "x << 1u < x");
        assert_eq!(x().lt(x() >> u(1)).to_string(), "x < (x >> 1u)");
        let lane = call("vec4<u32>", [x()]).field("x");
        assert_eq!(x().le(lane).to_string(), "x <= vec4<u32>(x).x");
        assert_eq!(x().gt(x() >> u(1)).to_string(), "x > x >> 1u");
        assert_eq!((x() & u(1)).equals(u(0)).to_string(), "(x & 1u) == 0u");
        assert_eq!(
            x().lt(u(4)).equals(x().lt(u(5))).to_string(),
            "(x < 4u) == (x < 5u)"
        );
        assert_eq!((!lt).to_string(), "!(x < 4u)");
        assert_eq!((!!x()).to_string(), "!(!x)");
        assert_eq!((x() + u(1)).negate().to_string(), "-(x + 1u)");
        assert_eq!((x() << u(2)).complement().to_string(), "~(x << 2u)");
        let atomic = name("dst").index(x() / u(4)).address_of();
        assert_eq!(
            call("atomicOr", [atomic, x()]).to_string(),
            "atomicOr(&dst[x / 4u], x)"
        );
        assert_eq!(name("a").index(x()).address_of().to_string(), "&a[x]");
        assert_eq!((x() + u(1)).address_of().to_string(), "&(x + 1u)");
    }

    #[test]
    fn primaries_index_and_call_without_parentheses() {
        let sum = x() + u(1);
        assert_eq!(
            name("a").index(sum.clone()).field("y").to_string(),
            "a[x + 1u].y"
        );
        assert_eq!(sum.clone().field("x").to_string(), "(x + 1u).x");
        assert_eq!(
            call("f", [sum, x()]).index(u(0)).to_string(),
            "f(x + 1u, x)[0u]"
        );
        assert_eq!(numbered("acc", [1, 2]).to_string(), "acc1_2");
        assert_eq!(numbered("pa_", [3]).to_string(), "pa_3");
        assert_eq!(name("c").index(int(1)).to_string(), "c[1]");
        assert_eq!(name("r").index(int(2)).index(int(1)).to_string(), "r[2][1]");
    }

    #[test]
    fn text_from_elsewhere_is_parenthesised_unless_it_is_one_primary() {
        assert_eq!(
            (Expr::text("f(a + b)[i].x") * u(2)).to_string(),
            "f(a + b)[i].x * 2u"
        );
        assert_eq!(
            (Expr::text("vec4<u32>(1u)") * u(2)).to_string(),
            "vec4<u32>(1u) * 2u"
        );
        assert_eq!((Expr::text("a + b") * u(2)).to_string(), "(a + b) * 2u");
        assert_eq!((Expr::text("a<b") * u(2)).to_string(), "(a<b) * 2u");
        assert_eq!((Expr::text("f(a > b)") * u(2)).to_string(), "f(a > b) * 2u");
        assert_eq!((u(2) * Expr::text("-a")).to_string(), "2u * (-a)");
        assert_eq!((Expr::text("a + b")).to_string(), "a + b");
    }
}
