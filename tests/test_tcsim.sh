#!/usr/bin/env bash
# tcsim's command line: good invocations print what they promise and exit 0,
# bad ones print a message on stderr and exit non-zero.
# Usage: bash tests/test_tcsim.sh build/tcsim   (last line: "test_tcsim: N passed, N failed")
set -u
TCSIM=${1:-build/tcsim}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

# expect_ok NAME PATTERN ARGS...: exit 0 and stdout matches PATTERN (grep -E)
expect_ok() {
  local name=$1 pattern=$2; shift 2
  if "$TCSIM" "$@" >"$tmp/out" 2>"$tmp/err" && grep -qE -- "$pattern" "$tmp/out"; then ok
  else bad "$name: tcsim $* (expected /$pattern/)"; head -5 "$tmp/out" "$tmp/err"; fi
}
# expect_fail NAME PATTERN ARGS...: non-zero exit and stderr matches PATTERN
expect_fail() {
  local name=$1 pattern=$2; shift 2
  if "$TCSIM" "$@" >"$tmp/out" 2>"$tmp/err"; then bad "$name: tcsim $* exited 0"
  elif grep -qE -- "$pattern" "$tmp/err"; then ok
  else bad "$name: tcsim $* (stderr lacks /$pattern/)"; cat "$tmp/err"; fi
}

[ -x "$TCSIM" ] || { echo "test_tcsim: $TCSIM not built"; echo "test_tcsim: 0 passed, 1 failed"; exit 1; }

expect_ok profiles "^dettmers2020 " profiles
expect_ok profiles-h100 "^h100 " profiles
expect_ok profiles-v100 "^v100 " profiles
expect_ok profiles-rtx3090 "^rtx3090 " profiles
expect_ok profiles-rtx4090 "^rtx4090 " profiles
expect_ok profiles-b200-tcgen05 " tcgen05\.m128nNk16\.f16 530/512 \(N=256\)" profiles
expect_ok profiles-rtx5090-mxf4 " m16n8k64\.mxf4\.e2m1 33/16" profiles
# MMA names come from the instruction table; instructions a GPU lacks (latency 0) are left out
expect_ok profiles-v100-mma "^ +MMA latency/interval: m8n8k4\.f16 24/2$" profiles
expect_ok profiles-a100-tf32 " m16n8k4\.tf32 17/4 m16n8k8\.tf32 25/8 " profiles
expect_ok programs "^matmul32_ffma " programs
expect_ok programs-stream "^stream " programs
expect_ok 392 "^cycles: 392$" run matmul32_ffma --profile dettmers2020
expect_ok 221 "^cycles: 221$" run matmul32_tc --profile dettmers2020
expect_ok 504 "^cycles: 504$" run matmul32_ffma --profile dettmers2023
expect_ok 235 "^cycles: 235$" run matmul32_tc --profile dettmers2023
expect_ok options-after "^cycles: 392$" run --profile dettmers2020 matmul32_ffma
expect_ok stall-names "long_scoreboard" run matmul32_ffma --profile a100
expect_ok warps "8 SMs x 16 warps" run matmul32_tc --profile h100 --warps 16
expect_ok sms "2 SMs x 8 warps" run matmul32_tc --profile a100 --sms 2
expect_ok lrr "^cycles: " run stream --profile a100 --policy lrr
expect_ok ffma-chain "^cycles: 32$" run ffma_chain --profile h100

# the stall breakdown adds up to warps x cycles
"$TCSIM" run matmul32_ffma --profile a100 >"$tmp/out" 2>&1
total=$(sed -n 's/^warp states (cycles summed over [0-9]* warps = \([0-9]*\)).*/\1/p' "$tmp/out")
sum=$(awk '/^  [a-z_]+ +[0-9]+ /{s += $2} END {print s}' "$tmp/out")
if [ -n "$total" ] && [ "$total" = "$sum" ]; then ok; else bad "stall breakdown sums to $sum, not $total"; fi

