//! A CPU interpreter of SPIR-V compute shaders on **workgroup-scope** cooperative matrices:
//! the oracle for the words of the GEMM on them (`WorkgroupMatrices::spirv`,
//! `runtime/src/gpu/gemm/workgroup.rs`), which only an NVIDIA GPU with `VK_NV_cooperative_matrix2`
//! could otherwise run.
//!
//! It reads exactly the subset that the kernel writes (`SPV_KHR_cooperative_matrix`,
//! `SPV_NV_cooperative_matrix2`, `SPV_NV_tensor_addressing`): scalar, vector, runtime-array,
//! block, pointer, cooperative-matrix, tensor-layout and tensor-view types; scalar constants,
//! `false` and cooperative matrices filled with one; storage buffers and the `WorkgroupId`
//! input; one entry-point function of function-scope variables, loads and stores, access
//! chains to an element of a buffer's runtime array, `u32` arithmetic, bitwise operations,
//! shifts, comparisons, `OpLogicalAnd` and `OpSelect`, structured branches and loops; tensor
//! layouts (dimensions, strides, slices; clamp modes Undefined and Constant), tensor views
//! without dimensions or clipping (a permutation), tensor loads and stores without decode
//! functions, multiply-adds of f16, bf16 (`SPV_KHR_bfloat16`) or f32 matrices and
//! conversions between them (`OpFConvert`, rounding to the result's type). Anything else is an error that names
//! the opcode (or operand) it does not know.
//!
//! A workgroup-scope matrix belongs to the whole workgroup, and every operand of the
//! instructions on it must be uniform over the workgroup: the function runs as one logical
//! invocation per workgroup, over whole `rows × cols` matrices. Tensor loads and stores
//! address elements by the extension's `matrixCoordToTensorElement` (row-major index in the
//! matrix, coordinate in the slice's span, offset, strides; through a view, the index is
//! first taken apart along the permuted span: `matrixCoordToTensorElementWithView`); an
//! element past a clamped tensor reads zero and is not stored; a multiply-add sums each
//! element's products exactly in f64 and rounds once to the result's component type (exact
//! in f32 for small-integer operands).
//!
//! What it checks as it goes, beyond running: the header (magic, an id bound above every
//! id); the Vulkan memory model (capability and `OpMemoryModel`) that
//! `SPV_KHR_cooperative_matrix` requires in shaders; the capabilities 16-bit types need
//! (Float16 for f16; BFloat16TypeKHR for bf16, and BFloat16CooperativeMatrixKHR for
//! matrices of it); each instruction in its section of the
//! module's fixed order; every id defined once, and used only after its definition (forward
//! references only where SPIR-V allows them: entry points, execution modes, decorations and
//! branch targets); function-scope variables only at the start of the first block; every
//! block ended by one branch or return, a merge instruction just before its branch; loads and
//! stores of the pointer's pointee type; multiply-adds of A `rows × k`, B `k × cols` and C
//! `rows × cols`, of uses A, B and accumulator, all of workgroup scope; tensor loads and
//! stores whose slice spans as many elements as the matrix, into a buffer of the matrix's
//! component type, inside the tensor's dimensions where the layout does not clamp (clamp mode
//! `Undefined`: an element outside is an error, never read) and inside the buffer; views of
//! a valid permutation; `OpSelect` of a bool and two values of its type; no shift by 32 or
//! more, no division by zero; no store to a `NonWritable` buffer; no read of an unwritten
//! variable or of a value not yet computed.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use half::{bf16, f16};

/// How one operand of an instruction is read.
#[derive(Clone, Copy, PartialEq)]
enum Operand {
    /// An id defined earlier.
    Id,
    /// An id that may be defined later (entry points, execution modes, decorations).
    Forward,
    /// A label of the function, defined anywhere in it.
    Label,
    /// One literal word.
    Literal,
    /// A nul-terminated string.
    String,
    /// The rest: ids defined earlier.
    Ids,
    /// The rest: ids that may be defined later.
    Forwards,
    /// The rest: literal words.
    Literals,
    /// The rest: an optional id defined earlier.
    OptionalId,
    /// Memory operands (a mask, then its literals); `optional` where the word may be absent.
    Memory { optional: bool },
    /// Tensor-addressing operands (a mask; only `None`).
    TensorAddressing,
}

/// The sections of a module, in the order the specification fixes.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
enum Section {
    Capability,
    Extension,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    Annotation,
    Global,
    Function,
}

/// An opcode of the subset: its name, section, whether it has a result type and a result id,
/// and its other operands.
struct Spec {
    name: &'static str,
    section: Section,
    typed: bool,
    result: bool,
    operands: &'static [Operand],
}

