#!/usr/bin/env bash
# The main job on the bundled example: build the workload with the flags mlgo-ra needs,
# run it, extract its corpus, and record its segment trace. Outputs go to build/example/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mlgo=$top/build/mlgo-ra
out=$top/build/example
[ -x "$mlgo" ] || { echo "run scripts/setup first" >&2; exit 2; }

echo "== build the workload (clang-22, embedded bitcode, BB address map, CFG-stable flags)"
binary=$("$top/examples/build-workload.sh" "$out/workload")
"$binary"

echo "== extract its corpus"
"$mlgo" extract-corpus "$out/workload/compile_commands.json" -o "$out/corpus"

echo "== record one run as a segment trace"
"$mlgo" trace record --binary "$binary" -o "$out/workload.bbtrace" -- "$binary" >/dev/null
"$mlgo" trace show "$out/workload.bbtrace" --top 5
