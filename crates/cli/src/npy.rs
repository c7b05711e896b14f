//! Reading the user's `.npy` files into inputs, and writing outputs, with errors that say
//! which file and what was expected.

use crate::error::CliError;
use dspbench_core::{Complex32, Image, Output, Pixels, Problem};
use ndarray::{ArrayD, IxDyn};
use ndarray_npy::{ReadNpyError, ReadNpyExt, ReadableElement, WritableElement, WriteNpyExt};
use std::path::Path;

fn read_bytes(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::Input(format!("{}: cannot read: {e}", path.display())))
}

/// Reads an array of any rank with element type `T`; `Ok(None)` if the file holds another type.
fn try_read<T: ReadableElement>(bytes: &[u8], path: &Path) -> Result<Option<ArrayD<T>>, CliError> {
    match ArrayD::<T>::read_npy(bytes) {
        Ok(a) => Ok(Some(a)),
        Err(ReadNpyError::WrongDescriptor(_)) => Ok(None),
        Err(e) => Err(CliError::Input(format!("{}: not a readable .npy file: {e}", path.display()))),
    }
}

/// The descriptor of a file, for "expected float32, found <f8"-style messages.
fn descriptor(bytes: &[u8]) -> String {
    let header = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]).to_string();
    header
        .split("'descr':")
        .nth(1)
        .and_then(|rest| rest.split('\'').nth(1))
        .map(|d| format!("`{d}`"))
        .unwrap_or_else(|| "an unknown type".into())
}

fn wrong_type(path: &Path, expected: &str, bytes: &[u8]) -> CliError {
    CliError::Input(format!(
        "{}: expected {expected}, found dtype {} (convert with numpy, e.g. `a.astype(np.float32)`)",
        path.display(),
        descriptor(bytes)
    ))
}

fn wrong_rank(path: &Path, expected: &str, shape: &[usize]) -> CliError {
    CliError::Input(format!("{}: expected {expected}, found an array of shape {shape:?}", path.display()))
}

/// A 1-D float32 array (conv1d signal or filter).
pub fn read_f32_vector(path: &Path) -> Result<Vec<f32>, CliError> {
    let bytes = read_bytes(path)?;
    let array = try_read::<f32>(&bytes, path)?.ok_or_else(|| wrong_type(path, "a 1-D float32 array", &bytes))?;
    if array.ndim() != 1 || array.is_empty() {
        return Err(wrong_rank(path, "a non-empty 1-D float32 array", array.shape()));
    }
    Ok(array.iter().copied().collect())
}

/// A 2-D uint8 or float32 image (rows x columns).
pub fn read_image(path: &Path) -> Result<Image, CliError> {
    let bytes = read_bytes(path)?;
    let shape_err = |shape: &[usize]| wrong_rank(path, "a non-empty 2-D image (height x width)", shape);
    if let Some(a) = try_read::<u8>(&bytes, path)? {
        let (h, w) = dims2(&a).ok_or_else(|| shape_err(a.shape()))?;
        return Ok(Image::new(w, h, Pixels::U8(a.iter().copied().collect()))?);
    }
    if let Some(a) = try_read::<f32>(&bytes, path)? {
        let (h, w) = dims2(&a).ok_or_else(|| shape_err(a.shape()))?;
        return Ok(Image::new(w, h, Pixels::F32(a.iter().copied().collect()))?);
    }
    Err(wrong_type(path, "a uint8 or float32 image", &bytes))
}

/// A square float32 kernel of odd side 2R+1; returns the taps row-major and R.
pub fn read_kernel(path: &Path) -> Result<(Vec<f32>, usize), CliError> {
    let bytes = read_bytes(path)?;
    let a = try_read::<f32>(&bytes, path)?.ok_or_else(|| wrong_type(path, "a 2-D float32 kernel", &bytes))?;
    match dims2(&a) {
        Some((h, w)) if h == w && h % 2 == 1 => Ok((a.iter().copied().collect(), h / 2)),
        _ => Err(wrong_rank(path, "a square float32 kernel with an odd side (2R+1 x 2R+1)", a.shape())),
    }
}

