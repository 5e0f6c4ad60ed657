//! Issue 47's open question on naga's SPIR-V: glslang marks every access to workgroup memory
//! (GLSL's `shared` variables are implicitly coherent) with the Vulkan memory model's
//! operands `MakePointerVisible|NonPrivatePointer` (loads) or
//! `MakePointerAvailable|NonPrivatePointer` (stores) at workgroup scope; naga writes the same
//! memory model but no memory operands. [`mark_workgroup_accesses`] rewrites naga's words
//! with glslang's operands, so the two forms of one kernel can be timed side by side.

/// Which accesses to workgroup memory get the operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accesses {
    /// `OpCooperativeMatrixLoadKHR` and `OpCooperativeMatrixStoreKHR` only.
    Cooperative,
    /// Those and every `OpLoad` and `OpStore`.
    All,
}

const OP_TYPE_INT: u32 = 21;
const OP_CONSTANT: u32 = 43;
const OP_TYPE_POINTER: u32 = 32;
const OP_FUNCTION_PARAMETER: u32 = 55;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
const OP_PTR_ACCESS_CHAIN: u32 = 67;
const OP_COOPERATIVE_MATRIX_LOAD: u32 = 4457;
const OP_COOPERATIVE_MATRIX_STORE: u32 = 4458;

const STORAGE_WORKGROUP: u32 = 4;
const SCOPE_WORKGROUP: u32 = 2;
const MAKE_POINTER_AVAILABLE: u32 = 0x8;
const MAKE_POINTER_VISIBLE: u32 = 0x10;
const NON_PRIVATE_POINTER: u32 = 0x20;

/// `words` (a SPIR-V module) with glslang's memory operands on its `accesses` to workgroup
/// memory that carry none; a constant for the workgroup scope is added where the module has
/// none. An error where the words are not whole instructions.
pub fn mark_workgroup_accesses(words: &[u32], accesses: Accesses) -> Result<Vec<u32>, String> {
    let instructions = split(words)?;
    // Pointer types in workgroup memory, and each pointer's type.
    let mut workgroup_types = std::collections::HashSet::new();
    let mut type_of = std::collections::HashMap::new();
    let mut uint = None;
    let mut scope = None;
    for word in &instructions {
        let (op, operands) = (word[0] & 0xFFFF, &word[1..]);
        match op {
            OP_TYPE_POINTER if operands[1] == STORAGE_WORKGROUP => {
                workgroup_types.insert(operands[0]);
            }
            OP_TYPE_INT if operands[1..] == [32, 0] => uint = uint.or(Some(operands[0])),
            OP_CONSTANT if Some(operands[0]) == uint && operands[2] == SCOPE_WORKGROUP => {
                scope = scope.or(Some(operands[1]));
            }
            OP_VARIABLE
            | OP_ACCESS_CHAIN
            | OP_IN_BOUNDS_ACCESS_CHAIN
            | OP_PTR_ACCESS_CHAIN
            | OP_FUNCTION_PARAMETER => {
                type_of.insert(operands[1], operands[0]);
            }
            _ => {}
        }
    }
    let uint = uint.ok_or("no 32-bit unsigned integer type")?;
    let mut bound = words[3];
    let (scope, new_constant) = match scope {
        Some(id) => (id, None),
        None => {
            let id = bound;
            bound += 1;
            (
                id,
                Some([(4 << 16) | OP_CONSTANT, uint, id, SCOPE_WORKGROUP]),
            )
        }
    };
    let in_workgroup = |pointer: u32| {
        type_of
            .get(&pointer)
            .is_some_and(|t| workgroup_types.contains(t))
    };
    let mut out = words[..5].to_vec();
    out[3] = bound;
    for word in &instructions {
        let (op, operands) = (word[0] & 0xFFFF, &word[1..]);
        // Operand counts before the memory operands, and the pointer's index.
        let (bare, pointer, load) = match op {
            OP_LOAD if accesses == Accesses::All => (3, 2, true),
            OP_STORE if accesses == Accesses::All => (2, 0, false),
            OP_COOPERATIVE_MATRIX_LOAD => (5, 2, true),
            OP_COOPERATIVE_MATRIX_STORE => (4, 0, false),
            _ => (usize::MAX, 0, false),
        };
        if operands.len() == bare && in_workgroup(operands[pointer]) {
            let make = if load {
                MAKE_POINTER_VISIBLE
            } else {
                MAKE_POINTER_AVAILABLE
            };
            let count = word.len() as u32 + 2;
            out.push((count << 16) | op);
            out.extend_from_slice(operands);
            out.extend([make | NON_PRIVATE_POINTER, scope]);
        } else {
            out.extend_from_slice(word);
        }
        if op == OP_TYPE_INT
            && operands[0] == uint
            && let Some(constant) = new_constant
        {
            out.extend(constant);
        }
    }
    Ok(out)
}

/// The module's instructions after its 5-word header.
fn split(words: &[u32]) -> Result<Vec<&[u32]>, String> {
    if words.len() < 5 || words[0] != 0x0723_0203 {
        return Err("not a SPIR-V module".into());
    }
    let mut rest = &words[5..];
    let mut instructions = Vec::new();
    while let Some(&first) = rest.first() {
        let count = (first >> 16) as usize;
        if count == 0 || count > rest.len() {
            return Err(format!("an instruction of {count} words"));
        }
        let (instruction, tail) = rest.split_at(count);
        instructions.push(instruction);
        rest = tail;
    }
    Ok(instructions)
}
