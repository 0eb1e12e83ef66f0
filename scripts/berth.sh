#!/usr/bin/env bash
# Sets up, builds and runs Berth on Debian 12. Usage: scripts/berth.sh demo|test|build|deps [args...]
#   demo   install what is missing, build, open the console on the demo world (args go to `berth demo`)
#   test   install what is missing, build, run the whole test suite (ctest)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BERTH_BUILD_DIR:-$ROOT/build}"

PACKAGES=(
    build-essential cmake ninja-build pkg-config git
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-qpa-plugins libqt6svg6
    libqcustomplot-dev librdkafka-dev libpq-dev libyaml-cpp-dev qtkeychain-qt6-dev
    postgresql kcat xvfb xauth fonts-dejavu-core
    dbus-daemon dbus-bin gnome-keyring libsecret-1-0 desktop-file-utils
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

build() {
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BERTH_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
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
        ctest --output-on-failure --timeout 600 -j "${BERTH_TEST_JOBS:-2}" "$@"
        ;;
    *)
        echo "usage: scripts/berth.sh demo|test|build|deps [args...]" >&2
        exit 2
        ;;
esac
