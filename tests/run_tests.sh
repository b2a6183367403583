#!/usr/bin/env bash
# The test suite behind `make test`. It counts test cases, each a named check
# that passes or fails; the last line is "make test: N passed, N failed".
#
#   1. every unit test binary build/tests/test_*: each check site in its source
#      (a CHECK/CHECK_BITS/CHECK_STATUS, or a tct_add batch) is one case, however
#      many values it compared (tests/tc_test.h). Each binary ends with
#      "NAME: V values compared, F mismatched" and "NAME: N passed, N failed".
#   2. compile tests: the header as C99, C11, C++17 under gcc and clang with
#      -Wall -Wextra -Werror -pedantic, the build options, and inside a .cu (nvcc -c)
#   3. the unit tests, the lessons and tcsim's command line again under
#      AddressSanitizer + UndefinedBehaviorSanitizer, built with gcc, and the
#      C unit tests once more built with clang, whose UBSan checks more
#      (the exhaustive test there with a stride, for time): one case per binary,
#      passed if it ran clean and all its checks passed; its checks are shown
#      on their own line, not added to the unit tests' count again
#   4. every lesson runs to completion on the CPU, from an empty folder with
#      --out (pictures in build/test-lessons/out), then what they wrote
#      (tests/test_figures.sh: nothing in the working folder, SVG + CSV beside
#      each chart, well-formed SVG)
#   5. tcsim's command line (tests/test_tcsim.sh) and the README's facts (tests/test_docs.sh); the exercises answered on the command line (tests/test_exercises.sh)
#   6. the fuzz corpus replayed: every libFuzzer harness in tests/fuzz/, built
#      with clang, ASan and UBSan but without libFuzzer (tests/fuzz/replay.c),
#      runs each committed seed of tests/fuzz/corpus/NAME once: one case per
#      harness. FUZZ_REPLAY_REPRODUCERS=1 adds tests/fuzz/reproducers/NAME.
#      fuzz_tcsim_args (which runs the sanitizer build of tcsim per input)
#      also runs FUZZ_TCSIM_RANDOM (200:1) random inputs from a fixed seed.
#
# Before it, one line per stage and the number of values the unit tests compared.
# TC_QUICK=1 makes the exhaustive tests (test_formats_exhaustive*) sample every 61st input instead of all 2^32.
# Their AVX2 and AVX-512 builds (test_formats_exhaustive_avx2/_avx512, where the
# CPU has them) always sample every 61st input.
set -u
BUILD=${BUILD:-build}
CC=${CC:-cc}
NVCC=${NVCC:-nvcc}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
passed=0        # cases, all stages
failed=0
failures=()
stage_p=0       # cases in the current stage
stage_f=0
stages=()       # "name: N passed, N failed" per stage, printed at the end

pass() { passed=$((passed + 1)); stage_p=$((stage_p + 1)); }
fail() { failed=$((failed + 1)); stage_f=$((stage_f + 1)); failures+=("$1"); echo "FAILED: $1"; }
end_stage() { stages+=("$1: $stage_p passed, $stage_f failed${2:-}"); stage_p=0; stage_f=0; }

# Runs a test program, echoing its output, and reads its last
# "NAME: N passed, N failed" line (and "NAME: V values compared" if any) into
# run_p, run_f, run_v (run_checks: run_p + run_f as printed). A program that
# exits non-zero with no failed check, or prints no summary, counts one failed
# case. Returns 1 if anything failed.
run_p=0; run_f=0; run_v=0; run_checks=0
run_program() {
  local name=$1; shift
  local log rc line
  log=$(mktemp)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  run_v=$(sed -nE 's/^[A-Za-z0-9_.-]+: ([0-9]+) values compared.*/\1/p' "$log" | tail -n 1)
  rm -f "$log"
  run_v=${run_v:-0}
  run_checks=0
  if [ -z "$line" ]; then run_p=0; run_f=1; failures+=("$name (exit $rc, printed no summary)"); echo "FAILED: $name printed no summary"; return 1; fi
  run_p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
  run_f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
  run_checks=$((run_p + run_f))
  if [ "$run_f" != 0 ]; then failures+=("$name ($run_f failed)"); return 1; fi
  if [ "$rc" != 0 ]; then run_f=1; failures+=("$name (exit $rc)"); echo "FAILED: $name exited $rc"; return 1; fi
  return 0
}
# A program whose named checks are cases of the total.
run_counted() {
  run_program "$@"
  passed=$((passed + run_p)); failed=$((failed + run_f))
  stage_p=$((stage_p + run_p)); stage_f=$((stage_f + run_f))
  return 0
}