# pictures
if "$TCSIM" run matmul32_tc --profile a100 --png "$tmp/t.png" --trace "$tmp/t.json" >/dev/null 2>&1 &&
   [ "$(head -c 8 "$tmp/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
   grep -q '"traceEvents"' "$tmp/t.json" && grep -q '"ph":"X"' "$tmp/t.json"; then ok
else bad "--png/--trace did not write a PNG and a trace"; fi
# the timeline's segments beside the PNG: every warp's segments tile [0, cycles)
if [ "$(head -1 "$tmp/t.csv" 2>/dev/null)" = "warp,state,start_cycle,end_cycle" ] &&
   awk -F, 'NR > 1 { if ($1 != w) { if (NR > 2) ends[w] = last; w = $1; last = 0 } if ($3 != last) bad = 1; last = $4 }
            END { ends[w] = last; for (k in ends) { if (c == "") c = ends[k]; else if (ends[k] != c) bad = 1 } exit bad + (NR < 3) }' "$tmp/t.csv"; then ok
else bad "--png t.png did not write t.csv with contiguous segments per warp"; fi
if command -v python3 >/dev/null; then
  if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['traceEvents']) > 64" "$tmp/t.json"; then ok
  else bad "trace JSON does not parse"; fi
fi

expect_fail no-args "usage" 
expect_fail unknown-command "unknown command" frobnicate
expect_fail unknown-program "unknown program 'nope'" run nope --profile a100
expect_fail unknown-profile "unknown profile 'gtx480'" run matmul32_ffma --profile gtx480
expect_fail empty-profile "unknown profile ''" run matmul32_ffma --profile ""
expect_fail no-mma-on-v100 "mma_latency on v100" run mma_latency --profile v100
expect_fail no-profile "needs --profile" run matmul32_ffma
expect_fail no-program "needs a program" run --profile a100
expect_fail two-programs "more than one program" run matmul32_ffma matmul32_tc --profile a100
expect_fail zero-sms "positive integer" run matmul32_ffma --profile a100 --sms 0
expect_fail neg-warps "positive integer" run matmul32_ffma --profile a100 --warps -3
expect_fail junk-warps "positive integer" run matmul32_ffma --profile a100 --warps 8x
expect_fail too-many-warps "holds at most 64 warps" run matmul32_ffma --profile a100 --warps 65
expect_fail too-many-sms "has 8 SMs" run matmul32_ffma --profile dettmers2020 --sms 9
expect_fail bad-policy "unknown policy" run stream --profile a100 --policy fifo
expect_fail missing-value "needs a value" run matmul32_ffma --profile
expect_fail unknown-option "unknown option" run matmul32_ffma --profile a100 --fast 1
expect_fail unwritable-png "cannot write" run ffma_chain --profile a100 --png /nonexistent/dir/x.png

# validate: every measured row beside its prediction, the error by set; a broken dataset names file:line
expect_ok validate-row "^rrze-lat-dram-a100-40gb +a100 +dram_latency +574\.6 +571 cycles" validate
expect_ok validate-unpredicted "not predicted: not one GEMM \(a whole network\): not modelled" validate
expect_ok validate-l1 "^rrze-lat-l1-a100-40gb +a100 +l1_hit_latency +36 +36 cycles" validate
expect_ok validate-summary "^  calibration +[0-9]+ of +[0-9]+ rows predicted, mean \|error\|" validate --quiet
expect_ok validate-gpu "^  v100 +[0-9]+ of" validate --gpu v100 --quiet
printf 'id,gpu\n' > "$tmp/bad.csv"
expect_fail validate-bad-file "bad\.csv:1: " validate --dataset "$tmp/bad.csv"
expect_fail validate-no-file "cannot open" validate --dataset "$tmp/none.csv"
expect_fail validate-bad-gpu "unknown GPU 'x100'" validate --gpu x100
expect_fail validate-bad-arg "unknown argument" validate --frobnicate
expect_fail profiles-extra-arg "'profiles' takes no arguments \(got 'x'\)" profiles x
expect_fail programs-extra-arg "'programs' takes no arguments" programs y

