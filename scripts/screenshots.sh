#!/usr/bin/env bash
# Renders the README's screenshots into docs/screenshots/: runs `switchyard --demo` offscreen,
# drives it with scripted client traffic (streams, loads, an eviction, unknown models) for
# SECONDS_TO_RUN seconds (default 45), then saves the window and its parts with QWidget::grab() and quits.
#
#   scripts/screenshots.sh [BUILD_DIR]        (default: ./build; needs the switchyard target)
#   SECONDS_TO_RUN=60 scripts/screenshots.sh         a longer run: more history on the timeline
#   LANG=de_DE.UTF-8 OUT=docs/screenshots/de scripts/screenshots.sh    in German
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
bin="$build/bin/switchyard"
out=${OUT:-$root/docs/screenshots}
seconds=${SECONDS_TO_RUN:-45}

if [ ! -x "$bin" ]; then
  echo "screenshots: no $bin; build it first: cmake --build $build --target switchyard" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# Offscreen, with settings, history and single-instance socket of its own: a screenshot run
# never touches the user's Switchyard, and any port will do.
env QT_QPA_PLATFORM=offscreen \
    LANG="${LANG:-C.UTF-8}" \
    SWITCHYARD_SETTINGS_FILE="$tmp/settings.ini" \
    SWITCHYARD_INSTANCE_NAME="switchyard-screenshots-$$" \
    SWITCHYARD_SCREENSHOT_SECONDS="$seconds" \
    "$bin" --demo --listen 127.0.0.1:0 --data-dir "$tmp" --screenshots "$out" >"$tmp/journal.log" 2>"$tmp/stderr.log" || {
  echo "screenshots: switchyard failed:" >&2
  cat "$tmp/stderr.log" >&2
  exit 1
}
grep '^screenshot' "$tmp/journal.log"
echo "screenshots: $(grep -c 'POST /v1/chat/completions' "$tmp/journal.log") chat requests relayed"
