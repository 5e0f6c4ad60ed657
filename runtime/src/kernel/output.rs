//! Output buffers that a copy allocates (the allocating forms of the texture API): zeroed,
//! and, where large, backed by huge pages where the system offers them.
//!
//! A fresh buffer of tens of megabytes costs more in first-touch page faults than the copy
//! that fills it: one fault per 4 KiB page, each zeroing its page (a 64 MiB surface: 16384
//! faults). Linux's transparent huge pages, where their mode is `madvise` (the default of
//! many distributions), serve a region advised with `MADV_HUGEPAGE` in 2 MiB pages: 512×
//! fewer faults for the same zeroing. The advice changes no byte: the buffer is zeroed as
//! `vec![0; len]`'s, and where the system has no huge pages it has no effect.

/// Buffers from this many bytes get the huge-page advice: at least one whole 2 MiB page
/// lies inside them wherever they start.
#[cfg(all(target_os = "linux", not(miri)))]
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed buffer of `len` bytes for a copy to fill, as `vec![0; len]` makes it (pages
/// zeroed by the system as they are first touched), advised to use huge pages where it
/// spans whole ones (Linux); `None` where the allocator has no such block, where
/// `vec![0; len]` would abort the process.
pub fn zeroed_output(len: usize) -> Option<Vec<u8>> {
    let mut bytes = match len {
        0 => Vec::new(),
        _ => {
            let layout = std::alloc::Layout::array::<u8>(len).ok()?;
            // SAFETY: `layout` has a non-zero size. A non-null result is a block of
            // `len` zeroed bytes from the global allocator with `layout`, the layout
            // `Vec<u8>` frees a capacity of `len` with: the vector owns it, all `len`
            // bytes initialised (zero).
            unsafe {
                let block = std::alloc::alloc_zeroed(layout);
                if block.is_null() {
                    return None;
                }
                Vec::from_raw_parts(block, len, len)
            }
        }
    };
    advise_huge_pages(&mut bytes);
    Some(bytes)
}

/// Advises the whole 2 MiB pages inside `bytes` to be backed by huge pages (not under
/// Miri, which has no `madvise`: the advice changes no byte).
#[cfg(all(target_os = "linux", not(miri)))]
fn advise_huge_pages(bytes: &mut [u8]) {
    let start = bytes.as_mut_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes.len()) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `first..end` lies inside `bytes`, which this function borrows mutably
        // (no other reference reads it meanwhile); `MADV_HUGEPAGE` only sets how the kernel
        // backs the range's pages and keeps their contents. Its result is advice: an error
        // (no huge pages in this kernel) leaves the buffer as it was.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(any(not(target_os = "linux"), miri))]
fn advise_huge_pages(_: &mut [u8]) {}

#[cfg(test)]
mod tests {
    /// No buffer, rather than an abort, where the allocator has none of that size (Miri
    /// stops the program at such a request instead of failing it).
    #[test]
    #[cfg_attr(miri, ignore)]
    fn too_large_is_none() {
        assert!(super::zeroed_output(usize::MAX).is_none());
        assert!(super::zeroed_output(isize::MAX as usize).is_none());
    }

    /// The buffer is `len` zeros, small or spanning huge pages.
    #[test]
    fn zeroed_whatever_the_size() {
        // Under Miri the small sizes only: the unsafe allocation is the same, and reading
        // megabytes back is minutes there.
        let sizes: &[usize] = match cfg!(miri) {
            true => &[0, 1, 4095],
            false => &[0, 1, 4095, 3 << 20, (5 << 20) + 17],
        };
        for &len in sizes {
            let bytes = super::zeroed_output(len).expect("a small buffer");
            assert_eq!(bytes.len(), len);
            assert!(bytes.iter().all(|&b| b == 0), "{len}");
        }
    }
}
