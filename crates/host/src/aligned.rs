//! Scratch buffers with a chosen element on a 64-byte boundary: a cache line, and one AVX-512
//! vector. A kernel that stores whole vectors into a row and reads it back soon after (running
//! column sums, shifted loads of them) otherwise splits every store across two lines when the
//! allocator happens to place the row off a line, and loads that follow such stores cannot take
//! their data from the store buffer. Measured on the 2-core Zen 5 VM: `recursive` f32 on a
//! 1024 x 1024 image ran in 0.3 ms in processes whose column row began on a line and in 30-80 ms
//! in those where it began 16 or 48 bytes past one (docs/findings.md, issue 11). The same held
//! for the FFTs on an Intel Xeon, whose buffers (large allocations, placed 16 bytes past a page by
//! the allocator, or wherever the heap had room) split every AVX-512 access: the kernels' outputs
//! and the FFTs' own buffers now start on a line too (docs/findings.md, issue 15, session 11).

use std::ops::{Deref, DerefMut};

/// Bytes of the boundary: a cache line, one 512-bit vector.
const ALIGN: usize = 64;

/// `len` values, element `at` on a 64-byte boundary; derefs to the `len` values.
pub struct Aligned<T> {
    buffer: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy> Aligned<T> {
    /// `len` copies of `value`, element 0 on a boundary.
    pub fn new(len: usize, value: T) -> Aligned<T> {
        Aligned::with_aligned_at(len, value, 0)
    }

    /// `len` copies of `value`, element `at` on a boundary (the first whole vector a kernel stores).
    pub fn with_aligned_at(len: usize, value: T, at: usize) -> Aligned<T> {
        let size = std::mem::size_of::<T>().max(1);
        let buffer = vec![value; len + ALIGN / size];
        let address = buffer.as_ptr() as usize + at * size;
        // A Vec's heap block never moves while it is not reallocated, and this one never grows.
        let start = (ALIGN - address % ALIGN) % ALIGN / size;
        Aligned { buffer, start, len }
    }
}

impl<T: Copy> Aligned<T> {
    /// A copy of `values`, element 0 on a boundary.
    pub fn from_slice(values: &[T]) -> Aligned<T> {
        let Some(&first) = values.first() else { return Aligned { buffer: Vec::new(), start: 0, len: 0 } };
        let mut aligned = Aligned::new(values.len(), first);
        aligned.copy_from_slice(values);
        aligned
    }
}

impl<T> Deref for Aligned<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.buffer[self.start..][..self.len]
    }
}

impl<T> DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buffer[self.start..][..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_element_sits_on_a_line_whatever_the_allocation() {
        for len in [1, 7, 100, 1024] {
            for at in [0, 1, 8, 15] {
                let at = at.min(len - 1);
                let mut a = Aligned::with_aligned_at(len, 0.0f32, at);
                assert_eq!(a.len(), len);
                assert_eq!(a[at..].as_ptr() as usize % ALIGN, 0, "len {len} at {at}");
                a[len - 1] = 1.0;
                assert_eq!(a.iter().sum::<f32>(), 1.0);
            }
        }
        assert_eq!(Aligned::new(3, 7u32).as_ptr() as usize % ALIGN, 0);
    }

    #[test]
    fn a_copy_keeps_the_values_on_a_line() {
        let values: Vec<u8> = (0..=200).collect();
        let copy = Aligned::from_slice(&values);
        assert_eq!((&copy[..], copy.as_ptr() as usize % ALIGN), (&values[..], 0));
        assert!(Aligned::<u8>::from_slice(&[]).is_empty());
    }
}
