"""gen_vectors.py - runs MMA-Sim (github.com/microsoft/MMA-Sim, arXiv 2511.10909)
on inputs that tests/test_mmasim.c can rebuild from a seed, and writes MMA-Sim's
outputs as hex bits, one file per (architecture, instruction) combination.

Usage (torch and MMA-Sim are needed here only, never by the project):
    MMASIM_DIR=/path/to/MMA-Sim python3 tests/mmasim/gen_vectors.py [--cases N] [--out DIR]
    MMASIM_DIR=/path/to/MMA-Sim python3 tests/mmasim/gen_vectors.py --time
See tests/mmasim/README.md for the file format and the input generator."""
import argparse
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.environ["MMASIM_DIR"])
from mmasim.simulator import nv_ptx  # noqa: E402

M64 = (1 << 64) - 1

# The input types: (total bits, exponent bits, mantissa bits, has Inf, torch
# view type, storage type, has NaN). "f32" is raw fp32 bits, what a tf32 MMA
# is fed. e2m1 codes are packed two to a byte for MMA-Sim (low nibble first).
TYPES = {
    "f16": (16, 5, 10, True, torch.float16, np.int16, True),
    "bf16": (16, 8, 7, True, torch.bfloat16, np.int16, True),
    "f32": (32, 8, 23, True, torch.float32, np.int32, True),
    "e4m3": (8, 4, 3, False, torch.float8_e4m3fn, np.uint8, True),
    "e5m2": (8, 5, 2, True, torch.float8_e5m2, np.uint8, True),
    "e2m1": (4, 2, 1, False, torch.uint8, np.uint8, False),
}
# The scale types: torch view type.
SCALES = {"ue8m0": torch.float8_e8m0fnu, "ue4m3": torch.float8_e4m3fn}

