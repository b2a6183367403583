#!/usr/bin/env bash
# What the lessons wrote, after `run_tests.sh` ran each one from an empty
# folder with --out: nothing landed in that folder (only the run logs), every
# picture has data beside it (a chart: PNG, SVG and CSV; a canvas: PNG, CSV
# where its values mean something), every SVG is well-formed XML with its text
# as <text>, every PNG is a PNG and every name a lesson's header comment
# promises under "Writes:" exists.
# Usage: bash tests/test_figures.sh RUN_DIR OUT_DIR   (last line: "test_figures: N passed, N failed")
set -u
RUN=$1
OUT=$2
passed=0
failed=0
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

stray=$(cd "$RUN" && find . -mindepth 1 -maxdepth 1 ! -name '*.log' ! -path "./$(basename "$OUT")" | head -5)
if [ -z "$stray" ]; then ok; else bad "lessons wrote into their working folder: $stray"; fi

n=0
for svg in "$OUT"/*.svg; do
  [ -e "$svg" ] || continue
  n=$((n + 1))
  base=${svg%.svg}
  if [ -s "$base.png" ] && [ -s "$base.csv" ]; then ok; else bad "$(basename "$svg"): no PNG or CSV beside it"; fi
  if grep -q '<text ' "$svg"; then ok; else bad "$(basename "$svg"): no <text> elements"; fi
  if command -v python3 >/dev/null; then
    if python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$svg" 2>/dev/null; then ok
    else bad "$(basename "$svg") is not well-formed XML"; fi
  fi
done
if [ "$n" -ge 10 ]; then ok; else bad "only $n SVG charts in $OUT"; fi
for png in "$OUT"/*.png; do
  [ -e "$png" ] || continue
  if [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then ok; else bad "$(basename "$png") is not a PNG"; fi
done
for csv in "$OUT"/*.csv; do
  [ -e "$csv" ] || continue
  if [ "$(wc -l < "$csv")" -ge 2 ]; then ok; else bad "$(basename "$csv") has no data rows"; fi
done

# the names each lesson's comment promises (03's timelines have a <profile> pattern)
for f in lessons/[0-9]*.c; do
  for name in $(sed -n '/^   Writes:/,/^   [A-Z][a-z]*:/p' "$f" | grep -oE '[0-9]{2}_[a-z0-9_]+\.png' | sort -u); do
    if [ -s "$OUT/$name" ]; then ok; else bad "$(basename "$f") promises $name, not in $OUT"; fi
  done
done
for p in 03_timeline_a100_ffma 03_timeline_h100_tc; do
  if [ -s "$OUT/$p.png" ] && [ -s "$OUT/$p.csv" ]; then ok; else bad "$p.png/.csv missing"; fi
done

echo "test_figures: $passed passed, $failed failed"
[ "$failed" = 0 ]
