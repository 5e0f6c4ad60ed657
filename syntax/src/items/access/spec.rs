//! An access on one line, as the command line takes it (`swizzle analyze --access ..`):
//! `lanes=32 bytes=2 vector=8 along=k m=lane%16 k=lane/16*8`, and a bank configuration
//! (`32x4`).
//!
//! An access is a list of `name = value` settings, separated by spaces, commas or
//! semicolons; spaces inside expressions are allowed (`m = lane % 16`), because a setting
//! ends where its expression cannot go on. `lanes`, `bytes` and `vector` take integers
//! (default 32, 4 and 1, at most [`ACCESS_SETTING`]), `along` a coordinate name (default: the
//! last coordinate), and every other name is a coordinate of the layout, given as an
//! integer expression of `lane` with Rust's operators and precedence.

use swizzle_core::analysis::banks::Banks;
use swizzle_core::analysis::{Access, LaneExpr};
use swizzle_core::budget::{ACCESS_SETTING, EXPRESSION_NODES};
use swizzle_core::emit::code::Op;

/// Parses an access pattern; the error says what is wrong and at which column.
pub fn access(spec: &str) -> Result<Access, String> {
    let tokens = lex(spec)?;
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        end: spec.chars().count(),
        nodes: 0,
    };
    let (mut lanes, mut bytes, mut vector, mut along) = (None, None, None, None);
    let mut coords: Vec<(String, LaneExpr)> = Vec::new();
    while !parser.done() {
        let (name, column) = parser.name()?;
        parser.expect(Token::Equals, "`=`")?;
        let taken = match name.as_str() {
            "lanes" => lanes.replace(parser.count("lanes")?).is_some(),
            "bytes" => bytes.replace(parser.count("bytes")?).is_some(),
            "vector" => vector.replace(parser.count("vector")?).is_some(),
            "along" => along.replace(parser.name()?.0).is_some(),
            _ => {
                let expr = parser.expr()?;
                let taken = coords.iter().any(|(n, _)| *n == name);
                coords.push((name.clone(), expr));
                taken
            }
        };
        if taken {
            return Err(format!("`{name}` is set twice (column {column})"));
        }
        parser.separator();
    }
    let access = Access::new(spec.trim(), lanes.unwrap_or(32), bytes.unwrap_or(4))
        .vector(vector.unwrap_or(1), along.as_deref());
    Ok(coords
        .into_iter()
        .fold(access, |access, (name, expr)| access.coord(name, expr)))
}