fn spec(opcode: u16) -> Option<Spec> {
    use Operand::*;
    use Section::*;
    let s = |name, section, typed, result, operands| {
        Some(Spec {
            name,
            section,
            typed,
            result,
            operands,
        })
    };
    let binary = &[Id, Id][..];
    match opcode {
        10 => s("OpExtension", Extension, false, false, &[String]),
        14 => s(
            "OpMemoryModel",
            MemoryModel,
            false,
            false,
            &[Literal, Literal],
        ),
        15 => s(
            "OpEntryPoint",
            EntryPoint,
            false,
            false,
            &[Literal, Forward, String, Forwards],
        ),
        16 => s(
            "OpExecutionMode",
            ExecutionMode,
            false,
            false,
            &[Forward, Literals],
        ),
        17 => s("OpCapability", Capability, false, false, &[Literal]),
        19 => s("OpTypeVoid", Global, false, true, &[]),
        20 => s("OpTypeBool", Global, false, true, &[]),
        21 => s("OpTypeInt", Global, false, true, &[Literal, Literal]),
        22 => s("OpTypeFloat", Global, false, true, &[Literal, Literals]),
        23 => s("OpTypeVector", Global, false, true, &[Id, Literal]),
        29 => s("OpTypeRuntimeArray", Global, false, true, &[Id]),
        30 => s("OpTypeStruct", Global, false, true, &[Ids]),
        32 => s("OpTypePointer", Global, false, true, &[Literal, Id]),
        33 => s("OpTypeFunction", Global, false, true, &[Id, Ids]),
        42 => s("OpConstantFalse", Global, true, true, &[]),
        43 => s("OpConstant", Global, true, true, &[Literals]),
        44 => s("OpConstantComposite", Global, true, true, &[Ids]),
        54 => s("OpFunction", Function, true, true, &[Literal, Id]),
        56 => s("OpFunctionEnd", Function, false, false, &[]),
        59 => s("OpVariable", Global, true, true, &[Literal, OptionalId]),
        61 => s(
            "OpLoad",
            Function,
            true,
            true,
            &[Id, Memory { optional: true }],
        ),
        62 => s(
            "OpStore",
            Function,
            false,
            false,
            &[Id, Id, Memory { optional: true }],
        ),
        65 => s("OpAccessChain", Function, true, true, &[Id, Ids]),
        71 => s("OpDecorate", Annotation, false, false, &[Forward, Literals]),
        72 => s(
            "OpMemberDecorate",
            Annotation,
            false,
            false,
            &[Forward, Literals],
        ),
        81 => s("OpCompositeExtract", Function, true, true, &[Id, Literals]),
        115 => s("OpFConvert", Function, true, true, &[Id]),
        128 => s("OpIAdd", Function, true, true, binary),
        130 => s("OpISub", Function, true, true, binary),
        132 => s("OpIMul", Function, true, true, binary),
        134 => s("OpUDiv", Function, true, true, binary),
        137 => s("OpUMod", Function, true, true, binary),
        167 => s("OpLogicalAnd", Function, true, true, binary),
        169 => s("OpSelect", Function, true, true, &[Id, Id, Id]),
        170 => s("OpIEqual", Function, true, true, binary),
        174 => s("OpUGreaterThanEqual", Function, true, true, binary),
        176 => s("OpULessThan", Function, true, true, binary),
        194 => s("OpShiftRightLogical", Function, true, true, binary),
        196 => s("OpShiftLeftLogical", Function, true, true, binary),
        197 => s("OpBitwiseOr", Function, true, true, binary),
        198 => s("OpBitwiseXor", Function, true, true, binary),
        199 => s("OpBitwiseAnd", Function, true, true, binary),
        246 => s(
            "OpLoopMerge",
            Function,
            false,
            false,
            &[Label, Label, Literals],
        ),
        248 => s("OpLabel", Function, false, true, &[]),
        249 => s("OpBranch", Function, false, false, &[Label]),
        250 => s(
            "OpBranchConditional",
            Function,
            false,
            false,
            &[Id, Label, Label, Literals],
        ),
        253 => s("OpReturn", Function, false, false, &[]),
        4456 => s(
            "OpTypeCooperativeMatrixKHR",
            Global,
            false,
            true,
            &[Id, Id, Id, Id, Id],
        ),
        4459 => s(
            "OpCooperativeMatrixMulAddKHR",
            Function,
            true,
            true,
            &[Id, Id, Id, Literals],
        ),
        5367 => s(
            "OpCooperativeMatrixLoadTensorNV",
            Function,
            true,
            true,
            &[Id, Id, Id, Memory { optional: false }, TensorAddressing],
        ),
        5368 => s(
            "OpCooperativeMatrixStoreTensorNV",
            Function,
            false,
            false,
            &[Id, Id, Id, Memory { optional: false }, TensorAddressing],
        ),
        5370 => s("OpTypeTensorLayoutNV", Global, false, true, &[Id, Id]),
        5371 => s("OpTypeTensorViewNV", Global, false, true, &[Id, Id, Ids]),
        5372 => s("OpCreateTensorLayoutNV", Function, true, true, &[]),
        5373 => s(
            "OpTensorLayoutSetDimensionNV",
            Function,
            true,
            true,
            &[Id, Ids],
        ),
        5374 => s(
            "OpTensorLayoutSetStrideNV",
            Function,
            true,
            true,
            &[Id, Ids],
        ),
        5375 => s("OpTensorLayoutSliceNV", Function, true, true, &[Id, Ids]),
        5377 => s("OpCreateTensorViewNV", Function, true, true, &[]),
        _ => None,
    }
}

/// One instruction: its opcode, result type and id where it has them, and the other operands'
/// words (memory operands reduced to the alignment, where given).
#[derive(Debug)]
struct Instruction {
    opcode: u16,
    ty: u32,
    id: u32,
    operands: Vec<u32>,
}

/// A float type's encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Format {
    F16,
    Bf16,
    F32,
}

impl Format {
    fn bytes(self) -> usize {
        match self {
            Format::F16 | Format::Bf16 => 2,
            Format::F32 => 4,
        }
    }

    /// `value` rounded to this format (held as f32, which every one of them fits).
    fn round(self, value: f64) -> f32 {
        match self {
            Format::F16 => f16::from_f64(value).to_f32(),
            Format::Bf16 => bf16::from_f64(value).to_f32(),
            Format::F32 => value as f32,
        }
    }

    /// The value of `bits`, of `bytes()` little-endian bytes.
    fn decode(self, bytes: &[u8]) -> f32 {
        match self {
            Format::F16 => f16::from_le_bytes([bytes[0], bytes[1]]).to_f32(),
            Format::Bf16 => bf16::from_le_bytes([bytes[0], bytes[1]]).to_f32(),
            Format::F32 => f32::from_le_bytes(bytes.try_into().unwrap()),
        }
    }

    /// `value`'s little-endian bytes in this format, rounded.
    fn encode(self, value: f32, into: &mut [u8]) {
        match self {
            Format::F16 => into.copy_from_slice(&f16::from_f32(value).to_le_bytes()),
            Format::Bf16 => into.copy_from_slice(&bf16::from_f32(value).to_le_bytes()),
            Format::F32 => into.copy_from_slice(&value.to_le_bytes()),
        }
    }
}

/// The types of the subset.
#[derive(Clone, Debug, PartialEq)]
enum Type {
    Void,
    Bool,
    Int {
        width: u32,
        signed: bool,
    },
    Float(Format),
    Vector {
        component: u32,
        count: u32,
    },
    RuntimeArray {
        element: u32,
    },
    Struct {
        members: Vec<u32>,
    },
    Pointer {
        class: u32,
        pointee: u32,
    },
    Function,
    /// A cooperative matrix: component type id, then the values of its constant operands.
    Matrix {
        component: u32,
        scope: u32,
        rows: u32,
        cols: u32,
        usage: u32,
    },
    Layout {
        dims: u32,
        clamp: u32,
    },
    /// A tensor view without dimensions of its own (the slice's span is used): the
    /// permutation of its coordinates.
    View {
        permutation: Vec<u32>,
    },
}

/// A matrix of the whole workgroup, row-major; f16 components held exactly as f32.
#[derive(Debug)]
struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f32>,
}

