#!/usr/bin/env bash
# The README states facts that the code decides; this checks they agree.
#   - every lesson and every CUDA program is listed in the README, and nothing
#     listed is missing
#   - every section banner in tensorcore.h has a row in the README's table
#   - the cycle counts the README quotes are what tcsim prints
#   - the MMA-Sim comparison's counts the README and REFERENCE 2.14 quote are
#     what test_mmasim prints (when built)
# Usage: bash tests/test_docs.sh [build dir]   (last line: "test_docs: N passed, N failed")
set -u
BUILD=${1:-build}
passed=0
failed=0
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

for f in lessons/[0-9]*.c; do
  name=$(basename "$f" .c)
  if grep -q "\`$name\`" README.md; then ok; else bad "README does not list lesson $name"; fi
done
for name in $(grep -oE '`[0-9][0-9]_[a-z0-9_]+`' README.md | tr -d '`' | sort -u); do
  if [ -f "lessons/$name.c" ]; then ok; else bad "README lists lesson $name, which does not exist"; fi
done
for f in cuda/*.cu; do
  if grep -q "\`$f\`" README.md; then ok; else bad "README does not list $f"; fi
done
for f in $(grep -oE '`cuda/[a-z0-9_]+\.cu`' README.md | tr -d '`' | sort -u); do
  if [ -f "$f" ]; then ok; else bad "README lists $f, which does not exist"; fi
done
for n in $(grep -oE '^   SECTION [0-9]+' tensorcore.h | awk '{print $2}'); do
  if grep -qE "^\| $n \|" README.md; then ok; else bad "README's section table lacks section $n"; fi
done

# "392 ... 221" (dettmers2020) and "504 ... 235" (dettmers2023) as tcsim prints them
if [ -x "$BUILD/tcsim" ]; then
  for case in "dettmers2020 matmul32_ffma 392" "dettmers2020 matmul32_tc 221" \
              "dettmers2023 matmul32_ffma 504" "dettmers2023 matmul32_tc 235"; do
    set -- $case
    got=$("$BUILD/tcsim" run "$2" --profile "$1" | sed -n 's/^cycles: //p')
    if [ "$got" = "$3" ] && grep -q "$3" README.md; then ok
    else bad "README/tcsim: $2 on $1 is $got cycles, README expects $3"; fi
  done
else
  bad "$BUILD/tcsim not built"
fi

# the validation table: rows predicted and mean errors as tcsim validate prints them
if [ -x "$BUILD/tcsim" ]; then
  summary=$("$BUILD/tcsim" validate --quiet)
  for set in calibration validation; do
    line=$(echo "$summary" | grep -E "^  $set " | head -1)
    pred=$(echo "$line" | sed -E 's/^ +[a-z]+ +([0-9]+) of +([0-9]+) rows.*/\1 of \2/')
    err=$(echo "$line" | sed -E 's/.*error\| +([0-9.]+)%.*/\1/')
    if grep -qE "^\| $set \| $pred \| $err% \|" README.md; then ok
    else bad "README's validation table: $set should read '$pred' and '$err%' (tcsim validate)"; fi
  done
  total=$(echo "$summary" | sed -nE 's/^([0-9]+) rows, .*/\1/p')
  if grep -q "holds $total GPU" README.md; then ok; else bad "README's dataset size should be $total rows"; fi
  if grep -q "holds $total GPU" docs/REFERENCE.md; then ok; else bad "REFERENCE 3.11's dataset size should be $total rows"; fi
  # the README's validation mean without the two sparse library runs it names (from the rounded mean: within 0.15)
  full=$("$BUILD/tcsim" validate)
  vline=$(echo "$summary" | grep -E "^  validation " | head -1)
  without=$(echo "$full" | awk -v n="$(echo "$vline" | sed -E 's/^ +[a-z]+ +([0-9]+) of.*/\1/')" \
              -v m="$(echo "$vline" | sed -E 's/.*error\| +([0-9.]+)%.*/\1/')" \
              '$1 == "cutlass408-sparse-16384-a100" || $1 == "cutlass1335-sparse-bf16-768-h100" { sub("%", "", $NF); e += $NF; k++ }
               END { if (k == 2) printf "%.2f", (m * n - e) / (n - 2) }')
  stated=$(sed -nE 's/.*validation mean would be ([0-9.]+)%.*/\1/p' README.md | head -1)
  if [ -n "$without" ] && [ -n "$stated" ] && awk -v a="$without" -v b="$stated" 'BEGIN { exit !(a - b < 0.15 && b - a < 0.15) }'; then ok
  else bad "README's validation mean without the two sparse library runs should read about $without% (it says '$stated')"; fi
  # REFERENCE 3.11's results table: every set, category and GPU line of the summary
  while read -r name pred _ total_ _ _ _ err; do
    if grep -qE "^\| $name( [^|]*)? \| $pred of $total_ \| $err" docs/REFERENCE.md; then ok
    else bad "REFERENCE 3.11's results table: $name should read '$pred of $total_' and '$err' (tcsim validate)"; fi
  done < <(echo "$summary" | grep 'rows predicted, mean |error|' | sed -E 's/\|error\|//')
fi

# the MMA-Sim comparison's counts (README's test list, REFERENCE 2.14) as test_mmasim prints them
if [ -x "$BUILD/tests/test_mmasim" ]; then
  counts=$("$BUILD/tests/test_mmasim" | sed -nE 's/^([0-9]+) combinations, ([0-9]+) cases, ([0-9]+) outputs compared.*/\1 \2 \3/p')
  set -- $counts
  if [ $# -eq 3 ]; then
    phrase="$1 instruction combinations, $2 seeded cases, $(echo "$3" | sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta')"
    for doc in README.md docs/REFERENCE.md; do
      if grep -q "$phrase" "$doc"; then ok; else bad "$doc should say '$phrase' (test_mmasim)"; fi
    done
  else
    bad "test_mmasim printed no summary line"
  fi
fi

echo "test_docs: $passed passed, $failed failed"
[ "$failed" = 0 ]
