#!/usr/bin/env bash
# Regenerates the tables of docs/PERFORMANCE.md's "Switching" section: builds the switching
# simulator, runs its four traces (and the dwell/max_wait sweep) with the relay's default batch
# policy, and replaces what stands between the section's two marker comments.
#
#   scripts/switching-report.sh [BUILD_DIR]        (default: ./build, configured already)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
doc="$root/docs/PERFORMANCE.md"

nice cmake --build "$build" --parallel 2 --target switchyard-switchsim
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
"$build/bin/switchyard-switchsim" --markdown --sweep --check >"$tables"

python3 - "$doc" "$tables" <<'PY'
import sys
doc_path, tables_path = sys.argv[1], sys.argv[2]
begin, end = "<!-- switching-report:begin -->", "<!-- switching-report:end -->"
doc = open(doc_path, encoding="utf-8").read()
if begin not in doc or end not in doc:
    sys.exit(f"switching-report: {doc_path} has no {begin} ... {end} markers")
head, rest = doc.split(begin, 1)
_, tail = rest.split(end, 1)
tables = open(tables_path, encoding="utf-8").read().strip()
note = "<!-- written by scripts/switching-report.sh: edit the simulator, not this table -->"
open(doc_path, "w", encoding="utf-8").write(f"{head}{begin}\n{note}\n\n{tables}\n\n{end}{tail}")
PY
echo "switching-report: $doc updated"
