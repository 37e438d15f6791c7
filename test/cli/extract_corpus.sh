#!/usr/bin/env bash
# extract-corpus end to end on the bundled workload: summary, --json, errors.
source "$(dirname "$0")/lib.sh"

build="$work/workload"
"$SRC/examples/build-workload.sh" "$build" >/dev/null || { echo "FAILED: build"; exit 1; }

run "$MLGO_RA" extract-corpus "$build/compile_commands.json" -o "$work/corpus" -j 2
check "extract-corpus succeeds" [ "$code" = 0 ]
check "the summary counts 6 modules from compile-commands" \
  grep -q "^extract-corpus: 6 modules from 6 objects (compile-commands)" <<<"$out"
check "every module has .bc and .cmd" \
  [ "$(find "$work/corpus" -name '*.o.bc' | wc -l)" = 6 -a "$(find "$work/corpus" -name '*.o.cmd' | wc -l)" = 6 ]
check "module names are the objects relative to the build" \
  grep -q '"CMakeFiles/workload.dir/hash.c.o"' "$work/corpus/corpus_description.json"

run "$MLGO_RA" extract-corpus "$build" -o "$work/corpus2" --json
check "--json on a directory succeeds" [ "$code" = 0 ]
check "--json names its format" grep -q '"format": "mlgo-ra.extract-corpus.summary"' <<<"$out"
check "--json counts the modules" grep -q '"modules_written": 6' <<<"$out"
check "--json prints nothing on stderr" [ -z "$err" ]

printf 'garbage' >"$work/bad.o"
mkdir -p "$work/objs" && cp "$build"/CMakeFiles/workload.dir/hash.c.o "$work/bad.o" "$work/objs/"
run "$MLGO_RA" extract-corpus "$work/objs" -o "$work/corpus3"
check "a corrupt object exits 2" [ "$code" = 2 ]
check "with one line naming it" \
  [ "$err" = "mlgo-ra: error: $work/objs/bad.o: not a readable object file: The file was not recognized as a valid object file" ]
check "and no corpus description" [ ! -e "$work/corpus3/corpus_description.json" ]

run "$MLGO_RA" extract-corpus "$work/missing" -o "$work/corpus4"
check "a missing input exits 2 naming it" \
  [ "$code" = 2 -a "$err" = "mlgo-ra: error: $work/missing: cannot read: No such file or directory" ]
finish
