//! Copies of byte buffers whose element size is known only at run time (the pixels of a
//! file format: RGB8, RGBA16, RGBA32F, …): each supported size is copied as `[u8; size]`
//! elements, which have no alignment, so any byte slice of whole elements works. A kernel
//! of `layout!` copies them with the code it generated for `[u8; size]`, exactly as its
//! typed entry points copy `[u8; size]` elements: the same route, the same rows.

use super::generated::{GeneratedCode, copy_generated};
use super::{Element, KernelError, Options, Plan, Route, Side, simd};
use std::marker::PhantomData;

/// Element sizes, in bytes, that [`copy_bytes`] copies.
pub const ELEMENT_SIZES: [usize; 8] = [1, 2, 3, 4, 6, 8, 12, 16];

/// The code a byte copy runs for its element type: none for a hand-written plan, or what
/// `layout!` generated for a kernel.
pub trait CodeFor {
    /// The code for elements of `E`.
    fn code<E: Element>() -> GeneratedCode<E>;
}

/// No generated code: the runtime's networks and runs (a hand-written plan).
pub struct NoCode;

impl CodeFor for NoCode {
    fn code<E: Element>() -> GeneratedCode<E> {
        GeneratedCode::NONE
    }
}

/// What `layout!` generated for kernel `K`: its typed entry points' code.
pub struct CodeOf<K>(PhantomData<K>);

impl<K: simd::FullTiles> CodeFor for CodeOf<K> {
    fn code<E: Element>() -> GeneratedCode<E> {
        GeneratedCode::of::<K>()
    }
}

/// `$body` with `$element` the type `[u8; element_size]` for each of [`ELEMENT_SIZES`];
/// another size is [`KernelError::ElementSize`]. The one place a size picks its type, so
/// that a byte copy and its route cannot disagree on it.
macro_rules! as_elements {
    ($element_size:expr, |$element:ident| $body:expr) => {
        as_elements!(@sizes $element_size, $element, $body, 1 2 3 4 6 8 12 16)
    };
    (@sizes $element_size:expr, $element:ident, $body:expr, $($size:literal)*) => {
        match $element_size {
            $($size => {
                type $element = [u8; $size];
                $body
            })*
            element_size => Err(KernelError::ElementSize { element_size }),
        }
    };
}

/// [`copy_with`](super::copy_with) over byte buffers of elements of
/// `element_size` bytes (one of [`ELEMENT_SIZES`]); the extents and views count elements,
/// not bytes.
pub fn copy_bytes(
    options: Options,
    element_size: usize,
    plan: &Plan,
    from: Side,
    to: Side,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    copy_bytes_with::<NoCode>(options, element_size, plan, from, to, src, dst)
}

/// [`copy_bytes`] with code `C` for the plan's full tiles: a kernel's `run_bytes` forms
/// pass the code `layout!` generated ([`CodeOf`]), so that they copy as fast as its typed
/// forms, by the same route.
pub fn copy_bytes_with<C: CodeFor>(
    options: Options,
    element_size: usize,
    plan: &Plan,
    from: Side,
    to: Side,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    for (side, len) in [("source", src.len()), ("destination", dst.len())] {
        if element_size != 0 && !len.is_multiple_of(element_size) {
            return Err(KernelError::Bytes {
                side,
                len,
                element_size,
            });
        }
    }
    as_elements!(element_size, |Bytes| copy_generated::<Bytes>(
        options,
        plan,
        C::code(),
        from,
        to,
        bytemuck::cast_slice(src),
        bytemuck::cast_slice_mut(dst),
    ))
    .map_err(|error| error.in_bytes(element_size))
}

/// The route [`copy_bytes_with`] takes for elements of `element_size` bytes: the route of
/// `[u8; element_size]` elements with code `C`.
pub fn route_bytes<C: CodeFor>(
    element_size: usize,
    plan: &Plan,
    options: Options,
) -> Result<Route, KernelError> {
    as_elements!(element_size, |Bytes| C::code::<Bytes>()
        .route(plan, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The macro's list of sizes is [`ELEMENT_SIZES`]: every size has a type of its bytes,
    /// and no other size does.
    #[test]
    fn every_element_size_has_its_type() {
        let size = |n: usize| as_elements!(n, |Bytes| Ok(size_of::<Bytes>()));
        for n in 0..=32 {
            match ELEMENT_SIZES.contains(&n) {
                true => assert_eq!(size(n), Ok(n)),
                false => assert_eq!(size(n), Err(KernelError::ElementSize { element_size: n })),
            }
        }
    }
}
