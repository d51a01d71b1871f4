#!/usr/bin/env bash
# The product's executable links no test double and no dev tool (issue 34): no symbol of the fake
# llama.cpp router (namespace switchyard::fake), none of the screenshot runner or its traffic
# generator. Each is looked for where it must be, too (the demo helper, the screenshot tool):
# that shows the check can see what it looks for.
#
# Usage: check_no_fakes.sh PRODUCT DEMO_HELPER SCREENSHOT_TOOL
set -euo pipefail
product=${1:?usage: check_no_fakes.sh PRODUCT DEMO_HELPER SCREENSHOT_TOOL}
helper=${2:?usage: check_no_fakes.sh PRODUCT DEMO_HELPER SCREENSHOT_TOOL}
tool=${3:?usage: check_no_fakes.sh PRODUCT DEMO_HELPER SCREENSHOT_TOOL}
command -v nm >/dev/null || { echo "FAIL: nm (binutils) is not installed" >&2; exit 1; }

count() { nm -C "$1" | grep -cE "$2" || true; }
fail=0
check() {   # PATTERN WHERE_IT_MUST_BE
    local pattern=$1 home=$2 there here
    there=$(count "$home" "$pattern")
    echo "$(basename "$home"): $there symbols matching $pattern"
    if [ "$there" -eq 0 ]; then
        echo "FAIL: nothing matches $pattern in $home: the check sees nothing (stripped?)" >&2
        fail=1
    fi
    here=$(count "$product" "$pattern")
    echo "$(basename "$product"): $here symbols matching $pattern"
    if [ "$here" -ne 0 ]; then
        echo "FAIL: $product links what belongs in $(basename "$home"):" >&2
        nm -C "$product" | grep -E "$pattern" | head -20 >&2
        fail=1
    fi
}
check 'switchyard::fake::' "$helper"
check 'switchyard::(ScreenshotRunner|TrafficGenerator)::' "$tool"
[ "$fail" -eq 0 ] || exit 1
echo "ok: $(basename "$product") links no fake and no screenshot tool"