exhaustive_args=()
[ "${TC_QUICK:-0}" = 1 ] && exhaustive_args=(--stride 61)

echo "== 1. unit tests"
values=0
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  echo "-- $name"
  if [ "$name" = test_formats_exhaustive_avx2 ] || [ "$name" = test_formats_exhaustive_avx512 ]; then run_counted "$name" "$t" --stride 61
  elif [[ "$name" == test_formats_exhaustive* ]]; then run_counted "$name" "$t" "${exhaustive_args[@]}"
  else run_counted "$name" "$t"; fi
  values=$((values + run_v))
done
end_stage "unit tests (named checks)"

# Every lesson of lessons/*.c built under $1, run from the empty folder
# $1/test-lessons with --out out: $2 seconds each, $3 tags the case name.
# The list comes from the sources, so a binary left behind by a renamed lesson
# is not run, and a lesson that failed to build fails here.
run_lessons() {
  local dir=$1 limit=$2 tag=$3 src name
  mkdir -p "$dir/test-lessons"
  for src in lessons/[0-9]*.c; do
    name=$(basename "$src" .c)
    if (cd "$dir/test-lessons" && timeout "$limit" "../lessons/$name" --out out >"$name.log" 2>&1); then pass; echo "ok   $name$tag"
    else fail "lesson $name$tag (see $dir/test-lessons/$name.log)"; tail -20 "$dir/test-lessons/$name.log"; fi
  done
}

echo "== 2. compile tests"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
warn="-Wall -Wextra -Werror -pedantic"
compile_case() {   # name, command...
  local name=$1; shift
  if "$@" >"$tmp/out.log" 2>&1; then pass; echo "ok   $name"; else fail "compile: $name"; head -20 "$tmp/out.log"; fi
}
for cc in gcc clang; do
  command -v $cc >/dev/null || { echo "skip $cc (not installed)"; continue; }
  for std in c99 c11; do
    compile_case "$cc -std=$std" $cc -std=$std $warn -I. -c tests/compile/use_header.c -o "$tmp/a.o"
  done
  compile_case "$cc -std=c99 TC_STATIC" $cc -std=c99 $warn -DTC_STATIC -I. -c tests/compile/use_header.c -o "$tmp/a.o"
  compile_case "$cc -std=c99 TC_NO_SIMD" $cc -std=c99 $warn -DTC_NO_SIMD -I. -c tests/compile/use_header.c -o "$tmp/a.o"
  case $(uname -m) in x86_64|i?86)   # the GEMM's AVX2 kernel and TC_THREADS' POSIX threads
    compile_case "$cc -std=c99 -mavx2 TC_THREADS" $cc -std=c99 $warn -mavx2 -DTC_THREADS -I. -c tests/compile/use_header.c -o "$tmp/a.o"
    compile_case "$cc -std=c99 -mavx512f -mavx512bw -mavx512vl (no DQ: the AVX2 paths)" $cc -std=c99 $warn -mavx512f -mavx512bw -mavx512vl -I. -c tests/compile/use_header.c -o "$tmp/a.o"
    compile_case "$cc -std=c99 -O2 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vbmi -mf16c" $cc -std=c99 $warn -O2 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vbmi -mf16c -I. -c tests/compile/use_header.c -o "$tmp/a.o"
    compile_case "$cc -std=c99 -O2 AVX-512 with DQ, BF16 (bf16 by vcvtneps2bf16)" $cc -std=c99 $warn -O2 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512bf16 -mavx512vbmi -mf16c -DTC_THREADS -I. -c tests/compile/use_header.c -o "$tmp/a.o"
    compile_case "$cc -std=c99 -march=native TC_NO_SIMD" $cc -std=c99 $warn -march=native -DTC_NO_SIMD -I. -c tests/compile/use_header.c -o "$tmp/a.o";;
  esac
  compile_case "$cc -std=c99 TC_MALLOC/TC_FREE/TC_ASSERT overridden" $cc -std=c99 $warn -DUSE_CUSTOM_ALLOC -I. -c tests/compile/use_header.c -o "$tmp/a.o"
  compile_case "$cc -std=c99 two translation units link" sh -c "$cc -std=c99 $warn -I. -c tests/compile/use_header.c -o $tmp/a.o && $cc -std=c99 $warn -I. -c tests/compile/declarations_only.c -o $tmp/b.o && $cc $tmp/a.o $tmp/b.o -o $tmp/ab -lm && $tmp/ab"
  if $cc -std=c99 -DONLY_MALLOC -I. -c tests/compile/use_header.c -o "$tmp/a.o" >"$tmp/e.log" 2>&1; then
    fail "$cc: TC_MALLOC without TC_FREE must be a compile error"
  elif grep -q "define both TC_MALLOC and TC_FREE" "$tmp/e.log"; then pass; echo "ok   $cc TC_MALLOC alone is an #error"
  else fail "$cc: TC_MALLOC alone failed without the expected #error"; fi