# .tcs programs (docs/tcs.md): the committed examples with their expected cycles on a named profile
expect_ok tcs-392 "^cycles: 392$" run sim/programs/matmul32_ffma.tcs --profile dettmers2020
expect_ok tcs-221 "^cycles: 221$" run sim/programs/matmul32_tc.tcs --profile dettmers2020
expect_ok tcs-504 "^cycles: 504$" run sim/programs/matmul32_ffma.tcs --profile dettmers2023
expect_ok tcs-235 "^cycles: 235$" run sim/programs/matmul32_tc.tcs --profile dettmers2023
expect_ok tcs-reduction "^cycles: 494$" run sim/programs/reduction.tcs --profile a100
expect_ok tcs-transpose "^cycles: 1369$" run sim/programs/transpose.tcs --profile a100
expect_ok tcs-transpose-padded "^cycles: 377$" run sim/programs/transpose_padded.tcs --profile a100
expect_ok tcs-gemm-double-buffer "^cycles: 2852$" run sim/programs/gemm_double_buffer.tcs --profile a100
expect_ok tcs-wavefronts " 1056 shared wavefronts" run sim/programs/transpose.tcs --profile a100
expect_ok tcs-wavefronts-padded " 64 shared wavefronts" run sim/programs/transpose_padded.tcs --profile a100
# issue 15 part 3: shuffles, atomics, store conflicts (the model's outputs, kept as regression guards)
expect_ok tcs-shfl-reduction "^cycles: 477$" run sim/programs/shfl_reduction.tcs --profile a100
expect_ok tcs-histogram "^cycles: 1120$" run sim/programs/histogram.tcs --profile a100
expect_ok tcs-histogram-contended "^cycles: 1500$" run sim/programs/histogram_contended.tcs --profile a100
expect_ok tcs-transpose-store "^cycles: 1288$" run sim/programs/transpose_store.tcs --profile a100
expect_ok tcs-trace-instr '"instr":"atomg.w4 r4, r1, \[4096\]"' run sim/programs/histogram_contended.tcs --profile a100 --trace /dev/stdout
expect_ok profiles-new-units "SHFL 23/1 per SM, integer 4/2; atomics: shared 46, global 209" profiles
# show prints a built-in as .tcs; running the printed file gives the built-in's cycles
expect_ok show "^    mma\.m8n8k4\.f16 r1, r2, r2, r1$" show matmul32_tc
for prog in matmul32_ffma matmul32_tc stream shared_stride32 mma_throughput; do
  "$TCSIM" show "$prog" >"$tmp/$prog.tcs" 2>/dev/null
  a=$("$TCSIM" run "$prog" --profile a100 2>&1 | head -n 1)
  b=$("$TCSIM" run "$tmp/$prog.tcs" --profile a100 2>&1 | head -n 1)
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "show $prog: the printed program gives '$b', the built-in '$a'"; fi
done
# profiles: show-profile writes a file that --profile reads back to the same cycles; --set overrides one field
expect_ok show-profile "^dram_latency = 571 +# " show-profile a100
"$TCSIM" show-profile h100 >"$tmp/h100.prof" 2>/dev/null
expect_ok profile-file "^cycles: 340$" run matmul32_tc --profile "$tmp/h100.prof"
expect_ok set-field "^cycles: 1386$" run sim/programs/transpose.tcs --profile a100 --set shared_latency=40
# a profile file from a base: only the changed fields (the same cycles as --set)
printf '# what if shared memory were slower\nbase = a100\nshared_latency = 40\n' >"$tmp/base.prof"
expect_ok profile-base "^cycles: 1386$" run sim/programs/transpose.tcs --profile "$tmp/base.prof"
printf 'shared_latency = 40\nbase = a100\n' >"$tmp/late.prof"
expect_fail profile-base-late "late\.prof:2:1: base must come before every other key" run matmul32_tc --profile "$tmp/late.prof"
printf 'base = b100\n' >"$tmp/nobase.prof"
expect_fail profile-base-unknown "nobase\.prof:1:8: base: unknown GPU 'b100'" run matmul32_tc --profile "$tmp/nobase.prof"
# show-profile: the source above each number
expect_ok show-profile-source "^# MEASURED: pointer chase, jm-lat-dram-h100-sxm$" show-profile h100
expect_ok show-profile-source-mma "^# mma_interval: DERIVED: A100 whitepaper" show-profile a100
if "$TCSIM" show-profile v100 | grep -q "no source recorded"; then bad "show-profile v100: a number without a source"; else ok; fi
for gpu in rtx4090 b200 rtx5090; do
    if "$TCSIM" show-profile $gpu | grep -q "no source recorded"; then bad "show-profile $gpu: a number without a source"; else ok; fi