/// A tensor layout's state (block size always 1: `OpTensorLayoutSetBlockSizeNV` is not in
/// the subset).
#[derive(Clone, Debug)]
struct Layout {
    clamp: u32,
    dimension: Vec<u32>,
    stride: Vec<u32>,
    offset: Vec<i64>,
    span: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
enum Pointer {
    /// A function-scope variable or the `WorkgroupId` input, by id.
    Variable(u32),
    /// An element of the runtime array of the buffer at `binding`.
    Element { binding: u32, index: u64 },
}

#[derive(Clone, Debug)]
enum Value {
    U32(u32),
    Bool(bool),
    Float(f32),
    Vector(Vec<u32>),
    Matrix(Rc<Matrix>),
    Layout(Rc<Layout>),
    /// A tensor view without dimensions or clipping: its permutation.
    View(Vec<u32>),
    Pointer(Pointer),
}

/// A storage buffer variable: its binding and whether its block is `NonWritable`.
#[derive(Clone, Copy, Debug)]
struct Buffer {
    binding: u32,
    element: u32,
    writable: bool,
}

/// Each id's decorations: the member (for `OpMemberDecorate`), the decoration and its
/// literals.
type Decorations = HashMap<u32, Vec<(Option<u32>, Vec<u32>)>>;

/// A parsed, checked module, ready to dispatch.
pub struct Module {
    bound: u32,
    types: HashMap<u32, Type>,
    /// The type of every value id.
    type_of: HashMap<u32, u32>,
    constants: HashMap<u32, Value>,
    buffers: HashMap<u32, Buffer>,
    workgroup_id: Option<u32>,
    entry: (String, u32),
    local_size: Option<[u32; 3]>,
    /// The function's instructions and where each label is.
    function: Vec<Instruction>,
    labels: HashMap<u32, usize>,
}

const WORKGROUP: u32 = 2;
const STORAGE_BUFFER: u32 = 12;
const FUNCTION: u32 = 7;
const INPUT: u32 = 1;
const CLAMP_UNDEFINED: u32 = 0;
/// Loads past the tensor read the clamp value (zero: `OpTensorLayoutSetClampValueNV` is not
/// in the subset), stores past it are dropped.
const CLAMP_CONSTANT: u32 = 1;

/// The next operand word of instruction `name`.
fn take(rest: &mut &[u32], name: &str, what: &str) -> Result<u32, String> {
    let (&first, tail) = rest
        .split_first()
        .ok_or(format!("{name}: no {what} operand"))?;
    *rest = tail;
    Ok(first)
}

fn string(words: &[u32]) -> Result<(String, usize), String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes
        .iter()
        .position(|&b| b == 0)
        .ok_or("a string without its nul")?;
    let text = std::str::from_utf8(&bytes[..end]).map_err(|e| e.to_string())?;
    Ok((text.to_owned(), end / 4 + 1))
}

