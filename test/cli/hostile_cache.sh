#!/usr/bin/env bash
# Caches and layouts that must not change an answer: a damaged replay-cache or
# middle-end entry is recomputed with a warning, a cache that cannot be written (a file
# in its place, a full disk) is a warning, two object files defining one function are
# an error, no output lands inside an input directory, and settings that multiply
# replay's work are refused.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }

# poor [CACHE-DIR] [OPTIONS...]: fast replay of `poor` (compiled from the subset) against
# the traced binary.
poor() {
  local cache=${1:-$work/cache}
  shift || true
  "$MLGO_RA" replay --trace "$work/app.bbtrace" --corpus "$work/subset" --baseline "$work/app" \
    --candidate poor --mcpu skylake --fast --cache-dir "$cache" "$@"
}
speedup() { grep -o 'predicted speedup [-+][0-9.]*%' <<<"$out"; }
warnings() { grep -c '^mlgo-ra: warning: ' <<<"$err"; }

run poor
check "a fast replay fills the cache" [ "$code" = 0 -a -z "$err" ]
truth=$(speedup)
check "with a speedup" [ -n "$truth" ]
events=$(ls "$work"/cache/replay/*.events)
check "one replay-cache entry" [ "$(wc -l <<<"$events")" = 1 ]

# The events cut down to their magic (a thread boundary): dropped, replayed again.
head -c 8 "$events" >"$work/cut" && mv "$work/cut" "$events"
run poor
check "a cut .events file does not fail the replay" [ "$code" = 0 ]
check "nor change its answer ($truth)" [ "$(speedup)" = "$truth" ]
check "it is dropped with one warning" [ "$err" = \
  "mlgo-ra: warning: $events: damaged replay cache entry, replaying again: 8 bytes do not match their seal ($events.sum)" ]
run poor
check "and stored again whole" [ "$code" = 0 -a -z "$err" -a "$(speedup)" = "$truth" ]
# The description says how many threads' events and bytes: an entry whose events are
# another entry's (each sealed) is no more trusted.
json=${events%.events}.json
sed 's/"event_bytes": [0-9]*/"event_bytes": 8/' "$json" >"$work/j" && mv "$work/j" "$json"
sha=$(sha256sum "$json" | cut -d' ' -f1)
echo "$(stat -c %s "$json") $sha" >"$json.sum"
run poor
check "events of another size than the description's are dropped" \
  grep -q "^mlgo-ra: warning: $events: damaged replay cache entry, replaying again: [0-9]* bytes of events where $json says 8$" <<<"$err"
check "and the answer kept" [ "$code" = 0 -a "$(speedup)" = "$truth" ]

# The middle-end cache: an empty traced module, a cut optimized one.
traced=$(ls "$work"/cache/*.traced.bc | head -1)
check "the middle ends are cached" [ -s "$traced" ]
: >"$traced"
run poor
check "an empty .traced.bc is compiled again, the answer kept" [ "$code" = 0 -a "$(speedup)" = "$truth" ]
check "with a warning naming it" grep -q "^mlgo-ra: warning: $traced: damaged middle-end cache entry, compiling it again: 0 bytes do not match their seal ($traced.sum)$" <<<"$err"
for f in "$work"/cache/*.opt.bc; do head -c 100 "$f" >"$work/cut" && mv "$work/cut" "$f"; done
run poor
check "a cut .opt.bc is compiled again, the answer kept" [ "$code" = 0 -a "$(speedup)" = "$truth" ]
check "with a warning" grep -q "^mlgo-ra: warning: .*\.opt\.bc: damaged middle-end cache entry, compiling it again: 100 bytes do not match" <<<"$err"
run poor
check "then both are whole again" [ "$code" = 0 -a -z "$err" ]

# A cache that cannot be written: a file where its directory should be.
: >"$work/not-a-dir"
run poor "$work/not-a-dir"
check "replay with an unwritable cache succeeds" [ "$code" = 0 -a "$(speedup)" = "$truth" ]
check "warning that it compiles without the middle-end cache" grep -q "^mlgo-ra: warning: --cache-dir: $work/not-a-dir: cannot write in the cache directory: Not a directory; compiling without the middle-end cache$" <<<"$err"
check "and that it cannot keep the replay" grep -q "^mlgo-ra: warning: --cache-dir: cannot keep this replay: " <<<"$err"
run "$MLGO_RA" compile --corpus "$work/subset" --policy poor -o "$work/v-nocache" \
  --cache-dir "$work/not-a-dir"
check "compile with an unwritable cache succeeds" [ "$code" = 0 -a -s "$work/v-nocache/kernels.o" ]
check "warning once" [ "$(warnings)" = 1 ]
mkdir -p "$work/cache2" && : >"$work/cache2/replay"
run poor "$work/cache2"
check "a replay cache that cannot be written is a warning" [ "$code" = 0 -a "$(speedup)" = "$truth" ]
check "one" [ "$(warnings)" = 1 ]

# A full disk (a small tmpfs; root only): the cache is a warning, and no temporary of
# clang's or ours is left in it.
mkdir "$work/full"
if mount -t tmpfs -o size=12k tmpfs "$work/full" 2>/dev/null; then
  run poor "$work/full/cache"
  check "replay on a full cache disk succeeds" [ "$code" = 0 -a "$(speedup)" = "$truth" ]
  check "warning" [ "$(warnings)" -ge 1 ]
  check "leaving no temporaries" [ -z "$(find "$work/full" -name '*tmp*')" ]
  rm -rf "$work/full/cache"
  head -c 11000 /dev/zero >"$work/full/fill"
  run "$MLGO_RA" extract-corpus "$work/objs" -o "$work/full/corpus"
  check "extract-corpus on a full disk fails" [ "$code" != 0 ]
  check "leaving no output directory" [ ! -e "$work/full/corpus" ]
  run "$MLGO_RA" subset --corpus "$work/corpus" --trace "$work/app.bbtrace" -o "$work/full/subset"
  check "subset on a full disk fails" [ "$code" != 0 ]
  check "leaving no output directory" [ ! -e "$work/full/subset" ]
  umount "$work/full"
else
  echo "skipped: full-disk cases (cannot mount a tmpfs)"
fi

# Two variants below one --code directory: which mix to replay is no guess.
"$MLGO_RA" compile --corpus "$work/subset" --policy default -o "$work/v" --cache-dir "$work/cache" >/dev/null &&
  "$MLGO_RA" compile --corpus "$work/subset" --policy poor -o "$work/v/old" --cache-dir "$work/cache" >/dev/null ||
  { echo "FAILED: compile"; exit 1; }
run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/v" --mcpu skylake
check "objects defining one function twice are bad input (2)" [ "$code" = 2 ]
check "naming both files" grep -qx "mlgo-ra: error: $work/v/old/kernels.o: defines [a-z]*, as $work/v/kernels.o does: which code to replay is ambiguous" <<<"$err"

# No output inside an input directory.
cp "$work/v/kernels.o" "$work/kernels.o.before"
run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/v/old" --mcpu skylake \
  --markdown "$work/v/old/kernels.o"
check "--markdown onto a candidate's object is bad input (2)" [ "$code" = 2 ]
check "saying so" [ "$err" = "mlgo-ra: error: $work/v/old/kernels.o: lies inside the input directory $work/v/old: refusing to write there" ]
cp "$work/subset/corpus_description.json" "$work/description.before"
run poor "$work/cache" --markdown "$work/subset/corpus_description.json"
check "--markdown onto the corpus's description is bad input (2)" [ "$code" = 2 ]
check "which is left as it was" cmp -s "$work/description.before" "$work/subset/corpus_description.json"
run poor "$work/cache" --markdown "$work/report.md"
check "--markdown elsewhere is written" [ "$code" = 0 -a -s "$work/report.md" ]

# Settings that multiply the work, refused at once.
replay_code() { timeout 60 "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu skylake "$@"; }
run replay_code --chunk -1
check "--chunk -1 is a usage error (2)" [ "$code" = 2 ]
check "naming it" grep -q -- "--chunk: -1 is not a whole number (0 or more)" <<<"$err"
run replay_code --chunk 10 --chunk-warm-up 0
check "chunks of 10 instructions are bad input (2)" [ "$code" = 2 ]
check "saying why" [ "$err" = "mlgo-ra: error: --chunk: 10 instructions is less than 4096: each chunk would cost more than its instructions (0: no chunks)" ]
run replay_code --chunk 4096 --chunk-warm-up 65537
check "a warm-up of more than 16 chunks is bad input (2)" [ "$code" = 2 ]
check "saying why" [ "$err" = "mlgo-ra: error: --chunk-warm-up: 65537 instructions is more than 16 times the chunk's 4096: each chunk would simulate far more warm-up than it counts" ]
run replay_code --chunk 4096 --chunk-warm-up 65536
check "chunks at the bounds replay" [ "$code" = 0 ]
finish
