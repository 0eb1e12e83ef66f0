#!/usr/bin/env bash
# Runs every benchmark and prints their FIGURE lines. Usage: tests/bench/run.sh [--quick]
# Uses the build in $BERTH_BUILD_DIR when set, else builds its own in build-bench/ (Release).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${BERTH_BUILD_DIR:-}"
if [ -z "$BUILD" ]; then
    BUILD="$ROOT/build-bench"
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD" --parallel "$(nproc)" >/dev/null
status=0
for bench in "$BUILD"/tests/bench/bench_*; do
    [ -x "$bench" ] || continue
    echo "# $(basename "$bench")" >&2
    "$bench" "$@" || status=1
done
exit $status