impl Module {
    /// Parses and checks `words`.
    pub fn parse(words: &[u32]) -> Result<Module, String> {
        let [magic, _version, _generator, bound, schema] = *words.get(..5).ok_or("no header")?
        else {
            unreachable!()
        };
        if magic != 0x0723_0203 || schema != 0 {
            return Err(format!("header: magic {magic:#x}, schema {schema}"));
        }
        let mut module = Module {
            bound,
            types: HashMap::new(),
            type_of: HashMap::new(),
            constants: HashMap::new(),
            buffers: HashMap::new(),
            workgroup_id: None,
            entry: (String::new(), 0),
            local_size: None,
            function: Vec::new(),
            labels: HashMap::new(),
        };
        let mut defined = HashSet::new();
        let mut forward = Vec::new();
        let mut label_refs = Vec::new();
        let mut decorations = Decorations::new();
        let mut variables = Vec::new();
        let mut section = Section::Capability;
        // Within the function: whether a block is open, whether its variables may still
        // come (the first block, before anything else), and whether the last was a merge.
        let (mut in_function, mut in_block, mut variables_open, mut merge) =
            (false, false, false, false);
        let mut functions = 0;
        let (mut capabilities, mut memory_model) = (HashSet::new(), None);
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let opcode = words[at] as u16;
            if count == 0 || at + count > words.len() {
                return Err(format!("word {at}: a count of {count} runs off the module"));
            }
            let spec = spec(opcode).ok_or(format!("word {at}: opcode {opcode} unsupported"))?;
            let name = spec.name;
            let mut rest = &words[at + 1..at + count];
            at += count;
            let ty = if spec.typed {
                take(&mut rest, name, "result type")?
            } else {
                0
            };
            let id = if spec.result {
                take(&mut rest, name, "result id")?
            } else {
                0
            };
            // Sections: the order fixed; variables and the function by where they are.
            let here = match opcode {
                59 if in_function => Section::Function,
                _ => spec.section,
            };
            if here < section {
                return Err(format!("{name} in the {here:?} section after {section:?}"));
            }
            section = here;
            if spec.typed && !defined.contains(&ty) {
                return Err(format!(
                    "{name} %{id}: result type %{ty} not defined before"
                ));
            }
            if spec.result {
                if id == 0 || id >= bound {
                    return Err(format!("{name}: id %{id} outside the bound {bound}"));
                }
                if !defined.insert(id) {
                    return Err(format!("{name}: id %{id} defined twice"));
                }
                if spec.typed {
                    module.type_of.insert(id, ty);
                }
            }
            // The operands: ids checked, memory operands reduced to their alignment.
            let mut operands = Vec::new();
            for (i, &kind) in spec.operands.iter().enumerate() {
                let used = |id: u32| match defined.contains(&id) {
                    true => Ok(id),
                    false => Err(format!("{name}: operand %{id} used before its definition")),
                };
                match kind {
                    Operand::Id => operands.push(used(take(&mut rest, name, "id")?)?),
                    Operand::Forward => {
                        let id = take(&mut rest, name, "id")?;
                        forward.push((name, id));
                        operands.push(id);
                    }
                    Operand::Label => {
                        let id = take(&mut rest, name, "label")?;
                        label_refs.push((name, id));
                        operands.push(id);
                    }
                    Operand::Literal => operands.push(take(&mut rest, name, "literal")?),
                    Operand::String => {
                        let (_, length) = string(rest)?;
                        operands.extend(&rest[..length]);
                        rest = &rest[length..];
                    }
                    Operand::Ids | Operand::OptionalId => {
                        if kind == Operand::OptionalId && rest.len() > 1 {
                            return Err(format!("{name}: extra operands"));
                        }
                        for &id in rest {
                            operands.push(used(id)?);
                        }
                        rest = &[];
                    }
                    Operand::Forwards => {
                        forward.extend(rest.iter().map(|&id| (name, id)));
                        operands.extend(rest);
                        rest = &[];
                    }
                    Operand::Literals => {
                        operands.extend(rest);
                        rest = &[];
                    }
                    Operand::Memory { optional } => {
                        if optional && rest.is_empty() {
                            continue;
                        }
                        match take(&mut rest, name, "memory operands")? {
                            0 => operands.push(0),
                            2 => operands.push(take(&mut rest, name, "alignment")?),
                            mask => {
                                return Err(format!(
                                    "{name}: memory operands {mask:#x} unsupported"
                                ));
                            }
                        }
                    }
                    Operand::TensorAddressing => {
                        match take(&mut rest, name, "tensor addressing operands")? {
                            0 => {}
                            1 => operands.push(used(take(&mut rest, name, "tensor view")?)?),
                            mask => {
                                return Err(format!(
                                    "{name}: tensor addressing operands {mask:#x} unsupported"
                                ));
                            }
                        }
                    }
                }
                if i + 1 == spec.operands.len() && !rest.is_empty() {
                    return Err(format!("{name}: {} extra words", rest.len()));
                }
            }
            if spec.operands.is_empty() && !rest.is_empty() {
                return Err(format!("{name}: {} extra words", rest.len()));
            }
            let instruction = Instruction {
                opcode,
                ty,
                id,
                operands,
            };
            let o = &instruction.operands;
            // The module's global state.
            match opcode {
                17 => {
                    capabilities.insert(o[0]);
                }
                14 => memory_model = Some((o[0], o[1])),
                15 => {
                    if o[0] != 5 {
                        return Err(format!("OpEntryPoint: execution model {}", o[0]));
                    }
                    let (entry, _) = string(&o[2..])?;
                    module.entry = (entry, o[1]);
                }
                16 => match o[1..] {
                    [17, x, y, z] => module.local_size = Some([x, y, z]),
                    _ => return Err(format!("OpExecutionMode {:?} unsupported", &o[1..])),
                },
                71 => decorations
                    .entry(o[0])
                    .or_default()
                    .push((None, o[1..].to_vec())),
                72 => decorations
                    .entry(o[0])
                    .or_default()
                    .push((Some(o[1]), o[2..].to_vec())),
                19..=33 | 4456 | 5370 | 5371 => {
                    let ty = module.declare(&instruction)?;
                    module.types.insert(id, ty);
                }
                42..=44 => {
                    let value = module.constant(&instruction)?;
                    module.constants.insert(id, value);
                }
                59 if !in_function => variables.push(Instruction {
                    operands: o.clone(),
                    ..instruction
                }),
                _ => {}
            }
            if section != Section::Function {
                continue;
            }
            // The function: one, of blocks; variables at the start of the first.
            match opcode {
                54 => {
                    if in_function || functions > 0 {
                        return Err("OpFunction: only one function is supported".into());
                    }
                    (in_function, functions) = (true, 1);
                    continue;
                }
                56 => {
                    if in_block || !in_function {
                        return Err("OpFunctionEnd in an open block".into());
                    }
                    in_function = false;
                    continue;
                }
                _ if !in_function => return Err(format!("{name} outside the function")),
                248 => {
                    if in_block {
                        return Err(format!("OpLabel %{id} in an open block"));
                    }
                    variables_open = module.labels.is_empty();
                    in_block = true;
                    module.labels.insert(id, module.function.len());
                }
                _ if !in_block => return Err(format!("{name} outside a block")),
                59 => {
                    if !variables_open {
                        return Err(format!(
                            "OpVariable %{id} not at the start of the first block"
                        ));
                    }
                    if o[0] != FUNCTION {
                        return Err(format!("OpVariable %{id} of storage class {}", o[0]));
                    }
                }
                _ => variables_open = false,
            }
            if merge && !matches!(opcode, 249 | 250) {
                return Err(format!("{name} after a merge instruction"));
            }
            merge = opcode == 246;
            if matches!(opcode, 249 | 250 | 253) {
                in_block = false;
            }
            module.check(&instruction)?;
            module.function.push(instruction);
        }
        if in_function || functions == 0 {
            return Err("no whole function".into());
        }
        for (name, id) in forward {
            if !defined.contains(&id) {
                return Err(format!("{name}: %{id} never defined"));
            }
        }
        for (name, id) in label_refs {
            if !module.labels.contains_key(&id) {
                return Err(format!("{name}: %{id} is not a label of the function"));
            }
        }
        // SPV_KHR_cooperative_matrix: with Shader, the Vulkan memory model (spirv-val
        // checks the capability and the model it declares).
        let vulkan = capabilities.contains(&5345) && memory_model == Some((0, 3));
        if capabilities.contains(&1) && capabilities.contains(&6022) && !vulkan {
            return Err(format!(
                "CooperativeMatrixKHR in a shader without the VulkanMemoryModel capability and \
                 the Logical Vulkan memory model ({memory_model:?})"
            ));
        }
        module.check_capabilities(&capabilities)?;
        if module.entry.1 == 0 {
            return Err("no entry point".into());
        }
        module.variables(&variables, &decorations)?;
        Ok(module)
    }

    /// That the 16-bit types declared have their capabilities (spirv-val's checks):
    /// Float16 for f16, BFloat16TypeKHR for bf16 and BFloat16CooperativeMatrixKHR for
    /// matrices of bf16.
    fn check_capabilities(&self, capabilities: &HashSet<u32>) -> Result<(), String> {
        for (&id, ty) in &self.types {
            let needed: &[(u32, &str)] = match ty {
                Type::Float(Format::F16) => &[(9, "Float16")],
                Type::Float(Format::Bf16) => &[(5116, "BFloat16TypeKHR")],
                &Type::Matrix { component, .. } if self.format(component)? == Format::Bf16 => {
                    &[(5118, "BFloat16CooperativeMatrixKHR")]
                }
                _ => &[],
            };
            if let Some((_, name)) = needed.iter().find(|(c, _)| !capabilities.contains(c)) {
                return Err(format!("%{id} = {ty:?} without the {name} capability"));
            }
        }
        Ok(())
    }

    /// The format of float type `id`.
    fn format(&self, id: u32) -> Result<Format, String> {
        match self.ty(id)? {
            &Type::Float(format) => Ok(format),
            other => Err(format!("%{id} = {other:?} is no float type")),
        }
    }

    /// The format of the components of matrix type `id`.
    fn matrix_format(&self, id: u32) -> Result<Format, String> {
        match self.ty(id)? {
            &Type::Matrix { component, .. } => self.format(component),
            other => Err(format!("%{id} = {other:?} is no matrix type")),
        }
    }

    fn ty(&self, id: u32) -> Result<&Type, String> {
        self.types.get(&id).ok_or(format!("%{id} is not a type"))
    }

    fn u32_constant(&self, id: u32) -> Result<u32, String> {
        match self.constants.get(&id) {
            Some(Value::U32(v)) => Ok(*v),
            _ => Err(format!("%{id} is not a u32 constant")),
        }
    }

    /// The type a type declaration declares.
    fn declare(&self, i: &Instruction) -> Result<Type, String> {
        let o = &i.operands;
        Ok(match i.opcode {
            19 => Type::Void,
            20 => Type::Bool,
            21 => Type::Int {
                width: o[0],
                signed: o[1] != 0,
            },
            22 => match o[..] {
                [16] => Type::Float(Format::F16),
                [32] => Type::Float(Format::F32),
                // `SPV_KHR_bfloat16`'s encoding.
                [16, 0] => Type::Float(Format::Bf16),
                _ => return Err(format!("OpTypeFloat {o:?} unsupported")),
            },
            23 => Type::Vector {
                component: o[0],
                count: o[1],
            },
            29 => Type::RuntimeArray { element: o[0] },
            30 => Type::Struct { members: o.clone() },
            32 => Type::Pointer {
                class: o[0],
                pointee: o[1],
            },
            33 => Type::Function,
            4456 => {
                let [component, scope, rows, cols, usage] = [0, 1, 2, 3, 4].map(|k| o[k]);
                if !matches!(self.ty(component)?, Type::Float(_)) {
                    return Err(format!(
                        "matrix %{}: component %{component} not f16, bf16 or f32",
                        i.id
                    ));
                }
                Type::Matrix {
                    component,
                    scope: self.u32_constant(scope)?,
                    rows: self.u32_constant(rows)?,
                    cols: self.u32_constant(cols)?,
                    usage: self.u32_constant(usage)?,
                }
            }
            5370 => match self.u32_constant(o[1])? {
                clamp @ (CLAMP_UNDEFINED | CLAMP_CONSTANT) => Type::Layout {
                    dims: self.u32_constant(o[0])?,
                    clamp,
                },
                clamp => return Err(format!("layout %{}: clamp mode {clamp} unsupported", i.id)),
            },
            5371 => {
                let dims = self.u32_constant(o[0])?;
                if !matches!(self.constants.get(&o[1]), Some(Value::Bool(false))) {
                    return Err(format!("view %{}: only views without dimensions", i.id));
                }
                let permutation = o[2..]
                    .iter()
                    .map(|&p| self.u32_constant(p))
                    .collect::<Result<Vec<u32>, String>>()?;
                let mut sorted = permutation.clone();
                sorted.sort_unstable();
                if sorted != (0..dims).collect::<Vec<u32>>() {
                    return Err(format!("view %{}: {permutation:?} is no permutation", i.id));
                }
                Type::View { permutation }
            }
            _ => return Err(format!("type declaration {:?} unsupported", i.opcode)),
        })
    }

    /// The value of a constant instruction.
    fn constant(&self, i: &Instruction) -> Result<Value, String> {
        let ty = self.ty(i.ty)?;
        match (i.opcode, ty, &i.operands[..]) {
            (42, Type::Bool, &[]) => Ok(Value::Bool(false)),
            (43, Type::Int { width: 32, .. }, &[v]) => Ok(Value::U32(v)),
            (43, &Type::Float(format), &[v]) if format == Format::F32 || v >> 16 == 0 => Ok(
                Value::Float(format.decode(&v.to_le_bytes()[..format.bytes()])),
            ),
            (
                44,
                &Type::Matrix {
                    component,
                    rows,
                    cols,
                    ..
                },
                &[fill],
            ) if self.type_of.get(&fill) == Some(&component) => {
                let Some(&Value::Float(v)) = self.constants.get(&fill) else {
                    return Err(format!("%{}: fill %{fill} not a float constant", i.id));
                };
                let [rows, cols] = [rows, cols].map(|x| x as usize);
                Ok(Value::Matrix(Rc::new(Matrix {
                    rows,
                    cols,
                    data: vec![v; rows * cols],
                })))
            }
            _ => Err(format!(
                "constant %{} of type {ty:?} from {:?} unsupported",
                i.id, i.operands
            )),
        }
    }

    /// The global variables: storage buffers (a block of one runtime array, at a binding of
    /// set 0) and the `WorkgroupId` input.
    fn variables(
        &mut self,
        variables: &[Instruction],
        decorations: &Decorations,
    ) -> Result<(), String> {
        let decorated = |id: u32, member: Option<u32>, decoration: u32| {
            decorations.get(&id).and_then(|all| {
                all.iter()
                    .find(|(m, d)| *m == member && d.first() == Some(&decoration))
                    .map(|(_, d)| d[1..].to_vec())
            })
        };
        for v in variables {
            let &Type::Pointer { class, pointee } = self.ty(v.ty)? else {
                return Err(format!("variable %{}: not of a pointer type", v.id));
            };
            if v.operands != [class] {
                return Err(format!("variable %{}: storage class or initialiser", v.id));
            }
            match class {
                STORAGE_BUFFER => {
                    let Type::Struct { members } = self.ty(pointee)? else {
                        return Err(format!("buffer %{}: not a struct", v.id));
                    };
                    let &[array] = &members[..] else {
                        return Err(format!("buffer %{}: not one member", v.id));
                    };
                    let &Type::RuntimeArray { element } = self.ty(array)? else {
                        return Err(format!("buffer %{}: not a runtime array", v.id));
                    };
                    if decorated(pointee, None, 2).is_none() {
                        return Err(format!("buffer %{}: not a Block", v.id));
                    }
                    let set = decorated(v.id, None, 34);
                    let Some(&[binding]) = decorated(v.id, None, 33).as_deref() else {
                        return Err(format!("buffer %{}: no binding", v.id));
                    };
                    if set.as_deref() != Some(&[0]) {
                        return Err(format!("buffer %{}: descriptor set {set:?}", v.id));
                    }
                    let writable = decorated(pointee, Some(0), 24).is_none();
                    self.buffers.insert(
                        v.id,
                        Buffer {
                            binding,
                            element,
                            writable,
                        },
                    );
                }
                INPUT if decorated(v.id, None, 11).as_deref() == Some(&[26]) => {
                    self.workgroup_id = Some(v.id);
                }
                _ => return Err(format!("variable %{} of storage class {class}", v.id)),
            }
        }
        Ok(())
    }

    /// The static checks of a function instruction: operand and result types.
    fn check(&self, i: &Instruction) -> Result<(), String> {
        let o = &i.operands;
        let type_of = |id: u32| {
            self.type_of
                .get(&id)
                .copied()
                .ok_or(format!("%{id} has no type"))
        };
        let matrix = |ty: u32| match self.ty(ty)? {
            &Type::Matrix {
                component,
                scope,
                rows,
                cols,
                usage,
            } if scope == WORKGROUP => Ok((component, rows, cols, usage)),
            other => Err(format!("%{ty} ({other:?}) is no workgroup-scope matrix")),
        };
        let pointee = |pointer: u32| match self.ty(type_of(pointer)?)? {
            &Type::Pointer { pointee, .. } => Ok(pointee),
            other => Err(format!("%{pointer} ({other:?}) is no pointer")),
        };
        let u32_ = |ty: u32| match self.ty(ty)? {
            Type::Int {
                width: 32,
                signed: false,
            } => Ok(()),
            other => Err(format!("{other:?} where u32 is expected")),
        };
        match i.opcode {
            61 if pointee(o[0])? != i.ty => {
                Err(format!("OpLoad %{}: not of %{}'s pointee", i.id, o[0]))
            }
            62 if pointee(o[0])? != type_of(o[1])? => {
                Err(format!("OpStore: %{} not of %{}'s pointee", o[1], o[0]))
            }
            128 | 130 | 132 | 134 | 137 | 170 | 174 | 176 | 194 | 196..=199 => {
                for &x in &o[..2] {
                    u32_(type_of(x)?)?;
                }
                match i.opcode {
                    170 | 174 | 176 if self.ty(i.ty)? != &Type::Bool => {
                        Err(format!("%{}: a comparison not of bool type", i.id))
                    }
                    170 | 174 | 176 => Ok(()),
                    _ => u32_(i.ty),
                }
            }
            167 if [type_of(o[0])?, type_of(o[1])?, i.ty]
                .iter()
                .any(|&t| self.ty(t).ok() != Some(&Type::Bool)) =>
            {
                Err(format!("OpLogicalAnd %{}: not of bools", i.id))
            }
            169 if self.ty(type_of(o[0])?)? != &Type::Bool
                || type_of(o[1])? != i.ty
                || type_of(o[2])? != i.ty =>
            {
                Err(format!(
                    "OpSelect %{}: not a bool and two values of its type",
                    i.id
                ))
            }
            5377 if !matches!(self.ty(i.ty)?, Type::View { .. }) => {
                Err(format!("%{}: not of a tensor view type", i.id))
            }
            4459 => {
                let (_, rows, k, a) = matrix(type_of(o[0])?)?;
                let (_, k_b, cols, b) = matrix(type_of(o[1])?)?;
                let (_, rows_c, cols_c, c) = matrix(type_of(o[2])?)?;
                if type_of(o[2])? != i.ty
                    || [a, b, c] != [0, 1, 2]
                    || [k_b, rows_c, cols_c] != [k, rows, cols]
                    || !matches!(o[3..], [] | [0])
                {
                    return Err(format!(
                        "OpCooperativeMatrixMulAddKHR %{}: A {rows}×{k} (use {a}), B \
                         {k_b}×{cols} (use {b}), C {rows_c}×{cols_c} (use {c}), operands {:?}",
                        i.id,
                        &o[3..]
                    ));
                }
                Ok(())
            }
            115 => {
                // Matrices only (the kernel's f16 sums to f32 C): the same shape and use.
                let (from, rows, cols, usage) = matrix(type_of(o[0])?)?;
                let (to, rows_to, cols_to, usage_to) = matrix(i.ty)?;
                let float = |ty| matches!(self.ty(ty), Ok(Type::Float { .. }));
                if [rows_to, cols_to, usage_to] != [rows, cols, usage] || !float(from) || !float(to)
                {
                    return Err(format!(
                        "OpFConvert %{}: not a float matrix of %{}'s shape and use",
                        i.id, o[0]
                    ));
                }
                Ok(())
            }
            5367 | 5368 => {
                let (pointer, object, layout) = (o[0], o[1], o[2]);
                let ty = match i.opcode {
                    5367 if type_of(object)? != i.ty => {
                        return Err(format!("%{}: object %{object} of another type", i.id));
                    }
                    5367 => i.ty,
                    _ => type_of(object)?,
                };
                let (component, ..) = matrix(ty)?;
                let &Type::Pointer { class, pointee } = self.ty(type_of(pointer)?)? else {
                    return Err(format!("%{pointer} is no pointer"));
                };
                if class != STORAGE_BUFFER || pointee != component {
                    return Err(format!(
                        "tensor load or store: pointer %{pointer} is not to a storage buffer's \
                         %{component}"
                    ));
                }
                if let Some(&view) = o.get(4) {
                    match self.ty(type_of(view)?)? {
                        Type::View { permutation } if permutation.len() == 2 => {}
                        other => return Err(format!("%{view} ({other:?}) is no 2-D tensor view")),
                    }
                }
                match self.ty(type_of(layout)?)? {
                    Type::Layout { dims: 2, .. } => Ok(()),
                    other => Err(format!("%{layout} ({other:?}) is no 2-D tensor layout")),
                }
            }
            5372..=5375 => {
                let &Type::Layout { dims, .. } = self.ty(i.ty)? else {
                    return Err(format!("%{}: not of a tensor layout type", i.id));
                };
                let values = match i.opcode {
                    5372 => return Ok(()),
                    5375 => 2 * dims as usize,
                    _ => dims as usize,
                };
                if type_of(o[0])? != i.ty || o.len() != 1 + values {
                    return Err(format!(
                        "%{}: layout %{} of another type, or not {values} values",
                        i.id, o[0]
                    ));
                }
                o[1..].iter().try_for_each(|&x| u32_(type_of(x)?))
            }
            _ => Ok(()),
        }
    }
}

