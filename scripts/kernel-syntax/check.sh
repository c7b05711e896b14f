#!/usr/bin/env bash
# Checks a CUDA or OpenCL kernel's C / C++ on a machine without the CUDA toolkit or a GPU, with clang
# (15 or later: apt-get install -y clang), before a call to the GPU machine finds a typo:
#   scripts/kernel-syntax/check.sh kernels/cuda/box_filter_fast_mma.cu -DDTYPE_U8 -DMMA_G=3 -DMMA_KH=3
#   scripts/kernel-syntax/check.sh kernels/opencl/box_filter_fast_mma.cl -DDTYPE_U8 -DNV_PTX -DMMA_G=2 -DMMA_KH=1
# The defines are those the host passes for the variant at hand (each kernel file's header names them).
# CUDA: device-side syntax against cuda-shim.h; OpenCL: OpenCL C 1.2 for NVIDIA's target, so that
# NV_PTX's inline PTX parses. Neither checks the PTX itself, registers or spills: the GPU machine does.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="${1:?usage: check.sh KERNEL_FILE [-DNAME[=VALUE] ...]}"
shift
if [ ! -f "$file" ]; then
    echo "check.sh: no kernel file $file" >&2
    exit 2
fi
clang="$(command -v clang-15 || command -v clang || true)"
if [ -z "$clang" ]; then
    echo "check.sh: no clang found (apt-get install -y clang)" >&2
    exit 2
fi
case "$file" in
*.cu)
    "$clang" -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -fsyntax-only -std=c++17 \
        -include "$here/cuda-shim.h" -I "$(dirname "$file")" "$@" "$file"
    ;;
*.cl)
    "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -fsyntax-only -Dasm=__asm__ \
        -Xclang -finclude-default-header -I "$(dirname "$file")" "$@" "$file"
    ;;
*)
    echo "check.sh: $file is neither a .cu nor a .cl file" >&2
    exit 2
    ;;
esac
echo "ok: $file $*"
