#!/usr/bin/env bash
# Builds register-allocation variants of both examples for checking replay: each
# example built and traced (the workload at SCALE, json at JSON_SCALE), then variants as directories of
# objects: one source compiled with -stress-regalloc=N (the others as built), and the
# subset corpus compiled with the policies initial and poor and with two perturbations
# of initial of the size training tries (sigma 0.05). Writes OUT/variants.tsv:
# example, trace, traced binary, variant name, variant directory (one line each).
# Usage: examples/build-variants.sh OUT SCALE JSON_SCALE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$1
declare -A scale=([workload]=$2 [json]=$3)
mlgo=${MLGO_RA:-$top/build/mlgo-ra}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
mkdir -p "$out"
: >"$out/variants.tsv"

# stress SOURCE... per example: the sources whose allocation the variants stress.
declare -A sources=([workload]="hash.c compress.c sort.cpp matrix.c"
                    [json]="documents.cpp queries.cpp main.cpp")
declare -A levels=([workload]="4 6 8" [json]="4 8")

for example in workload json; do
  build=$out/$example
  binary=$(EXAMPLE=$example "$here/build-workload.sh" "$build/base")
  trace=$out/$example.bbtrace
  "$mlgo" trace record --binary "$binary" -o "$trace" -- "$binary" "${scale[$example]}" >/dev/null 2>&1
  objects=$(dirname "$(find "$build/base/CMakeFiles" -name '*.o' | head -1)")
  for source in ${sources[$example]}; do
    for level in ${levels[$example]}; do
      name=$source-stress$level dir=$build/$source-stress$level
      rm -rf "$dir" && cp -r "$objects" "$dir"
      # The source's own compile command, into the variant, with the stress flag.
      python3 - "$build/base/compile_commands.json" "$source" "$dir" "$level" <<'PY'
import json, os, shlex, subprocess, sys
db, source, dest, level = sys.argv[1:]
entry = next(e for e in json.load(open(db)) if os.path.basename(e["file"]) == source)
args = shlex.split(entry["command"])
i = args.index("-o")
args[i + 1] = os.path.join(dest, os.path.basename(args[i + 1]))
subprocess.run(args + ["-mllvm", f"-stress-regalloc={level}"], cwd=entry["directory"],
               check=True)
PY
      printf '%s\t%s\t%s\t%s\t%s\n' "$example" "$trace" "$binary" "$name" "$dir" >>"$out/variants.tsv"
    done
  done
  "$mlgo" extract-corpus "$build/base/compile_commands.json" -o "$build/corpus" >/dev/null
  "$mlgo" subset --corpus "$build/corpus" --trace "$trace" -o "$build/subset" >/dev/null
  for seed in 1 2; do
    "$top/build/bench/accuracy-perturb" initial --sigma 0.05 --seed "$seed" \
      -o "$build/perturbed$seed.json" >/dev/null
  done
  for policy in initial poor perturbed1 perturbed2; do
    file=$policy
    [[ $policy == perturbed* ]] && file=$build/$policy.json
    "$mlgo" compile --corpus "$build/subset" --policy "$file" -o "$build/$policy" \
      --cache-dir "$out/cache" -j 2 >/dev/null
    printf '%s\t%s\t%s\t%s\t%s\n' "$example" "$trace" "$binary" "$policy" "$build/$policy" >>"$out/variants.tsv"
  done
done