/// The most instructions one workgroup may execute: a loop that never ends is an error.
const STEPS: usize = 1 << 24;

impl Module {
    /// The entry point's name and its workgroup size (`LocalSize`), where given.
    pub fn entry(&self) -> (&str, Option<[u32; 3]>) {
        (&self.entry.0, self.local_size)
    }

    /// Runs the entry point once per workgroup of `groups`, on `buffers` (by binding: the
    /// bytes of each storage buffer's runtime array).
    pub fn dispatch(&self, groups: [u32; 3], buffers: &mut [Vec<u8>]) -> Result<(), String> {
        for z in 0..groups[2] {
            for y in 0..groups[1] {
                for x in 0..groups[0] {
                    self.workgroup([x, y, z], buffers)
                        .map_err(|e| format!("workgroup ({x}, {y}, {z}): {e}"))?;
                }
            }
        }
        Ok(())
    }

    /// The function, as the one logical invocation of workgroup `group`.
    fn workgroup(&self, group: [u32; 3], buffers: &mut [Vec<u8>]) -> Result<(), String> {
        let mut values: Vec<Option<Value>> = vec![None; self.bound as usize];
        for (&id, value) in &self.constants {
            values[id as usize] = Some(value.clone());
        }
        // The variables' contents, by id: `None` until stored.
        let mut variables: HashMap<u32, Option<Value>> = HashMap::new();
        if let Some(id) = self.workgroup_id {
            variables.insert(id, Some(Value::Vector(group.to_vec())));
        }
        // The global variables' pointers (a buffer's only to its elements, through
        // `OpAccessChain`).
        for &id in self.buffers.keys().chain(&self.workgroup_id) {
            values[id as usize] = Some(Value::Pointer(Pointer::Variable(id)));
        }
        let mut at = 0;
        for _ in 0..STEPS {
            let i = &self.function[at];
            at += 1;
            let o = &i.operands;
            let get = |id: u32| {
                values[id as usize]
                    .clone()
                    .ok_or(format!("%{id} read before it was computed"))
            };
            let u32_ = |id: u32| match get(id)? {
                Value::U32(v) => Ok(v),
                other => Err(format!("%{id} = {other:?} is no u32")),
            };
            let layout = |id: u32| match get(id)? {
                Value::Layout(l) => Ok(l),
                other => Err(format!("%{id} = {other:?} is no tensor layout")),
            };
            // A tensor load's or store's view, its operand after the memory operand.
            let view = |o: &[u32]| match o.get(4) {
                None => Ok(None),
                Some(&id) => match get(id)? {
                    Value::View(permutation) => Ok(Some(permutation)),
                    other => Err(format!("%{id} = {other:?} is no tensor view")),
                },
            };
            let result = match i.opcode {
                248 | 246 => None,
                249 => {
                    at = self.labels[&o[0]];
                    None
                }
                250 => {
                    let Value::Bool(taken) = get(o[0])? else {
                        return Err(format!("%{} is no bool", o[0]));
                    };
                    at = self.labels[&o[if taken { 1 } else { 2 }]];
                    None
                }
                253 => return Ok(()),
                59 => {
                    variables.insert(i.id, None);
                    Some(Value::Pointer(Pointer::Variable(i.id)))
                }
                61 | 62 => {
                    let Value::Pointer(Pointer::Variable(var)) = get(o[0])? else {
                        return Err(format!("%{}: only variables are loaded and stored", o[0]));
                    };
                    let slot = variables
                        .get_mut(&var)
                        .ok_or(format!("%{var} is no function variable or input"))?;
                    if i.opcode == 61 {
                        Some(
                            slot.clone()
                                .ok_or(format!("%{var} read before it was written"))?,
                        )
                    } else if Some(var) == self.workgroup_id {
                        return Err("a store to the WorkgroupId input".into());
                    } else {
                        *slot = Some(get(o[1])?);
                        None
                    }
                }
                65 => {
                    let buffer = self
                        .buffers
                        .get(&o[0])
                        .ok_or(format!("OpAccessChain into %{}, no storage buffer", o[0]))?;
                    let &[member, index] = &o[1..] else {
                        return Err("OpAccessChain: not (member, element)".into());
                    };
                    let ok = u32_(member)? == 0
                        && self.ty(i.ty)?
                            == &Type::Pointer {
                                class: STORAGE_BUFFER,
                                pointee: buffer.element,
                            };
                    if !ok {
                        return Err(format!("OpAccessChain %{}: not to an element", i.id));
                    }
                    Some(Value::Pointer(Pointer::Element {
                        binding: buffer.binding,
                        index: u64::from(u32_(index)?),
                    }))
                }
                81 => match (get(o[0])?, &o[1..]) {
                    (Value::Vector(v), &[k]) if (k as usize) < v.len() => {
                        Some(Value::U32(v[k as usize]))
                    }
                    (value, indices) => {
                        return Err(format!("OpCompositeExtract {indices:?} of {value:?}"));
                    }
                },
                128 | 130 | 132 | 134 | 137 | 170 | 174 | 176 | 194 | 196..=199 => {
                    let (x, y) = (u32_(o[0])?, u32_(o[1])?);
                    Some(match i.opcode {
                        128 => Value::U32(x.wrapping_add(y)),
                        130 => Value::U32(x.wrapping_sub(y)),
                        132 => Value::U32(x.wrapping_mul(y)),
                        170 => Value::Bool(x == y),
                        174 => Value::Bool(x >= y),
                        176 => Value::Bool(x < y),
                        197 => Value::U32(x | y),
                        198 => Value::U32(x ^ y),
                        199 => Value::U32(x & y),
                        // SPIR-V leaves a shift by the width or more undefined.
                        194 | 196 if y >= 32 => {
                            return Err(format!("%{}: a shift by {y}", i.id));
                        }
                        194 => Value::U32(x >> y),
                        196 => Value::U32(x << y),
                        _ if y == 0 => return Err(format!("%{}: division by zero", i.id)),
                        134 => Value::U32(x / y),
                        _ => Value::U32(x % y),
                    })
                }
                167 | 169 => {
                    let Value::Bool(first) = get(o[0])? else {
                        return Err(format!("%{} is no bool", o[0]));
                    };
                    match i.opcode {
                        167 => match get(o[1])? {
                            Value::Bool(second) => Some(Value::Bool(first && second)),
                            other => return Err(format!("%{} = {other:?} is no bool", o[1])),
                        },
                        _ => Some(get(if first { o[1] } else { o[2] })?),
                    }
                }
                5377 => {
                    let Type::View { permutation } = self.ty(i.ty)? else {
                        unreachable!("checked when parsed")
                    };
                    Some(Value::View(permutation.clone()))
                }
                5372 => {
                    let &Type::Layout { dims, clamp } = self.ty(i.ty)? else {
                        unreachable!("checked when parsed")
                    };
                    let zeros = vec![0; dims as usize];
                    Some(Value::Layout(Rc::new(Layout {
                        clamp,
                        dimension: zeros.clone(),
                        stride: zeros.clone(),
                        offset: vec![0; dims as usize],
                        span: zeros,
                    })))
                }
                5373..=5375 => {
                    let mut l = (*layout(o[0])?).clone();
                    let v = o[1..]
                        .iter()
                        .map(|&x| u32_(x))
                        .collect::<Result<Vec<_>, _>>()?;
                    match i.opcode {
                        // Dimensions and spans; offsets 0; packed row-major strides.
                        5373 => {
                            let mut stride = 1u32;
                            for d in (0..v.len()).rev() {
                                l.stride[d] = stride;
                                stride = stride.wrapping_mul(v[d]);
                            }
                            l.dimension = v.clone();
                            l.span = v;
                            l.offset.fill(0);
                        }
                        5374 => l.stride = v,
                        _ => {
                            for (d, pair) in v.chunks_exact(2).enumerate() {
                                l.offset[d] += i64::from(pair[0] as i32);
                                l.span[d] = pair[1];
                            }
                        }
                    }
                    Some(Value::Layout(Rc::new(l)))
                }
                5367 => {
                    let &Type::Matrix {
                        component,
                        rows,
                        cols,
                        ..
                    } = self.ty(i.ty)?
                    else {
                        unreachable!("checked when parsed")
                    };
                    let (binding, addresses) =
                        Self::addresses(&get(o[0])?, &*layout(o[2])?, view(o)?, rows, cols)?;
                    let format = self.format(component)?;
                    let bytes = buffers
                        .get(binding as usize)
                        .ok_or(format!("no buffer at binding {binding}"))?;
                    // Past the tensor (clamp mode Constant): the clamp value, zero.
                    let data = addresses
                        .iter()
                        .map(|&a| a.map_or(Some(0.0), |a| read(bytes, a, format)).ok_or(a))
                        .collect::<Result<Vec<f32>, Option<u64>>>()
                        .map_err(|a| {
                            format!("%{}: element {a:?} outside binding {binding}", i.id)
                        })?;
                    let [rows, cols] = [rows, cols].map(|x| x as usize);
                    Some(Value::Matrix(Rc::new(Matrix { rows, cols, data })))
                }
                5368 => {
                    let Value::Matrix(m) = get(o[1])? else {
                        return Err(format!("%{} is no matrix", o[1]));
                    };
                    let &Type::Matrix { component, .. } = self.ty(self.type_of[&o[1]])? else {
                        unreachable!("checked when parsed")
                    };
                    let [rows, cols] = [m.rows, m.cols].map(|x| x as u32);
                    let (binding, addresses) =
                        Self::addresses(&get(o[0])?, &*layout(o[2])?, view(o)?, rows, cols)?;
                    if !self
                        .buffers
                        .values()
                        .any(|b| b.binding == binding && b.writable)
                    {
                        return Err(format!("a store to binding {binding}, NonWritable"));
                    }
                    let format = self.format(component)?;
                    let bytes = buffers
                        .get_mut(binding as usize)
                        .ok_or(format!("no buffer at binding {binding}"))?;
                    // Past the tensor (clamp mode Constant): dropped.
                    for (&a, &v) in addresses.iter().zip(&m.data) {
                        if let Some(a) = a {
                            write(bytes, a, format, v)
                                .ok_or(format!("element {a} outside binding {binding}"))?;
                        }
                    }
                    None
                }
                115 => {
                    let Value::Matrix(m) = get(o[0])? else {
                        return Err(format!("%{} is no matrix", o[0]));
                    };
                    let format = self.matrix_format(i.ty)?;
                    Some(Value::Matrix(Rc::new(Matrix {
                        rows: m.rows,
                        cols: m.cols,
                        data: m.data.iter().map(|&v| format.round(v.into())).collect(),
                    })))
                }
                4459 => {
                    let matrix = |id| match get(id)? {
                        Value::Matrix(m) => Ok(m),
                        other => Err(format!("%{id} = {other:?} is no matrix")),
                    };
                    let (a, b, c) = (matrix(o[0])?, matrix(o[1])?, matrix(o[2])?);
                    let format = self.matrix_format(i.ty)?;
                    Some(Value::Matrix(Rc::new(multiply_add(&a, &b, &c, format))))
                }
                opcode => unreachable!("opcode {opcode} accepted by the parser"),
            };
            if let Some(value) = result {
                values[i.id as usize] = Some(value);
            }
        }
        Err(format!("no OpReturn within {STEPS} instructions"))
    }

