#!/usr/bin/env bash
# Sets up, builds and runs Berth on Debian 12. Usage: scripts/berth.sh demo|test|sanitize|fuzz|build|deps [args...]
#   demo      install what is missing, build, open the console on the demo world (args go to `berth demo`)
#   test      install what is missing, build, run the whole test suite (ctest)
#   sanitize  build the `asan` preset (clang, ASan + UBSan, build-asan; it holds the fuzz targets too) and run
#             the unit, model, integration and GUI tests under it (args go to ctest)
#   fuzz [s]  build the libFuzzer targets of the `asan` preset and run each for s seconds (default 60), as
#             many at a time as there are cores
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BERTH_BUILD_DIR:-$ROOT/build}"

PACKAGES=(
    build-essential cmake ninja-build pkg-config git
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-qpa-plugins libqt6svg6
    libqcustomplot-dev librdkafka-dev libpq-dev libyaml-cpp-dev qtkeychain-qt6-dev
    postgresql kcat xvfb xauth fonts-dejavu-core clang llvm
    dbus-daemon dbus-bin gnome-keyring libsecret-1-0 desktop-file-utils
    libavro-dev libprotobuf-dev libprotoc-dev protobuf-compiler libvalijson-dev qt6-httpserver-dev qt6-websockets-dev
    prometheus python3-avro python3-protobuf libssl-dev
)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

deps() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "Installing: ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# Optimised, with line tables for stack traces and profiles, the libraries compiled in batches (fastest from
# scratch). Working on the code, BERTH_UNITY_BUILD=OFF rebuilds less after each edit.
build() {
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BERTH_BUILD_TYPE:-RelWithDebInfo}" \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DBERTH_UNITY_BUILD="${BERTH_UNITY_BUILD:-ON}" >/dev/null
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}

# Under the sanitizers: every tst_* test (unit, model, integration with the mock cluster and a throwaway
# PostgreSQL, offscreen GUI), about 3 minutes on 2 cores after a 10-15 minute build. Left out:
# tst_translations (runs lupdate over the sources: it tests the catalogue, not Berth's code), and the
# demo screenshots and install-tree checks (the app end to end and `cmake --install`: the normal run has
# them; under ASan they would add the slowest minutes and no code the tst_* tests do not reach).
# Qt, librdkafka and libpq are not instrumented: their own bugs stay invisible, calls into them are checked.
# Any report fails the test (halt_on_error); tests/sanitizers/lsan.supp silences leaks inside those libraries
# only, never in Berth's code.
SANITIZE_EXCLUDE='tst_translations\.|berth_demo_screenshots$|berth_install_tree$'
# Tests that list consumer groups on the mock cluster (in process, or through `berth watch` or `berth demo`,
# which inherit these options), where librdkafka 2.0.2 leaks (lsan.supp). librdkafka
# has no frame pointers, so only the slow unwinder's allocation stacks reach rd_kafka_new for the
# suppression to match exactly; it makes every allocation ten times dearer, so only these run with it.
SANITIZE_SLOW_UNWIND='tst_clusterinspector\.|tst_lagsampler\.|tst_console\.|tst_demoworld$|tst_brokerfaults\.|tst_replayui\.|tst_watch\.|tst_demoshutdown\.|tst_plannedrequestui\.requestFiledInTheConsole'

sanitizer_env() {
    export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0"
}

sanitize() {
    local dir="${BERTH_ASAN_BUILD_DIR:-$ROOT/build-asan}" failed=0
    sanitizer_env # also for the build: test discovery runs each test binary
    asan_configure "$dir"
    cmake --build "$dir" --parallel "$(nproc)"
    cd "$dir"
    local ctest_args=(--output-on-failure --timeout 900 -j "${BERTH_TEST_JOBS:-$(nproc)}")
    ctest "${ctest_args[@]}" -E "^(${SANITIZE_EXCLUDE}|${SANITIZE_SLOW_UNWIND})" "$@" || failed=1
    ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" ctest "${ctest_args[@]}" -R "^(${SANITIZE_SLOW_UNWIND})" "$@" || failed=1
    return "$failed"
}

asan_configure() {
    (cd "$ROOT" && cmake --preset asan -B "$1" >/dev/null)
}

# Runs one fuzz target for the given seconds on its seed corpus (tests/fuzz/corpus/<target>, read-only)
# plus a working corpus in <build>/corpus/<target>; prints its executions and crashes.
fuzz_one() {
    local dir="$1" target="$2" seconds="$3" work log execs crashes=0
    work="$dir/corpus/$target"
    log="$dir/$target.log"
    mkdir -p "$work"
    if ! "$dir/tests/fuzz/$target" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
            -artifact_prefix="$dir/$target-" "$work" "$ROOT/tests/fuzz/corpus/$target" >"$log" 2>&1; then
        crashes=1
        grep -E "ERROR|SUMMARY|^fuzz_|artifact_prefix|Test unit written" "$log" >&2 || tail -n 20 "$log" >&2
    fi
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    echo "FIGURE ${target}_execs ${execs:-0}"
    echo "FIGURE ${target}_crashes ${crashes}"
    return "$crashes"
}

# Every tests/fuzz/fuzz_*.cpp target.
fuzz() {
    local seconds="${1:-60}" dir="${BERTH_ASAN_BUILD_DIR:-$ROOT/build-asan}" failed=0 targets=() pids=()
    for src in "$ROOT"/tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$src" .cpp)"); done
    asan_configure "$dir"
    cmake --build "$dir" --parallel "$(nproc)" --target "${targets[@]}"
    # No allocation stacks: recording one per malloc halves the executions. To see them for a crash,
    # rerun its artifact alone: build-asan/tests/fuzz/<target> <artifact>.
    export ASAN_OPTIONS="malloc_context_size=0:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0"
    # In rounds of as many targets as there are cores (they all run for the same time).
    local round="$(nproc)" i pid
    for ((i = 0; i < ${#targets[@]}; i += round)); do
        pids=()
        for target in "${targets[@]:i:round}"; do
            fuzz_one "$dir" "$target" "$seconds" &
            pids+=("$!")
        done
        for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    done
    return "$failed"
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    deps) deps ;;
    build) deps; build ;;
    demo)
        deps; build
        if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
            echo "No display found: running the console under Xvfb (screenshots: scripts/berth.sh demo --screenshots DIR)."
            exec xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD_DIR/app/berth" demo "$@"
        fi
        exec "$BUILD_DIR/app/berth" demo "$@"
        ;;
    test)
        deps; build
        cd "$BUILD_DIR"
        ctest --output-on-failure --timeout 600 -j "${BERTH_TEST_JOBS:-$(nproc)}" "$@"
        ;;
    sanitize) deps; sanitize "$@" ;;
    fuzz) deps; fuzz "$@" ;;
    *)
        echo "usage: scripts/berth.sh demo|test|sanitize|fuzz|build|deps [args...]" >&2
        exit 2
        ;;
esac