done
for cxx in g++ clang++; do
  command -v $cxx >/dev/null || { echo "skip $cxx (not installed)"; continue; }
  compile_case "$cxx -std=c++17" $cxx -std=c++17 $warn -I. -x c++ -c tests/compile/use_header.c -o "$tmp/a.o"
  case $(uname -m) in x86_64|i?86)
    compile_case "$cxx -std=c++17 -mavx2 TC_THREADS" $cxx -std=c++17 $warn -mavx2 -DTC_THREADS -I. -x c++ -c tests/compile/use_header.c -o "$tmp/a.o"
    compile_case "$cxx -std=c++17 -mavx512f -mavx512bw -mavx512vl (no DQ: the AVX2 paths)" $cxx -std=c++17 $warn -mavx512f -mavx512bw -mavx512vl -I. -x c++ -c tests/compile/use_header.c -o "$tmp/a.o"
    # -O2: g++ 12 warns (maybe-uninitialized) inside some 512-bit intrinsics only when optimising
    compile_case "$cxx -std=c++17 -O2 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vbmi -mf16c" $cxx -std=c++17 $warn -O2 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vbmi -mf16c -I. -x c++ -c tests/compile/use_header.c -o "$tmp/a.o"
    compile_case "$cxx -std=c++17 -O2 AVX-512 with DQ, BF16" $cxx -std=c++17 $warn -O2 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512bf16 -mavx512vbmi -mf16c -I. -x c++ -c tests/compile/use_header.c -o "$tmp/a.o";;
  esac
done
if command -v "$NVCC" >/dev/null; then
  compile_case "nvcc -c (sm_80, sm_90)" "$NVCC" -std=c++17 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
    -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I. -c tests/compile/use_header.cu -o "$tmp/cu.o"
else
  echo "skip nvcc -c (nvcc not found)"
fi
end_stage "compile tests"

echo "== 3. sanitizers (address, undefined)"
san="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
san_checks=0
# One sanitized binary: one case, its checks counted apart (they ran in stage 1).
run_sanitized() {   # name, program, args...
  echo "-- $1"
  run_program "$@"
  local rc=$?
  san_checks=$((san_checks + run_checks))
  if [ $rc = 0 ]; then pass; else failed=$((failed + 1)); stage_f=$((stage_f + 1)); fi   # failures+= done by run_program
}
if make --no-print-directory -s BUILD="$BUILD/san" OPT="$san" LDFLAGS="-fsanitize=address,undefined" tests >"$tmp/san.log" 2>&1; then
  for t in "$BUILD"/san/tests/test_*; do
    [ -x "$t" ] || continue
    name="$(basename "$t") [asan+ubsan]"
    if [[ "$(basename "$t")" == test_formats_exhaustive* ]]; then run_sanitized "$name" "$t" --stride 4099
    else run_sanitized "$name" "$t"; fi
  done
  # the lessons and tcsim too: every lesson to completion, tcsim's command-line cases
  if make --no-print-directory -s BUILD="$BUILD/san" OPT="$san" LDFLAGS="-fsanitize=address,undefined" \
       lessons "$BUILD/san/tcsim" >"$tmp/san2.log" 2>&1; then
    run_lessons "$BUILD/san" 600 " [asan+ubsan]"
    if bash tests/test_tcsim.sh "$BUILD/san/tcsim" >"$tmp/san_tcsim.log" 2>&1; then pass; echo "ok   test_tcsim [asan+ubsan]"
    else fail "test_tcsim [asan+ubsan]"; tail -20 "$tmp/san_tcsim.log"; fi
  else
    fail "sanitizer build of lessons and tcsim"; tail -30 "$tmp/san2.log"
  fi
