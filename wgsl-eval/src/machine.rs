//! The lockstep (SIMT) interpreter: one workgroup's invocations under a mask.

use crate::Error;
use crate::value::{Matrix, Pointee, Pointer, Root, Scalar, Target, Value, unsupported_scalar};
use half::f16;
use naga::{
    AddressSpace, ArraySize, Barrier, Binding, Block, BuiltIn, Expression, Function, Handle,
    MathFunction, Module, RelationalFunction, Statement, SwitchValue, TypeInner,
};
use std::collections::BTreeMap;
use std::ops::Range;
use std::rc::Rc;

/// Invocations per subgroup: consecutive runs of `local_invocation_index`.
pub const SUBGROUP_SIZE: usize = 32;

/// The most iterations one loop may run before it is reported as a hang.
const LOOP_LIMIT: u64 = 1 << 24;

/// The buffers of a dispatch, by `@group` and `@binding`: their bytes, little-endian.
#[derive(Clone, Debug, Default)]
pub struct Buffers {
    buffers: BTreeMap<(u32, u32), Vec<u8>>,
}

impl Buffers {
    pub fn new() -> Buffers {
        Buffers::default()
    }

    /// Binds `bytes` at `@group(group) @binding(binding)`.
    pub fn bind(&mut self, group: u32, binding: u32, bytes: Vec<u8>) {
        self.buffers.insert((group, binding), bytes);
    }

    /// The bytes bound at `@group(group) @binding(binding)`.
    pub fn get(&self, group: u32, binding: u32) -> Option<&[u8]> {
        self.buffers.get(&(group, binding)).map(Vec::as_slice)
    }
}

/// Calls the function `name` of `module` for one invocation with `u32` arguments; its
/// returned value.
pub fn call(module: &Module, name: &str, args: &[u32]) -> Result<Value, Error> {
    let function = module
        .functions
        .iter()
        .map(|(_, function)| function)
        .find(|function| function.name.as_deref() == Some(name))
        .ok_or_else(|| Error::new(format!("no function `{name}`")))?;
    if function.arguments.len() != args.len() {
        return Err(Error::new(format!(
            "`{name}` takes {} arguments, given {}",
            function.arguments.len(),
            args.len()
        )));
    }
    let mut machine = Machine::new(module, [1; 3], [1; 3]);
    let args = args
        .iter()
        .map(|&arg| vec![Value::Scalar(Scalar::U32(arg))])
        .collect();
    let mut returned = machine.run(name, function, args, &[true])?;
    match returned.pop() {
        Some(Value::Undefined) | None => Err(Error::new(format!("`{name}` returns nothing"))),
        Some(value) => Ok(value),
    }
}

/// Runs the compute entry point `entry` of `module` over `workgroups` workgroups (x, y,
/// z), its storage and uniform variables bound to `buffers` (written back there, also
/// where an error stops the dispatch).
pub fn dispatch(
    module: &Module,
    entry: &str,
    workgroups: [u32; 3],
    buffers: &mut Buffers,
) -> Result<(), Error> {
    let entry_point = module
        .entry_points
        .iter()
        .find(|e| e.name == entry && e.stage == naga::ShaderStage::Compute)
        .ok_or_else(|| Error::new(format!("no compute entry point `{entry}`")))?;
    if entry_point.workgroup_size_overrides.is_some() {
        return Err(Error::new(
            "a workgroup size from overrides is not supported",
        ));
    }
    let mut machine = Machine::new(module, entry_point.workgroup_size, workgroups);
    machine.bind(buffers)?;
    let result = machine.run_workgroups(entry, &entry_point.function);
    for (handle, variable) in module.global_variables.iter() {
        if let (Some(binding), Some(memory)) =
            (&variable.binding, machine.memories[handle.index()].take())
            && !memory.workgroup
        {
            buffers.bind(binding.group, binding.binding, memory.bytes);
        }
    }
    result
}

/// One byte's last write and read.
#[derive(Clone, Copy)]
struct Tag {
    write: Access,
    read: Access,
}

/// Who touched a byte: the workgroup, the barrier epoch within it, and the invocation (or
/// `lanes + s` for subgroup `s`'s cooperative operations, [`MANY`] for several readers).
#[derive(Clone, Copy, PartialEq)]
struct Access {
    group: u32,
    epoch: u32,
    who: u32,
}

const NOBODY: Access = Access {
    group: u32::MAX,
    epoch: 0,
    who: 0,
};
const MANY: u32 = u32::MAX;
const UNTOUCHED: Tag = Tag {
    write: NOBODY,
    read: NOBODY,
};

impl Access {
    /// Whether `self`'s access and `now`'s may happen in either order.
    fn races(self, now: Access) -> bool {
        self.group != NOBODY.group
            && (self.group != now.group || (self.epoch == now.epoch && self.who != now.who))
    }
}

/// A variable in bytes: a storage or uniform buffer, or a workgroup variable.
struct Memory {
    name: String,
    bytes: Vec<u8>,
    /// Per byte, where races can happen (writable memory); empty elsewhere.
    tags: Vec<Tag>,
    workgroup: bool,
}

/// A jump target: the lanes that left by `break` (and `continue`).
enum Jump {
    Loop {
        breaks: Vec<bool>,
        continues: Vec<bool>,
    },
    Switch {
        breaks: Vec<bool>,
    },
}

/// One call of a function, for all lanes.
struct Frame<'m> {
    name: &'m str,
    function: &'m Function,
    args: Vec<Vec<Value>>,
    /// Per expression evaluated per lane (emitted, or a statement's result): its values.
    values: Vec<Vec<Value>>,
    per_lane: Vec<bool>,
    /// The values of the other expressions (constants), the same in every lane.
    constants: Vec<Option<Value>>,
    locals: Vec<Vec<Value>>,
    returned: Vec<Value>,
    jumps: Vec<Jump>,
}

struct Machine<'m> {
    module: &'m Module,
    lanes: usize,
    workgroup_size: [u32; 3],
    workgroups: [u32; 3],
    group: [u32; 3],
    group_index: u32,
    /// Barriers passed in this workgroup.
    epoch: u32,
    /// Per global variable: its bytes where it lives in memory.
    memories: Vec<Option<Memory>>,
    /// Per global variable in the private address space: its value per lane.
    private: Vec<Vec<Value>>,
}

fn active(mask: &[bool]) -> impl Iterator<Item = usize> + '_ {
    mask.iter()
        .enumerate()
        .filter(|&(_, &on)| on)
        .map(|(lane, _)| lane)
}

fn type_size(module: &Module, ty: Handle<naga::Type>) -> Result<usize, Error> {
    Ok(match module.types[ty].inner {
        TypeInner::Scalar(scalar) => scalar.width as usize,
        TypeInner::Vector { size, scalar } => size as usize * scalar.width as usize,
        TypeInner::Array {
            size: ArraySize::Constant(n),
            stride,
            ..
        } => n.get() as usize * stride as usize,
        TypeInner::Struct { span, .. } => span as usize,
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => columns as usize * column_stride(rows, scalar),
        ref other => return Err(Error::new(format!("no size for {other:?}"))),
    })
}

