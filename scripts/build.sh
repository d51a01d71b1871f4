#!/usr/bin/env bash
# Configures and builds Switchyard into ./build (ccache makes rebuilds cheap).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
cmake --build build --parallel 2
