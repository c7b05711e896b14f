use dspbench_core::{DType, Problem, Real, Workload};

/// Lengths around the edges that break kernels: 1, primes, one off a power of two, larger
/// than a vector or a work-group, not a multiple of anything.
const LENGTHS: [usize; 8] = [1, 7, 31, 32, 33, 255, 1000, 4097];

/// Image shapes (width, height): single pixels, single rows and columns, odd sizes, images
/// narrower than a vector, and one wider than a typical tile.
const IMAGES: [(usize, usize); 9] =
    [(1, 1), (7, 3), (3, 7), (31, 33), (33, 31), (255, 1), (1, 255), (64, 64), (1000, 7)];

/// The problems every variant of `workload` is checked on (those outside a variant's domain
/// must be refused by it).
pub fn edge_problems(workload: Workload) -> Vec<Problem> {
    let dtypes = [DType::U8, DType::F32];
    match workload {
        Workload::Conv1d => {
            LENGTHS.iter().flat_map(|&n| [1, 3, 8, 33, 64, 513].map(|m| Problem::Conv1d { n, m })).collect()
        }
        Workload::BoxFilter => IMAGES
            .iter()
            .flat_map(|&(width, height)| {
                dtypes.iter().flat_map(move |&dtype| {
                    // 17 / 19 and 31 / 33: either side of limits the GPU `fast` kernels' fused
                    // path has had (63 / 65, its present one, are checked by those backends'
                    // own tests: the O(m^2) `direct` variants' f32 sums of 3969 equal values
                    // exceed the f32 tolerance's allowance on images of one pixel).
                    [1, 3, 5, 9, 15, 17, 19, 31, 33].map(|window| Problem::BoxFilter { width, height, window, dtype })
                })
            })
            .collect(),
        Workload::Conv2d => IMAGES
            .iter()
            .flat_map(|&(width, height)| {
                dtypes.iter().flat_map(move |&dtype| {
                    [1, 2, 3, 4, 5, 6, 7, 8].map(|radius| Problem::Conv2d { width, height, radius, dtype })
                })
            })
            .collect(),
        Workload::Fft => {
            let powers = [1, 2, 4, 8, 32, 1024, 4096, 32768, 65536];
            // Sizes of factors 2, 3, 5 and 7 (the mixed-radix variants' domain: one factor,
            // all of them, a large odd one, and the sizes named by the roofline issue) and
            // sizes with a larger prime factor, which every variant here refuses or runs.
            let others = [3, 7, 31, 33, 1000, 4097, 6, 15, 49, 210, 375, 1536, 6000, 100_000];
            powers
                .iter()
                .flat_map(|&size| [1, 3].map(|batch| Problem::Fft { size, batch }))
                .chain(others.iter().flat_map(|&size| [1, 2].map(|batch| Problem::Fft { size, batch })))
                .collect()
        }
        // Filters of one tap to more than a work-group's worth of taps per thread, signals
        // shorter than the filter, blocks of one sample, an odd count and the whole signal, an
        // echo path longer than the filter, and a step near NLMS's limit of 2.
        Workload::Lms => {
            let mut problems = Vec::new();
            for taps in [1, 7, 33, 255, 1030] {
                for n in [1, 31, 600] {
                    for channels in [1, 3] {
                        for block in [1, 5, n].into_iter().filter(|&b| b <= n) {
                            let echo_taps = if channels == 3 { taps + 5 } else { taps };
                            let mu = Real(if block == 5 { 1.9 } else { 0.5 });
                            problems.push(Problem::Lms { channels, taps, n, block, mu, echo_taps, snr_db: 40 });
                        }
                    }
                }
            }
            problems.dedup();
            problems
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_is_valid_and_the_awkward_sizes_are_there() {
        for w in Workload::ALL {
            let problems = edge_problems(w);
            assert!(!problems.is_empty());
            for p in &problems {
                p.validate().unwrap();
            }
        }
        let fft = edge_problems(Workload::Fft);
        assert!(fft.contains(&Problem::Fft { size: 1000, batch: 1 }));
        assert!(fft.contains(&Problem::Fft { size: 1, batch: 1 }));
    }
}
