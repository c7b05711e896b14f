//! Arrays to and from the worker as .npy files: inputs in the shapes a library takes them
//! (images rows x columns, FFTs batch x size), outputs checked against the problem's shape and
//! type before they are believed.

use dspbench_core::{Complex32, Error, Input, Output, Pixels, Problem};
use ndarray::{Array1, Array2, ArrayD};
use ndarray_npy::{ReadNpyError, ReadableElement, WritableElement};
use std::path::{Path, PathBuf};

/// Writes `input`'s buffers as `<prefix>-<name>.npy` in `dir`; returns (name, path) of each.
pub fn write_input(dir: &Path, prefix: &str, input: &Input) -> Result<Vec<(&'static str, PathBuf)>, Error> {
    let path = |name: &str| dir.join(format!("{prefix}-{name}.npy"));
    let mut files = Vec::new();
    match input {
        Input::Conv1d { signal, filter } => {
            files.push(write("signal", path("signal"), Array1::from(signal.clone()))?);
            files.push(write("filter", path("filter"), Array1::from(filter.clone()))?);
        }
        Input::BoxFilter { image, .. } | Input::Conv2d { image, .. } => {
            let shape = (image.height, image.width);
            let file = path("image");
            files.push(match &image.pixels {
                Pixels::U8(p) => write("image", file, shaped(shape, p.clone())?)?,
                Pixels::F32(p) => write("image", file, shaped(shape, p.clone())?)?,
            });
            if let Input::Conv2d { kernel, radius, .. } = input {
                let side = 2 * radius + 1;
                files.push(write("kernel", path("kernel"), shaped((side, side), kernel.clone())?)?);
            }
        }
        Input::Fft { data, size, batch } => {
            files.push(write("data", path("data"), shaped((*batch, *size), data.clone())?)?);
        }
        Input::Lms { x, d, channels, .. } => {
            let shape = (*channels, x.len() / channels);
            files.push(write("x", path("x"), shaped(shape, x.clone())?)?);
            files.push(write("d", path("d"), shaped(shape, d.clone())?)?);
        }
    }
    Ok(files)
}

/// Bytes of `input`'s buffers.
pub fn input_bytes(input: &Input) -> u64 {
    let bytes = match input {
        Input::Conv1d { signal, filter } => 4 * (signal.len() + filter.len()),
        Input::BoxFilter { image, .. } => image.pixels.len() * image.dtype().size_bytes(),
        Input::Conv2d { image, kernel, .. } => image.pixels.len() * image.dtype().size_bytes() + 4 * kernel.len(),
        Input::Fft { data, .. } => 8 * data.len(),
        Input::Lms { x, d, .. } => 4 * (x.len() + d.len()),
    };
    bytes as u64
}

fn shaped<T>(shape: (usize, usize), values: Vec<T>) -> Result<Array2<T>, Error> {
    Array2::from_shape_vec(shape, values).map_err(|e| Error::input(format!("input of shape {shape:?}: {e}")))
}

fn write<A: ndarray_npy::WriteNpyExt>(
    name: &'static str,
    path: PathBuf,
    array: A,
) -> Result<(&'static str, PathBuf), Error> {
    ndarray_npy::write_npy(&path, &array)
        .map_err(|e| Error::device(format!("cannot write {} for the peer worker: {e}", path.display())))?;
    Ok((name, path))
}

/// The shape the worker must return for `problem`.
pub fn output_shape(problem: &Problem) -> Vec<usize> {
    match *problem {
        Problem::Conv1d { .. } | Problem::Lms { .. } => vec![problem.output_elements()],
        Problem::BoxFilter { width, height, .. } | Problem::Conv2d { width, height, .. } => vec![height, width],
        Problem::Fft { size, batch } => vec![batch, size],
    }
}

/// Reads the worker's output for `problem` from `path`, refusing any other shape or type.
pub fn read_output(path: &Path, problem: &Problem) -> Result<Output, Error> {
    let expected = output_shape(problem);
    let template = Output::poisoned(problem);
    let output = match template {
        Output::F32(_) => Output::F32(read_vec::<f32>(path, &expected, "float32")?),
        Output::U8(_) => Output::U8(read_vec::<u8>(path, &expected, "uint8")?),
        Output::Complex(_) => Output::Complex(read_vec::<Complex32>(path, &expected, "complex64")?),
    };
    Ok(output)
}

fn read_vec<T: ReadableElement + WritableElement + Copy>(
    path: &Path,
    expected: &[usize],
    dtype: &str,
) -> Result<Vec<T>, Error> {
    let array: ArrayD<T> = ndarray_npy::read_npy(path).map_err(|e| match e {
        ReadNpyError::WrongDescriptor(found) => {
            Error::device(format!("the peer returned an array of dtype {found}, expected {dtype}"))
        }
        e => Error::device(format!("cannot read the peer's output {}: {e}", path.display())),
    })?;
    if array.shape() != expected {
        return Err(Error::device(format!(
            "the peer returned an array of shape {:?}, expected {expected:?} ({dtype})",
            array.shape()
        )));
    }
    // Row-major order is the workload's order; iter() walks any memory layout in it.
    Ok(array.iter().copied().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::{generate_input, DType};

    #[test]
    fn outputs_of_another_shape_or_type_are_device_errors() {
        let dir = tempfile::tempdir().unwrap();
        let problem = Problem::BoxFilter { width: 4, height: 3, window: 3, dtype: DType::U8 };
        let path = dir.path().join("out.npy");
        ndarray_npy::write_npy(&path, &Array2::<u8>::zeros((3, 4))).unwrap();
        assert_eq!(read_output(&path, &problem).unwrap(), Output::U8(vec![0; 12]));
        ndarray_npy::write_npy(&path, &Array2::<u8>::zeros((4, 3))).unwrap();
        let err = read_output(&path, &problem).unwrap_err();
        assert!(matches!(&err, Error::Device(m) if m.contains("shape [4, 3], expected [3, 4]")), "{err}");
        ndarray_npy::write_npy(&path, &Array2::<f32>::zeros((3, 4))).unwrap();
        let err = read_output(&path, &problem).unwrap_err();
        assert!(matches!(&err, Error::Device(m) if m.contains("expected uint8")), "{err}");
    }

    #[test]
    fn inputs_are_written_in_library_shapes() {
        let dir = tempfile::tempdir().unwrap();
        let input = generate_input(&Problem::Conv2d { width: 5, height: 2, radius: 1, dtype: DType::F32 }, 1);
        let files = write_input(dir.path(), "7", &input).unwrap();
        let names: Vec<_> = files.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["image", "kernel"]);
        let image: Array2<f32> = ndarray_npy::read_npy(&files[0].1).unwrap();
        assert_eq!(image.shape(), [2, 5]);
        let Input::Conv2d { image: original, .. } = &input else { unreachable!() };
        assert_eq!(image[[1, 0]], original.pixels.get_f64(5) as f32, "row-major: row 1 starts at pixel 5");
    }
}
