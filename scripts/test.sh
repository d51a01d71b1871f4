#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 clone: install what is needed, build, run ctest.
#   ./scripts/test.sh [ctest options]          every test (what CI runs)
#   ./scripts/test.sh --quick [ctest options]  labels unit and gui only, for a check before a commit
# --quick runs the gui tests where Xvfb is installed (deps-debian.sh installs it): most of them
# run offscreen, but a few start an Xvfb of their own and fail without one. Without Xvfb it runs
# unit alone and says so. The NAME_xvfb twins (the same gui tests again on an X server) are left
# to the full run. Test labels: cmake/TestCategories.cmake.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
if [[ "${1:-}" == "--quick" ]]; then
    quick=1
    shift
fi

./installer/deps-debian.sh
./scripts/build.sh

select=()
if (( quick )); then
    if command -v Xvfb > /dev/null; then
        select=(-L '^(unit|gui)$' -LE '^xvfb$')
    else
        echo "test.sh --quick: Xvfb is not installed, so the gui tests are left out (unit only)" >&2
        select=(-L '^unit$')
    fi
fi
ctest --test-dir build --output-on-failure --parallel 2 --timeout 300 ${select[@]+"${select[@]}"} "$@"