    /// The binding `pointer` points into, and the index in its array of each element of a
    /// `rows × cols` matrix (row-major) through layout `l` and, where given, a view of that
    /// permutation (`matrixCoordToTensorElement` and its `WithView` form: block size 1, the
    /// view without dimensions or clipping); `None` for an element past the tensor where the
    /// layout clamps (mode Constant), an error where it does not (mode Undefined).
    fn addresses(
        pointer: &Value,
        l: &Layout,
        view: Option<Vec<u32>>,
        rows: u32,
        cols: u32,
    ) -> Result<(u32, Vec<Option<u64>>), String> {
        let &Value::Pointer(Pointer::Element {
            binding,
            index: base,
        }) = pointer
        else {
            return Err(format!("{pointer:?} is no pointer to a buffer's element"));
        };
        let elements = l.span.iter().map(|&s| u64::from(s)).product::<u64>();
        if elements != u64::from(rows) * u64::from(cols) || l.span.len() != 2 {
            return Err(format!(
                "a slice spanning {:?} for a matrix of {rows} × {cols}",
                l.span
            ));
        }
        let dims = l.span.len();
        let mut addresses = Vec::with_capacity(rows as usize * cols as usize);
        let mut coordinate = vec![0; dims];
        for row in 0..rows {
            'element: for col in 0..cols {
                let mut index = row * cols + col;
                if let Some(permutation) = &view {
                    // The index as a coordinate of the view (its dimensions the span's, in
                    // permuted order), then back to an index of the span.
                    let mut view_coordinate = vec![0; dims];
                    for d in (0..dims).rev() {
                        let p = permutation[d] as usize;
                        view_coordinate[p] = index % l.span[p];
                        index /= l.span[p];
                    }
                    index = 0;
                    let mut stride = 1;
                    for d in (0..dims).rev() {
                        index += view_coordinate[d] * stride;
                        stride *= l.span[d];
                    }
                }
                for d in (0..dims).rev() {
                    coordinate[d] = index % l.span[d];
                    index /= l.span[d];
                }
                let mut address = base;
                for (d, &x) in coordinate.iter().enumerate() {
                    let c = i64::from(x) + l.offset[d];
                    if c < 0 || c >= i64::from(l.dimension[d]) {
                        if l.clamp == CLAMP_CONSTANT {
                            addresses.push(None);
                            continue 'element;
                        }
                        return Err(format!(
                            "element ({row}, {col}) at {c} of dimension {d} outside the tensor \
                             ({:?}; clamp mode Undefined)",
                            l.dimension
                        ));
                    }
                    address += c as u64 * u64::from(l.stride[d]);
                }
                addresses.push(Some(address));
            }
        }
        Ok((binding, addresses))
    }
}