/// Bytes from one column of a `matCxR` to the next in memory: a `vecR`'s alignment (a
/// `vec3`'s is a `vec4`'s).
fn column_stride(rows: naga::VectorSize, scalar: naga::Scalar) -> usize {
    let rows = match rows as usize {
        3 => 4,
        rows => rows,
    };
    rows * scalar.width as usize
}

impl<'m> Machine<'m> {
    fn new(module: &'m Module, workgroup_size: [u32; 3], workgroups: [u32; 3]) -> Machine<'m> {
        let lanes = workgroup_size.iter().product::<u32>() as usize;
        Machine {
            module,
            lanes,
            workgroup_size,
            workgroups,
            group: [0; 3],
            group_index: 0,
            epoch: 0,
            memories: module.global_variables.iter().map(|_| None).collect(),
            private: module.global_variables.iter().map(|_| Vec::new()).collect(),
        }
    }

    /// Takes the buffers of `buffers` for the module's storage and uniform variables and
    /// lays out its workgroup variables.
    fn bind(&mut self, buffers: &mut Buffers) -> Result<(), Error> {
        for (handle, variable) in self.module.global_variables.iter() {
            let name = variable.name.clone().unwrap_or_default();
            let memory = match variable.space {
                AddressSpace::Storage { .. } | AddressSpace::Uniform => {
                    let binding = variable
                        .binding
                        .as_ref()
                        .ok_or_else(|| Error::new(format!("`{name}` has no binding")))?;
                    let bytes = buffers
                        .buffers
                        .remove(&(binding.group, binding.binding))
                        .ok_or_else(|| {
                            Error::new(format!(
                                "no buffer bound at @group({}) @binding({}) for `{name}`",
                                binding.group, binding.binding
                            ))
                        })?;
                    let writable = matches!(variable.space, AddressSpace::Storage { access }
                        if access.contains(naga::StorageAccess::STORE));
                    let tags = match writable {
                        true => vec![UNTOUCHED; bytes.len()],
                        false => Vec::new(),
                    };
                    Memory {
                        name,
                        bytes,
                        tags,
                        workgroup: false,
                    }
                }
                AddressSpace::WorkGroup => {
                    let size = type_size(self.module, variable.ty)?;
                    Memory {
                        name,
                        bytes: vec![0; size],
                        tags: vec![UNTOUCHED; size],
                        workgroup: true,
                    }
                }
                AddressSpace::Private | AddressSpace::Function => continue,
                other => {
                    return Err(Error::new(format!(
                        "`{name}` is in the unsupported address space {other:?}"
                    )));
                }
            };
            self.memories[handle.index()] = Some(memory);
        }
        Ok(())
    }

    fn run_workgroups(&mut self, name: &'m str, function: &'m Function) -> Result<(), Error> {
        let [gx, gy, gz] = self.workgroups;
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    self.group = [x, y, z];
                    self.group_index = (z * gy + y) * gx + x;
                    self.epoch = 0;
                    self.start_workgroup()?;
                    let args = function
                        .arguments
                        .iter()
                        .map(|argument| self.entry_argument(argument))
                        .collect::<Result<_, _>>()?;
                    self.run(name, function, args, &vec![true; self.lanes])?;
                }
            }
        }
        Ok(())
    }

    /// Zeroes the workgroup variables and initialises the private ones.
    fn start_workgroup(&mut self) -> Result<(), Error> {
        for memory in self.memories.iter_mut().flatten() {
            if memory.workgroup {
                memory.bytes.fill(0);
                memory.tags.fill(UNTOUCHED);
            }
        }
        for (handle, variable) in self.module.global_variables.iter() {
            if variable.space == AddressSpace::Private {
                let value = match variable.init {
                    Some(init) => self.global_constant(init)?,
                    None => self.zero(variable.ty)?,
                };
                self.private[handle.index()] = vec![value; self.lanes];
            }
        }
        Ok(())
    }

    /// An entry point's argument per lane: a built-in value or a structure of them.
    fn entry_argument(&self, argument: &naga::FunctionArgument) -> Result<Vec<Value>, Error> {
        let builtin = |binding: &Option<Binding>| match binding {
            Some(Binding::BuiltIn(builtin)) => Ok(*builtin),
            other => Err(Error::new(format!(
                "an entry point argument bound to {other:?}: only built-ins are supported"
            ))),
        };
        (0..self.lanes)
            .map(
                |lane| match (&argument.binding, &self.module.types[argument.ty].inner) {
                    (None, TypeInner::Struct { members, .. }) => Ok(Value::Composite(Rc::new(
                        members
                            .iter()
                            .map(|member| self.builtin(builtin(&member.binding)?, lane))
                            .collect::<Result<_, _>>()?,
                    ))),
                    (binding, _) => self.builtin(builtin(binding)?, lane),
                },
            )
            .collect()
    }

    fn builtin(&self, builtin: BuiltIn, lane: usize) -> Result<Value, Error> {
        let [sx, sy, _] = self.workgroup_size.map(|s| s as usize);
        let local = [lane % sx, lane / sx % sy, lane / (sx * sy)].map(|v| v as u32);
        let vec3 = |v: [u32; 3]| Value::vector(&v.map(Scalar::U32));
        let u32 = |v: usize| Value::Scalar(Scalar::U32(v as u32));
        Ok(match builtin {
            BuiltIn::LocalInvocationIndex => u32(lane),
            BuiltIn::LocalInvocationId => vec3(local),
            BuiltIn::GlobalInvocationId => {
                vec3([0, 1, 2].map(|i| self.group[i] * self.workgroup_size[i] + local[i]))
            }
            BuiltIn::WorkGroupId => vec3(self.group),
            BuiltIn::NumWorkGroups => vec3(self.workgroups),
            BuiltIn::WorkGroupSize => vec3(self.workgroup_size),
            BuiltIn::SubgroupSize => u32(SUBGROUP_SIZE),
            BuiltIn::SubgroupInvocationId => u32(lane % SUBGROUP_SIZE),
            BuiltIn::SubgroupId => u32(lane / SUBGROUP_SIZE),
            BuiltIn::NumSubgroups => u32(self.lanes.div_ceil(SUBGROUP_SIZE)),
            other => return Err(Error::new(format!("unsupported built-in {other:?}"))),
        })
    }

    /// Runs `function` for the lanes of `mask`; the value each returned.
    fn run(
        &mut self,
        name: &'m str,
        function: &'m Function,
        args: Vec<Vec<Value>>,
        mask: &[bool],
    ) -> Result<Vec<Value>, Error> {
        let count = function.expressions.len();
        let mut per_lane = vec![false; count];
        mark_per_lane(&function.body, &mut per_lane);
        let mut frame = Frame {
            name,
            function,
            args,
            values: vec![Vec::new(); count],
            per_lane,
            constants: vec![None; count],
            locals: Vec::new(),
            returned: vec![Value::Undefined; mask.len()],
            jumps: Vec::new(),
        };
        for (_, local) in function.local_variables.iter() {
            let value = match local.init {
                Some(init) => self.operand(&mut frame, init, 0)?,
                None => self.zero(local.ty)?,
            };
            frame.locals.push(vec![value; mask.len()]);
        }
        let mut mask = mask.to_vec();
        self.block(&mut frame, &function.body, &mut mask)?;
        Ok(frame.returned)
    }

    /// Where an error happened.
    fn place(&self, frame: &Frame, lane: Option<usize>) -> String {
        let mut place = format!("in `{}`", frame.name);
        if let Some(lane) = lane {
            place += &format!(", invocation {lane}");
        }
        if self.lanes > 1 {
            place += &format!(" of workgroup {:?}", self.group);
        }
        place
    }

    /// Runs `block` for the lanes of `mask`, leaving in it the lanes that reach its end.
    fn block(
        &mut self,
        frame: &mut Frame<'m>,
        block: &'m Block,
        mask: &mut Vec<bool>,
    ) -> Result<(), Error> {
        for statement in block.iter() {
            if !mask.iter().any(|&on| on) {
                break;
            }
            self.statement(frame, statement, mask)?;
        }
        Ok(())
    }

    fn statement(
        &mut self,
        frame: &mut Frame<'m>,
        statement: &'m Statement,
        mask: &mut Vec<bool>,
    ) -> Result<(), Error> {
        let function = frame.function;
        match statement {
            Statement::Emit(range) => {
                for handle in range.clone() {
                    match function.expressions[handle] {
                        Expression::CooperativeLoad { .. }
                        | Expression::CooperativeMultiplyAdd { .. } => {
                            self.cooperative(frame, handle, mask)?
                        }
                        _ => {
                            for lane in active(mask) {
                                let value = self
                                    .eval(frame, handle, lane)
                                    .map_err(|e| e.context(self.place(frame, Some(lane))))?;
                                frame.set(handle, lane, value);
                            }
                        }
                    }
                }
            }
            Statement::Block(inner) => self.block(frame, inner, mask)?,
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let mut yes = mask.clone();
                let mut no = mask.clone();
                for lane in active(mask) {
                    let condition = self
                        .operand(frame, *condition, lane)
                        .and_then(|c| c.bool())
                        .map_err(|e| e.context(self.place(frame, Some(lane))))?;
                    match condition {
                        true => no[lane] = false,
                        false => yes[lane] = false,
                    }
                }
                self.block(frame, accept, &mut yes)?;
                self.block(frame, reject, &mut no)?;
                for (lane, on) in mask.iter_mut().enumerate() {
                    *on = yes[lane] || no[lane];
                }
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                frame.jumps.push(Jump::Loop {
                    breaks: vec![false; mask.len()],
                    continues: vec![false; mask.len()],
                });
                let mut running = mask.clone();
                let mut iterations = 0u64;
                while running.iter().any(|&on| on) {
                    iterations += 1;
                    if iterations > LOOP_LIMIT {
                        return Err(Error::new(format!(
                            "a loop ran {LOOP_LIMIT} iterations: stopped (a hang?)"
                        ))
                        .context(self.place(frame, None)));
                    }
                    self.block(frame, body, &mut running)?;
                    if let Some(Jump::Loop { continues, .. }) = frame.jumps.last_mut() {
                        for (lane, on) in running.iter_mut().enumerate() {
                            *on |= std::mem::take(&mut continues[lane]);
                        }
                    }
                    self.block(frame, continuing, &mut running)?;
                    if let Some(condition) = break_if {
                        for lane in active(&running.clone()) {
                            let stop = self
                                .operand(frame, *condition, lane)
                                .and_then(|c| c.bool())
                                .map_err(|e| e.context(self.place(frame, Some(lane))))?;
                            if stop {
                                running[lane] = false;
                                if let Some(Jump::Loop { breaks, .. }) = frame.jumps.last_mut() {
                                    breaks[lane] = true;
                                }
                            }
                        }
                    }
                }
                let Some(Jump::Loop { breaks, .. }) = frame.jumps.pop() else {
                    unreachable!("the loop's own jump target")
                };
                *mask = breaks;
            }
            Statement::Switch { selector, cases } => {
                let mut chosen = vec![usize::MAX; mask.len()];
                for lane in active(mask) {
                    let value = self.operand(frame, *selector, lane)?.scalar()?;
                    chosen[lane] = cases
                        .iter()
                        .position(|case| match (case.value, value) {
                            (SwitchValue::I32(v), Scalar::I32(s)) => v == s,
                            (SwitchValue::U32(v), Scalar::U32(s)) => v == s,
                            _ => false,
                        })
                        .or_else(|| cases.iter().position(|c| c.value == SwitchValue::Default))
                        .ok_or_else(|| Error::new("a switch without a default case"))?;
                }
                frame.jumps.push(Jump::Switch {
                    breaks: vec![false; mask.len()],
                });
                let mut falling = vec![false; mask.len()];
                let mut left = vec![false; mask.len()];
                for (index, case) in cases.iter().enumerate() {
                    let mut lanes: Vec<bool> = (0..mask.len())
                        .map(|lane| falling[lane] || (mask[lane] && chosen[lane] == index))
                        .collect();
                    self.block(frame, &case.body, &mut lanes)?;
                    match case.fall_through {
                        true => falling = lanes,
                        false => {
                            for lane in active(&lanes) {
                                left[lane] = true;
                            }
                            falling.fill(false);
                        }
                    }
                }
                let Some(Jump::Switch { breaks }) = frame.jumps.pop() else {
                    unreachable!("the switch's own jump target")
                };
                for (lane, on) in mask.iter_mut().enumerate() {
                    *on = left[lane] || breaks[lane] || falling[lane];
                }
            }
            Statement::Break => {
                let breaks = match frame.jumps.last_mut() {
                    Some(Jump::Loop { breaks, .. } | Jump::Switch { breaks }) => breaks,
                    None => return Err(Error::new("`break` outside a loop or switch")),
                };
                for lane in active(mask) {
                    breaks[lane] = true;
                }
                mask.fill(false);
            }
            Statement::Continue => {
                let continues = frame.jumps.iter_mut().rev().find_map(|jump| match jump {
                    Jump::Loop { continues, .. } => Some(continues),
                    Jump::Switch { .. } => None,
                });
                let continues = continues.ok_or_else(|| Error::new("`continue` outside a loop"))?;
                for lane in active(mask) {
                    continues[lane] = true;
                }
                mask.fill(false);
            }
            Statement::Return { value } => {
                if let Some(value) = value {
                    for lane in active(mask) {
                        frame.returned[lane] = self.operand(frame, *value, lane)?;
                    }
                }
                mask.fill(false);
            }
            Statement::ControlBarrier(flags) => {
                if !flags.intersects(Barrier::WORK_GROUP | Barrier::STORAGE | Barrier::TEXTURE) {
                    return Err(Error::new(format!("unsupported barrier {flags:?}"))
                        .context(self.place(frame, None)));
                }
                self.barrier(frame, mask)?;
            }
            // A memory barrier orders accesses without making invocations wait: no new
            // epoch for the race checks.
            Statement::MemoryBarrier(_) => {}
            Statement::WorkGroupUniformLoad { pointer, result } => {
                self.barrier(frame, mask)?;
                for lane in active(mask) {
                    let pointer = self.operand(frame, *pointer, lane)?;
                    let value = self
                        .load(frame, &pointer, lane)
                        .map_err(|e| e.context(self.place(frame, Some(lane))))?;
                    frame.set(*result, lane, value);
                }
                self.barrier(frame, mask)?;
            }
            Statement::Store { pointer, value } => {
                for lane in active(mask) {
                    let pointer = self.operand(frame, *pointer, lane)?;
                    let value = self.operand(frame, *value, lane)?;
                    self.store(frame, &pointer, value, lane)
                        .map_err(|e| e.context(self.place(frame, Some(lane))))?;
                }
            }
            Statement::Call {
                function: callee,
                arguments,
                result,
            } => {
                let mut args = Vec::with_capacity(arguments.len());
                for &argument in arguments {
                    let mut values = vec![Value::Undefined; mask.len()];
                    for lane in active(mask) {
                        values[lane] = self.operand(frame, argument, lane)?;
                    }
                    args.push(values);
                }
                let callee = &self.module.functions[*callee];
                let name = callee.name.as_deref().unwrap_or("?");
                let returned = self.run(name, callee, args, mask)?;
                if let Some(result) = result {
                    for lane in active(mask) {
                        frame.set(*result, lane, returned[lane].clone());
                    }
                }
            }
            Statement::CooperativeStore { target, data } => {
                for lanes in self.subgroups(frame, mask)? {
                    let who = (self.lanes + lanes.start / SUBGROUP_SIZE) as u32;
                    let matrix = match self.uniform(frame, *target, lanes.clone())? {
                        Value::Matrix(matrix) => matrix,
                        other => return Err(Error::new(format!("coopStore of {other:?}"))),
                    };
                    let pointer = self.uniform(frame, data.pointer, lanes.clone())?;
                    let stride = self.uniform(frame, data.stride, lanes.clone())?;
                    let places = self.matrix_places(&pointer, stride, &matrix, data.row_major)?;
                    for ((memory, offset), &element) in places.into_iter().zip(&matrix.elements) {
                        let scalar = match matrix.scalar.width {
                            2 => Scalar::F16(f16::from_f32(element)),
                            _ => Scalar::F32(element),
                        };
                        self.write_scalar(memory, offset, scalar, who)
                            .map_err(|e| e.context(self.place(frame, None)))?;
                    }
                }
            }
            other => {
                return Err(Error::new(format!("unsupported statement {other:?}"))
                    .context(self.place(frame, None)));
            }
        }
        Ok(())
    }

    /// A workgroup barrier: every invocation must reach it together.
    fn barrier(&mut self, frame: &Frame, mask: &[bool]) -> Result<(), Error> {
        let arrived = active(mask).count();
        if arrived != self.lanes {
            return Err(Error::new(format!(
                "a barrier reached by {arrived} of {} invocations (non-uniform control flow)",
                self.lanes
            ))
            .context(self.place(frame, None)));
        }
        self.epoch += 1;
        Ok(())
    }

    /// The lanes of each subgroup active in `mask` (all of its lanes, or an error).
    fn subgroups(&self, frame: &Frame, mask: &[bool]) -> Result<Vec<Range<usize>>, Error> {
        let mut out = Vec::new();
        for start in (0..mask.len()).step_by(SUBGROUP_SIZE) {
            let lanes = start..(start + SUBGROUP_SIZE).min(mask.len());
            let on = mask[lanes.clone()].iter().filter(|&&on| on).count();
            if on == lanes.len() {
                out.push(lanes);
            } else if on > 0 {
                return Err(Error::new(format!(
                    "a cooperative matrix operation by {on} of the {} lanes of subgroup {} \
                     (non-uniform control flow)",
                    lanes.len(),
                    start / SUBGROUP_SIZE
                ))
                .context(self.place(frame, None)));
            }
        }
        Ok(out)
    }

    /// `handle`'s value, which must be the same in every lane of `lanes`.
    fn uniform(
        &mut self,
        frame: &mut Frame<'m>,
        handle: Handle<Expression>,
        lanes: Range<usize>,
    ) -> Result<Value, Error> {
        let first = self.operand(frame, handle, lanes.start)?;
        for lane in lanes.clone().skip(1) {
            let value = self.operand(frame, handle, lane)?;
            let same = match (&first, &value) {
                (Value::Matrix(a), Value::Matrix(b)) => Rc::ptr_eq(a, b) || a == b,
                (a, b) => a == b,
            };
            if !same {
                return Err(Error::new(format!(
                    "an operand of a cooperative matrix operation differs between lanes {} and \
                     {lane} of a subgroup",
                    lanes.start
                ))
                .context(self.place(frame, Some(lane))));
            }
        }
        Ok(first)
    }

    /// Evaluates a cooperative load or multiply-add once per subgroup.
    fn cooperative(
        &mut self,
        frame: &mut Frame<'m>,
        handle: Handle<Expression>,
        mask: &[bool],
    ) -> Result<(), Error> {
        let function = frame.function;
        for lanes in self.subgroups(frame, mask)? {
            let matrix = match function.expressions[handle] {
                Expression::CooperativeLoad {
                    columns,
                    rows,
                    role,
                    ref data,
                } => {
                    let who = (self.lanes + lanes.start / SUBGROUP_SIZE) as u32;
                    let pointer = self.uniform(frame, data.pointer, lanes.clone())?;
                    let stride = self.uniform(frame, data.stride, lanes.clone())?;
                    let scalar = match &pointer {
                        Value::Pointer(Pointer(Target::Memory { pointee, .. })) => {
                            self.pointee_scalar(*pointee)?
                        }
                        other => return Err(Error::new(format!("coopLoad from {other:?}"))),
                    };
                    let mut matrix = Matrix {
                        rows: rows as usize,
                        columns: columns as usize,
                        scalar,
                        role,
                        elements: Vec::new(),
                    };
                    let places = self.matrix_places(&pointer, stride, &matrix, data.row_major)?;
                    for (memory, offset) in places {
                        let element = self
                            .read_scalar(memory, offset, scalar, who)
                            .and_then(Scalar::f32)
                            .map_err(|e| e.context(self.place(frame, None)))?;
                        matrix.elements.push(element);
                    }
                    matrix
                }
                Expression::CooperativeMultiplyAdd { a, b, c } => {
                    let operand = |machine: &mut Self, frame: &mut Frame<'m>, h| match machine
                        .uniform(frame, h, lanes.clone())?
                    {
                        Value::Matrix(matrix) => Ok(matrix),
                        other => Err(Error::new(format!("coopMultiplyAdd of {other:?}"))),
                    };
                    let (a, b, c) = (
                        operand(self, frame, a)?,
                        operand(self, frame, b)?,
                        operand(self, frame, c)?,
                    );
                    multiply_add(&a, &b, &c)?
                }
                _ => unreachable!("only cooperative expressions come here"),
            };
            let matrix = Value::Matrix(Rc::new(matrix));
            for lane in lanes {
                frame.set(handle, lane, matrix.clone());
            }
        }
        Ok(())
    }

    /// The scalar type a memory pointer's elements have.
    fn pointee_scalar(&self, pointee: Pointee) -> Result<naga::Scalar, Error> {
        match pointee {
            Pointee::Scalar(scalar) => Ok(scalar),
            Pointee::Type(ty) => match self.module.types[ty].inner {
                TypeInner::Scalar(scalar) | TypeInner::Vector { scalar, .. } => Ok(scalar),
                ref other => Err(Error::new(format!(
                    "a cooperative matrix in memory of {other:?}"
                ))),
            },
        }
    }

    /// The memory and byte offset of each element of `matrix` (row by row) at `pointer`,
    /// rows (`row_major`) or columns `stride` array elements apart.
    fn matrix_places(
        &self,
        pointer: &Value,
        stride: Value,
        matrix: &Matrix,
        row_major: bool,
    ) -> Result<Vec<(usize, usize)>, Error> {
        let Value::Pointer(Pointer(Target::Memory {
            memory,
            offset,
            pointee,
            element_stride: Some(element_stride),
        })) = *pointer
        else {
            return Err(Error::new(format!(
                "a cooperative matrix at {pointer:?}: only at an element of an array in memory"
            )));
        };
        let width = matrix.scalar.width as usize;
        let element_size = match pointee {
            Pointee::Scalar(_) => width,
            Pointee::Type(ty) => type_size(self.module, ty)?,
        };
        if element_size != element_stride || self.pointee_scalar(pointee)? != matrix.scalar {
            return Err(Error::new(format!(
                "a cooperative matrix of {:?} in an array of {element_stride}-byte elements \
                 of another type or with padding",
                matrix.scalar
            )));
        }
        let stride = stride.scalar()?.index()? * element_stride;
        let mut places = Vec::with_capacity(matrix.rows * matrix.columns);
        for r in 0..matrix.rows {
            for c in 0..matrix.columns {
                let (major, minor) = if row_major { (r, c) } else { (c, r) };
                places.push((memory, offset + major * stride + minor * width));
            }
        }
        Ok(places)
    }

    /// `handle`'s value in `lane`.
    fn operand(
        &mut self,
        frame: &mut Frame<'m>,
        handle: Handle<Expression>,
        lane: usize,
    ) -> Result<Value, Error> {
        let index = handle.index();
        if frame.per_lane[index] {
            return match frame.values[index].get(lane) {
                Some(Value::Undefined) | None => Err(Error::new(format!(
                    "{:?} used before it was evaluated",
                    frame.function.expressions[handle]
                ))),
                Some(value) => Ok(value.clone()),
            };
        }
        match frame.function.expressions[handle] {
            Expression::FunctionArgument(argument) => {
                Ok(frame.args[argument as usize][lane].clone())
            }
            Expression::LocalVariable(local) => Ok(Value::Pointer(Pointer(Target::Variable {
                root: Root::Local(local),
                path: Vec::new(),
            }))),
            _ => {
                if let Some(value) = &frame.constants[index] {
                    return Ok(value.clone());
                }
                let value = self.eval(frame, handle, lane)?;
                frame.constants[index] = Some(value.clone());
                Ok(value)
            }
        }
    }

    /// Evaluates `handle` in `lane` from its operands' values.
    fn eval(
        &mut self,
        frame: &mut Frame<'m>,
        handle: Handle<Expression>,
        lane: usize,
    ) -> Result<Value, Error> {
        let function = frame.function;
        Ok(match function.expressions[handle] {
            Expression::Literal(ref literal) => Value::Scalar(Scalar::literal(literal)?),
            Expression::Constant(constant) => {
                self.global_constant(self.module.constants[constant].init)?
            }
            Expression::ZeroValue(ty) => self.zero(ty)?,
            Expression::Compose { ty, ref components } => {
                let mut values = Vec::with_capacity(components.len());
                for &component in components {
                    values.push(self.operand(frame, component, lane)?);
                }
                self.compose(ty, values)?
            }
            Expression::Splat { size, value } => {
                let scalar = self.operand(frame, value, lane)?.scalar()?;
                Value::vector(&vec![scalar; size as usize])
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let vector = self.operand(frame, vector, lane)?;
                let components = vector.components()?;
                let picked: Vec<Scalar> = pattern[..size as usize]
                    .iter()
                    .map(|&c| components.get(c as usize).copied())
                    .collect::<Option<_>>()
                    .ok_or_else(|| Error::new("a swizzle past the vector"))?;
                Value::vector(&picked)
            }
            Expression::Access { base, index } => {
                let base = self.operand(frame, base, lane)?;
                let index = self.operand(frame, index, lane)?.scalar()?.index()?;
                self.access(base, index)?
            }
            Expression::AccessIndex { base, index } => {
                let base = self.operand(frame, base, lane)?;
                self.access(base, index as usize)?
            }
            Expression::GlobalVariable(variable) => {
                let global = &self.module.global_variables[variable];
                Value::Pointer(Pointer(match global.space {
                    AddressSpace::Private => Target::Variable {
                        root: Root::Private(variable),
                        path: Vec::new(),
                    },
                    _ if self.memories[variable.index()].is_some() => Target::Memory {
                        memory: variable.index(),
                        offset: 0,
                        pointee: Pointee::Type(global.ty),
                        element_stride: None,
                    },
                    other => {
                        return Err(Error::new(format!(
                            "`{}` in {other:?}: no memory (unsupported, or `call` without buffers)",
                            global.name.as_deref().unwrap_or("?")
                        )));
                    }
                }))
            }
            Expression::FunctionArgument(_) | Expression::LocalVariable(_) => {
                self.operand(frame, handle, lane)?
            }
            Expression::Load { pointer } => {
                let pointer = self.operand(frame, pointer, lane)?;
                self.load(frame, &pointer, lane)?
            }
            Expression::Unary { op, expr } => self
                .operand(frame, expr, lane)?
                .map(|a| Scalar::unary(op, a))?,
            Expression::Binary { op, left, right } => {
                let left = self.operand(frame, left, lane)?;
                let right = self.operand(frame, right, lane)?;
                left.zip(&right, |a, b| Scalar::binary(op, a, b))?
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let condition = self.operand(frame, condition, lane)?;
                let accept = self.operand(frame, accept, lane)?;
                let reject = self.operand(frame, reject, lane)?;
                match condition {
                    Value::Scalar(Scalar::Bool(true)) => accept,
                    Value::Scalar(Scalar::Bool(false)) => reject,
                    condition => {
                        let conditions = condition.components()?.to_vec();
                        let (a, r) = (accept.components()?, reject.components()?);
                        let items: Vec<Scalar> = conditions
                            .iter()
                            .enumerate()
                            .map(|(i, c)| Ok(if c.bool()? { a[i] } else { r[i] }))
                            .collect::<Result<_, Error>>()?;
                        Value::vector(&items)
                    }
                }
            }
            Expression::As {
                expr,
                kind,
                convert,
            } => {
                let value = self.operand(frame, expr, lane)?;
                match convert {
                    Some(width) => value.map(|s| s.convert(kind, width))?,
                    None => value.map(|s| s.bitcast(kind))?,
                }
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                let mut args = vec![self.operand(frame, arg, lane)?];
                for extra in [arg1, arg2].into_iter().flatten() {
                    args.push(self.operand(frame, extra, lane)?);
                }
                math(fun, &args)?
            }
            Expression::Relational { fun, argument } => {
                let argument = self.operand(frame, argument, lane)?;
                let bools: Vec<bool> = argument
                    .components()?
                    .iter()
                    .map(|c| c.bool())
                    .collect::<Result<_, _>>()?;
                Value::Scalar(Scalar::Bool(match fun {
                    RelationalFunction::All => bools.iter().all(|&b| b),
                    RelationalFunction::Any => bools.iter().any(|&b| b),
                    other => return Err(Error::new(format!("unsupported {other:?}"))),
                }))
            }
            Expression::ArrayLength(pointer) => match self.operand(frame, pointer, lane)? {
                Value::Pointer(Pointer(Target::Memory {
                    memory,
                    offset,
                    pointee: Pointee::Type(ty),
                    ..
                })) => match self.module.types[ty].inner {
                    TypeInner::Array { stride, .. } => {
                        let bytes = self.memory(memory)?.bytes.len();
                        Value::Scalar(Scalar::U32(
                            (bytes.saturating_sub(offset) / stride as usize) as u32,
                        ))
                    }
                    ref other => return Err(Error::new(format!("arrayLength of {other:?}"))),
                },
                other => return Err(Error::new(format!("arrayLength of {other:?}"))),
            },
            ref other => return Err(Error::new(format!("unsupported expression {other:?}"))),
        })
    }

    fn memory(&self, memory: usize) -> Result<&Memory, Error> {
        self.memories[memory]
            .as_ref()
            .ok_or_else(|| Error::new("a pointer into no memory"))
    }

    /// `base[index]`: of a pointer, a pointer to the element; of a value, the element.
    fn access(&self, base: Value, index: usize) -> Result<Value, Error> {
        let outside =
            |len: usize| Error::new(format!("index {index} outside the {len} elements indexed"));
        Ok(match base {
            Value::Pointer(Pointer(Target::Memory {
                memory,
                offset,
                pointee,
                ..
            })) => {
                let inner = match pointee {
                    Pointee::Type(ty) => &self.module.types[ty].inner,
                    Pointee::Scalar(_) => return Err(Error::new("an index into a scalar")),
                };
                let (offset, pointee, element_stride) = match *inner {
                    TypeInner::Array { base, size, stride } => {
                        if let ArraySize::Constant(n) = size
                            && index >= n.get() as usize
                        {
                            return Err(outside(n.get() as usize));
                        }
                        let stride = stride as usize;
                        (offset + index * stride, Pointee::Type(base), Some(stride))
                    }
                    TypeInner::Vector { size, scalar } => {
                        if index >= size as usize {
                            return Err(outside(size as usize));
                        }
                        let width = scalar.width as usize;
                        (offset + index * width, Pointee::Scalar(scalar), Some(width))
                    }
                    TypeInner::Struct { ref members, .. } => {
                        let member = members.get(index).ok_or_else(|| outside(members.len()))?;
                        (
                            offset + member.offset as usize,
                            Pointee::Type(member.ty),
                            None,
                        )
                    }
                    ref other => {
                        return Err(Error::new(format!("unsupported index into {other:?}")));
                    }
                };
                Value::Pointer(Pointer(Target::Memory {
                    memory,
                    offset,
                    pointee,
                    element_stride,
                }))
            }
            Value::Pointer(Pointer(Target::Variable { root, mut path })) => {
                path.push(index as u32);
                Value::Pointer(Pointer(Target::Variable { root, path }))
            }
            Value::Vector { len, items } => {
                if index >= len as usize {
                    return Err(outside(len as usize));
                }
                Value::Scalar(items[index])
            }
            Value::Composite(items) => items
                .get(index)
                .cloned()
                .ok_or_else(|| outside(items.len()))?,
            other => return Err(Error::new(format!("an index into {other:?}"))),
        })
    }

    fn load(&mut self, frame: &Frame, pointer: &Value, lane: usize) -> Result<Value, Error> {
        match pointer {
            Value::Pointer(Pointer(Target::Memory {
                memory,
                offset,
                pointee,
                ..
            })) => self.read_value(*memory, *offset, *pointee, lane as u32),
            Value::Pointer(Pointer(Target::Variable { root, path })) => {
                let mut value = match *root {
                    Root::Local(local) => &frame.locals[local.index()][lane],
                    Root::Private(global) => &self.private[global.index()][lane],
                };
                let mut component = None;
                for &index in path {
                    match value {
                        Value::Composite(items) => {
                            value = items.get(index as usize).ok_or_else(|| {
                                Error::new(format!(
                                    "index {index} outside the {} elements indexed",
                                    items.len()
                                ))
                            })?;
                        }
                        Value::Vector { len, items } if index < *len as u32 => {
                            component = Some(Value::Scalar(items[index as usize]));
                        }
                        other => return Err(Error::new(format!("index {index} into {other:?}"))),
                    }
                }
                Ok(component.unwrap_or_else(|| value.clone()))
            }
            other => Err(Error::new(format!("a load through {other:?}"))),
        }
    }

    fn store(
        &mut self,
        frame: &mut Frame,
        pointer: &Value,
        value: Value,
        lane: usize,
    ) -> Result<(), Error> {
        match pointer {
            Value::Pointer(Pointer(Target::Memory {
                memory,
                offset,
                pointee,
                ..
            })) => self.write_value(*memory, *offset, *pointee, &value, lane as u32),
            Value::Pointer(Pointer(Target::Variable { root, path })) => {
                let root = match *root {
                    Root::Local(local) => &mut frame.locals[local.index()][lane],
                    Root::Private(global) => &mut self.private[global.index()][lane],
                };
                set_path(root, path, value)
            }
            other => Err(Error::new(format!("a store through {other:?}"))),
        }
    }

    fn read_value(
        &mut self,
        memory: usize,
        offset: usize,
        pointee: Pointee,
        who: u32,
    ) -> Result<Value, Error> {
        let ty = match pointee {
            Pointee::Scalar(scalar) => {
                return Ok(Value::Scalar(
                    self.read_scalar(memory, offset, scalar, who)?,
                ));
            }
            Pointee::Type(ty) => ty,
        };
        Ok(match self.module.types[ty].inner {
            TypeInner::Scalar(scalar) => {
                Value::Scalar(self.read_scalar(memory, offset, scalar, who)?)
            }
            TypeInner::Vector { size, scalar } => {
                let width = scalar.width as usize;
                let items: Vec<Scalar> = (0..size as usize)
                    .map(|i| self.read_scalar(memory, offset + i * width, scalar, who))
                    .collect::<Result<_, _>>()?;
                Value::vector(&items)
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                stride,
            } => Value::Composite(Rc::new(
                (0..n.get() as usize)
                    .map(|i| {
                        self.read_value(
                            memory,
                            offset + i * stride as usize,
                            Pointee::Type(base),
                            who,
                        )
                    })
                    .collect::<Result<_, _>>()?,
            )),
            TypeInner::Struct { ref members, .. } => Value::Composite(Rc::new(
                members
                    .iter()
                    .map(|m| {
                        self.read_value(
                            memory,
                            offset + m.offset as usize,
                            Pointee::Type(m.ty),
                            who,
                        )
                    })
                    .collect::<Result<_, _>>()?,
            )),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let stride = column_stride(rows, scalar);
                let width = scalar.width as usize;
                let column = |c: usize| -> Result<Value, Error> {
                    let items: Vec<Scalar> = (0..rows as usize)
                        .map(|i| {
                            self.read_scalar(memory, offset + c * stride + i * width, scalar, who)
                        })
                        .collect::<Result<_, _>>()?;
                    Ok(Value::vector(&items))
                };
                Value::Composite(Rc::new(
                    (0..columns as usize)
                        .map(column)
                        .collect::<Result<_, _>>()?,
                ))
            }
            ref other => return Err(Error::new(format!("unsupported load of {other:?}"))),
        })
    }

    fn write_value(
        &mut self,
        memory: usize,
        offset: usize,
        pointee: Pointee,
        value: &Value,
        who: u32,
    ) -> Result<(), Error> {
        let ty = match pointee {
            Pointee::Scalar(_) => return self.write_scalar(memory, offset, value.scalar()?, who),
            Pointee::Type(ty) => ty,
        };
        match (&self.module.types[ty].inner, value) {
            (TypeInner::Scalar(_), _) => self.write_scalar(memory, offset, value.scalar()?, who),
            (&TypeInner::Vector { scalar, .. }, Value::Vector { len, items }) => {
                for (i, &item) in items[..*len as usize].iter().enumerate() {
                    self.write_scalar(memory, offset + i * scalar.width as usize, item, who)?;
                }
                Ok(())
            }
            (&TypeInner::Array { base, stride, .. }, Value::Composite(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.write_value(
                        memory,
                        offset + i * stride as usize,
                        Pointee::Type(base),
                        item,
                        who,
                    )?;
                }
                Ok(())
            }
            (TypeInner::Struct { members, .. }, Value::Composite(items)) => {
                let members = members.clone();
                for (member, item) in members.iter().zip(items.iter()) {
                    self.write_value(
                        memory,
                        offset + member.offset as usize,
                        Pointee::Type(member.ty),
                        item,
                        who,
                    )?;
                }
                Ok(())
            }
            (&TypeInner::Matrix { rows, scalar, .. }, Value::Composite(columns)) => {
                let stride = column_stride(rows, scalar);
                for (c, column) in columns.iter().enumerate() {
                    for (i, &item) in column.components()?.iter().enumerate() {
                        let at = offset + c * stride + i * scalar.width as usize;
                        self.write_scalar(memory, at, item, who)?;
                    }
                }
                Ok(())
            }
            (other, value) => Err(Error::new(format!(
                "unsupported store of {value:?} as {other:?}"
            ))),
        }
    }

    /// Names who touched memory.
    fn who(&self, access: Access) -> String {
        let party = match access.who {
            MANY => "several invocations".to_owned(),
            who if (who as usize) < self.lanes => format!("invocation {who}"),
            who => format!(
                "subgroup {}'s cooperative operation",
                who as usize - self.lanes
            ),
        };
        match access.group == self.group_index {
            true => party,
            false => format!("{party} of workgroup #{}", access.group),
        }
    }

    /// Checks the bytes `range` of `memory` for races with `who`'s access and records it.
    fn track(
        &mut self,
        memory: usize,
        range: Range<usize>,
        who: u32,
        write: bool,
    ) -> Result<(), Error> {
        let now = Access {
            group: self.group_index,
            epoch: self.epoch,
            who,
        };
        let Some(mem) = self.memories[memory].as_mut() else {
            return Err(Error::new("a pointer into no memory"));
        };
        if range.end > mem.bytes.len() {
            return Err(Error::new(format!(
                "{} bytes at byte {} of `{}`, outside its {} bytes",
                range.len(),
                range.start,
                mem.name,
                mem.bytes.len()
            )));
        }
        if mem.tags.is_empty() {
            return Ok(());
        }
        let mut race = None;
        for tag in &mut mem.tags[range.clone()] {
            if tag.write.races(now) {
                race = Some((tag.write, "wrote"));
            } else if write && tag.read.races(now) {
                race = Some((tag.read, "read"));
            }
            if race.is_some() {
                break;
            }
            if write {
                tag.write = now;
            } else if tag.read.group == now.group
                && tag.read.epoch == now.epoch
                && tag.read.who != who
            {
                tag.read.who = MANY;
            } else {
                tag.read = now;
            }
        }
        if let Some((other, what)) = race {
            let name = self.memories[memory]
                .as_ref()
                .map(|m| m.name.clone())
                .unwrap_or_default();
            return Err(Error::new(format!(
                "a data race: {} {} byte {} of `{name}`, which {} {what} with no barrier between",
                self.who(now),
                if write { "writes" } else { "reads" },
                range.start,
                self.who(other),
            )));
        }
        Ok(())
    }

    fn read_scalar(
        &mut self,
        memory: usize,
        offset: usize,
        scalar: naga::Scalar,
        who: u32,
    ) -> Result<Scalar, Error> {
        let width = scalar.width as usize;
        self.track(memory, offset..offset + width, who, false)?;
        let bytes = &self.memory(memory)?.bytes[offset..offset + width];
        Scalar::from_bytes(scalar, bytes)
    }

    fn write_scalar(
        &mut self,
        memory: usize,
        offset: usize,
        value: Scalar,
        who: u32,
    ) -> Result<(), Error> {
        let bytes = value.bytes()?;
        self.track(memory, offset..offset + bytes.len(), who, true)?;
        let mem = self.memories[memory].as_mut().expect("tracked above");
        mem.bytes[offset..offset + bytes.len()].copy_from_slice(&bytes);
        Ok(())
    }

    /// The value of a module-scope constant expression.
    fn global_constant(&self, handle: Handle<Expression>) -> Result<Value, Error> {
        Ok(match self.module.global_expressions[handle] {
            Expression::Literal(ref literal) => Value::Scalar(Scalar::literal(literal)?),
            Expression::Constant(constant) => {
                self.global_constant(self.module.constants[constant].init)?
            }
            Expression::ZeroValue(ty) => self.zero(ty)?,
            Expression::Compose { ty, ref components } => {
                let values = components
                    .iter()
                    .map(|&c| self.global_constant(c))
                    .collect::<Result<_, _>>()?;
                self.compose(ty, values)?
            }
            Expression::Splat { size, value } => {
                let scalar = self.global_constant(value)?.scalar()?;
                Value::vector(&vec![scalar; size as usize])
            }
            ref other => return Err(Error::new(format!("unsupported constant {other:?}"))),
        })
    }

    /// A value of type `ty` from its components.
    fn compose(&self, ty: Handle<naga::Type>, values: Vec<Value>) -> Result<Value, Error> {
        Ok(match self.module.types[ty].inner {
            TypeInner::Vector { .. } => {
                let mut items = Vec::new();
                for value in &values {
                    items.extend_from_slice(value.components()?);
                }
                Value::vector(&items)
            }
            TypeInner::Array { .. } | TypeInner::Struct { .. } => Value::Composite(Rc::new(values)),
            // From its columns (a matrix from scalars is not supported).
            TypeInner::Matrix { columns, .. } if values.len() == columns as usize => {
                Value::Composite(Rc::new(values))
            }
            ref other => return Err(Error::new(format!("unsupported constructor of {other:?}"))),
        })
    }

    /// The zero value of `ty`.
    fn zero(&self, ty: Handle<naga::Type>) -> Result<Value, Error> {
        Ok(match self.module.types[ty].inner {
            TypeInner::Scalar(scalar) => Value::Scalar(Scalar::zero(scalar)?),
            TypeInner::Vector { size, scalar } => {
                Value::vector(&vec![Scalar::zero(scalar)?; size as usize])
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            } => Value::Composite(Rc::new(vec![self.zero(base)?; n.get() as usize])),
            TypeInner::Struct { ref members, .. } => Value::Composite(Rc::new(
                members
                    .iter()
                    .map(|m| self.zero(m.ty))
                    .collect::<Result<_, _>>()?,
            )),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => Value::Composite(Rc::new(vec![
                Value::vector(&vec![
                    Scalar::zero(scalar)?;
                    rows as usize
                ]);
                columns as usize
            ])),
            TypeInner::CooperativeMatrix {
                columns,
                rows,
                scalar,
                role,
            } => {
                if !matches!(scalar.width, 2 | 4) || scalar.kind != naga::ScalarKind::Float {
                    return Err(unsupported_scalar(scalar));
                }
                Value::Matrix(Rc::new(Matrix {
                    rows: rows as usize,
                    columns: columns as usize,
                    scalar,
                    role,
                    elements: vec![0.0; rows as usize * columns as usize],
                }))
            }
            ref other => return Err(Error::new(format!("unsupported type {other:?}"))),
        })
    }
}

