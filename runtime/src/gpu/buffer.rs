//! Typed GPU buffers: a slice of 32-bit words in device memory, uploaded and read back with
//! bytemuck (no unsafe code here).

use super::{Gpu, GpuError};
use std::marker::PhantomData;
use wgpu::util::DeviceExt;

/// An element the kernels can move: 32 bits, any bit pattern valid. Kernels see `u32`.
pub trait Word: bytemuck::Pod + sealed::Sealed {}

impl Word for u32 {}
impl Word for i32 {}
impl Word for f32 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for i32 {}
    impl Sealed for f32 {}
}

/// `len` elements of `T` in device memory, usable as a kernel's input or output.
#[derive(Debug)]
pub struct Buffer<T: Word> {
    pub(crate) buffer: wgpu::Buffer,
    len: usize,
    _element: PhantomData<T>,
}

impl<T: Word> Buffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Bytes a buffer of `len` words occupies: whole `vec4<u32>`s, at least one, so that every
/// buffer binds as an array of either.
fn padded_bytes(len: usize) -> u64 {
    (len.max(1).div_ceil(4) * 16) as u64
}

impl Gpu {
    /// A buffer holding a copy of `data`.
    pub fn upload<T: Word>(&self, data: &[T]) -> Result<Buffer<T>, GpuError> {
        self.check_buffer_size(data.len())?;
        let mut bytes = bytemuck::cast_slice::<T, u8>(data).to_vec();
        bytes.resize(padded_bytes(data.len()) as usize, 0);
        let buffer = self
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("swizzle data"),
                contents: &bytes,
                usage: usage(),
            });
        self.check()?;
        Ok(Buffer {
            buffer,
            len: data.len(),
            _element: PhantomData,
        })
    }

    /// A buffer of `len` copies of `value` (a poison value lets tests see unwritten slots).
    pub fn filled<T: Word>(&self, len: usize, value: T) -> Result<Buffer<T>, GpuError> {
        self.check_buffer_size(len)?;
        let buffer = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("swizzle data"),
            size: padded_bytes(len),
            usage: usage(),
            mapped_at_creation: false,
        });
        let bytes = bytemuck::bytes_of(&value);
        if bytes.iter().any(|&b| b != 0) {
            // One chunk written again and again, so a large buffer needs no large host copy.
            let chunk: Vec<T> = vec![value; len.clamp(1, 1 << 20)];
            for start in (0..len).step_by(chunk.len()) {
                let part = &chunk[..chunk.len().min(len - start)];
                self.queue()
                    .write_buffer(&buffer, (start * 4) as u64, bytemuck::cast_slice(part));
            }
        }
        self.check()?;
        Ok(Buffer {
            buffer,
            len,
            _element: PhantomData,
        })
    }

    /// The contents of `buffer`, read back.
    pub fn download<T: Word>(&self, buffer: &Buffer<T>) -> Result<Vec<T>, GpuError> {
        let bytes = (buffer.len * 4) as u64;
        if bytes == 0 {
            return Ok(Vec::new());
        }
        let staging = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("swizzle readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.copy_buffer_to_buffer(&buffer.buffer, 0, &staging, 0, bytes);
        self.queue().submit([encoder.finish()]);
        let words = self.read(&staging)?;
        Ok(bytemuck::cast_slice(&words).to_vec())
    }

    /// Fails unless a buffer of `len` words fits this device.
    fn check_buffer_size(&self, len: usize) -> Result<(), GpuError> {
        let limits = self.device().limits();
        let limit = limits
            .max_buffer_size
            .min(limits.max_storage_buffer_binding_size);
        let bytes = padded_bytes(len);
        if bytes > limit {
            return Err(GpuError::TooLarge {
                what: format!("a buffer of {len} words, in bytes"),
                value: bytes,
                limit,
            });
        }
        Ok(())
    }
}

fn usage() -> wgpu::BufferUsages {
    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST
}
