#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (tests/fuzz) and runs each: first every saved regression
# input, then new inputs for --seconds N (default 20). A crash fails the run and names the input to
# keep under tests/fuzz/regressions/<fuzzer>/. For a long run: scripts/fuzz.sh --seconds 3600
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=20
if [ "${1:-}" = "--seconds" ]; then seconds=$2; fi
build=build/fuzz
mkdir -p "$build"
cmake -S tests/fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)" > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --parallel 2
failed=0
for fuzzer in fuzz_requesthead fuzz_responseparser fuzz_jsonmodelfield fuzz_errorrewrite fuzz_eventrelabel fuzz_streamstats fuzz_config; do
  corpus="$build/corpus/$fuzzer"
  mkdir -p "$corpus" "$build/artifacts/$fuzzer"
  cp -n tests/fuzz/corpus/$fuzzer/* "$corpus"/ 2>/dev/null || true
  if [ -d "tests/fuzz/regressions/$fuzzer" ]; then
    if ! "$build/$fuzzer" tests/fuzz/regressions/$fuzzer/* > "$build/$fuzzer.regressions.log" 2>&1; then
      echo "FAIL $fuzzer: a saved regression input crashes again"; tail -30 "$build/$fuzzer.regressions.log"; failed=1; continue
    fi
  fi
  if "$build/$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$fuzzer/" "$corpus" > "$build/$fuzzer.log" 2>&1; then
    echo "ok   $fuzzer: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$fuzzer.log" | awk '{print $2}') inputs in ${seconds}s"
  else
    echo "FAIL $fuzzer: see $build/$fuzzer.log; keep the input from $build/artifacts/$fuzzer/ under tests/fuzz/regressions/$fuzzer/"
    grep -A15 "ERROR\|==ERROR\|deadly signal" "$build/$fuzzer.log" | head -40
    failed=1
  fi
done
exit $failed
