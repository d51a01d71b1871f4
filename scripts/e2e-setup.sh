#!/usr/bin/env bash
# Installs the real clients the end-to-end tests drive (Claude Code pinned and newest, opencode, pi, Codex, Cline,
# Qwen Code, the openai and @anthropic-ai/sdk packages), exactly as tests/e2e/package-lock.json pins them, into
# tests/e2e/node_modules. Does nothing when they are there and the lock file has not changed
# since they were installed, so it is cheap to run before every test run.
#
# The first install downloads about 1.8 GB (Claude Code, opencode, Codex and Cline ship native
# binaries);
# npm's cache (~/.npm, or $npm_config_cache) keeps it for the next clean install.
set -euo pipefail
cd "$(dirname "$0")/../tests/e2e"

say() { echo "e2e-setup: $*"; }

for tool in node npm sha256sum; do
    command -v "$tool" > /dev/null || { say "$tool is not installed (the e2e tests need Node.js 20 or newer with npm)" >&2; exit 1; }
done
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
    say "Node.js $(node --version) is too old: the pinned clients need Node.js 20 or newer" >&2
    exit 1
fi

stamp=node_modules/.switchyard-e2e-stamp
want="$(sha256sum package-lock.json | cut -d' ' -f1) node$node_major"
complete=yes
# Claude Code twice: the pinned version and the newest (the alias claude-code-newest); both
# ship a `claude` bin, so the tests name each by its own path.
claudes="node_modules/@anthropic-ai/claude-code/bin/claude.exe node_modules/claude-code-newest/bin/claude.exe"
for bin in claude opencode pi codex cline qwen; do
    [ -x "node_modules/.bin/$bin" ] || complete=no
done
for exe in $claudes; do
    [ -x "$exe" ] || complete=no
done
for pkg in openai @anthropic-ai/sdk undici; do
    [ -f "node_modules/$pkg/package.json" ] || complete=no
done
if [ "$complete" = yes ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "clients already installed in $(pwd)/node_modules (package-lock.json unchanged); nothing to do"
    exit 0
fi

if [ -d node_modules ]; then
    say "package-lock.json changed or node_modules is incomplete: reinstalling"
else
    say "installing the pinned clients into $(pwd)/node_modules (about 1.8 GB the first time)"
fi
# opencode's postinstall writes into $HOME: give it a scratch one, but keep npm's own cache.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp package-lock.json "$scratch/package-lock.json"
export npm_config_cache="${npm_config_cache:-${HOME:-/root}/.npm}"
# `npm install`, not `npm ci`: opencode-ai lists a binary package for every platform, and npm ci
# refuses a lock file without all of them, but the registry here only has the Linux ones. With
# the lock file present and in step with package.json, npm install takes exactly what it pins;
# should it ever want to change the lock file, that is an error here.
HOME="$scratch" npm install --no-audit --no-fund --loglevel=error
if ! cmp -s package-lock.json "$scratch/package-lock.json"; then
    cp "$scratch/package-lock.json" package-lock.json
    rm -f "$stamp"
    say "npm wanted to change package-lock.json (restored): the pinned versions did not install as locked" >&2
    exit 1
fi
# Each client's binary must run here (a native package for another platform would install and
# then fail at the first test).
for exe in node_modules/.bin/opencode node_modules/.bin/pi node_modules/.bin/codex node_modules/.bin/cline \
           node_modules/.bin/qwen $claudes; do
    if ! HOME="$scratch" timeout 120 "$exe" --version > /dev/null 2>&1; then
        say "$exe --version failed: the client did not install completely" >&2
        exit 1
    fi
done
echo "$want" > "$stamp"
say "installed: $(node -p 'const d=require("./package.json").dependencies; Object.entries(d).map(([k,v])=>k+" "+v).join(", ")')"
