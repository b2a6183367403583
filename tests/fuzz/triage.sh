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
  compgen -G "$dir/crash-*" >/dev/null || compgen -G "$dir/timeout-*" >/dev/null || compgen -G "$dir/oom-*" >/dev/null || continue
  echo "== $n: crashes in $dir"
  total=$((total + $(ls "$dir" | grep -cE '^(crash|timeout|oom)-')))
  for a in "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-*; do
    [ -f "$a" ] || continue
    line=$(timeout 60 "$BUILD/fuzz/replay_$n" "$a" 2>&1 | grep -m1 -E "FUZZ_CHECK failed|runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer" | perl -pe 's/==\d+==//; s/0x[0-9a-f]+//g; s/(?<![:\w])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/N/g')
    echo "${line:-(no error on replay: $(basename "$a") is a timeout or flaky)}|$a"
  done | sort | awk -F'|' '{ c[$1]++; if (!($1 in ex)) ex[$1] = $2 } END { for (k in c) printf "  %4d x %s\n         e.g. %s\n", c[k], k, ex[k] }'
done
echo "fuzz: $total crash inputs"
[ "$total" = 0 ]