impl Frame<'_> {
    fn set(&mut self, handle: Handle<Expression>, lane: usize, value: Value) {
        let values = &mut self.values[handle.index()];
        if values.is_empty() {
            *values = vec![Value::Undefined; self.returned.len()];
        }
        values[lane] = value;
    }
}

/// Marks the expressions of `block` evaluated per lane: emitted ones and statements'
/// results.
fn mark_per_lane(block: &Block, per_lane: &mut [bool]) {
    for statement in block.iter() {
        match statement {
            Statement::Emit(range) => {
                for handle in range.clone() {
                    per_lane[handle.index()] = true;
                }
            }
            Statement::Call {
                result: Some(result),
                ..
            }
            | Statement::WorkGroupUniformLoad { result, .. } => per_lane[result.index()] = true,
            Statement::Block(inner) => mark_per_lane(inner, per_lane),
            Statement::If { accept, reject, .. } => {
                mark_per_lane(accept, per_lane);
                mark_per_lane(reject, per_lane);
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                mark_per_lane(body, per_lane);
                mark_per_lane(continuing, per_lane);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    mark_per_lane(&case.body, per_lane);
                }
            }
            _ => {}
        }
    }
}

/// Stores `value` at `path` within `root`.
fn set_path(root: &mut Value, path: &[u32], value: Value) -> Result<(), Error> {
    let Some((&first, rest)) = path.split_first() else {
        *root = value;
        return Ok(());
    };
    match root {
        Value::Composite(items) => {
            let len = items.len();
            let item = Rc::make_mut(items).get_mut(first as usize).ok_or_else(|| {
                Error::new(format!("index {first} outside the {len} elements indexed"))
            })?;
            set_path(item, rest, value)
        }
        Value::Vector { len, items } if rest.is_empty() && first < *len as u32 => {
            items[first as usize] = value.scalar()?;
            Ok(())
        }
        other => Err(Error::new(format!(
            "a store at index {first} into {other:?}"
        ))),
    }
}

