#!/usr/bin/env bash
# Renders the README's screenshots: runs the demo offscreen (switchyard-screenshots, which is
# `switchyard --demo` with the screenshot runner; a tool built, not installed), drives it with scripted
# client traffic (streams, loads, an eviction, unknown models) for SECONDS_TO_RUN seconds
# (default 45), then saves the window and its parts with QWidget::grab() and quits. Once in
# English (docs/screenshots/) and once in German (docs/screenshots/de/).
#
# Besides the demo relay it starts a second one, headless, in front of a fake llama.cpp router
# (switchyard-fakellama), with an admin token and a few finished requests: the window's last
# screenshot watches that relay by URL and token (remote.png).
#
#   scripts/screenshots.sh [BUILD_DIR]        (default: ./build; needs the switchyard,
#                                             switchyard-screenshots, switchyard-demo-fleet
#                                             and switchyard-fakellama targets)
#   SECONDS_TO_RUN=60 scripts/screenshots.sh  a longer run: more history on the timeline
#   LANGUAGES=de scripts/screenshots.sh       only the German ones (LANGUAGES="en de" is the default)
#   OUT=/tmp/shots scripts/screenshots.sh     somewhere else (German in OUT/de)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
bin="$build/bin/switchyard"
shots="$build/bin/switchyard-screenshots"
fleet="$build/bin/switchyard-demo-fleet"
fake="$build/bin/switchyard-fakellama"
out=${OUT:-$root/docs/screenshots}
seconds=${SECONDS_TO_RUN:-45}
languages=${LANGUAGES:-en de}

for b in "$bin" "$shots" "$fleet" "$fake"; do
  if [ ! -x "$b" ]; then
    echo "screenshots: no $b; build it first: cmake --build $build --target switchyard switchyard-screenshots switchyard-demo-fleet switchyard-fakellama" >&2
    exit 1
  fi
done

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# Waits up to 15 s for a line matching $2 in file $1 and prints its first URL.
url_from() {
  local file=$1 pattern=$2 i
  for i in $(seq 150); do
    if grep -q "$pattern" "$file" 2>/dev/null; then
      grep -m1 "$pattern" "$file" | grep -o 'http://[0-9.:]*' | head -1
      return 0
    fi
    sleep 0.1
  done
  echo "screenshots: no '$pattern' in $file:" >&2
  cat "$file" >&2
  return 1
}

# The relay to watch: a box with a coding model, behind a headless relay with an admin token.
"$fake" --port 0 --models devstral-24b,qwen3-coder-30b --model-ctx devstral-24b=131072 \
  --model-ctx qwen3-coder-30b=262144 --loaded devstral-24b --tokens-per-s 400 --max-reply-tokens 80 \
  >"$tmp/fake.log" 2>&1 &
pids+=($!)
box=$(url_from "$tmp/fake.log" 'fakellama listening on')
token=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
mkdir -p "$tmp/remote"
cat >"$tmp/remote/switchyard.json" <<EOF
{
  "admin": { "token": "$token" },
  "hosts": { "4090": { "driver": "static", "engines": { "main": { "url": "$box" } } } }
}
EOF
env QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 \
    SWITCHYARD_SETTINGS_FILE="$tmp/remote/settings.ini" \
    SWITCHYARD_INSTANCE_NAME="switchyard-screenshots-remote-$$" \
    "$bin" --headless --config "$tmp/remote/switchyard.json" --listen 127.0.0.1:0 --data-dir "$tmp/remote" \
    >"$tmp/remote/journal.log" 2>&1 &
pids+=($!)
relay=$(url_from "$tmp/remote/journal.log" 'listening on')
# Its request log: a few finished requests from two clients.
for i in 1 2 3 4 5 6; do
  agent=$([ $((i % 2)) = 0 ] && echo 'opencode/0.15.8' || echo 'claude-cli/2.0.14 (external, cli)')
  model=$([ "$i" = 5 ] && echo 4090-qwen3-coder-30b || echo 4090-devstral-24b)
  stream=$([ $((i % 3)) = 0 ] && echo false || echo true)
  curl -sS -o /dev/null -A "$agent" -H 'Content-Type: application/json' \
    -d "{\"model\":\"$model\",\"stream\":$stream,\"max_tokens\":60,\"messages\":[{\"role\":\"user\",\"content\":\"hello $i\"}]}" \
    "$relay/v1/chat/completions"
done

status=0
for language in $languages; do
  case $language in
    en) lang=C.UTF-8; dir=$out ;;
    de) lang=de_DE.UTF-8; dir=$out/de ;;
    *) echo "screenshots: no language '$language' (en, de)" >&2; exit 1 ;;
  esac
  mkdir -p "$dir"
  # Offscreen, with a home, settings, history and single-instance socket of its own: a screenshot
  # run never touches the user's Switchyard or files, and any port will do. The dialogs name the
  # config file in that home, so they show ~/.config/switchyard/switchyard.json.
  run="$tmp/$language"
  mkdir -p "$run/home"
  env QT_QPA_PLATFORM=offscreen \
      LANG="$lang" LANGUAGE= LC_ALL= LC_MESSAGES= \
      HOME="$run/home" XDG_CONFIG_HOME= XDG_DATA_HOME= XDG_STATE_HOME= XDG_CACHE_HOME= \
      SWITCHYARD_SETTINGS_FILE="$run/settings.ini" \
      SWITCHYARD_INSTANCE_NAME="switchyard-screenshots-$language-$$" \
      SWITCHYARD_SCREENSHOT_SECONDS="$seconds" \
      SWITCHYARD_SCREENSHOT_CONFIG="$run/home/.config/switchyard/switchyard.json" \
      SWITCHYARD_SCREENSHOT_WATCH="$relay" \
      SWITCHYARD_SCREENSHOT_WATCH_TOKEN="$token" \
      "$shots" --demo --listen 127.0.0.1:0 --data-dir "$run" --screenshots "$dir" >"$run/journal.log" 2>"$run/stderr.log" || {
    echo "screenshots ($language): switchyard-screenshots failed:" >&2
    grep 'FAILED' "$run/journal.log" >&2 || true
    cat "$run/stderr.log" >&2
    status=1
    continue
  }
  grep '^screenshot' "$run/journal.log"
  echo "screenshots ($language): $(grep -c 'POST /v1/chat/completions' "$run/journal.log") chat requests relayed"
done
exit $status
