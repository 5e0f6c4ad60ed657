//! Typed GPU buffers: a slice of 8-, 16-, 32- or 64-bit elements in device memory, uploaded
//! and read back with bytemuck (no unsafe code here).

// The buffers are the device's; `Word`, the elements they hold, is the kernels' text's too.
#[cfg(feature = "gpu")]
use {super::Gpu, super::GpuError, std::marker::PhantomData, wgpu::util::DeviceExt};

/// An element the kernels can move: 8, 16, 32 or 64 bits, any bit pattern valid. Kernels
/// see `u32` words: a 64-bit element is two (the low word first), and narrower ones are
/// packed into words (the first element in the low bits), as the bytes lie in memory.
pub trait Word: bytemuck::Pod + sealed::Sealed {
    /// Bits per element.
    const BITS: usize;
}

macro_rules! words {
    ($bits:literal: $($t:ty),*) => {$(
        impl Word for $t {
            const BITS: usize = $bits;
        }
        impl sealed::Sealed for $t {}
    )*};
}

words!(8: u8, i8);
words!(16: u16, i16);
#[cfg(feature = "gpu")]
words!(16: half::f16, half::bf16);
words!(32: u32, i32, f32);
words!(64: u64, i64, f64);

mod sealed {
    pub trait Sealed {}
}

/// `len` elements of `T` in device memory, usable as a kernel's input or output.
#[cfg(feature = "gpu")]
#[derive(Debug)]
pub struct Buffer<T: Word> {
    pub(crate) buffer: wgpu::Buffer,
    len: usize,
    _element: PhantomData<T>,
}

#[cfg(feature = "gpu")]
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

/// Bytes a buffer of `len` elements of `T` occupies: whole `vec4<u32>`s, at least one, so
/// that every buffer binds as an array of `u32` or of `vec4<u32>`.
/// `None` where that overflows.
#[cfg(feature = "gpu")]
fn padded_bytes<T: Word>(len: usize) -> Option<u64> {
    let bytes = len.checked_mul(size_of::<T>())?.max(1);
    u64::try_from(bytes.div_ceil(16)).ok()?.checked_mul(16)
}

#[cfg(feature = "gpu")]
impl Gpu {
    /// A buffer holding a copy of `data`.
    pub fn upload<T: Word>(&self, data: &[T]) -> Result<Buffer<T>, GpuError> {
        let size = self.buffer_size::<T>(data.len())?;
        let mut bytes = bytemuck::cast_slice::<T, u8>(data).to_vec();
        bytes.resize(size as usize, 0);
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
        let size = self.buffer_size::<T>(len)?;
        let buffer = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("swizzle data"),
            size,
            usage: usage(),
            mapped_at_creation: false,
        });
        let bytes = bytemuck::bytes_of(&value);
        if bytes.iter().any(|&b| b != 0) {
            // One chunk written again and again, so a large buffer needs no large host copy.
            let chunk: Vec<T> = vec![value; len.clamp(1, 1 << 20)];
            for start in (0..len).step_by(chunk.len()) {
                let part = &chunk[..chunk.len().min(len - start)];
                // Writes are whole words: the last may run into the buffer's padding.
                let mut bytes = bytemuck::cast_slice::<T, u8>(part).to_vec();
                bytes.resize(bytes.len().next_multiple_of(4), 0);
                self.queue()
                    .write_buffer(&buffer, (start * size_of::<T>()) as u64, &bytes);
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
        let bytes = buffer.len * size_of::<T>();
        if bytes == 0 {
            return Ok(Vec::new());
        }
        // Copies are whole words: the last may take some of the buffer's padding.
        let copied = bytes.next_multiple_of(4) as u64;
        let staging = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("swizzle readback"),
            size: copied,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.copy_buffer_to_buffer(&buffer.buffer, 0, &staging, 0, copied);
        self.queue().submit([encoder.finish()]);
        let words = self.read(&staging)?;
        // Copied byte for byte: words are only 4-aligned, a `u64` needs 8.
        let mut data = vec![T::zeroed(); buffer.len];
        bytemuck::cast_slice_mut::<T, u8>(&mut data)
            .copy_from_slice(&bytemuck::cast_slice::<u32, u8>(&words)[..bytes]);
        Ok(data)
    }

    /// The bytes of a buffer of `len` elements of `T`, or an error where it does not fit
    /// this device.
    fn buffer_size<T: Word>(&self, len: usize) -> Result<u64, GpuError> {
        let limits = self.device().limits();
        let limit = limits
            .max_buffer_size
            .min(limits.max_storage_buffer_binding_size);
        match padded_bytes::<T>(len) {
            Some(bytes) if bytes <= limit => Ok(bytes),
            bytes => Err(GpuError::TooLarge {
                what: format!(
                    "a buffer of {len} elements of {} bytes, in bytes",
                    size_of::<T>()
                ),
                value: bytes.unwrap_or(u64::MAX),
                limit,
            }),
        }
    }
}

#[cfg(feature = "gpu")]
fn usage() -> wgpu::BufferUsages {
    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST
}

/// Fails unless a kernel of `bits`-bit elements runs on buffers of `T`.
#[cfg(feature = "gpu")]
pub(super) fn check_element<T: Word>(bits: usize) -> Result<(), GpuError> {
    match T::BITS == bits {
        true => Ok(()),
        false => Err(GpuError::Element {
            expected: bits,
            actual: T::BITS,
        }),
    }
}

/// Fails at the first of a run's buffers, given as `(name, expected, actual)` lengths, that
/// does not hold the elements the kernel expects.
#[cfg(feature = "gpu")]
pub(super) fn check_lengths<const N: usize>(
    buffers: [(&'static str, usize, usize); N],
) -> Result<(), GpuError> {
    match buffers
        .into_iter()
        .find(|(_, expected, actual)| expected != actual)
    {
        Some((buffer, expected, actual)) => Err(GpuError::Length {
            buffer,
            expected,
            actual,
        }),
        None => Ok(()),
    }
}
