#!/usr/bin/env bash
# The main job on the bundled example, the whole pipeline: build the workload with the
# flags mlgo-ra needs, extract its corpus, record a segment trace, choose the modules to
# compile, predict the speedup of the initial policy and of a variant with more spill
# code, train a policy for a few steps, and export it. Outputs go to build/example/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mlgo=$top/build/mlgo-ra
out=$top/build/example
[ -x "$mlgo" ] || { echo "run scripts/setup first" >&2; exit 2; }
start=$SECONDS

echo "== build the workload (clang-22, embedded bitcode, BB address map, CFG-stable flags)"
binary=$("$top/examples/build-workload.sh" "$out/workload")
"$binary"

echo "== extract its corpus"
"$mlgo" extract-corpus "$out/workload/compile_commands.json" -o "$out/corpus"

# A fiftieth of the default run (about 0.75 M instructions) keeps training short.
echo "== record one run as a segment trace"
"$mlgo" trace record --binary "$binary" -o "$out/workload.bbtrace" -- "$binary" 0.02 >/dev/null
"$mlgo" trace show "$out/workload.bbtrace" --top 5

echo "== the modules that define the traced functions"
"$mlgo" subset --corpus "$out/corpus" --trace "$out/workload.bbtrace" -o "$out/corpus-subset"

echo "== compile the default and initial variants (cached middle ends, traced functions only)"
for policy in default initial; do
  "$mlgo" compile --corpus "$out/corpus-subset" --policy "$policy" -o "$out/variants/$policy" \
    --cache-dir "$out/cache"
done

echo "== predict the initial policy's speedup over default (the flow engine, this host's CPU model)"
"$mlgo" replay --trace "$out/workload.bbtrace" --baseline "$out/variants/default" \
  --candidate "$out/variants/initial" --top 3 | tee "$out/initial.txt"

echo "== CI check: a variant whose hash kernel has more spill code (-stress-regalloc=4)"
variant=$("$top/examples/build-workload.sh" "$out/variant" -DWORKLOAD_VARIANT_SOURCE=hash.c \
  "-DWORKLOAD_VARIANT_FLAGS=-mllvm;-stress-regalloc=4")
status=0
"$mlgo" replay --trace "$out/workload.bbtrace" --baseline "$binary" --candidate "$variant" \
  --top 3 --fail-if-slower 1 | tee "$out/stress.txt" || status=$?
echo "(exit code $status: 1 means predicted slower than the 1% allowed)"

echo "== train a policy: 6 steps of 4 antithetic directions"
rm -rf "$out/train"
"$mlgo" train --corpus "$out/corpus-subset" --trace "$out/workload.bbtrace" \
  --baseline "$binary" -o "$out/train" --iterations 6 --perturbations 4 --json >"$out/train.json"
"$mlgo" train --report "$out/train"

echo "== export the best policy as llvm::RegAllocEvictModel for an LLVM release build"
"$mlgo" export "$out/train/best.json" --format cpp -o "$out/export"

echo
echo "== summary (build/example)"
speedup() { grep -o 'predicted speedup [-+][0-9.]*%' "$1" | sed 's/predicted speedup //'; }
# The summary's first value of a key (the validation record repeats some).
field() { grep -o "\"$1\": [^,}]*" "$out/train.json" | head -1 | sed 's/.*: //'; }
percent() { awk -v x="$(field "$1")" 'BEGIN { printf "%+.3f%%", 100 * x }'; }
echo "  trace            workload.bbtrace, subset of the corpus in corpus-subset/"
echo "  initial policy   $(speedup "$out/initial.txt") predicted over default"
echo "  stressed hash.c  $(speedup "$out/stress.txt") predicted over the traced binary"
echo "  trained policy   $(percent initial_speedup) at step 0, $(percent final_speedup) after" \
  "$(field steps) steps, best $(percent best_speedup)"
echo "                   train/best.json, curve in train/reward.svg"
echo "  exported         export/ (RegAllocEvictModel.h/.cpp; cmake flags in export/README.md)"
echo "  took             $((SECONDS - start)) s"
