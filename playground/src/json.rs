//! A JSON writer of just what the playground returns: objects, arrays, strings, unsigned
//! numbers and null, with commas placed by the writer (no serde in the WebAssembly module).

use std::fmt::Write;

#[derive(Default)]
pub struct Json {
    out: String,
    /// Per open container, whether it holds a value yet (a comma goes before the next).
    open: Vec<bool>,
    /// A key was just written: the next value is its value, with no comma before it.
    keyed: bool,
}

impl Json {
    pub fn into_string(self) -> String {
        self.out
    }

    /// Starts a value: a comma after a sibling, none after a key.
    fn value(&mut self) {
        if self.keyed {
            self.keyed = false;
        } else if let Some(held) = self.open.last_mut() {
            if *held {
                self.out.push(',');
            }
            *held = true;
        }
    }

    pub fn object(&mut self, body: impl FnOnce(&mut Json)) {
        self.container('{', '}', body);
    }

    pub fn array(&mut self, body: impl FnOnce(&mut Json)) {
        self.container('[', ']', body);
    }

    fn container(&mut self, open: char, close: char, body: impl FnOnce(&mut Json)) {
        self.value();
        self.out.push(open);
        self.open.push(false);
        body(self);
        self.open.pop();
        self.out.push(close);
    }

    /// Writes `"key":` in the current object; the next call writes its value.
    pub fn field(&mut self, key: &str) -> &mut Json {
        self.string(key);
        self.out.push(':');
        self.keyed = true;
        self
    }

    pub fn string(&mut self, text: &str) {
        self.value();
        self.out.push('"');
        for c in text.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    pub fn number(&mut self, value: usize) {
        self.value();
        let _ = write!(self.out, "{value}");
    }

    pub fn null(&mut self) {
        self.value();
        self.out.push_str("null");
    }

    /// A value already written as JSON.
    pub fn raw(&mut self, json: &str) {
        self.value();
        self.out.push_str(json);
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn commas_keys_and_escapes() {
        let mut out = Json::default();
        out.object(|out| {
            out.field("a").array(|out| {
                out.number(1);
                out.null();
                out.string("x\"\n\u{1}");
            });
            out.field("b").object(|_| {});
        });
        assert_eq!(out.into_string(), r#"{"a":[1,null,"x\"\n\u0001"],"b":{}}"#);
    }
}
