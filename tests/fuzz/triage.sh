#!/usr/bin/env bash
# Groups the crash inputs `make fuzz` saved: replays each through its
# harness's replay binary and prints one line per distinct first error,
# with a count and one input that shows it. Exit 1 if there were any.
# Usage: bash tests/fuzz/triage.sh BUILD_DIR NAME...
set -u
BUILD=$1; shift
total=0
for n in "$@"; do
  dir="$BUILD/fuzz/crashes/$n"
  ls "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-* >/dev/null 2>&1 || continue
  echo "== $n: crashes in $dir"
  for a in "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-*; do
    [ -f "$a" ] || continue
    total=$((total + 1))
    line=$(timeout 60 "$BUILD/fuzz/replay_$n" "$a" 2>&1 | grep -m1 -E "FUZZ_CHECK failed|runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer" | sed -E 's/==[0-9]+==//; s/0x[0-9a-f]+//g; s/-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g')
    echo "${line:-(no error on replay: $(basename "$a") is a timeout or flaky)}|$a"
  done | sort | awk -F'|' '{ c[$1]++; if (!($1 in ex)) ex[$1] = $2 } END { for (k in c) printf "  %4d x %s\n         e.g. %s\n", c[k], k, ex[k] }'
done
echo "fuzz: $total crash inputs"
[ "$total" = 0 ]
