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

echo "== predict the initial policy's speedup over default (LLVM MCA, skylake)"
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
python3 - "$out/train.json" "$(speedup "$out/initial.txt")" "$(speedup "$out/stress.txt")" \
  "$((SECONDS - start))" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
print(f"  trace            workload.bbtrace, subset of the corpus in corpus-subset/")
print(f"  initial policy   {sys.argv[2]} predicted over default")
print(f"  stressed hash.c  {sys.argv[3]} predicted over the traced binary")
print(f"  trained policy   {100*t['initial_speedup']:+.3f}% at step 0, "
      f"{100*t['final_speedup']:+.3f}% after {t['steps']} steps, best {100*t['best_speedup']:+.3f}%")
print(f"                   train/best.json, curve in train/reward.svg")
print(f"  exported         export/ (RegAllocEvictModel.h/.cpp; cmake flags in export/README.md)")
print(f"  took             {sys.argv[4]} s")
PY