/// Parses `COUNTxWIDTH`: that many banks of that many bytes.
pub fn banks(spec: &str) -> Result<Banks, String> {
    let invalid = || format!("expected banks as COUNTxWIDTH_BYTES (e.g. 32x4), found `{spec}`");
    let (count, width) = spec.split_once(['x', 'X']).ok_or_else(invalid)?;
    let positive = |text: &str| text.parse::<usize>().ok().filter(|&n| n > 0);
    Ok(Banks {
        count: positive(count).ok_or_else(invalid)?,
        width_bytes: positive(width).ok_or_else(invalid)?,
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Name(String),
    Int(i128),
    Op(Op),
    Open,
    Close,
    Equals,
    Separator,
}

/// A token and the column (1-based, in characters) it starts at.
type Spanned = (Token, usize);

fn lex(spec: &str) -> Result<Vec<Spanned>, String> {
    let chars: Vec<char> = spec.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (c, column) = (chars[i], i + 1);
        let run =
            |i: usize, pred: fn(char) -> bool| chars[i..].iter().take_while(|&&c| pred(c)).count();
        let (token, len) = match c {
            _ if c.is_whitespace() => {
                i += 1;
                continue;
            }
            _ if c.is_ascii_digit() => {
                let len = run(i, |c| c.is_ascii_alphanumeric() || c == '_');
                let text: String = chars[i..i + len].iter().filter(|&&c| c != '_').collect();
                let value = match text.strip_prefix("0x") {
                    Some(hex) => i128::from_str_radix(hex, 16),
                    None => text.parse(),
                };
                let value = value
                    .map_err(|_| format!("`{}` at column {column} is not an integer", &text))?;
                (Token::Int(value), len)
            }
            _ if c.is_alphabetic() || c == '_' => {
                let len = run(i, |c| c.is_alphanumeric() || c == '_');
                (Token::Name(chars[i..i + len].iter().collect()), len)
            }
            '<' | '>' if chars.get(i + 1) == Some(&c) => {
                let op = if c == '<' { Op::Shl } else { Op::Shr };
                (Token::Op(op), 2)
            }
            '+' => (Token::Op(Op::Add), 1),
            '-' => (Token::Op(Op::Sub), 1),
            '*' => (Token::Op(Op::Mul), 1),
            '/' => (Token::Op(Op::Div), 1),
            '%' => (Token::Op(Op::Rem), 1),
            '&' => (Token::Op(Op::And), 1),
            '^' => (Token::Op(Op::Xor), 1),
            '|' => (Token::Op(Op::Or), 1),
            '(' => (Token::Open, 1),
            ')' => (Token::Close, 1),
            '=' => (Token::Equals, 1),
            ',' | ';' => (Token::Separator, 1),
            _ => return Err(format!("unexpected `{c}` at column {column}")),
        };
        tokens.push((token, column));
        i += len;
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: &'a [Spanned],
    at: usize,
    /// Number of characters in the spec, to point past its end.
    end: usize,
    /// Operators, negations and parentheses of the expression being read, against
    /// [`EXPRESSION_NODES`] (the parser and everything after it recurse on its depth).
    nodes: usize,
}

impl Parser<'_> {
    fn done(&self) -> bool {
        self.at == self.tokens.len()
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|(token, _)| token)
    }

    /// Column of the next token (or just past the end).
    fn column(&self) -> usize {
        self.tokens.get(self.at).map_or(self.end + 1, |&(_, c)| c)
    }

    fn error(&self, expected: &str) -> String {
        match self.tokens.get(self.at) {
            Some((_, column)) => format!("expected {expected} at column {column}"),
            None => format!("expected {expected} at the end"),
        }
    }

    fn expect(&mut self, token: Token, expected: &str) -> Result<(), String> {
        if self.peek() != Some(&token) {
            return Err(self.error(expected));
        }
        self.at += 1;
        Ok(())
    }

    /// A name and its column.
    fn name(&mut self) -> Result<(String, usize), String> {
        let column = self.column();
        match self.peek() {
            Some(Token::Name(name)) => {
                let name = name.clone();
                self.at += 1;
                Ok((name, column))
            }
            _ => Err(self.error("a name")),
        }
    }

    /// An integer setting in `1..=ACCESS_SETTING`.
    fn count(&mut self, setting: &str) -> Result<usize, String> {
        match self.peek() {
            Some(&Token::Int(value)) if (1..=ACCESS_SETTING as i128).contains(&value) => {
                self.at += 1;
                Ok(value as usize)
            }
            _ => Err(self.error(&format!(
                "an integer from 1 to {ACCESS_SETTING} for `{setting}`"
            ))),
        }
    }

    /// Skips one optional `,` or `;` between settings.
    fn separator(&mut self) {
        if self.peek() == Some(&Token::Separator) {
            self.at += 1;
        }
    }

    /// An expression of `lane`, by precedence climbing.
    fn expr(&mut self) -> Result<LaneExpr, String> {
        self.nodes = 0;
        self.binary(0)
    }

    /// Counts one more node of the expression, failing past the budget.
    fn count_node(&mut self) -> Result<(), String> {
        self.nodes += 1;
        match self.nodes > EXPRESSION_NODES {
            true => Err(format!(
                "the expression at column {} has more than {EXPRESSION_NODES} operators and \
                 parentheses, the most one may have: simplify it",
                self.column()
            )),
            false => Ok(()),
        }
    }

    fn binary(&mut self, min_precedence: u8) -> Result<LaneExpr, String> {
        let mut lhs = self.unary()?;
        while let Some(&Token::Op(op)) = self.peek() {
            if op.precedence() < min_precedence {
                break;
            }
            self.count_node()?;
            self.at += 1;
            let rhs = self.binary(op.precedence() + 1)?;
            lhs = LaneExpr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<LaneExpr, String> {
        let column = self.column();
        let expr = match self.peek() {
            Some(Token::Op(Op::Sub)) => {
                self.count_node()?;
                self.at += 1;
                return Ok(LaneExpr::Neg(Box::new(self.unary()?)));
            }
            Some(Token::Open) => {
                self.count_node()?;
                self.at += 1;
                let inner = self.binary(0)?;
                self.expect(Token::Close, "`)`")?;
                return Ok(inner);
            }
            Some(&Token::Int(value)) => LaneExpr::Lit(value),
            Some(Token::Name(name)) if name == "lane" => LaneExpr::Lane,
            Some(Token::Name(name)) => {
                return Err(format!(
                    "unknown name `{name}` at column {column}: expressions use `lane` and integers"
                ));
            }
            _ => return Err(self.error("an integer, `lane` or `(`")),
        };
        self.at += 1;
        Ok(expr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_settings_and_expressions() {
        let access = access("lanes=32 bytes=2 vector=8 along=k m=lane%16 k=lane/16*8").unwrap();
        assert_eq!(
            (access.lanes, access.element_bytes, access.vector),
            (32, 2, 8)
        );
        assert_eq!(access.along.as_deref(), Some("k"));
        let values = |lane| -> Vec<i128> {
            access
                .coords
                .iter()
                .map(|(_, e)| e.eval(lane).unwrap())
                .collect()
        };
        assert_eq!(values(17), [1, 8]);
        assert_eq!(access.coords[0].0, "m");
    }

    #[test]
    fn spaces_commas_and_precedence() {
        let access =
            access("lanes = 64, x = (lane + 1) * 2 ^ lane >> 1 & 3 | 1 << 4, y = -lane % 3")
                .unwrap();
        let lane: i128 = 5;
        let expected = ((lane + 1) * 2) ^ ((lane >> 1) & 3) | (1 << 4);
        assert_eq!(access.coords[0].1.eval(5), Some(expected));
        assert_eq!(access.coords[1].1.eval(5), Some(-5 % 3));
        assert_eq!(
            (access.lanes, access.element_bytes, access.vector),
            (64, 4, 1)
        );
    }

    #[test]
    fn errors_point_at_the_column() {
        assert_eq!(
            access("m=lane%").unwrap_err(),
            "expected an integer, `lane` or `(` at the end"
        );
        assert_eq!(
            access("m = row * 2").unwrap_err(),
            "unknown name `row` at column 5: expressions use `lane` and integers"
        );
        assert_eq!(
            access("lanes=0").unwrap_err(),
            "expected an integer from 1 to 4096 for `lanes` at column 7"
        );
        assert_eq!(
            access("vector=100000").unwrap_err(),
            "expected an integer from 1 to 4096 for `vector` at column 8"
        );
        assert_eq!(
            access("m=1 m=2").unwrap_err(),
            "`m` is set twice (column 5)"
        );
        assert_eq!(access("m=(lane").unwrap_err(), "expected `)` at the end");
        assert_eq!(
            access("m=lane $").unwrap_err(),
            "unexpected `$` at column 8"
        );
        assert_eq!(access("m lane").unwrap_err(), "expected `=` at column 3");
    }

    #[test]
    fn bank_configurations() {
        assert_eq!(
            banks("64x8"),
            Ok(Banks {
                count: 64,
                width_bytes: 8
            })
        );
        assert!(banks("32").is_err());
        assert!(banks("0x4").is_err());
        assert!(banks("32x").is_err());
    }
}
