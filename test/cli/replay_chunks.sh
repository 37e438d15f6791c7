#!/usr/bin/env bash
# Exact replay in chunks (issue 18): the same trace and code give the same result with
# -j 1 and -j 2; chunking off (--chunk 0, or a trace shorter than two chunks) is the
# whole replay; chunks stay within the speedup bound of the whole trace, with both
# engines; a threaded trace, replayed unmapped code and a fast replay's reference (event
# cycles stitched from the chunks) work in chunks. Chunks are made small (--chunk) so
# that short traces have several; bench/replay-chunks measures long ones.
source "$(dirname "$0")/lib.sh"

workload_pair 0.05

# get FILE EXPR: EXPR (Python) of the JSON result r in FILE, e.g. 'r["cycles"]'.
get() { python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
cycles() { get "$work/$1.json" 'r["cycles"]'; }
# within_bound WHOLE_BASE WHOLE_CANDIDATE BASE CANDIDATE (cycles): prints the speedup
# error in points and the bound max(0.05, 4% of the whole trace's speedup); exits 1
# beyond it.
within_bound() {
  python3 - "$@" <<'PY'
import sys
wb, wc, b, c = map(float, sys.argv[1:])
whole, chunked = 100 * (wb / wc - 1), 100 * (b / c - 1)
bound = max(0.05, 0.04 * abs(whole))
print(f"speedup {whole:+.3f}% whole, {chunked:+.3f}% in chunks: error "
      f"{chunked - whole:+.4f} points, bound {bound:.3f}")
sys.exit(abs(chunked - whole) > bound)
PY
}

replay() { "$MLGO_RA" replay --trace "$trace" --json "$@"; }
for code in base stress; do
  replay --code "${!code}" --chunk 0 >"$work/$code-whole.json" || exit 1
  replay --code "${!code}" --chunk 200000 -j 1 >"$work/$code-j1.json" || exit 1
  replay --code "${!code}" --chunk 200000 -j 2 >"$work/$code-j2.json" || exit 1
done
instructions=$(get "$work/base-j1.json" 'r["trace_instructions"]')
check "the trace is cut into chunks of at least 200000 instructions, warmed up on 65536" \
  [ "$(get "$work/base-j1.json" '(r["chunks"]["count"], r["chunks"]["warm_up"])')" = \
    "($((instructions / 200000)), 65536)" ]
check "-j 1 and -j 2 give the same result, function by function" \
  cmp "$work/base-j1.json" "$work/base-j2.json"
check "also for the variant" cmp "$work/stress-j1.json" "$work/stress-j2.json"
check "--chunk 0 replays the whole trace" [ "$(get "$work/base-whole.json" 'r["chunks"]')" = None ]
replay --code "$base" --chunk $((instructions / 2 + 1)) >"$work/base-long-chunks.json"
check "a trace shorter than two chunks is replayed whole, as with --chunk 0" \
  cmp "$work/base-whole.json" "$work/base-long-chunks.json"
run within_bound "$(cycles base-whole)" "$(cycles stress-whole)" "$(cycles base-j2)" \
  "$(cycles stress-j2)"
echo "$out"
check "the chunks' speedup is within the bound of the whole trace's" [ "$code" = 0 ]
run "$MLGO_RA" replay --trace "$trace" --code "$base" --chunk 200000 --core-profile none
check "the text says how the trace was cut" grep -q "mode       exact (every instruction \
simulated, flow engine; in $((instructions / 200000)) chunks, each warmed up on 65536 \
instructions per thread)" <<<"$out"

# MCA's pipeline, on a shorter trace (it is slow).
"$MLGO_RA" trace record --binary "$base" -o "$work/short.bbtrace" -- "$base" 0.01 >/dev/null 2>&1 ||
  { echo "FAILED: trace record"; exit 1; }
mca() { # mca CODE NAME ARGS...: replays CODE with MCA into NAME.json
  "$MLGO_RA" replay --trace "$work/short.bbtrace" --code "$1" --json --exact --engine mca \
    "${@:3}" >"$work/$2.json" || { echo "FAILED: mca replay $*"; exit 1; }
}
for code in base stress; do
  mca "${!code}" "mca-$code-whole" --chunk 0
  mca "${!code}" "mca-$code-j1" --chunk 50000 -j 1
  mca "${!code}" "mca-$code-j2" --chunk 50000 -j 2
done
check "with MCA too, -j 1 and -j 2 give the same result" \
  cmp "$work/mca-base-j1.json" "$work/mca-base-j2.json"
run within_bound "$(cycles mca-base-whole)" "$(cycles mca-stress-whole)" \
  "$(cycles mca-base-j2)" "$(cycles mca-stress-j2)"
echo "$out"
check "and the chunks' speedup is within the bound" [ "$code" = 0 ]

# A fast replay's reference in chunks: its event cycles, stitched from the chunks', add
# up to its cycles, and the fast replay stays within the bound of the exact one.
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --fast \
  --sample none --chunk 200000 --cache-dir "$work/cache" --json
check "fast replay against a reference replayed in chunks succeeds" [ "$code" = 0 ]
echo "$out" >"$work/fast.json"
run within_bound "$(cycles base-whole)" "$(cycles stress-whole)" "$(cycles base-j2)" \
  "$(get "$work/fast.json" 'r["candidate"]["cycles"]')"
echo "$out"
check "and is within the bound of the whole exact replay" [ "$code" = 0 ]
run python3 - "$work/cache/replay" <<'PY'
import glob, json, sys
def varint(b, p):
    v = s = 0
    while True:
        c = b[p]; p += 1; v |= (c & 127) << s; s += 7
        if c < 128: return v, p
for path in glob.glob(sys.argv[1] + "/*.json"):
    b = open(path[:-5] + ".events", "rb").read()
    p, total = 8, 0
    while p < len(b):
        _, p = varint(b, p); n, p = varint(b, p)
        for _ in range(n):
            c, p = varint(b, p); total += c
    cycles = json.load(open(path))["cycles"]
    print(f"event cycles {total}, cycles {cycles}")
    sys.exit(total != cycles)
sys.exit(1)
PY
check "the reference's stitched event cycles add up to its cycles" [ "$code" = 0 ]

# Threads: each traced thread has its own core in each chunk, warmed up on its own
# instructions before the chunk.
"$CLANG" -O2 -fbasic-block-address-map -pthread "$SRC/test/programs/two_threads.c" \
  -o "$work/threads" || exit 1
"$MLGO_RA" trace record --binary "$work/threads" -o "$work/threads.bbtrace" -- \
  "$work/threads" 200000 >/dev/null 2>&1 || { echo "FAILED: trace record threads"; exit 1; }
for mode in "--chunk 0" "--chunk 100000 -j 1" "--chunk 100000 -j 2"; do
  "$MLGO_RA" replay --trace "$work/threads.bbtrace" --code "$work/threads" --json $mode \
    >"$work/threads${mode// /}.json" || exit 1
done
check "a threaded trace in chunks: the same with -j 1 and -j 2" \
  cmp "$work/threads--chunk100000-j1.json" "$work/threads--chunk100000-j2.json"
check "its threads as in the whole replay" [ "$(get "$work/threads--chunk0.json" 'r["threads"]')" = \
  "$(get "$work/threads--chunk100000-j2.json" 'r["threads"]')" ]
run python3 -c "import sys; w, c = $(cycles threads--chunk0), $(cycles threads--chunk100000-j2)
print(w, c); sys.exit(abs(c / w - 1) > 0.001)"
check "its cycles within 0.1% of the whole replay's" [ "$code" = 0 ]

# Unmapped code replayed in chunks: the refill's counts are the whole trace's.
"$CLANG" -O2 -fbasic-block-address-map "$SRC/test/programs/libc_loops.c" -o "$work/loops" || exit 1
"$MLGO_RA" trace record --binary "$work/loops" -o "$work/loops.bbtrace" --keep-unmapped -- \
  "$work/loops" 3000 >/dev/null 2>&1 || { echo "FAILED: trace record loops"; exit 1; }
for mode in "--chunk 0" "--chunk 100000 -j 2"; do
  "$MLGO_RA" replay --trace "$work/loops.bbtrace" --code "$work/loops" --unmapped replay \
    --json $mode >"$work/loops${mode// /}.json" || exit 1
done
check "unmapped code in chunks: several chunks" \
  [ "$(get "$work/loops--chunk100000-j2.json" 'r["chunks"]["count"]')" -ge 3 ]
for f in instructions trace_instructions unmapped_replayed unmapped_skipped folded_iterations \
  partial_segments mispredicted_branches threads; do
  check "its $f as in the whole replay" [ "$(get "$work/loops--chunk0.json" "r['$f']")" = \
    "$(get "$work/loops--chunk100000-j2.json" "r['$f']")" ]
done
finish
