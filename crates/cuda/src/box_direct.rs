//! box-filter `direct`: paper 001's direct GPU version, one thread per pixel summing all m^2
//! values (kernels/cuda/box_filter_direct.cu).

use crate::box_filter::{defines, launch_pass, window_arg, DOMAIN};
use crate::compile::Module;
use crate::context::Gpu;
use crate::image::{dims, ImageBuffers};
use crate::launch::{blocks_for, describe, Launch};
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use dspbench_core::{Algorithm, DType, Error, Input, Output, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "direct",
    summary: "one thread per pixel summing all m^2 values, O(m^2) (paper 001's GPU direct)",
    tunables: &["threads"],
    domain: DOMAIN,
};

pub(crate) const FILE: &str = "box_filter_direct";

/// The paper's 512 threads per block (2048 x 512 for a 1024 x 1024 image).
const THREADS: u32 = 512;

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx),
        DType::F32 => build::<f32>(ctx),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, .. } = ctx.problem else { return Err(wrong_input()) };
    let threads = ctx.gpu.facts.limits.threads(ctx.tunables.positive_opt("threads")?, THREADS)?;
    let window = window_arg(window)?;
    let module = ctx.compiler.load(ctx.gpu, FILE, defines::<P>())?;
    let blocks = blocks_for(width * height, threads as usize, "one thread per pixel")?;
    let launch = Launch::new(&module, "box_filter_direct", (blocks, 1), (threads, 1))?;
    let image = ImageBuffers::new(ctx.gpu, width, height)?;
    ctx.finish(BoxDirect::<P> { image, window, module, launch })
}

struct BoxDirect<P: Pixel> {
    image: ImageBuffers<P>,
    window: i32,
    module: Module,
    launch: Launch,
}

impl<P: Pixel> GpuKernel for BoxDirect<P> {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_input()) };
        self.image.copy_in(gpu, image)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.image.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let (w, h) = dims(self.image.width, self.image.height);
        let ImageBuffers { input, output, .. } = &mut self.image;
        launch_pass(&gpu.stream, &self.launch, input, (w, h, self.window), output)
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.image.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        describe(&[&self.module], &[&self.launch])
    }
}