# One line per combination both models have: file stem, MMA-Sim arch, class,
# qualifier, m, n, k, then tensorcore.h's arch, A type, B type, C/D type (as
# tc_arch_name / tc_format_of(t)->name spell them) and the types' keys above.
COMBOS = [
    ("A100_m16n8k16_f16_f32", "Ampere", "mma", "m16n8k16.f32.f16.f16.f32", 16, 8, 16, "A100", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("A100_m16n8k16_f16_f16", "Ampere", "mma", "m16n8k16.f16.f16.f16.f16", 16, 8, 16, "A100", "fp16", "fp16", "fp16", "f16", "f16", "f16"),
    ("A100_m16n8k16_bf16_f32", "Ampere", "mma", "m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, "A100", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("A100_m16n8k8_bf16_f32", "Ampere", "mma", "m16n8k8.f32.bf16.bf16.f32", 16, 8, 8, "A100", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("A100_m16n8k8_tf32_f32", "Ampere", "mma", "m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, "A100", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("A100_m16n8k4_tf32_f32", "Ampere", "mma", "m16n8k4.f32.tf32.tf32.f32", 16, 8, 4, "A100", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("A100_m16n8k8_f16_f32", "Ampere", "mma", "m16n8k8.f32.f16.f16.f32", 16, 8, 8, "A100", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("V100_m8n8k4_f16_f32", "Volta", "mma", "m8n8k4.f32.f16.f16.f32", 8, 8, 4, "V100", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("V100_m8n8k4_f16_f16", "Volta", "mma", "m8n8k4.f16.f16.f16.f16", 8, 8, 4, "V100", "fp16", "fp16", "fp16", "f16", "f16", "f16"),
    ("H100_m16n8k16_f16_f32", "Hopper", "mma", "m16n8k16.f32.f16.f16.f32", 16, 8, 16, "H100", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("H100_m16n8k16_f16_f16", "Hopper", "mma", "m16n8k16.f16.f16.f16.f16", 16, 8, 16, "H100", "fp16", "fp16", "fp16", "f16", "f16", "f16"),
    ("H100_m16n8k16_bf16_f32", "Hopper", "mma", "m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, "H100", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("H100_m16n8k8_tf32_f32", "Hopper", "mma", "m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, "H100", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("H100_wgmma_m64n8k16_f16_f32", "Hopper", "wgmma", "m64n8k16.f32.f16.f16", 64, 8, 16, "H100", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("H100_wgmma_m64n8k16_f16_f16", "Hopper", "wgmma", "m64n8k16.f16.f16.f16", 64, 8, 16, "H100", "fp16", "fp16", "fp16", "f16", "f16", "f16"),
    ("H100_wgmma_m64n8k16_bf16_f32", "Hopper", "wgmma", "m64n8k16.f32.bf16.bf16", 64, 8, 16, "H100", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("H100_wgmma_m64n8k8_tf32_f32", "Hopper", "wgmma", "m64n8k8.f32.tf32.tf32", 64, 8, 8, "H100", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("H100_wgmma_m64n8k32_e4m3_f32", "Hopper", "wgmma", "m64n8k32.f32.e4m3.e4m3", 64, 8, 32, "H100", "e4m3", "e4m3", "fp32", "e4m3", "e4m3", "f32"),
    ("H100_wgmma_m64n8k32_e5m2_f32", "Hopper", "wgmma", "m64n8k32.f32.e5m2.e5m2", 64, 8, 32, "H100", "e5m2", "e5m2", "fp32", "e5m2", "e5m2", "f32"),
    ("H100_wgmma_m64n8k32_e4m3_e5m2_f32", "Hopper", "wgmma", "m64n8k32.f32.e4m3.e5m2", 64, 8, 32, "H100", "e4m3", "e5m2", "fp32", "e4m3", "e5m2", "f32"),
    ("H100_wgmma_m64n8k32_e5m2_f16", "Hopper", "wgmma", "m64n8k32.f16.e5m2.e5m2", 64, 8, 32, "H100", "e5m2", "e5m2", "fp16", "e5m2", "e5m2", "f16"),
    ("Ada_m16n8k16_f16_f32", "Ada Lovelace", "mma", "m16n8k16.f32.f16.f16.f32", 16, 8, 16, "Ada", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("Ada_m16n8k16_bf16_f32", "Ada Lovelace", "mma", "m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, "Ada", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("Ada_m16n8k8_tf32_f32", "Ada Lovelace", "mma", "m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, "Ada", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("Ada_m16n8k32_e4m3_f32", "Ada Lovelace", "mma", "m16n8k32.f32.e4m3.e4m3.f32", 16, 8, 32, "Ada", "e4m3", "e4m3", "fp32", "e4m3", "e4m3", "f32"),
    ("Ada_m16n8k32_e5m2_f32", "Ada Lovelace", "mma", "m16n8k32.f32.e5m2.e5m2.f32", 16, 8, 32, "Ada", "e5m2", "e5m2", "fp32", "e5m2", "e5m2", "f32"),
    ("Ada_m16n8k32_e5m2_e4m3_f32", "Ada Lovelace", "mma", "m16n8k32.f32.e5m2.e4m3.f32", 16, 8, 32, "Ada", "e5m2", "e4m3", "fp32", "e5m2", "e4m3", "f32"),
    ("Ada_m16n8k32_e4m3_f16", "Ada Lovelace", "mma", "m16n8k32.f16.e4m3.e4m3.f16", 16, 8, 32, "Ada", "e4m3", "e4m3", "fp16", "e4m3", "e4m3", "f16"),
    ("Ada_m16n8k16_e4m3_f32", "Ada Lovelace", "mma", "m16n8k16.f32.e4m3.e4m3.f32", 16, 8, 16, "Ada", "e4m3", "e4m3", "fp32", "e4m3", "e4m3", "f32"),
    ("B200_m16n8k16_f16_f32", "Blackwell", "mma", "m16n8k16.f32.f16.f16.f32", 16, 8, 16, "B200", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("B200_m16n8k16_bf16_f32", "Blackwell", "mma", "m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, "B200", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("B200_m16n8k8_tf32_f32", "Blackwell", "mma", "m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, "B200", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("B200_tcgen05_m64n8k16_f16_f32", "Blackwell", "tcgen05mma", "m64n8k16.f32.f16.f16", 64, 8, 16, "B200", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("B200_tcgen05_m64n8k16_f16_f16", "Blackwell", "tcgen05mma", "m64n8k16.f16.f16.f16", 64, 8, 16, "B200", "fp16", "fp16", "fp16", "f16", "f16", "f16"),
    ("B200_tcgen05_m64n8k16_bf16_f32", "Blackwell", "tcgen05mma", "m64n8k16.f32.bf16.bf16", 64, 8, 16, "B200", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("B200_tcgen05_m64n8k8_tf32_f32", "Blackwell", "tcgen05mma", "m64n8k8.f32.tf32.tf32", 64, 8, 8, "B200", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("Turing_m16n8k8_f16_f32", "Turing", "mma", "m16n8k8.f32.f16.f16.f32", 16, 8, 8, "Turing", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("Turing_m16n8k8_f16_f16", "Turing", "mma", "m16n8k8.f16.f16.f16.f16", 16, 8, 8, "Turing", "fp16", "fp16", "fp16", "f16", "f16", "f16"),
    ("RTX50_m16n8k16_f16_f32", "RTX Blackwell", "mma", "m16n8k16.f32.f16.f16.f32", 16, 8, 16, "RTX50", "fp16", "fp16", "fp32", "f16", "f16", "f32"),
    ("RTX50_m16n8k16_bf16_f32", "RTX Blackwell", "mma", "m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, "RTX50", "bf16", "bf16", "fp32", "bf16", "bf16", "f32"),
    ("RTX50_m16n8k8_tf32_f32", "RTX Blackwell", "mma", "m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, "RTX50", "tf32", "tf32", "fp32", "f32", "f32", "f32"),
    ("RTX50_m16n8k32_e4m3_f32", "RTX Blackwell", "mma", "m16n8k32.f32.e4m3.e4m3.f32", 16, 8, 32, "RTX50", "e4m3", "e4m3", "fp32", "e4m3", "e4m3", "f32"),
    ("RTX50_m16n8k32_e5m2_f16", "RTX Blackwell", "mma", "m16n8k32.f16.e5m2.e5m2.f16", 16, 8, 32, "RTX50", "e5m2", "e5m2", "fp16", "e5m2", "e5m2", "f16"),
    ("RTX50_m16n8k16_e4m3_e5m2_f32", "RTX Blackwell", "mma", "m16n8k16.f32.e4m3.e5m2.f32", 16, 8, 16, "RTX50", "e4m3", "e5m2", "fp32", "e4m3", "e5m2", "f32"),
]


# The kinds with scales or FP4 operands, which tensorcore.h runs through
# tc_mma_dot_scaled: the plain columns, then its kind, scale type ("-":
# none) and block. MMA-Sim runs e2m1 only in its FP4 kinds (K 64): its
# unscaled path cannot read e2m1 codes.
SCALED = [
    ("B200_tcgen05_m64n8k32_e4m3_f32", "Blackwell", "tcgen05mma", "m64n8k32.f32.e4m3.e4m3", 64, 8, 32, "B200", "e4m3", "e4m3", "fp32", "e4m3", "e4m3", "f32", "f8f6f4", "-", 0),
    ("B200_tcgen05_m64n8k32_e5m2_e4m3_f16", "Blackwell", "tcgen05mma", "m64n8k32.f16.e5m2.e4m3", 64, 8, 32, "B200", "e5m2", "e4m3", "fp16", "e5m2", "e4m3", "f16", "f8f6f4", "-", 0),
    ("B200_tcgen05_m128n8k32_mxf8f6f4_e4m3_e5m2", "Blackwell", "tcgen05mma_block_scale", "m128n8k32.block32.f32.e4m3.e5m2.ue8m0", 128, 8, 32, "B200", "e4m3", "e5m2", "fp32", "e4m3", "e5m2", "f32", "mxf8f6f4", "ue8m0", 32),
    ("B200_tcgen05_m128n8k64_mxf4", "Blackwell", "tcgen05mma_block_scale", "m128n8k64.block32.f32.e2m1.e2m1.ue8m0", 128, 8, 64, "B200", "e2m1", "e2m1", "fp32", "e2m1", "e2m1", "f32", "mxf4", "ue8m0", 32),
    ("B200_tcgen05_m128n8k64_mxf4nvf4_ue4m3", "Blackwell", "tcgen05mma_block_scale", "m128n8k64.block16.f32.e2m1.e2m1.ue4m3", 128, 8, 64, "B200", "e2m1", "e2m1", "fp32", "e2m1", "e2m1", "f32", "mxf4nvf4", "ue4m3", 16),
    ("RTX50_m16n8k32_mxf8f6f4_e5m2", "RTX Blackwell", "mma_block_scale", "m16n8k32.block32.f32.e5m2.e5m2.f32.ue8m0", 16, 8, 32, "RTX50", "e5m2", "e5m2", "fp32", "e5m2", "e5m2", "f32", "mxf8f6f4", "ue8m0", 32),
    ("RTX50_m16n8k64_mxf4", "RTX Blackwell", "mma_block_scale", "m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0", 16, 8, 64, "RTX50", "e2m1", "e2m1", "fp32", "e2m1", "e2m1", "f32", "mxf4", "ue8m0", 32),
    ("RTX50_m16n8k64_mxf4nvf4_ue4m3", "RTX Blackwell", "mma_block_scale", "m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3", 16, 8, 64, "RTX50", "e2m1", "e2m1", "fp32", "e2m1", "e2m1", "f32", "mxf4nvf4", "ue4m3", 16),
]


class Rng:
    """splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
    generators", OOPSLA 2014); tests/test_mmasim.c has the same."""

    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def code(rng, t, mode, exp_shift=0):
    """One code of type t. mode 0: any bit pattern; 1: exponents within 3 of
    the bias (+exp_shift), where sums carry and round; 3: any finite value
    (every exponent, subnormals and zeros included); 4: exponent field 0..3
    (zeros, subnormals, the smallest normals), whose sums underflow."""
    bits, eb, mb, has_inf, _, _, has_nan = TYPES[t]
    r = rng.next()
    if mode == 0:
        return r & ((1 << bits) - 1)
    sign = (r >> 63) & 1
    man = r & ((1 << mb) - 1)
    emax = (1 << eb) - 1
    if mode == 1:
        e = (1 << (eb - 1)) - 1 + int((r >> 32) % 7) - 3 + exp_shift
        e = max(1, min(e, emax - 1))
    elif mode == 3:
        e = int((r >> 32) % emax) if has_inf else int((r >> 32) % (emax + 1))
    else:
        e = int((r >> 32) % 4)
    c = (sign << (bits - 1)) | (e << mb) | man
    if not has_inf and has_nan and (c & ((1 << (bits - 1)) - 1)) == (1 << (bits - 1)) - 1:
        c -= 1  # e4m3's only NaN: one below it instead
    return c


def scale_code(rng, t, mode):
    """One scale code: mode 0 any code (NaN included), 1 and 2 within 2^3 of
    1.0, 3 any finite code, 4 the smallest codes."""
    r = rng.next()
    hi = r >> 32
    if t == "ue8m0":
        return [r & 0xFF, 127 + hi % 7 - 3, 127 + hi % 7 - 3, hi % 255, hi % 4][mode]
    return [r & 0x7F, (4 + hi % 7) << 3 | (r & 7), (4 + hi % 7) << 3 | (r & 7), hi % 127, hi % 32][mode]
    return c


def case_inputs(seed, m, n, k, ta, tb, tc):
    """A (m x k), B (k x n), C (m x n) codes, row-major. mode = seed % 5:
    0 random bits, 1 exponents near the bias, 2 pairs of products that
    cancel (A[i][2p+1] = -A[i][2p], its last mantissa bit perturbed at
    random; B[2p+1][j] = B[2p][j]) with a C about 2^-8 of them, 3 any
    finite values (the widest exponent spread), 4 the smallest exponents
    (results that underflow, zeros and their signs)."""
    rng = Rng(seed)
    mode = seed % 5
    gm = 1 if mode == 2 else mode
    A = [code(rng, ta, gm) for _ in range(m * k)]
    B = [code(rng, tb, gm) for _ in range(k * n)]
    C = [code(rng, tc, gm, -8 if mode == 2 else 0) for _ in range(m * n)]
    if mode == 2:
        sa = 1 << (TYPES[ta][0] - 1)
        for i in range(m):
            for p in range(0, k - 1, 2):
                A[i * k + p + 1] = A[i * k + p] ^ sa ^ (rng.next() & 1)
        for p in range(0, k - 1, 2):
            for j in range(n):
                B[(p + 1) * n + j] = B[p * n + j]
    return A, B, C


def to_tensor(codes, t, shape, k_axis=1):
    bits, _, _, _, tt, st, _ = TYPES[t]
    if t == "e2m1":  # two codes a byte along K, the first in the low nibble
        a = np.array(codes, dtype=np.uint8).reshape(shape)
        lo, hi = (a[:, 0::2], a[:, 1::2]) if k_axis == 1 else (a[0::2, :], a[1::2, :])
        return torch.from_numpy((lo | hi << 4).copy())
    unsigned = {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits]
    a = np.array(codes, dtype=np.uint64).astype(unsigned)
    return torch.from_numpy(a.view(st).copy()).view(tt).reshape(shape)


def out_bits(D, t):
    bits = TYPES[t][0]
    st = torch.int16 if bits == 16 else torch.int32
    return [int(x) & ((1 << bits) - 1) for x in D.contiguous().view(st).reshape(-1).tolist()]


def make(combo):
    _, arch, cls, qual, *_ = combo
    return getattr(nv_ptx, cls)(arch, qual)


def run_case(sim, combo, seed):
    _, _, _, _, m, n, k, _, _, _, _, ta, tb, tc = combo[:14]
    A, B, C = case_inputs(seed, m, n, k, ta, tb, tc)
    args = [to_tensor(A, ta, (m, k)), to_tensor(B, tb, (k, n), 0)]
    if len(combo) > 14 and combo[14] in ("mxf4", "mxf4nvf4"):
        # MMA-Sim cannot run an Inf c in the FP4 kinds (its fused sum
        # truncates an infinite significand): the largest finite instead.
        C = [x - 1 if x & 0x7FFFFFFF == 0x7F800000 else x for x in C]
    args.append(to_tensor(C, tc, (m, n)))
    if len(combo) > 14 and combo[15] != "-":
        stype, block = combo[15], combo[16]
        rng = Rng(seed ^ 0x5CA1E)
        mode = seed % 5
        sa = [scale_code(rng, stype, mode) for _ in range(m * (k // block))]
        sb = [scale_code(rng, stype, mode) for _ in range(k // block * n)]
        args += [torch.tensor(x, dtype=torch.uint8).view(SCALES[stype]).reshape(shape)
                 for x, shape in ((sa, (m, k // block)), (sb, (k // block, n)))]
    return out_bits(sim(*args), tc)


def generate(out_dir, cases):
    # One seed stream across the combinations, in list order: the files
    # depend on the whole list.
    seeds = Rng(0x4D4D4153494D)  # "MMASIM"
    for combo in COMBOS:
        stem, arch, cls, qual, m, n, k, tarch, a, b, o = combo[:11]
        scaled = combo[14:] if len(combo) > 14 else ("-", "-", 0)
        sim = make(combo)
        digits = TYPES[combo[13]][0] // 4
        t0 = time.time()
        # The widest scaled kinds get fewer cases (their files grow with m x n).
        n_cases = cases if len(combo) == 14 or m * n <= 128 else max(6, cases * 256 // (m * n))
        with open(os.path.join(out_dir, stem + ".txt"), "w") as f:
            f.write(f"# MMA-Sim {arch} {cls} {qual}\n")
            f.write(f"tc {tarch} {a} {b} {o} {m} {n} {k} {scaled[0]} {scaled[1]} {scaled[2]}\n")
            for _ in range(n_cases):
                seed = seeds.next()
                d = run_case(sim, combo, seed)
                f.write(f"{seed:016x} " + " ".join(f"{x:0{digits}x}" for x in d) + "\n")
        print(f"{stem}: {n_cases} cases, {time.time() - t0:.1f} s", flush=True)
    with open(os.path.join(out_dir, "index.txt"), "w") as f:
        f.write("".join(c[0] + "\n" for c in COMBOS))


def time_mmasim(combo, seconds):
    """Multiply-adds per second of MMA-Sim on one combination, one thread."""
    sim = make(combo)
    _, _, _, _, m, n, k, *_ = combo
    seeds = Rng(1)
    calls = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds or calls < 2:
        run_case(sim, combo, seeds.next() // 5 * 5 + 1)
        calls += 1
    dt = time.process_time() - t0
    return calls * m * n * k / dt, calls, dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--time", action="store_true", help="time MMA-Sim instead of writing vectors")
    args = ap.parse_args()
    torch.set_num_threads(1)
    COMBOS.extend(SCALED)
    if args.time:
        for stem in ("A100_m16n8k16_f16_f32", "H100_wgmma_m64n8k16_f16_f32"):
            combo = next(c for c in COMBOS if c[0] == stem)
            rate, calls, dt = time_mmasim(combo, 20.0)
            print(f"MMA-Sim {stem}: {calls} instructions in {dt:.2f} s CPU time, {rate:.0f} multiply-adds/s (torch {torch.__version__}, 1 thread)")
        return
    generate(args.out, args.cases)


if __name__ == "__main__":
    main()
