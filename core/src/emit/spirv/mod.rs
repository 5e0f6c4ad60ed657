//! SPIR-V words for kernels that WGSL cannot say: a module writer ([`Module`]: sections in
//! the order the specification fixes, ids, scalar constants defined once), the opcodes and
//! enumerants the kernels use by name ([`op`]), and the [`raster`] orders compiled to
//! straight-line `u32` arithmetic. What a kernel says is the business of its builder (the
//! runtime's GEMM on workgroup-scope cooperative matrices); this module knows the binary
//! form only.

pub mod raster;

use std::collections::HashMap;

/// Opcodes by name (SPIR-V 1.6 and the `SPV_KHR_cooperative_matrix`,
/// `SPV_NV_cooperative_matrix2` and `SPV_NV_tensor_addressing` extensions).
pub mod op {
    pub const EXTENSION: u16 = 10;
    pub const MEMORY_MODEL: u16 = 14;
    pub const ENTRY_POINT: u16 = 15;
    pub const EXECUTION_MODE: u16 = 16;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_VOID: u16 = 19;
    pub const TYPE_BOOL: u16 = 20;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const TYPE_FUNCTION: u16 = 33;
    pub const CONSTANT_FALSE: u16 = 42;
    pub const CONSTANT: u16 = 43;
    pub const CONSTANT_COMPOSITE: u16 = 44;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_END: u16 = 56;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const STORE: u16 = 62;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const F_CONVERT: u16 = 115;
    pub const I_ADD: u16 = 128;
    pub const I_SUB: u16 = 130;
    pub const I_MUL: u16 = 132;
    pub const U_DIV: u16 = 134;
    pub const U_MOD: u16 = 137;
    pub const LOGICAL_AND: u16 = 167;
    pub const SELECT: u16 = 169;
    pub const I_EQUAL: u16 = 170;
    pub const U_GREATER_THAN_EQUAL: u16 = 174;
    pub const U_LESS_THAN: u16 = 176;
    pub const SHIFT_RIGHT_LOGICAL: u16 = 194;
    pub const SHIFT_LEFT_LOGICAL: u16 = 196;
    pub const BITWISE_OR: u16 = 197;
    pub const BITWISE_XOR: u16 = 198;
    pub const BITWISE_AND: u16 = 199;
    pub const LOOP_MERGE: u16 = 246;
    pub const LABEL: u16 = 248;
    pub const BRANCH: u16 = 249;
    pub const BRANCH_CONDITIONAL: u16 = 250;
    pub const RETURN: u16 = 253;
    pub const TYPE_COOPERATIVE_MATRIX: u16 = 4456;
    pub const COOPERATIVE_MATRIX_MUL_ADD: u16 = 4459;
    pub const COOPERATIVE_MATRIX_LOAD_TENSOR: u16 = 5367;
    pub const COOPERATIVE_MATRIX_STORE_TENSOR: u16 = 5368;
    pub const TYPE_TENSOR_LAYOUT: u16 = 5370;
    pub const TYPE_TENSOR_VIEW: u16 = 5371;
    pub const CREATE_TENSOR_LAYOUT: u16 = 5372;
    pub const TENSOR_LAYOUT_SET_DIMENSION: u16 = 5373;
    pub const TENSOR_LAYOUT_SET_STRIDE: u16 = 5374;
    pub const TENSOR_LAYOUT_SLICE: u16 = 5375;
    pub const CREATE_TENSOR_VIEW: u16 = 5377;
}