else
  fail "sanitizer build"; tail -30 "$tmp/san.log"
fi
# clang's UBSan checks what gcc's does not (a zero offset applied to a NULL
# pointer, for one), so the C unit tests run once more under clang's.
if command -v clang >/dev/null; then
  clang_tests=()
  for src in tests/test_*.c; do clang_tests+=("$BUILD/san-clang/tests/$(basename "$src" .c)"); done
  if make --no-print-directory -s BUILD="$BUILD/san-clang" CC=clang OPT="$san" LDFLAGS="-fsanitize=address,undefined" \
       "${clang_tests[@]}" >"$tmp/san3.log" 2>&1; then
    for t in "${clang_tests[@]}"; do run_sanitized "$(basename "$t") [clang asan+ubsan]" "$t"; done
  else
    fail "clang sanitizer build"; tail -30 "$tmp/san3.log"
  fi
else
  echo "skip clang sanitizers (clang not found)"
fi
end_stage "sanitizers (asan+ubsan)" " (one case per binary, passed if it ran clean and all its checks passed; the $san_checks checks re-run are not counted again)"

echo "== 4. lessons"
rm -rf "$BUILD/test-lessons"
run_lessons "$BUILD" 300 ""
run_counted test_figures bash tests/test_figures.sh "$BUILD/test-lessons" "$BUILD/test-lessons/out"
end_stage "lessons"

echo "== 5. command line and docs"
if [ -f tests/test_tcsim.sh ]; then run_counted test_tcsim bash tests/test_tcsim.sh "$BUILD/tcsim"; fi
run_counted test_docs bash tests/test_docs.sh "$BUILD"
run_counted test_lesson_args bash tests/test_lesson_args.sh "$BUILD"
run_counted test_exercises_cli bash tests/test_exercises.sh "$BUILD"
end_stage "command line and docs"

echo "== 6. fuzz corpus replay"
FUZZ_CC=${FUZZ_CC:-clang}
if ! command -v "$FUZZ_CC" >/dev/null; then
  echo "skip fuzz corpus replay ($FUZZ_CC not found)"
elif make --no-print-directory -s BUILD="$BUILD" FUZZ_CC="$FUZZ_CC" fuzz-replay >"$tmp/fuzz.log" 2>&1; then
  for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c); name=${name#fuzz_}
    dirs=(tests/fuzz/corpus/"$name")
    if [ "${FUZZ_REPLAY_REPRODUCERS:-1}" = 1 ] && [ -d tests/fuzz/reproducers/"$name" ]; then dirs+=(tests/fuzz/reproducers/"$name"); fi
    # tcsim_args runs tcsim per input: its corpus and a bounded random run from a fixed seed
    random=""; [ "$name" = tcsim_args ] && random=${FUZZ_TCSIM_RANDOM:-200:1}
    if FUZZ_RANDOM="$random" timeout 600 "$BUILD/fuzz/replay_$name" "${dirs[@]}" >"$tmp/replay.log" 2>&1; then
      pass; echo "ok   fuzz_$name: $(tail -n 1 "$tmp/replay.log" | sed 's/.*: //') (${dirs[*]})"
      grep -a "random inputs" "$tmp/replay.log" | sed 's/^/     /'
    else
      fail "fuzz corpus replay: fuzz_$name"; grep -B1 -A12 -m1 -E "FUZZ_CHECK failed|runtime error|ERROR: AddressSanitizer" "$tmp/replay.log" | head -20
    fi
  done
else
  fail "fuzz replay build"; tail -30 "$tmp/fuzz.log"
fi
end_stage "fuzz corpus replay" " (one case per harness)"

echo
if [ ${#failures[@]} -gt 0 ]; then
  echo "failures:"; for f in "${failures[@]}"; do echo "  $f"; done
fi
for s in "${stages[@]}"; do echo "  $s"; done
echo "values compared: $values (unit tests)"
echo "make test: $passed passed, $failed failed"
[ "$failed" = 0 ]