/// A float32 array of one or more equal rows, 1-D (one row) or 2-D (rows x length): the
/// values row after row, and the number of rows.
pub fn read_f32_rows(path: &Path) -> Result<(Vec<f32>, usize), CliError> {
    let bytes = read_bytes(path)?;
    let a = try_read::<f32>(&bytes, path)?.ok_or_else(|| wrong_type(path, "a float32 array", &bytes))?;
    let rows = match a.shape() {
        [len] if *len > 0 => 1,
        [rows, len] if *rows > 0 && *len > 0 => *rows,
        shape => return Err(wrong_rank(path, "a non-empty 1-D or 2-D (channels x samples) float32 array", shape)),
    };
    Ok((a.iter().copied().collect(), rows))
}

/// A complex64 array, 1-D (one transform) or 2-D (batch x size): data, size, batch and the rank.
pub fn read_complex(path: &Path) -> Result<(Vec<Complex32>, usize, usize, usize), CliError> {
    let bytes = read_bytes(path)?;
    let a = try_read::<Complex32>(&bytes, path)?.ok_or_else(|| wrong_type(path, "a complex64 array", &bytes))?;
    let (batch, size) = match a.shape() {
        [size] if *size > 0 => (1, *size),
        [batch, size] if *batch > 0 && *size > 0 => (*batch, *size),
        shape => return Err(wrong_rank(path, "a non-empty 1-D or 2-D (batch x size) complex64 array", shape)),
    };
    Ok((a.iter().copied().collect(), size, batch, a.ndim()))
}

/// `(rows, cols)` of a non-empty 2-D array.
fn dims2<T>(a: &ArrayD<T>) -> Option<(usize, usize)> {
    match a.shape() {
        [h, w] if *h > 0 && *w > 0 => Some((*h, *w)),
        _ => None,
    }
}

/// Writes `output` as `.npy`: conv1d 1-D float32; images 2-D (height x width) of the input's
/// type; fft complex64 of the input's shape (`batch_dims` 1 or 2); lms 1-D float32, every
/// channel's error signal then every channel's final weights.
pub fn write_output(path: &Path, output: &Output, problem: &Problem, fft_rank: usize) -> Result<(), CliError> {
    let file =
        std::fs::File::create(path).map_err(|e| CliError::Io(format!("{}: cannot write: {e}", path.display())))?;
    let shape: Vec<usize> = match *problem {
        Problem::Conv1d { .. } | Problem::Lms { .. } => vec![problem.output_elements()],
        Problem::BoxFilter { width, height, .. } | Problem::Conv2d { width, height, .. } => vec![height, width],
        Problem::Fft { size, batch } if fft_rank == 1 && batch == 1 => vec![size],
        Problem::Fft { size, batch } => vec![batch, size],
    };
    let written = match output {
        Output::F32(v) => write(file, &shape, v),
        Output::U8(v) => write(file, &shape, v),
        Output::Complex(v) => write(file, &shape, v),
    };
    written.map_err(|e| CliError::Io(format!("{}: cannot write: {e}", path.display())))
}

fn write<T: WritableElement + Clone>(file: std::fs::File, shape: &[usize], data: &[T]) -> Result<(), String> {
    let array = ArrayD::from_shape_vec(IxDyn(shape), data.to_vec()).map_err(|e| e.to_string())?;
    array.write_npy(std::io::BufWriter::new(file)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, Array2};

    #[test]
    fn reads_back_what_it_writes_and_names_wrong_types() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.npy");
        Array1::from(vec![1.0f32, 2.0, 3.0]).write_npy(std::fs::File::create(&path).unwrap()).unwrap();
        assert_eq!(read_f32_vector(&path).unwrap(), vec![1.0, 2.0, 3.0]);
        let err = read_image(&path).unwrap_err().to_string();
        assert!(err.contains("2-D image"), "{err}");
        Array2::from_shape_vec((2, 2), vec![1.0f64; 4])
            .unwrap()
            .write_npy(std::fs::File::create(&path).unwrap())
            .unwrap();
        let err = read_f32_vector(&path).unwrap_err().to_string();
        assert!(err.contains("<f8") && err.contains("float32"), "{err}");
    }
}

