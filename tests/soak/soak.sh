#!/usr/bin/env bash
# Soak: the console on the demo world for a while, sampling the console's memory and handles.
# Usage: tests/soak/soak.sh [minutes=60] [build-dir=build]
# Samples VmRSS, open file descriptors and threads every 10 s. Growth is measured from the end of the
# warm-up (a fifth of the run, at least one minute: caches, chart history and indexes fill first) to the
# end, and must stay within 10 %. Prints FIGURE lines; exits 1 when a limit is exceeded.
set -euo pipefail
MINUTES="${1:-60}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${2:-$ROOT/build}"
BERTH="$BUILD/app/berth"
LOG="$(mktemp -d)/soak"
[ -x "$BERTH" ] || { echo "build first: $BERTH missing" >&2; exit 2; }

total=$((MINUTES * 60))
warm=$((total / 5)); [ "$warm" -lt 60 ] && warm=60
[ "$warm" -ge "$total" ] && warm=$((total / 2))

# The world (mock cluster, PostgreSQL, reference services) runs in a process of its own, so what is
# sampled is the console alone: the mock brokers keep every produced record in memory, which says nothing
# about Berth.
"$BERTH" demo --headless >"$LOG.world" 2>"$LOG.world.err" &
world=$!
for _ in $(seq 1 300); do
    grep -q "^Consumer groups:" "$LOG.world" 2>/dev/null && break
    sleep 0.2
done
bootstrap="$(sed -n 's/^Kafka bootstrap servers: //p' "$LOG.world")"
conninfo="$(grep -m1 'psql "' "$LOG.world" | sed 's/^ *psql "\(.*\)"$/\1/')"
groups=()
IFS=', ' read -r -a names <<<"$(sed -n 's/^Consumer groups: //p' "$LOG.world")"
for g in "${names[@]}"; do [ -n "$g" ] && groups+=(--group "$g"); done
[ -n "$bootstrap" ] && [ -n "$conninfo" ] || { echo "the demo world did not start; see $LOG.world.err" >&2; kill "$world"; exit 2; }

xvfb-run -a -s "-screen 0 1600x1000x24" "$BERTH" --bootstrap "$bootstrap" --db "$conninfo" "${groups[@]}" \
    >"$LOG.out" 2>"$LOG.err" &
runner=$!
pid=""
for _ in $(seq 1 100); do
    # The berth console itself: not the xvfb-run wrapper, not the world.
    for candidate in $(pgrep -f -- "$BERTH --bootstrap" || true); do
        [ "$(readlink -f "/proc/$candidate/exe" 2>/dev/null)" = "$(readlink -f "$BERTH")" ] && pid="$candidate"
    done
    [ -n "$pid" ] && break
    sleep 0.2
done
[ -n "$pid" ] || { echo "berth did not start" >&2; kill "$world"; exit 2; }

sample() { # rss_kb fds threads
    local rss fds threads
    rss="$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")"
    threads="$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")"
    fds="$(ls "/proc/$pid/fd" | wc -l)"
    echo "$rss $fds $threads"
}

start=$(date +%s)
base=""
last=""
echo "# soak: $MINUTES min, warm-up $warm s, pid $pid; samples in $LOG.samples" >&2
while :; do
    now=$(($(date +%s) - start))
    [ "$now" -ge "$total" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "berth exited early; see $LOG.err" >&2; kill "$world"; exit 1; }
    last="$(sample)"
    echo "$now $last" >>"$LOG.samples"
    if [ -z "$base" ] && [ "$now" -ge "$warm" ]; then base="$last"; fi
    sleep 10
done
kill -TERM "$pid"
wait "$runner" || true
kill -TERM "$world"
wait "$world" || true

read -r rss0 fd0 th0 <<<"$base"
read -r rss1 fd1 th1 <<<"$last"
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) * 100.0 / (a > 0 ? a : 1) }'; }
rssg="$(pct "$rss0" "$rss1")"; fdg="$(pct "$fd0" "$fd1")"; thg="$(pct "$th0" "$th1")"
echo "FIGURE soak_minutes $MINUTES min"
echo "FIGURE soak_rss_start_mb $(awk -v k="$rss0" 'BEGIN { printf "%.1f", k / 1024 }') MB"
echo "FIGURE soak_rss_end_mb $(awk -v k="$rss1" 'BEGIN { printf "%.1f", k / 1024 }') MB"
echo "FIGURE soak_rss_growth_pct $rssg %"
echo "FIGURE soak_fd_growth_pct $fdg % ($fd0 -> $fd1)"
echo "FIGURE soak_threads_growth_pct $thg % ($th0 -> $th1)"
status=0
for g in "$rssg" "$fdg" "$thg"; do
    awk -v g="$g" 'BEGIN { exit !(g > 10.0) }' && status=1
done
exit $status
