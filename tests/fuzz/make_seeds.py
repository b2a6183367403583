#!/usr/bin/env python3
"""Writes the seed corpus (tests/fuzz/corpus/NAME/) and the reproducers of
known header bugs (tests/fuzz/reproducers/NAME/) in the harnesses' input
encodings (see each tests/fuzz/fuzz_*.c). Run from the repository root."""
import os, struct

def f32(x): return struct.pack('<f', x)
def f64(x): return struct.pack('<d', x)
def i32(x): return struct.pack('<i', x)
def i64(x): return struct.pack('<q', x)
def u16(x): return struct.pack('<H', x)
RAW = b'\xf8'            # fz_int tag: a raw int32 follows

def write(kind, name, fname, data):
    d = os.path.join('tests/fuzz', kind, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, fname), 'wb') as f: f.write(data)

# ---- formats: op byte, then per op (see fuzz_formats.c)
for t in range(11):
    for rnd, x in ((0, 1.0 / 3), (0x81, 70000.0), (2, -2.5e-8), (4, float('nan'))):
        write('corpus', 'formats', 'scalar_t%d_r%x' % (t, rnd), bytes([0, t, rnd, 1]) + f32(x) + bytes([20]))
# section 1b after a scalar case: rbits, nbits + 1, flags, block kind + 1, K, ld - K + 1, rows,
# custom e + 1, m + 2, specials + 1, signed + 1, 2 x 66 floats, tensor-scale flag (+ f32)
def small_formats(kind, K, ts, custom):
    vals = b''.join(f32(((i * 37) % 101 - 50) / 7.0) for i in range(132))
    tail = bytes([1]) + f32(ts) if ts is not None else bytes([0])
    return (bytes([0, 6, 0, 1]) + f32(2.75) + bytes([20]) + struct.pack('<I', 0x9E3779B9) + bytes([9, 1, kind + 1, K, 1, 2])
            + bytes([custom[0] + 1, custom[1] + 2, custom[2] + 1, custom[3] + 1]) + vals + tail)
write('corpus', 'formats', 'small_mxfp4_e3m4', small_formats(4, 32, None, (3, 4, 0, 1)))
write('corpus', 'formats', 'small_nvfp4_e8m6u', small_formats(5, 64, 448.0 * 6 / 7.1, (8, 6, 0, 0)))
write('corpus', 'formats', 'mma_a100_fp16_k16', bytes([1, 1, 2, 0, 16, 2 | 4, 8, 0]) + bytes(range(64)) * 8)
write('corpus', 'formats', 'mma_h100_e4m3_k32', bytes([1, 2, 4, 0, 32, 2 | 4, 32, 0]) + bytes(range(200, 256)) * 10)
# entry 1 with an integer A type (11 = TC_S8, 13 = TC_S4): k byte, k parity, flags (bit 0: satfinite, 8: 4-bit values), B type, c
write('corpus', 'formats', 'imma_a100_s8_u8_sat', bytes([1, 1, 11, 64, 0, 1, 12]) + i32(-1000) + bytes(range(256)))
write('corpus', 'formats', 'imma_a100_s4_wrap', bytes([1, 1, 13, 64, 0, 2 | 8, 13]) + i32(7) + bytes(range(256)))
write('corpus', 'formats', 'gemm_a100_bf16', bytes([2, 1, 3, 0, 1 | 2, 3, 4, 8, 1, 1, 1]) + bytes(range(256)))
write('corpus', 'formats', 'gemm_bad_ld', bytes([2, 1, 2, 0, 1, 2, 2, 4, 0, 1, 1]) + bytes(range(128)))
write('corpus', 'formats', 'scaler_default', bytes([3, 0, 0, 40]) + bytes([0, 1] * 20))
write('corpus', 'formats', 'arrays_fp16', bytes([4, 2, 0, 16]) + b''.join(f32(v) for v in (1, 65504, 65520, 1e-8, -0.0, float('inf'), 3.14159, 2049) * 3))
# known bugs
write('reproducers', 'formats', 'split_dtype_minus1', bytes([0, 0xFF, 0, 0]) + f32(1.0) + bytes([10]))
write('reproducers', 'formats', 'scaler_init_scale_1e-40', bytes([3, 0x02]) + f32(1e-40) + bytes([0, 0]))
# found by fuzz_formats: an unsigned e8m23 custom format decoded its subnormals with a negative exponent
write('reproducers', 'formats', 'custom_e8_subnormal_decode', __import__('base64').b64decode('ABMAAAApAAAAAAAAAAB7Jc2NjY2FAQH/AXs='))

