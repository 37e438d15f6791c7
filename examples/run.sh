#!/usr/bin/env bash
# The main job on the bundled example: build the workload with the flags mlgo-ra needs,
# run it, extract its corpus, record its segment trace, and predict the speedup of a
# variant whose hash kernel has more spill code. Outputs go to build/example/.
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

# A fifth of the default run (about 7 M instructions) keeps the replays below short.
echo "== record one run as a segment trace"
"$mlgo" trace record --binary "$binary" -o "$out/workload.bbtrace" -- "$binary" 0.2 >/dev/null
"$mlgo" trace show "$out/workload.bbtrace" --top 5

echo "== the modules that define the traced functions"
"$mlgo" subset --corpus "$out/corpus" --trace "$out/workload.bbtrace" -o "$out/corpus-subset"

echo "== build a variant: hash.c with -stress-regalloc=4 (more spill code, same CFG)"
variant=$("$top/examples/build-workload.sh" "$out/variant" -DWORKLOAD_VARIANT_SOURCE=hash.c \
  "-DWORKLOAD_VARIANT_FLAGS=-mllvm;-stress-regalloc=4")

echo "== predict its speedup over the traced binary (LLVM MCA, skylake)"
"$mlgo" replay --trace "$out/workload.bbtrace" --baseline "$binary" --candidate "$variant" --top 5
