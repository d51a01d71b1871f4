#!/usr/bin/env bash
# Every user-visible string has a German translation: runs lupdate over src/ and ui/ into a copy
# of translations/switchyard_de.ts and fails, listing them, if any string is new or unfinished.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lupdate=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$root/translations/switchyard_de.ts" "$tmp/de.ts"
(cd "$root" && "$lupdate" -locations none src ui -ts "$tmp/de.ts" > "$tmp/lupdate.log" 2>&1) || { cat "$tmp/lupdate.log"; exit 1; }
missing=$(grep -c 'type="unfinished"' "$tmp/de.ts" || true)
if [ "$missing" -ne 0 ]; then
    echo "translations/switchyard_de.ts lacks $missing translation(s); update it with"
    echo "  /usr/lib/qt6/bin/lupdate -locations relative src ui -ts translations/switchyard_de.ts"
    echo "and translate these sources:"
    grep -B2 'type="unfinished"' "$tmp/de.ts" | grep '<source>' | sed 's/^ */  /'
    exit 1
fi
echo "translations/switchyard_de.ts: every string translated"
