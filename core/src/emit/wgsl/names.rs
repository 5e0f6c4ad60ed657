//! WGSL names: the prefix of a layout's functions, and the renaming of the Rust names of one
//! function where WGSL reserves them.

use std::collections::{HashMap, HashSet};

/// `MortonTexture` → `morton_texture`: the prefix of a layout's WGSL functions (`__X` →
/// `v__x`, since WGSL reserves names that start with `__`).
pub fn snake_case(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let mut out = String::with_capacity(name.len() + 4);
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let ends_acronym = i > 0
                && chars[i - 1].is_ascii_uppercase()
                && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if after_lower || ends_acronym {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    unreserved_prefix(&out)
}

/// `name`, prefixed with `v` if WGSL reserves it for its own start: WGSL rejects `_` and
/// every identifier that begins with `__`, which Rust allows.
fn unreserved_prefix(name: &str) -> String {
    match name == "_" || name.starts_with("__") {
        true => format!("v{name}"),
        false => name.to_owned(),
    }
}

/// WGSL names for the Rust names of one function: raw identifiers lose their `r#`, and names
/// that WGSL reserves (or that clash after that) get a `_` suffix.
#[derive(Clone)]
pub(crate) struct Names {
    map: HashMap<String, String>,
    pub(crate) used: HashSet<String>,
}

impl Names {
    pub(crate) fn new(names: &[String]) -> Names {
        let mut out = Names {
            map: HashMap::new(),
            used: HashSet::new(),
        };
        for name in names {
            out.add(name);
        }
        out
    }

    pub(crate) fn add(&mut self, name: &str) {
        let bare = name.strip_prefix("r#").unwrap_or(name);
        // Appending `_` cannot fix a name that starts with `__` (the loop below would never
        // end), so such names are prefixed first; after that, appending only ever resolves
        // clashes and keywords, which are finitely many.
        let mut candidate = unreserved_prefix(bare);
        while RESERVED.contains(&candidate.as_str()) || self.used.contains(&candidate) {
            candidate.push('_');
        }
        self.used.insert(candidate.clone());
        self.map.insert(name.to_owned(), candidate);
    }

    pub(crate) fn get<'a>(&'a self, name: &'a str) -> &'a str {
        self.map.get(name).map_or(name, String::as_str)
    }
}

/// WGSL's keywords, reserved words and the predeclared names a generated function uses.
const RESERVED: &[&str] = &[
    "_",
    "alias",
    "break",
    "case",
    "const",
    "const_assert",
    "continue",
    "continuing",
    "default",
    "diagnostic",
    "discard",
    "else",
    "enable",
    "false",
    "fn",
    "for",
    "if",
    "let",
    "loop",
    "override",
    "requires",
    "return",
    "struct",
    "switch",
    "true",
    "var",
    "while",
    "NULL",
    "Self",
    "abstract",
    "active",
    "alignas",
    "alignof",
    "as",
    "asm",
    "asm_fragment",
    "async",
    "attribute",
    "auto",
    "await",
    "become",
    "cast",
    "catch",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "coherent",
    "column_major",
    "common",
    "compile",
    "compile_fragment",
    "concept",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "crate",
    "debugger",
    "decltype",
    "delete",
    "demote",
    "demote_to_helper",
    "do",
    "dynamic_cast",
    "enum",
    "explicit",
    "export",
    "extends",
    "extern",
    "external",
    "fallthrough",
    "filter",
    "final",
    "finally",
    "friend",
    "from",
    "fxgroup",
    "get",
    "goto",
    "groupshared",
    "highp",
    "impl",
    "implements",
    "import",
    "inline",
    "instanceof",
    "interface",
    "layout",
    "lowp",
    "macro",
    "macro_rules",
    "match",
    "mediump",
    "meta",
    "mod",
    "module",
    "move",
    "mut",
    "mutable",
    "namespace",
    "new",
    "nil",
    "noexcept",
    "noinline",
    "nointerpolation",
    "non_coherent",
    "noncoherent",
    "noperspective",
    "null",
    "nullptr",
    "of",
    "operator",
    "package",
    "packoffset",
    "partition",
    "pass",
    "patch",
    "pixelfragment",
    "precise",
    "precision",
    "premerge",
    "priv",
    "protected",
    "pub",
    "public",
    "readonly",
    "ref",
    "regardless",
    "register",
    "reinterpret_cast",
    "require",
    "resource",
    "restrict",
    "self",
    "set",
    "shared",
    "sizeof",
    "smooth",
    "snorm",
    "static",
    "static_assert",
    "static_cast",
    "std",
    "subroutine",
    "super",
    "target",
    "template",
    "this",
    "thread_local",
    "throw",
    "trait",
    "try",
    "type",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "union",
    "unless",
    "unorm",
    "unsafe",
    "unsized",
    "use",
    "using",
    "varying",
    "virtual",
    "volatile",
    "wgsl",
    "where",
    "with",
    "writeonly",
    "yield",
    "array",
    "bool",
    "f16",
    "f32",
    "i32",
    "u32",
    "vec2",
    "vec3",
    "vec4",
    "ptr",
    "atomic",
    "sampler",
    "select",
];
