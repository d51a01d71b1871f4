#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md's "Prompt caches over a switch, measured" table: builds the
# relay, makes sure the real llama-server is there (scripts/llama-setup.sh), runs
# bench/promptcache.py (two relays in front of two real engines, about 3 minutes on 2 cores),
# and replaces what stands between the subsection's two marker comments.
#
#   scripts/prompt-cache-report.sh [BUILD_DIR] [-- extra bench/promptcache.py arguments]
#                                               (default BUILD_DIR: ./build, configured already)
# Environment: RESULTS_DIR keeps the configs, logs and raw numbers (default: a temp dir, removed).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [[ $# -gt 0 && $1 != -- ]]; then build=$1; shift; fi
[[ ${1:-} != -- ]] || shift
doc="$root/docs/PERFORMANCE.md"

nice cmake --build "$build" --parallel 2 --target switchyard
llama=$("$root/scripts/llama-setup.sh" | tail -n 1)
work=${RESULTS_DIR:-}
cleanup_work=0
if [[ -z $work ]]; then work=$(mktemp -d /tmp/switchyard-promptcache.XXXXXX); cleanup_work=1; fi
trap '[[ $cleanup_work == 0 ]] || rm -rf "$work"' EXIT
mkdir -p "$work"
python3 "$root/bench/promptcache.py" --switchyard "$build/bin/switchyard" --llama "$llama" \
    --workdir "$work/run" --markdown "$work/tables.md" --json "$work/raw.json" "$@"

python3 - "$doc" "$work/tables.md" <<'PY'
import sys
doc_path, tables_path = sys.argv[1], sys.argv[2]
begin, end = "<!-- prompt-cache-report:begin -->", "<!-- prompt-cache-report:end -->"
doc = open(doc_path, encoding="utf-8").read()
if begin not in doc or end not in doc:
    sys.exit(f"prompt-cache-report: {doc_path} has no {begin} ... {end} markers")
head, rest = doc.split(begin, 1)
_, tail = rest.split(end, 1)
tables = open(tables_path, encoding="utf-8").read().strip()
note = "<!-- written by scripts/prompt-cache-report.sh: edit bench/promptcache.py, not this table -->"
open(doc_path, "w", encoding="utf-8").write(f"{head}{begin}\n{note}\n\n{tables}\n\n{end}{tail}")
PY
echo "prompt-cache-report: $doc updated"