/// `a · b + c`: f16 and f32 elements multiplied exactly in f32 and summed in f32 from `c`
/// in order of k, rounded once to f16 for f16 accumulators.
fn multiply_add(a: &Matrix, b: &Matrix, c: &Matrix) -> Result<Matrix, Error> {
    use naga::CooperativeRole as R;
    if (a.role, b.role, c.role) != (R::A, R::B, R::C)
        || a.columns != b.rows
        || a.rows != c.rows
        || b.columns != c.columns
    {
        return Err(Error::new(format!(
            "coopMultiplyAdd of {}×{} {:?}, {}×{} {:?} and {}×{} {:?}",
            a.rows, a.columns, a.role, b.rows, b.columns, b.role, c.rows, c.columns, c.role
        )));
    }
    let mut elements = c.elements.clone();
    for i in 0..c.rows {
        let row = &a.elements[i * a.columns..(i + 1) * a.columns];
        for j in 0..c.columns {
            let mut sum = elements[i * c.columns + j];
            for (k, &left) in row.iter().enumerate() {
                sum += left * b.elements[k * b.columns + j];
            }
            elements[i * c.columns + j] = match c.scalar.width {
                2 => f16::from_f32(sum).to_f32(),
                _ => sum,
            };
        }
    }
    Ok(Matrix {
        elements,
        ..c.clone()
    })
}