/// Element `at` of `bytes`, in `format`; `None` outside.
fn read(bytes: &[u8], at: u64, format: Format) -> Option<f32> {
    let size = format.bytes();
    let start = usize::try_from(at).ok()?.checked_mul(size)?;
    Some(format.decode(bytes.get(start..start + size)?))
}

/// Writes `value` to element `at` of `bytes`, in `format`; `None` outside.
fn write(bytes: &mut [u8], at: u64, format: Format, value: f32) -> Option<()> {
    let size = format.bytes();
    let start = usize::try_from(at).ok()?.checked_mul(size)?;
    format.encode(value, bytes.get_mut(start..start + size)?);
    Some(())
}

/// `A × B + C`: each element's products summed exactly (f64: exact for f16 and bf16
/// operands of moderate exponents) onto C's, rounded once to the result's `format`.
fn multiply_add(a: &Matrix, b: &Matrix, c: &Matrix, format: Format) -> Matrix {
    let (rows, k, cols) = (a.rows, a.cols, b.cols);
    let mut data = Vec::with_capacity(rows * cols);
    let mut sums = vec![0f64; cols];
    // Index loops: this runs in unoptimised test builds, where iterator adaptors cost calls.
    for i in 0..rows {
        let mut j = 0;
        while j < cols {
            sums[j] = c.data[i * cols + j] as f64;
            j += 1;
        }
        for p in 0..k {
            let (x, row) = (a.data[i * k + p] as f64, &b.data[p * cols..(p + 1) * cols]);
            let mut j = 0;
            while j < cols {
                sums[j] += x * row[j] as f64;
                j += 1;
            }
        }
        data.extend(sums.iter().map(|&s| format.round(s)));
    }
    Matrix { rows, cols, data }
}
