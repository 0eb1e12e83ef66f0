#!/usr/bin/env bash
# Leak check: the console on the demo world under valgrind memcheck for a while, then a clean SIGTERM.
# Usage: tests/soak/leaks.sh [minutes=10] [build-dir=build]
# Passes when no "definitely lost" block has a Berth frame (services/, models/, views/, app/) in its
# allocation stack; third-party one-off allocations (fontconfig, librdkafka globals) are listed, not judged.
set -euo pipefail
MINUTES="${1:-10}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${2:-$ROOT/build}"
OUT="$(mktemp -d)"
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)" >&2; exit 2; }

xvfb-run -a -s "-screen 0 1600x1000x24" valgrind --tool=memcheck --leak-check=full \
    --show-leak-kinds=definite --num-callers=40 --log-file="$OUT/memcheck.log" \
    "$BUILD/app/berth" demo >"$OUT/out" 2>"$OUT/err" &
runner=$!
sleep $((MINUTES * 60))
pkill -TERM -f "valgrind.*app/berth demo" || true
wait "$runner" || true

definite="$(grep -c "definitely lost in" "$OUT/memcheck.log" || true)"
ours="$(awk '/definitely lost in/ {block=1; text=""} block {text = text $0 "\n"} /^==[0-9]+== $/ && block {if (text ~ /\/(services|models|views|app)\//) n++; block=0} END {print n+0}' "$OUT/memcheck.log")"
summary="$(grep -A1 "LEAK SUMMARY" "$OUT/memcheck.log" | tail -1 | sed 's/^==[0-9]*== *//')"
echo "# memcheck log: $OUT/memcheck.log" >&2
echo "# $summary" >&2
echo "FIGURE leaks_minutes $MINUTES min"
echo "FIGURE leaks_definite_blocks_total $definite blocks"
echo "FIGURE leaks_definite_blocks_berth $ours blocks"
[ "$ours" -eq 0 ]