# ---- sparse
write('corpus', 'sparse', 'roundtrip_fp16', bytes([0, 2, 4, 2, 3, 0]) + bytes(range(256)))
write('corpus', 'sparse', 'roundtrip_tf32', bytes([0, 1, 3, 0, 4, 1]) + bytes(range(255, 0, -1)))
write('corpus', 'sparse', 'sparse_vs_dense_bf16', bytes([1, 4 | 8, 1, 2, 2, 3]) + bytes(range(256)) * 2)
write('corpus', 'sparse', 'sparse_vs_dense_e4m3_h100', bytes([1, 2 | 4 | 8, 3, 1, 1, 2]) + bytes(range(7, 256, 3)) * 3)
write('corpus', 'sparse', 'pack_a_k32', bytes([2, 1, 0, 1, 1, 1, 1]) + bytes(range(256)) * 4)
write('corpus', 'sparse', 'pack_b_tf32', bytes([3, 4, 1, 1, 0, 1, 0]) + bytes(range(256)) * 2)
INT_MAX = 2**31 - 1
write('reproducers', 'sparse', 'pack_b_k0_int_max', bytes([3, 1, 0, 0, 0]) + b'\xf0' + i32(INT_MAX - 31) + bytes([0]))
write('reproducers', 'sparse', 'pack_b_n0_int_max', bytes([3, 0, 0, 0, 0, 0]) + b'\xf0' + i32(INT_MAX - 7))
write('reproducers', 'sparse', 'pack_a_row0_int_max', bytes([2, 0, 0, 0, 0]) + b'\xf0' + i32(INT_MAX - 15) + bytes([0]))
write('reproducers', 'sparse', 'pack_a_col0_int_max', bytes([2, 1, 0, 0, 0, 0]) + b'\xf0' + i32(INT_MAX - 31))

# ---- sim: profile fields 0 clock .. 16 sm_bytes_per_cycle, 17 dram_bytes_per_cycle
def options(sms=1, wps=1, policy=0, wpb=0, record=0, maxc=20000):
    return bytes([sms, wps, policy, wpb, record]) + u16(maxc - 1)
