#!/usr/bin/env bash
# Runs one test program on an X server of its own: Xvfb on a free display, the xcb platform.
# ctest registers the GUI tests a second time through this (NAME_xvfb), so what they assert
# holds with a real windowing system too (window mapping, fonts and DPI of a real screen), not
# only offscreen. Xvfb's -displayfd picks the display, so parallel tests never race for one
# (xvfb-run -a guesses a number from lock files, and two starting at once can take the same).
# Usage: under-xvfb.sh PROGRAM [ARGS...]; exits with the program's status.
set -euo pipefail

if ! command -v Xvfb >/dev/null; then
    echo "under-xvfb.sh: Xvfb is not installed (installer/deps-debian.sh installs the xvfb package)" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/under-xvfb.XXXXXX")
xvfb_pid=""
cleanup() {
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# Xvfb writes the display number to the pipe once it accepts connections; reading it waits
# for exactly that (and fails after 20 s, or at once when Xvfb exits without writing).
mkfifo "$work/display"
# A screen larger than the tests' biggest window (1600×1000), at the usual 96 DPI; a test about
# small screens names its own in SWITCHYARD_XVFB_SCREEN (WIDTHxHEIGHTxDEPTH, e.g. 1366x768x24).
Xvfb -displayfd 3 -screen 0 "${SWITCHYARD_XVFB_SCREEN:-1920x1200x24}" -dpi 96 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
number=""
if ! read -r -t 20 number <"$work/display" || [ -z "$number" ]; then
    echo "under-xvfb.sh: Xvfb did not start:" >&2
    cat "$work/xvfb.log" >&2
    exit 2
fi

export DISPLAY=":$number"
export QT_QPA_PLATFORM=xcb
unset WAYLAND_DISPLAY
# No session bus: Qt's xcb theme and tray would otherwise look for the user's desktop session.
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-session-bus"

"$@" &
test_pid=$!
trap 'kill "$test_pid" 2>/dev/null; exit 143' TERM INT
status=0
wait "$test_pid" || status=$?
exit "$status"
