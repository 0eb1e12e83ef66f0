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

# A small descriptor limit: a forked child (QProcess runs pg_ctl) closes every descriptor up to it, which
# under valgrind takes minutes per child when the limit is in the millions.
ulimit -n 1024
xvfb-run -a -s "-screen 0 1600x1000x24" valgrind --tool=memcheck --leak-check=full \
    --show-leak-kinds=definite --num-callers=40 --fullpath-after= --child-silent-after-fork=yes \
    --log-file="$OUT/memcheck.log" \
    "$BUILD/app/berth" demo >"$OUT/out" 2>"$OUT/err" &
runner=$!
sleep $((MINUTES * 60))
# SIGTERM to the program under valgrind only: signalling xvfb-run too would take the X server away first,
# and Qt would exit mid-run with threads alive, which valgrind reports as leaks that are not.
pkill -TERM -f "^[^ ]*valgrind[^ ]* --tool=memcheck.*app/berth demo" || true
wait "$runner" || true

definite="$(grep -c "definitely lost in" "$OUT/memcheck.log" || true)"
# A block is Berth's when any frame of its allocation stack is in this source tree (full paths above).
ours="$(awk -v root="$ROOT/" '/definitely lost in/ {block=1; text=""} block {text = text $0 "\n"} /^==[0-9]+== $/ && block {if (index(text, root) > 0) n++; block=0} END {print n+0}' "$OUT/memcheck.log")"
summary="$(grep -A1 "LEAK SUMMARY" "$OUT/memcheck.log" | tail -1 | sed 's/^==[0-9]*== *//')"
echo "# memcheck log: $OUT/memcheck.log" >&2
echo "# $summary" >&2
echo "FIGURE leaks_minutes $MINUTES min"
echo "FIGURE leaks_definite_blocks_total $definite blocks"
echo "FIGURE leaks_definite_blocks_berth $ours blocks"
[ "$ours" -eq 0 ]
