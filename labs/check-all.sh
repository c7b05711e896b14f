#!/usr/bin/env bash
# Checks every lab of labs/solutions/README.md's table with a built dspbench binary, on any
# machine (the GPU machine has no cargo): each starter kernel must compile and fail verification
# (a mismatch, not a compile error), each solution must verify. The same checks as
# crates/cli/tests/labs.rs, on inputs written here without Python.
#
#   labs/check-all.sh BINARY [BACKEND...]       backends: opencl (the default), cuda
#   labs/check-all.sh .gpu/dspbench cuda         (the GPU machine; its log is committed)
#
# Prints PASS or FAIL per lab, dialect and kernel; exits 1 if any result is not the expected one
# (a named backend that is not available is a FAIL too), 2 on a usage error.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 BINARY [opencl] [cuda]" >&2
    exit 2
fi
case "$1" in
    /*) bin=$1 ;;
    *) bin=$PWD/$1 ;;
esac
shift
if [ ! -x "$bin" ]; then
    echo "$0: $bin is not an executable dspbench binary" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    set -- opencl
fi
# Kernel paths in the table are relative to the repository root, as dspbench's --kernel.
cd "$(dirname "$0")/.." || exit 2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- .npy files written with printf: the format is a 10-byte preamble, a Python dict header
# padded with spaces to a multiple of 64 bytes, then the raw little-endian data.

# npy FILE DESCR SHAPE DATA: DATA is a printf format of \xHH escapes only.
npy() {
    local header="{'descr': '$2', 'fortran_order': False, 'shape': $3, }"
    local len=$(( ${#header} + 1 ))
    while (( (10 + len) % 64 != 0 )); do
        header+=" "
        len=$(( len + 1 ))
    done
    {
        printf '\x93NUMPY\x01\x00'
        printf "\\x$(printf %02x $(( len & 255 )))\\x$(printf %02x $(( len >> 8 )))"
        printf '%s\n' "$header"
        printf "$4"
    } > "$1"
}

# f32 K SHIFT: appends to $data the float32 K / 2^SHIFT (exact for |K| < 2^23).
f32() {
    local k=$1 shift=$2 sign=0 e=0 bits
    if (( k == 0 )); then
        data+='\x00\x00\x00\x00'
        return
    fi
    if (( k < 0 )); then
        sign=1
        k=$(( -k ))
    fi
    while (( (k >> (e + 1)) > 0 )); do
        e=$(( e + 1 ))
    done
    bits=$(( (sign << 31) | ((e - shift + 127) << 23) | ((k << (23 - e)) & 0x7fffff) ))
    data+=$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(( bits & 255 )) $(( (bits >> 8) & 255 )) \
        $(( (bits >> 16) & 255 )) $(( (bits >> 24) & 255 )))
}

# u8 image HEIGHT WIDTH FILE: pixel (x, y) = (7x + 13y + 5) mod 251.
u8_image() {
    local h=$1 w=$2 x y
    data=
    for (( y = 0; y < h; y++ )); do
        for (( x = 0; x < w; x++ )); do
            data+=$(printf '\\x%02x' $(( (x * 7 + y * 13 + 5) % 251 )))
        done
    done
    npy "$3" '|u1' "($h, $w)" "$data"
}

# Awkward sizes: not multiples of any work-group or tile; conv2d is three tiles high and two wide
# at R = 2; no input is zero where a dropped term would hide (conv1d's x[0]).
u8_image 23 37 "$work/box.npy"
data=
for (( i = 0; i < 5 * 256; i++ )); do
    f32 $(( (i * 29 + 3) % 97 - 48 )) 6
    f32 $(( (i * 41 + 7) % 89 - 44 )) 6
done
npy "$work/fft.npy" '<c8' '(5, 256)' "$data"
data=
for (( i = 0; i < 1003; i++ )); do f32 $(( (i * 37 + 11) % 129 - 64 )) 6; done
npy "$work/x.npy" '<f4' '(1003,)' "$data"
data=
for (( k = 0; k < 37; k++ )); do f32 $(( (k * 23 + 5) % 61 - 30 )) 6; done
npy "$work/h.npy" '<f4' '(37,)' "$data"
u8_image 57 531 "$work/image.npy"
data=
for (( j = 0; j < 25; j++ )); do f32 $(( 1 + j )) 9; done   # taps (1 + j) / 512, summing to 0.63
npy "$work/k.npy" '<f4' '(5, 5)' "$data"

# lms: 3 channels of 700 samples, x = (((37 i + 11 c + 3) mod 97) - 48) / 64, echo paths of 5
# taps ((5 c + k) mod 7 - 3) / 8, d = echo * x exactly (sums of dyadic products, no noise).
xs=()
data=
for (( c = 0; c < 3; c++ )); do
    for (( i = 0; i < 700; i++ )); do
        xs[c * 700 + i]=$(( (i * 37 + c * 11 + 3) % 97 - 48 ))
        f32 ${xs[c * 700 + i]} 6
    done
done
npy "$work/lms-x.npy" '<f4' '(3, 700)' "$data"
data=
for (( c = 0; c < 3; c++ )); do
    for (( i = 0; i < 700; i++ )); do
        sum=0
        for (( k = 0; k < 5 && k <= i; k++ )); do
            sum=$(( sum + ((c * 5 + k) % 7 - 3) * xs[c * 700 + i - k] ))
        done
        f32 $sum 9
    done
done
npy "$work/lms-d.npy" '<f4' '(3, 700)' "$data"
data=
for (( c = 0; c < 3; c++ )); do
    for (( k = 0; k < 5; k++ )); do f32 $(( (c * 5 + k) % 7 - 3 )) 3; done
done
npy "$work/lms-echo.npy" '<f4' '(3, 5)' "$data"

# The exec arguments of a workload's inputs.
inputs() {
    case "$1" in
        box-filter) echo "--input $work/box.npy --param window=7" ;;
        fft) echo "--input $work/fft.npy" ;;
        conv1d) echo "--input $work/x.npy --input $work/h.npy" ;;
        conv2d) echo "--input $work/image.npy --input $work/k.npy" ;;
        lms) echo "--input $work/lms-x.npy --input $work/lms-d.npy --input $work/lms-echo.npy --param taps=37 --param block=8 --param mu=0.5" ;;
        *) return 1 ;;
    esac
}

# The lab rows of the table: number, folder, workload, like, OpenCL solution, CUDA solution.
table=$(awk -F'|' '/^\| [0-9]/ {
    row = ""
    for (i = 2; i <= 7; i++) { c = $i; gsub(/[ `]/, "", c); row = row (i > 2 ? " " : "") c }
    print row
}' labs/solutions/README.md)
if [ "$(printf '%s\n' "$table" | grep -c .)" -lt 5 ]; then
    echo "FAIL: labs/solutions/README.md lists fewer than 5 labs" >&2
    exit 1
fi

passed=0
failed=0
# check LAB BACKEND KIND FILE WORKLOAD LIKE: KIND starter must mismatch, solution must verify.
check() {
    local lab=$1 backend=$2 kind=$3 file=$4 workload=$5 like=$6 err rc verdict
    err=$("$bin" exec "$workload" --kernel "$file" --like "$like" $(inputs "$workload") \
        --output "$work/out.npy" --max-samples 2 2>&1 >/dev/null)
    rc=$?
    if [ "$kind" = starter ]; then
        if [ $rc -eq 1 ] && [[ $err == *"mismatch: MISMATCH"* ]] && [[ $err != *"failed to compile"* ]]; then
            verdict="PASS"
        else
            verdict="FAIL"
        fi
        want="fails verification"
    else
        if [ $rc -eq 0 ] && [[ $err == *verified* ]]; then
            verdict="PASS"
        else
            verdict="FAIL"
        fi
        want="verifies"
    fi
    echo "$verdict lab $lab $backend $kind $file ($want; exit $rc)"
    if [ "$verdict" = PASS ]; then
        passed=$(( passed + 1 ))
    else
        failed=$(( failed + 1 ))
        printf '%s\n' "$err" | sed 's/^/    /' | head -40
    fi
}

for backend in "$@"; do
    case "$backend" in
        opencl) ext=cl column=5 ;;
        cuda) ext=cu column=6 ;;
        *)
            echo "$0: unknown backend $backend (opencl or cuda)" >&2
            exit 2
            ;;
    esac
    while read -r number folder workload like ocl cu; do
        solution=$ocl
        [ "$column" = 6 ] && solution=$cu
        check "$number" "$backend" starter "labs/$folder/starter.$ext" "$workload" "$like"
        check "$number" "$backend" solution "$solution" "$workload" "$like"
    done <<< "$table"
done

echo "$passed passed, $failed failed ($("$bin" --version 2>/dev/null || echo dspbench), backends: $*)"
[ "$failed" -eq 0 ]
