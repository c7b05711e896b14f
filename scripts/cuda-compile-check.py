#!/usr/bin/env python3
"""Compiles a CUDA kernel file as the CUDA backend does (NVRTC, --std=c++17, the given -D macros and
architecture) on a machine without a GPU, and runs ptxas on the PTX for its registers, stack and
spills: a kernel change's compile errors and register budget checked before a GPU call is spent.

NVRTC and ptxas come from NVIDIA's Python wheels (no GPU or driver needed):
    python3 -m pip install --target /tmp/nvtk nvidia-cuda-nvrtc-cu12 nvidia-cuda-nvcc-cu12
    scripts/cuda-compile-check.py kernels/cuda/box_filter_fast_mma.cu --arch 90a \
        -D DTYPE_U8=1 -D MMA_G=3 -D MMA_KH=3 -D MMA_WGMMA=1 -D MMA_BEYOND_L2=1
The exit status is 1 where NVRTC or ptxas fails, 0 otherwise; --toolkit names the wheels' folder
(default /tmp/nvtk).
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile


def nvrtc_library(toolkit):
    lib = os.path.join(toolkit, "nvidia", "cuda_nvrtc", "lib")
    for name in sorted(os.listdir(lib)):
        if name.startswith("libnvrtc.so"):
            return ctypes.CDLL(os.path.join(lib, name))
    sys.exit(f"no libnvrtc.so under {lib}: install the wheels (see this script's docstring)")


def compile_ptx(nvrtc, source_path, options):
    with open(source_path, "rb") as f:
        source = f.read()
    program = ctypes.c_void_p()
    name = os.path.basename(source_path).encode()
    status = nvrtc.nvrtcCreateProgram(ctypes.byref(program), source, name, 0, None, None)
    if status != 0:
        sys.exit(f"nvrtcCreateProgram failed: {status}")
    encoded = [o.encode() for o in options]
    argv = (ctypes.c_char_p * len(encoded))(*encoded)
    status = nvrtc.nvrtcCompileProgram(program, len(encoded), argv)
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(program, log)
    if log.value.strip():
        print(log.value.decode(errors="replace"), file=sys.stderr)
    if status != 0:
        return None
    nvrtc.nvrtcGetPTXSize(program, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(program, ptx)
    return ptx.value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="the kernel file (.cu); its #include files are found beside it")
    parser.add_argument("--arch", default="90", help="compute capability, as 90, 90a or 80 (default 90)")
    parser.add_argument("-D", dest="defines", action="append", default=[], help="a macro, NAME=VALUE")
    parser.add_argument("--toolkit", default="/tmp/nvtk", help="the folder the NVIDIA wheels went to")
    args = parser.parse_args()

    options = ["--std=c++17", f"--gpu-architecture=compute_{args.arch}",
               f"--include-path={os.path.dirname(os.path.abspath(args.source))}"]
    options += [f"-D{d}" for d in args.defines]
    ptx = compile_ptx(nvrtc_library(args.toolkit), args.source, options)
    if ptx is None:
        print("NVRTC failed", file=sys.stderr)
        return 1
    ptxas = os.path.join(args.toolkit, "nvidia", "cuda_nvcc", "bin", "ptxas")
    with tempfile.NamedTemporaryFile(suffix=".ptx") as f:
        f.write(ptx)
        f.flush()
        done = subprocess.run([ptxas, f"-arch=sm_{args.arch}", "-v", "-o", os.devnull, f.name],
                              capture_output=True, text=True)
    # ptxas -v reports on stderr: each entry's registers, stack frame and spill bytes.
    for line in (done.stdout + done.stderr).splitlines():
        if "error" in line or "Used" in line or "spill" in line or "Compiling entry" in line:
            print(line.replace("ptxas info    : ", ""))
    return 0 if done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
