//! How one launch of a batched GPU FFT kernel walks memory (kernels/*/fft_stockham.* and
//! fft_mixed.*, whose arguments after the buffers are these fields in order): `total_columns`
//! transforms ("columns") of `len` points; column g is transform c = g % columns_per_batch of
//! batch b = g / columns_per_batch, its point i at in[b batch_dist + c in_dist + i in_stride]
//! and out[b batch_dist + c out_dist + i out_stride]; twiddle_n = N applies the four-step
//! twiddle W_N^{c i} on load, 0 none. `fold` (a compile-time define, not an argument) adds the
//! point `len` further on, or subtracts it in odd columns, as it loads (see `halves`).

/// One launch's layout (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub len: usize,
    pub columns_per_batch: usize,
    pub in_stride: usize,
    pub in_dist: usize,
    pub out_stride: usize,
    pub out_dist: usize,
    pub batch_dist: usize,
    pub twiddle_n: usize,
    pub total_columns: usize,
    /// Column c of a transform loads x[i] + (-1)^c x[i + len]: the first step of a four-step
    /// split with N1 = 2 fused into the second (see `halves`).
    pub fold: bool,
}

impl Layout {
    /// `batch` transforms of `len` points, one after another: the whole FFT in one launch.
    pub fn contiguous(len: usize, batch: usize) -> Layout {
        Layout {
            len,
            columns_per_batch: 1,
            in_stride: 1,
            in_dist: len,
            out_stride: 1,
            out_dist: len,
            batch_dist: len,
            twiddle_n: 0,
            total_columns: batch,
            fold: false,
        }
    }

    /// The four-step split of `batch` transforms of N = n1 n2 points, n = N2 n1 + n2 and
    /// k = k1 + N1 k2: for each n2, an N1-point FFT over n1 (stride N2) into A[k1 N2 + n2]; then
    /// for each k1, an N2-point FFT of A[k1 N2 + n2] W_N^{n2 k1} over n2, written to
    /// X[k1 + N1 k2]. The first launch writes an intermediate buffer the second reads.
    pub fn four_step(n1: usize, n2: usize, batch: usize) -> [Layout; 2] {
        let size = n1 * n2;
        [
            Layout {
                len: n1,
                columns_per_batch: n2,
                in_stride: n2,
                in_dist: 1,
                out_stride: n2,
                out_dist: 1,
                batch_dist: size,
                twiddle_n: 0,
                total_columns: batch * n2,
                fold: false,
            },
            Layout {
                len: n2,
                columns_per_batch: n1,
                in_stride: 1,
                in_dist: n2,
                out_stride: n1,
                out_dist: 1,
                batch_dist: size,
                twiddle_n: size,
                total_columns: batch * n1,
                fold: false,
            },
        ]
    }

    /// `batch` transforms of N = 2 `half` points in one launch: the four-step split with N1 = 2,
    /// its first step (one butterfly over the two halves) fused into the loads of the second.
    /// Column k1 of a transform (two per transform) loads x[n2] + (-1)^k1 x[n2 + half], so both
    /// read the whole input (in_dist 0), applies W_N^{n2 k1} and writes X[k1 + 2 k2].
    pub fn halves(half: usize, batch: usize) -> Layout {
        let size = 2 * half;
        Layout {
            len: half,
            columns_per_batch: 2,
            in_stride: 1,
            in_dist: 0,
            out_stride: 2,
            out_dist: 1,
            batch_dist: size,
            twiddle_n: size,
            total_columns: 2 * batch,
            fold: true,
        }
    }

    /// Whether either side of the launch is strided (its columns' points not contiguous).
    pub fn strided(&self) -> bool {
        self.in_stride != 1 || self.out_stride != 1
    }

    /// log2 of `len`, for the power-of-two kernel's LOG2_SIZE.
    pub fn log2_len(&self) -> u32 {
        self.len.trailing_zeros()
    }

    /// The kernels' integer arguments after the buffers, in order.
    pub fn args(&self) -> [usize; 8] {
        [
            self.columns_per_batch,
            self.in_stride,
            self.in_dist,
            self.out_stride,
            self.out_dist,
            self.batch_dist,
            self.twiddle_n,
            self.total_columns,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_step_launches_visit_every_point_once_each() {
        let [first, second] = Layout::four_step(8, 32, 3);
        assert_eq!(first.total_columns * first.len, 3 * 256);
        assert_eq!(second.total_columns * second.len, 3 * 256);
        assert!(first.strided() && second.strided());
        assert!(!Layout::contiguous(256, 3).strided());
        // The first launch's outputs are where the second launch reads them.
        let mut seen = vec![0; 3 * 256];
        for g in 0..first.total_columns {
            let (b, c) = (g / first.columns_per_batch, g % first.columns_per_batch);
            for i in 0..first.len {
                seen[b * first.batch_dist + c * first.out_dist + i * first.out_stride] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        assert_eq!(second.args()[6], 256);
    }

    /// The fused split computes X[k1 + 2 k2] = sum_n2 (x[n2] + (-1)^k1 x[n2 + N2]) W_N^{n2 k1}
    /// W_N2^{n2 k2}: checked here against the DFT's definition in f64, with every output written
    /// once.
    #[test]
    fn the_halves_layout_is_the_dft_and_writes_every_output_once() {
        let (half, batch) = (8usize, 2usize);
        let layout = Layout::halves(half, batch);
        let n = 2 * half;
        let x: Vec<(f64, f64)> = (0..batch * n).map(|i| ((i as f64).sin(), (3.0 * i as f64).cos())).collect();
        let cis =
            |turns: f64| ((2.0 * std::f64::consts::PI * turns).cos(), -(2.0 * std::f64::consts::PI * turns).sin());
        let mul = |a: (f64, f64), b: (f64, f64)| (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0);
        let mut out = vec![None; batch * n];
        for g in 0..layout.total_columns {
            let (b, c) = (g / layout.columns_per_batch, g % layout.columns_per_batch);
            let base = b * layout.batch_dist + c * layout.in_dist;
            let sign = if layout.fold && c % 2 == 1 { -1.0 } else { 1.0 };
            let column: Vec<(f64, f64)> = (0..layout.len)
                .map(|i| {
                    let (p, q) = (x[base + i], x[base + i + layout.len]);
                    let folded = (p.0 + sign * q.0, p.1 + sign * q.1);
                    mul(folded, cis((c * i) as f64 / layout.twiddle_n as f64))
                })
                .collect();
            for k in 0..layout.len {
                let sum = column.iter().enumerate().fold((0.0, 0.0), |s, (i, &v)| {
                    let t = mul(v, cis((i * k) as f64 / layout.len as f64));
                    (s.0 + t.0, s.1 + t.1)
                });
                let at = b * layout.batch_dist + c * layout.out_dist + k * layout.out_stride;
                assert!(out[at].replace(sum).is_none(), "output {at} written twice");
            }
        }
        for b in 0..batch {
            for k in 0..n {
                let dft = (0..n).fold((0.0, 0.0), |s, i| {
                    let t = mul(x[b * n + i], cis((i * k) as f64 / n as f64));
                    (s.0 + t.0, s.1 + t.1)
                });
                let got = out[b * n + k].unwrap();
                assert!((got.0 - dft.0).abs() < 1e-9 && (got.1 - dft.1).abs() < 1e-9, "{b} {k}: {got:?} {dft:?}");
            }
        }
    }
}
