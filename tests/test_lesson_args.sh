#!/usr/bin/env bash
# The lessons refuse bad input with a message and a non-zero exit, and take
# --help: degenerate images, non-numeric tile sizes, a dataset path that is a
# FIFO or a file, --out without a usable folder. Usage: bash tests/test_lesson_args.sh [build dir]
# (last line: "test_lesson_args: N passed, N failed")
set -u
BUILD=${1:-build}
L=$(cd "$BUILD/lessons" && pwd)
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
# expect NAME WANT_RC PATTERN CMD...: the exit status (nonzero = any non-zero) and stderr+stdout matching PATTERN
expect() {
  local name=$1 want=$2 pattern=$3; shift 3
  timeout 60 "$@" >out 2>&1; local rc=$?
  if { [ "$want" = nonzero ] && [ "$rc" != 0 ] && [ "$rc" != 124 ]; } || [ "$rc" = "$want" ]; then
    if grep -qE -- "$pattern" out; then ok; else bad "$name: output lacks /$pattern/"; head -5 out; fi
  else bad "$name: exit $rc, expected $want"; head -5 out; fi
}
printf 'P5\n1 1\n255\n\200' > one.pgm
printf 'P5\n3 1\n255\n\200\200\200' > thin.pgm
printf 'not an image' > junk.png
mkfifo fifo
mkdir -p ds/0 && mkfifo ds/0/000.png

expect 01-one-pixel nonzero "needs at least 2x2 pixels" "$L/01_number_formats" one.pgm
expect 01-unreadable nonzero "could not read image junk.png: " "$L/01_number_formats" junk.png
expect 06-thin nonzero "needs at least 1 row and 4 columns" "$L/06_sparsity_2_4" thin.pgm
expect 05-abc 2 "'abc' is not a whole number" "$L/05_gemm_tiling" abc 64 32 32 32 3
expect 05-suffix 2 "'12x' is not a whole number" "$L/05_gemm_tiling" 128 12x 32 64 64 3
expect 05-negative 2 "'-3' is not a whole number" "$L/05_gemm_tiling" 128 128 32 64 64 -3
expect 07-help 0 "^usage: " "$L/07_loss_scaling" --help
expect 07-option 2 "unknown option '--frobnicate'" "$L/07_loss_scaling" --frobnicate
expect 07-not-a-folder 2 "fifo exists and is not a folder" "$L/07_loss_scaling" fifo
expect 07-fifo-image nonzero "000.png: not a regular file" "$L/07_loss_scaling" ds
expect 10-group-abc 2 "--ada-group takes a whole number from 1 to 64, not 'abc'" "$L/10_block_scaling" --ada-group abc
expect 10-group-65 2 "not '65'" "$L/10_block_scaling" --ada-group 65
expect 10-group-missing 2 "unknown argument '--ada-group'" "$L/10_block_scaling" --ada-group
expect 10-help 0 "^usage: .*--ada-group G" "$L/10_block_scaling" --help
# --out DIR: refused without a folder or where one cannot be made; honoured (parents made) otherwise
expect out-missing 2 "--out needs a folder" "$L/02_tensor_core_numerics" --out
expect out-empty 2 "--out needs a folder" "$L/04_shared_memory_banks" --out=
expect out-under-file 2 "cannot create output folder junk.png/sub" "$L/04_shared_memory_banks" --out junk.png/sub
expect out-extra-arg 2 "usage: .*--out DIR" "$L/08_bandwidth" extra
expect out-written 0 "wrote" "$L/04_shared_memory_banks" --out "o u t/deeper"
if [ -s "o u t/deeper/04_banks.png" ] && [ -s "o u t/deeper/04_banks.csv" ] && [ ! -e 04_banks.png ]; then ok
else bad "out-written: 04_banks.png/.csv not in 'o u t/deeper' (or also in the working folder)"; fi

echo "test_lesson_args: $passed passed, $failed failed"
[ "$failed" = 0 ]