/// Random and corrupted `.npy` files: each is read or refused as bad input (exit code 2), never
/// a panic or an abort. Cases per property: `PROPTEST_CASES` (256 by default).
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn config() -> proptest::test_runner::Config {
        let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
        proptest::test_runner::Config { cases, failure_persistence: None, ..Default::default() }
    }

    /// A valid file of some type and shape, as bytes.
    fn valid_npy() -> impl Strategy<Value = Vec<u8>> {
        let shape = proptest::collection::vec(0usize..5, 0..4);
        (shape, 0..4u8).prop_map(|(shape, kind)| {
            let n: usize = shape.iter().product();
            let mut bytes = Vec::new();
            let dims = IxDyn(&shape);
            match kind {
                0 => ArrayD::from_shape_vec(dims, vec![1.5f32; n]).unwrap().write_npy(&mut bytes),
                1 => ArrayD::from_shape_vec(dims, vec![7u8; n]).unwrap().write_npy(&mut bytes),
                2 => ArrayD::from_shape_vec(dims, vec![Complex32::new(1.0, -1.0); n]).unwrap().write_npy(&mut bytes),
                _ => ArrayD::from_shape_vec(dims, vec![2.0f64; n]).unwrap().write_npy(&mut bytes),
            }
            .unwrap();
            bytes
        })
    }

    /// What a header can claim that its data does not hold.
    const HEADER_LIES: [(&str, &str); 8] = [
        ("<f4", "<f8"),
        ("<f4", ">f4"),
        ("|u1", "<u2"),
        ("<c8", "<c16"),
        ("False", "True"),
        ("(", "(4294967296, 4294967296, "),
        ("(", "(18446744073709551615, "),
        ("(", "(0, "),
    ];

    #[derive(Debug, Clone)]
    enum Corruption {
        Truncate(usize),
        Flip(usize, u8),
        Lie(usize),
        Append(Vec<u8>),
    }

    fn corruption() -> impl Strategy<Value = Corruption> {
        prop_oneof![
            any::<usize>().prop_map(Corruption::Truncate),
            (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Corruption::Flip(a, b)),
            (0..HEADER_LIES.len()).prop_map(Corruption::Lie),
            proptest::collection::vec(any::<u8>(), 1..16).prop_map(Corruption::Append),
        ]
    }

    fn corrupt(mut bytes: Vec<u8>, c: &Corruption) -> Vec<u8> {
        match c {
            Corruption::Truncate(at) => bytes.truncate(at % (bytes.len() + 1)),
            Corruption::Flip(at, b) if !bytes.is_empty() => {
                let i = at % bytes.len();
                bytes[i] ^= b | 1;
            }
            Corruption::Lie(i) => {
                let (from, to) = HEADER_LIES[*i];
                let header_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len());
                let header = String::from_utf8_lossy(&bytes[..header_end]).replacen(from, to, 1);
                bytes = [header.as_bytes(), &bytes[header_end..]].concat();
            }
            Corruption::Append(tail) => bytes.extend_from_slice(tail),
            _ => {}
        }
        bytes
    }

    fn every_reader_answers(bytes: &[u8]) -> Result<(), TestCaseError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input.npy");
        std::fs::write(&path, bytes).unwrap();
        let errors = [
            read_f32_vector(&path).err(),
            read_image(&path).err(),
            read_kernel(&path).err(),
            read_complex(&path).err(),
        ];
        for e in errors.into_iter().flatten() {
            prop_assert_eq!(e.exit_code(), 2, "{}", e);
            prop_assert!(e.to_string().contains("input.npy"), "error does not name the file: {}", e);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn random_bytes_are_refused_as_bad_input(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            every_reader_answers(&bytes)?;
        }

        #[test]
        fn corrupted_files_are_read_or_refused_as_bad_input(
            bytes in valid_npy(),
            corruptions in proptest::collection::vec(corruption(), 0..3),
        ) {
            let bytes = corruptions.iter().fold(bytes, corrupt);
            every_reader_answers(&bytes)?;
        }
    }
}