/// A math built-in, componentwise where its arguments are vectors.
fn math(fun: MathFunction, args: &[Value]) -> Result<Value, Error> {
    use MathFunction as M;
    let float = |s: Scalar, f: &dyn Fn(f32) -> f32| -> Result<Scalar, Error> {
        Ok(match s {
            Scalar::F32(x) => Scalar::F32(f(x)),
            Scalar::F16(x) => Scalar::F16(f16::from_f32(f(x.to_f32()))),
            other => return Err(Error::new(format!("{fun:?} of {other:?}"))),
        })
    };
    let pick = |a: Scalar, b: Scalar, less: bool| -> Result<Scalar, Error> {
        let a_first = Scalar::binary(naga::BinaryOperator::Less, a, b)?.bool()? == less;
        Ok(if a_first { a } else { b })
    };
    Ok(match (fun, args) {
        (M::Min, [a, b]) => a.zip(b, |a, b| pick(a, b, true))?,
        (M::Max, [a, b]) => a.zip(b, |a, b| pick(a, b, false))?,
        (M::Clamp, [x, low, high]) => x
            .zip(low, |x, l| pick(x, l, false))?
            .zip(high, |x, h| pick(x, h, true))?,
        (M::Abs, [a]) => a.map(|s| match s {
            Scalar::I32(x) => Ok(Scalar::I32(x.wrapping_abs())),
            Scalar::U32(x) => Ok(Scalar::U32(x)),
            s => float(s, &f32::abs),
        })?,
        (M::Floor, [a]) => a.map(|s| float(s, &f32::floor))?,
        (M::Ceil, [a]) => a.map(|s| float(s, &f32::ceil))?,
        (M::Trunc, [a]) => a.map(|s| float(s, &f32::trunc))?,
        (M::Sqrt, [a]) => a.map(|s| float(s, &f32::sqrt))?,
        (M::Fma, [a, b, c]) => {
            let (x, y, z) = (a.components()?, b.components()?, c.components()?);
            let items: Vec<Scalar> = (0..x.len())
                .map(|i| {
                    let value = x[i].f32()?.mul_add(y[i].f32()?, z[i].f32()?);
                    Ok(match x[i] {
                        Scalar::F16(_) => Scalar::F16(f16::from_f32(value)),
                        _ => Scalar::F32(value),
                    })
                })
                .collect::<Result<_, Error>>()?;
            match a {
                Value::Scalar(_) => Value::Scalar(items[0]),
                _ => Value::vector(&items),
            }
        }
        (M::Dot, [a, b]) => {
            let products = a.zip(b, |x, y| {
                Scalar::binary(naga::BinaryOperator::Multiply, x, y)
            })?;
            let mut items = products.components()?.iter().copied();
            let first = items
                .next()
                .ok_or_else(|| Error::new("dot of empty vectors"))?;
            Value::Scalar(items.try_fold(first, |sum, x| {
                Scalar::binary(naga::BinaryOperator::Add, sum, x)
            })?)
        }
        (fun, _) => return Err(Error::new(format!("unsupported math function {fun:?}"))),
    })
}
