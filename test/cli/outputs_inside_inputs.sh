#!/usr/bin/env bash
# Every subcommand that writes files refuses an output that is one of its inputs or lies
# inside an input directory (the corpus, the build's objects, a variant): one line naming
# the output and the input, exit 2, and nothing written or replaced (train -o too). (replay --markdown:
# hostile_cache.sh and replay_explain.sh.)
source "$(dirname "$0")/lib.sh"

workload_subset 0.02
"$MLGO_RA" compile --corpus "$work/subset" --policy default -o "$work/default" \
  --cache-dir "$work/cache" >/dev/null &&
  "$MLGO_RA" export initial -o "$work/p.json" >/dev/null ||
  { echo "FAILED: variant and policy"; exit 1; }
object=$(find "$work/base/CMakeFiles" -name 'hash.c.o' | head -1)
cp "$object" "$work/object.copy"
cp "$work/p.json" "$work/p.copy"
inside() { echo "mlgo-ra: error: $1: lies inside the input directory $2: refusing to write there"; }
same() { echo "mlgo-ra: error: $1: the output is also the input $2: refusing to overwrite it"; }

run "$MLGO_RA" extract-corpus "$work/base" -o "$work/base/corpus"
check "extract-corpus into the directory of objects is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(inside "$work/base/corpus" "$work/base")" ]
check "  and writing nothing" [ ! -e "$work/base/corpus" ]

run "$MLGO_RA" extract-corpus "$work/base/compile_commands.json" -o "$object"
check "extract-corpus onto an object of the build is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" \
  grep -qx "mlgo-ra: error: $object: the output is also the input .*hash.c.o: refusing to overwrite it" <<<"$err"
check "  and leaving it as it was" cmp -s "$object" "$work/object.copy"

run "$MLGO_RA" subset --corpus "$work/corpus" --trace "$trace" -o "$work/corpus/sub"
check "subset into its corpus is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(inside "$work/corpus/sub" "$work/corpus")" ]
check "  and writing nothing" [ ! -e "$work/corpus/sub" ]

run "$MLGO_RA" subset --corpus "$work/corpus" --trace "$trace" -o "$trace"
check "subset onto its trace is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(same "$trace" "$trace")" ]
check "  and leaving it a trace" grep -q '"instructions"' <<<"$("$MLGO_RA" trace show --json "$trace")"

run "$MLGO_RA" compile --corpus "$work/subset" --policy default -o "$work/subset/v" \
  --cache-dir "$work/cache"
check "compile into its corpus is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(inside "$work/subset/v" "$work/subset")" ]
check "  and writing nothing" [ ! -e "$work/subset/v" ]

run "$MLGO_RA" compile --corpus "$work/subset" --policy "$work/p.json" -o "$work/p.json" \
  --cache-dir "$work/cache"
check "compile onto its policy file is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(same "$work/p.json" "$work/p.json")" ]
check "  and leaving it as it was" cmp -s "$work/p.json" "$work/p.copy"

run "$MLGO_RA" export "$work/p.json" -o "$work/p.json"
check "export onto its policy file is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(same "$work/p.json" "$work/p.json")" ]
check "  and leaving it as it was" cmp -s "$work/p.json" "$work/p.copy"

run "$MLGO_RA" measure --baseline "$work/default" --candidate "$work/default" \
  --link "$CLANG CMakeFiles/workload.dir/hash.c.o -o w" --time-budget 1 \
  --markdown "$work/default/report.md" -- 0.01
check "measure --markdown into a build is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(inside "$work/default/report.md" "$work/default")" ]
check "  and writing nothing" [ ! -e "$work/default/report.md" ]

mkdir -p "$work/drmemtrace"
run "$MLGO_RA" trace import --format drmemtrace --binary "$base" "$work/drmemtrace" \
  -o "$work/drmemtrace/w.bbtrace"
check "trace import into its input directory is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" \
  [ "$err" = "$(inside "$work/drmemtrace/w.bbtrace" "$work/drmemtrace")" ]
check "  and writing nothing" [ -z "$(ls -A "$work/drmemtrace")" ]
run "$MLGO_RA" train --corpus "$work/subset" --trace "$trace" --baseline "$base" \
  -o "$work/subset/run" --iterations 1
check "train into its corpus is bad input (2)" [ "$code" = 2 ]
check "  saying so in one line" [ "$err" = "$(inside "$work/subset/run" "$work/subset")" ]
check "  and writing nothing" [ ! -e "$work/subset/run" ]
finish