done
expect_ok show-profile-source-rtx4090 "^# MEASURED: pointer chase 571.6 at 1 GB, github:HPMLL/NVIDIA-Hopper-Benchmark@" show-profile rtx4090
expect_ok show-profile-source-rtx5090 "^# DERIVED from MEASURED: rtx4090's luo-lat-dram-rtx4090 571 x mdw-lat-dram-rtx5090 936" show-profile rtx5090
expect_ok show-profile-rtx5090-f8f6f4 "^mma_interval\.m16n8k32\.e2m1 = 16 " show-profile rtx5090
expect_ok set-mma "^cycles: 235$" run matmul32_tc --profile dettmers2023 --set mma_latency.m8n8k4.f16=1
expect_fail set-bad-key "--set frob=1: unknown key 'frob'" run matmul32_tc --profile a100 --set frob=1
expect_fail set-bad-value "--set sms=0: sms: must be an integer in 1\.\.4096" run matmul32_tc --profile a100 --set sms=0
printf 'sms = 8\nbanks = 32\ndram_latency = lots\n' >"$tmp/bad.prof"
expect_fail profile-bad-line "bad\.prof:3:16: dram_latency: 'lots' is not a finite number" run matmul32_tc --profile "$tmp/bad.prof"
printf 'sms = 8\n' >"$tmp/short.prof"
expect_fail profile-incomplete "profile .*short\.prof: clock_ghz must be" run matmul32_tc --profile "$tmp/short.prof"
printf 'ffma r1, r2, r3, r1\n  frob r1\nexit\n' >"$tmp/bad.tcs"
expect_fail tcs-bad-line "bad\.tcs:2:3: unknown instruction 'frob'" run "$tmp/bad.tcs" --profile a100
expect_fail tcs-no-file "cannot open" run "$tmp/none.tcs" --profile a100
expect_fail tcs-no-file-profile "cannot open" run matmul32_tc --profile "$tmp/none.prof"
printf 'ldg r1, [4*lane]\nexit\n' >"$tmp/oob.tcs"
expect_fail tcs-out-of-bounds "invalid simulator program" run "$tmp/oob.tcs" --profile a100
expect_fail show-unknown "unknown program 'nope'" show nope
expect_fail show-profile-unknown "unknown profile 'x100'" show-profile x100
for args in "show" "show a b" "show-profile" "show-profile a100 b"; do
  # shellcheck disable=SC2086
  "$TCSIM" $args >/dev/null 2>"$tmp/err"; rc=$?
  if [ $rc = 2 ] && [ -s "$tmp/err" ]; then ok; else bad "tcsim $args: exit $rc (want 2 and a message)"; fi
done

# --per-instruction: the table after the summary, its issues adding up to the warp instructions
expect_ok per-instruction-row "^ +1 +64 +64 +0 +12736 +0 +0 +0 +0  lds\.w4 r2, \[4\*lane \+ 128\*warp\], addr r1, after r0$" \
  run matmul32_ffma --profile dettmers2020 --per-instruction
"$TCSIM" run sim/programs/gemm_double_buffer.tcs --profile a100 --per-instruction >"$tmp/out" 2>&1
total=$(sed -n 's/.*, \([0-9]*\) warp instructions.*/\1/p' "$tmp/out")
sum=$(awk '/^per instruction/{on=1; next} on && /^ +[0-9]+ +[0-9]+ /{s += $2} END {print s}' "$tmp/out")
if [ -n "$total" ] && [ "$total" = "$sum" ]; then ok; else bad "per-instruction issues sum to $sum, not $total"; fi
if "$TCSIM" run matmul32_tc --profile a100 --per-instruction --trace "$tmp/p.json" >/dev/null 2>&1 && grep -q '"args":{"pc":2,"instr":"mma.m8n8k4.f16 r1, r2, r2, r1"}' "$tmp/p.json"; then ok
else bad "--per-instruction --trace: no event carries its pc"; fi

echo "test_tcsim: $passed passed, $failed failed"
[ "$failed" = 0 ]
