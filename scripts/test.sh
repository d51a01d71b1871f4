#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 clone: install what is needed, build, run ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./installer/deps-debian.sh
./scripts/build.sh
ctest --test-dir build --output-on-failure --parallel 2 --timeout 300 "$@"