A100 = 2   # tc_gpu_get index of a100 (the seeds only need some real profile)
write('corpus', 'sim', 'profile_named_ffma', bytes([0, A100, 0, 4]) + options(1, 2))
write('corpus', 'sim', 'profile_sms_override', bytes([0, 0, 1, 1, 2]) + bytes([0]) + options(2, 4, 1, 2, 1))
write('corpus', 'sim', 'raw_ldg_ffma', bytes([1, A100, 2]) + u16(64) + u16(0) + u16(0) + bytes([3])
      + bytes([0, 1, 255, 255, 255, 255, 0, 0, 0, 0, 4, 0, 0, 0, 4])
      + bytes([6, 2, 1, 1, 2, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0])
      + bytes([10, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + options(1, 2, 0, 0, 1))
write('corpus', 'sim', 'elementwise_small', bytes([2, A100, 0]) + u16(4096) + bytes([2, 1, 2, 2, 2]) + options(1, 2))
write('corpus', 'sim', 'addresses', bytes([3, 32, 4, 32, 4, 32, 0]) + bytes(range(32)))
write('corpus', 'sim', 'builder_stream', bytes([4, A100, 2, 2]) + options(1, 2))
# known bugs
write('reproducers', 'sim', 'sm_bytes_per_cycle_1e-18', bytes([0, A100, 1, 16]) + f64(1e-18) + bytes([11]) + options(1, 4))
BAR, FFMA, EXIT = 8, 6, 10
def ins(op, dst=255, src=(255, 255, 255, 255)):
    return bytes([op, dst]) + bytes(src) + bytes([0, 0, 0, 0, 0, 0, 0, 0, 0])
write('reproducers', 'sim', 'bar_ffma_exit_8warps_wpb1', bytes([1, A100, 0]) + u16(0) * 3 + bytes([3])
      + ins(BAR) + ins(FFMA, 1, (2, 3, 1, 255)) + ins(EXIT) + options(1, 8, 0, 1, 0))
write('reproducers', 'sim', 'elementwise_int64_max', bytes([2, A100, 1]) + i64(2**63 - 1) + bytes([1, 1, 1, 1, 1]) + options(1, 1))

# ---- tiling: gpu, ladder, M N K, overrides, flags
write('corpus', 'tiling', 'ladder_a100', bytes([A100, 3, 0xf8]) + i32(4096) + b'\xf8' + i32(4096) + b'\xf8' + i32(4096) + bytes([0, 0]))
write('corpus', 'tiling', 'ladder_predict', bytes([A100, 4, 63, 63, 32, 0, 1]))
write('corpus', 'tiling', 'sparse_predict', bytes([A100, 4, 63, 63, 32, 2, 21, 32, 28, 1, 1]))   # inst_k 32, sparse 1
write('corpus', 'tiling', 'load_rounds_predict', bytes([A100, 3, 63, 63, 32, 1, 29, 2, 1]))   # v4 (one buffer), load_rounds 2
write('corpus', 'tiling', 'override_regs', bytes([A100, 2, 40, 40, 40, 2, 26, 0xf8]) + i32(255) + bytes([6, 8, 0]))
write('reproducers', 'tiling', 'reg_alloc_unit_huge', bytes([A100, 3, 32, 32, 32, 1, 6, 0xf8]) + i32(2**31 - 1) + bytes([0]))
write('reproducers', 'tiling', 'dram_bytes_per_cycle_tiny', bytes([A100, 3, 32, 32, 32, 1, 11]) + f64(5e-322) + bytes([0]))


# ---- tcsim_args: mode byte (< 192: commands[mode % 9]), option count, the
# operand, 0 = with the first option (run's --profile) and its value, then
# per option: its index, a "wild" byte (>= 24: the option's own value kind), the value
# (see fuzz_tcsim_args.c). GPU and program bytes index the header's tables.
write('corpus', 'tcsim_args', 'run_program', bytes([0, 0, 0, 0, 0]))
write('corpus', 'tcsim_args', 'run_png_trace_lrr', bytes([0, 3, 1, 0, 1, 5, 255, 0, 4, 255, 1, 3, 255, 1]))
write('corpus', 'tcsim_args', 'run_warps_sms', bytes([0, 2, 2, 0, 2, 1, 255, 4, 2, 255, 2]))
write('corpus', 'tcsim_args', 'run_file', bytes([1, 0, 25, 0]) + b'ffma r1, r2, r3, r1\nexit\n' + bytes([0, 2]))
write('corpus', 'tcsim_args', 'validate_dataset', bytes([2, 1, 0, 1, 255, 1]))
write('corpus', 'tcsim_args', 'validate_junk_dataset', bytes([8, 1, 0, 60, 1]) + b'name,gpu,kind,value\nx,a100,latency,nan\n,,,\n"' + bytes([0xff, 0, 7, 10] * 4) + bytes([1, 255, 3]))
write('corpus', 'tcsim_args', 'profiles', bytes([3, 0]))
write('corpus', 'tcsim_args', 'programs', bytes([4, 0]))
write('corpus', 'tcsim_args', 'show_profile', bytes([7, 0, 1, 0, 2]))
write('corpus', 'tcsim_args', 'free_junk', bytes([200, 4, 2, 33, 5, 0x41, 0x42, 0xff, 0x80, 0x0a, 36, 10]))