/// Enumerants the kernels use, by name.
pub mod value {
    /// Capabilities.
    pub const SHADER: u32 = 1;
    pub const FLOAT16: u32 = 9;
    pub const STORAGE_BUFFER_16_BIT_ACCESS: u32 = 4433;
    pub const VULKAN_MEMORY_MODEL: u32 = 5345;
    pub const COOPERATIVE_MATRIX_TENSOR_ADDRESSING: u32 = 5433;
    pub const TENSOR_ADDRESSING: u32 = 5439;
    pub const COOPERATIVE_MATRIX: u32 = 6022;
    /// bf16 scalars, and cooperative matrices of them (`SPV_KHR_bfloat16`).
    pub const BFLOAT16_TYPE: u32 = 5116;
    pub const BFLOAT16_COOPERATIVE_MATRIX: u32 = 5118;
    /// `OpTypeFloat`'s encoding of bf16 (16 bits: f32's sign and exponent, 7 of its
    /// fraction's bits).
    pub const BFLOAT16_ENCODING: u32 = 0;
    /// Storage classes.
    pub const INPUT: u32 = 1;
    pub const FUNCTION: u32 = 7;
    pub const STORAGE_BUFFER: u32 = 12;
    /// Decorations.
    pub const BLOCK: u32 = 2;
    pub const ARRAY_STRIDE: u32 = 6;
    pub const BUILT_IN: u32 = 11;
    pub const NON_WRITABLE: u32 = 24;
    pub const BINDING: u32 = 33;
    pub const DESCRIPTOR_SET: u32 = 34;
    pub const OFFSET: u32 = 35;
    /// Built-ins.
    pub const WORKGROUP_ID: u32 = 26;
    /// `OpMemoryModel`'s addressing and memory models.
    pub const LOGICAL: u32 = 0;
    pub const VULKAN: u32 = 3;
    /// Execution model and mode.
    pub const GL_COMPUTE: u32 = 5;
    pub const LOCAL_SIZE: u32 = 17;
    /// Scope of a cooperative matrix.
    pub const SCOPE_WORKGROUP: u32 = 2;
    /// Uses of a cooperative matrix.
    pub const MATRIX_A: u32 = 0;
    pub const MATRIX_B: u32 = 1;
    pub const MATRIX_ACCUMULATOR: u32 = 2;
    /// Tensor clamp modes: out of bounds undefined, or loads read the clamp value (zero)
    /// and stores are discarded.
    pub const CLAMP_UNDEFINED: u32 = 0;
    pub const CLAMP_CONSTANT: u32 = 1;
    /// Tensor addressing operands: none, or a tensor view follows.
    pub const NO_TENSOR_ADDRESSING: u32 = 0;
    pub const TENSOR_VIEW: u32 = 1;
}

/// The sections of a SPIR-V module, in the order the specification fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Capability,
    Extension,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    Annotation,
    /// Types, constants and global variables.
    Global,
    Function,
}

/// A SPIR-V module being written: its sections, the last id handed out, and the scalar
/// constants defined so far (one id per type and value).
#[derive(Debug, Default)]
pub struct Module {
    sections: [Vec<u32>; 8],
    bound: u32,
    constants: HashMap<(u32, u32), u32>,
}

impl Module {
    pub fn new() -> Module {
        Module::default()
    }

    /// A fresh id (for a label or a forward reference).
    pub fn id(&mut self) -> u32 {
        self.bound += 1;
        self.bound
    }

    /// Appends instruction `opcode` with `operands` to `section`.
    pub fn op(&mut self, section: Section, opcode: u16, operands: &[u32]) {
        let words = &mut self.sections[section as usize];
        words.push(((operands.len() as u32 + 1) << 16) | u32::from(opcode));
        words.extend_from_slice(operands);
    }

    /// A new id defined by `opcode` in `section`, after its result type where it has one.
    pub fn def(&mut self, section: Section, opcode: u16, ty: Option<u32>, operands: &[u32]) -> u32 {
        let id = self.id();
        let mut all: Vec<u32> = ty.into_iter().collect();
        all.push(id);
        all.extend_from_slice(operands);
        self.op(section, opcode, &all);
        id
    }

    /// A value computed in the function: `opcode` of result type `ty` over `operands`.
    pub fn value(&mut self, opcode: u16, ty: u32, operands: &[u32]) -> u32 {
        self.def(Section::Function, opcode, Some(ty), operands)
    }

    /// The constant `value` of scalar type `ty` (its bits), defined at its first use.
    pub fn constant(&mut self, ty: u32, value: u32) -> u32 {
        if let Some(&id) = self.constants.get(&(ty, value)) {
            return id;
        }
        let id = self.def(Section::Global, op::CONSTANT, Some(ty), &[value]);
        self.constants.insert((ty, value), id);
        id
    }

    /// The module's words: the header (SPIR-V 1.6, no generator, the id bound, schema 0),
    /// then the sections in order.
    pub fn words(self) -> Vec<u32> {
        const MAGIC: u32 = 0x0723_0203;
        let mut words = vec![MAGIC, 0x0001_0600, 0, self.bound + 1, 0];
        for section in self.sections {
            words.extend(section);
        }
        words
    }
}

/// A literal string operand: UTF-8, nul-terminated, in little-endian words.
pub fn string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().div_ceil(4) * 4, 0);
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_defined_once_and_strings_are_nul_terminated_words() {
        let mut module = Module::new();
        let u32_ = module.def(Section::Global, op::TYPE_INT, None, &[32, 0]);
        let seven = module.constant(u32_, 7);
        assert_eq!(module.constant(u32_, 7), seven);
        assert_ne!(module.constant(u32_, 8), seven);
        assert_eq!(string("main"), vec![u32::from_le_bytes(*b"main"), 0]);
        assert_eq!(string("abc"), vec![u32::from_le_bytes(*b"abc\0")]);
        let words = module.words();
        // Header, OpTypeInt (4 words), two OpConstants (4 each); the bound is past every id.
        assert_eq!(words.len(), 5 + 4 + 4 + 4);
        assert_eq!(words[3], 4);
        assert_eq!(words[5], (4 << 16) | u32::from(op::TYPE_INT));
    }
}
