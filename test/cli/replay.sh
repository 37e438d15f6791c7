#!/usr/bin/env bash
# replay end to end: the bundled workload traced once, replayed on itself, on a variant
# whose hash kernel has more spill code (-stress-regalloc=4 on hash.c), given as a
# binary and as objects; CI's regression check; and bad inputs.
source "$(dirname "$0")/lib.sh"

workload_pair 0.02

json_number() { # json_number KEY: the first number after "KEY": in $out
  grep -o "\"$1\": -\?[0-9.e+-]*" <<<"$out" | head -1 | sed 's/.*: //'
}

run "$MLGO_RA" replay --trace "$trace" --code "$base"
check "replay of one variant succeeds" [ "$code" = 0 ]
check "it prints predicted cycles" grep -q "predicted  [0-9]* cycles" <<<"$out"
check "and says unmapped code was skipped" grep -q "skipped" <<<"$out"

run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$base" --json
check "the baseline against itself succeeds" [ "$code" = 0 ]
check "with a predicted speedup of exactly 0" [ "$(json_number speedup)" = "0.0" ]

# The stressed variant's expectations (slower, by how much, the shard's estimate) hold
# for skylake's model, which these replays name; the default is the host's (below).
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --json --mcpu skylake
check "the stressed variant replays" [ "$code" = 0 ]
speedup=$(json_number speedup)
check "it is predicted slower" awk -v s="$speedup" 'BEGIN { exit !(s < 0) }'
check "its CFG matches: no function falls back" grep -q '"replayed_with_baseline_code": \[\]' <<<"$out"
first=$(grep -o '"function": "[^"]*"' <<<"${out#*\"speedup\"}" | head -1)
check "the largest delta is in the hash kernel" [ "$first" = '"function": "wl_hash_kernel"' ]
stress_cycles=$(grep -o '"cycles": [0-9]*' <<<"${out#*\"candidate\"}" | head -1)
# Which branches mispredict is the trace's: the same count for both, the sort's and the
# hash table's data-dependent branches among them.
mispredicted=$(grep -o '"mispredicted_branches": [0-9]*' <<<"$out" | sed 's/.*: //' | sort -u)
check "both mispredict the same branches, some" [ "$(wc -l <<<"$mispredicted")" = 1 -a "$mispredicted" -gt 0 ]
check "an unsampled replay has no sampling error" [ "$(json_number speedup_error)" = "0.0" ]
base_cycles=$(grep -o '"cycles": [0-9]*' <<<"${out#*\"baseline\"}" | head -1 | sed 's/.*: //')

# With the trace's load dependences (trace record keeps them), the loads that never read
# what a recent store wrote go ahead of older stores: the same code takes fewer cycles.
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --json \
  --mcpu skylake --load-dependences
check "a replay with load dependences succeeds" [ "$code" = 0 ]
check "and says so" grep -q '"load_dependences": true' <<<"$out"
check "the baseline takes fewer cycles" [ "$(grep -o '"cycles": [0-9]*' <<<"${out#*\"baseline\"}" |
  head -1 | sed 's/.*: //')" -lt "$base_cycles" ]
check "the stressed variant is still predicted slower" \
  awk -v s="$(json_number speedup)" 'BEGIN { exit !(s < 0) }'
"$MLGO_RA" trace record --no-load-dependences --binary "$base" -o "$work/without.bbtrace" -- \
  "$base" 0.02 >/dev/null 2>&1 || { echo "FAILED: trace record --no-load-dependences"; exit 1; }
run "$MLGO_RA" replay --trace "$work/without.bbtrace" --code "$base" --load-dependences
check "a trace without them is bad input (2)" [ "$code" = 2 ]
check "named in the error, which says how to record one" [ "$err" = "mlgo-ra: error: $work/without.bbtrace: has no load dependences (record it again with this mlgo-ra's trace record, without --no-load-dependences)" ]
run "$MLGO_RA" replay --trace "$trace" --code "$base" --load-dependences --engine mca
check "MCA with load dependences is bad input (2)" [ "$code" = 2 -a "$err" = "mlgo-ra: error: --load-dependences: only the flow engine uses them" ]

# 373 windows of 32 events (one in 8): the hash kernel, where the variant differs, runs 4%
# of this small trace's instructions, in a few bursts; 46 windows of 256 events met few of
# them and understated the error (-1.07% +- 0.40 against -2.98%, with the flow engine's
# store model; 373 windows: -3.14% +- 0.83).
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --json \
  --sample 32/256 --mcpu skylake
check "a trace shard replays" [ "$code" = 0 ]
sampled=$(json_number speedup)
sampled_error=$(json_number speedup_error)
check "with a standard error" awk -v e="$sampled_error" 'BEGIN { exit !(e > 0) }'
check "within 4 of which it predicts the whole trace's speedup" awk -v s="$sampled" \
  -v f="$speedup" -v e="$sampled_error" 'BEGIN { d = s - f; exit !(d * d <= 16 * e * e) }'
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --sample 256/2048 \
  --mcpu skylake
check "the text says so" grep -q "predicted speedup -[0-9.]*% ± [0-9.]* (one standard error of the trace shard)" <<<"$out"

run "$MLGO_RA" replay --trace "$trace" --baseline "$base" \
  --candidate "$work/stress/CMakeFiles/workload.dir" --json --mcpu skylake
check "the variant's objects replay" [ "$code" = 0 ]
check "to the same cycles as its binary" \
  [ "$(grep -o '"cycles": [0-9]*' <<<"${out#*\"candidate\"}" | head -1)" = "$stress_cycles" ]

mkdir "$work/hash-only"
cp "$work/stress/CMakeFiles/workload.dir/hash.c.o" "$work/hash-only/"
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$work/hash-only"
check "a candidate lacking traced functions fails (2)" [ "$code" = 2 ]
check "naming them" grep -q "^mlgo-ra: error: $work/hash-only: 8 traced functions do not match the trace: main (missing)" <<<"$err"
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$work/hash-only" \
  --on-cfg-mismatch baseline --json --mcpu skylake
check "with --on-cfg-mismatch baseline they run the baseline's code" [ "$code" = 0 ]
check "which here is the stressed binary's code: the same cycles" \
  [ "$(grep -o '"cycles": [0-9]*' <<<"${out#*\"candidate\"}" | head -1)" = "$stress_cycles" ]
check "and the fallbacks are listed" grep -q '"reason": "missing"' <<<"$out"

run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --fail-if-slower 0.5 \
  --mcpu skylake
check "--fail-if-slower exits 1 on a predicted regression" [ "$code" = 1 ]
check "saying why" grep -q "^mlgo-ra: the candidate is predicted .*% slower, more than --fail-if-slower 0.5%" <<<"$err"
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --fail-if-slower 50 \
  --mcpu skylake
check "and 0 within the allowed margin" [ "$code" = 0 ]

# With the baseline's native cycles, the speedup of the whole run: the cycles the engine
# does not model (here nine times those it does) the same for both.
native=$((10 * base_cycles))
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --json \
  --mcpu skylake --native-cycles "$native"
whole=$(python3 -c "import json,sys; w=json.load(sys.stdin)['whole_run']; print(w['speedup'], w['modeled_share'])" <<<"$out")
expected=$(python3 -c "b=$base_cycles; c=${stress_cycles#*: }; u=$native-b; print((b+u)/(c+u)-1, b/$native)")
check "--native-cycles: the whole run's speedup, (B+U)/(C+U)-1, and the share modeled ($whole)" \
  python3 -c "import sys; a=[float(x) for x in '$whole'.split()]; e=[float(x) for x in '$expected'.split()]; sys.exit(not all(abs(x-y) < 1e-12 for x, y in zip(a, e)) or abs(a[1] - 0.1) > 1e-12)"
check "  beside the engine's own" [ "$(json_number speedup)" = "$speedup" ]
# A threshold between the whole run's slowdown (a tenth of the engine's) and the engine's.
margin=$(awk -v s="$speedup" 'BEGIN { printf "%.4f", -50 * s }')
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --mcpu skylake \
  --native-cycles "$native" --fail-if-slower "$margin"
check "  --fail-if-slower $margin checks the whole run's: within it (0)" [ "$code" = 0 ]
check "  the text says both" grep -Eq "^  whole run  predicted speedup -[0-9.]+% \(the engine models 10.0% of the baseline's [0-9.e+]+ native cycles\)$" <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" --mcpu skylake \
  --fail-if-slower "$margin"
check "  the engine's own slowdown is beyond it (1)" [ "$code" = 1 ]
run "$MLGO_RA" replay --trace "$trace" --code "$base" --native-cycles "$native" --mcpu skylake
check "  with one variant, the share the engine models" grep -q "^  whole run  [0-9.e+]* cycles natively: the engine models 10.0% of them$" <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --code "$base" --native-cycles 0
check "  0 native cycles is bad input (2)" [ "$code" = 2 ]
check "  said so" grep -q "0 is not a finite number above 0" <<<"$err"

# Bad input.
head -c 200 "$trace" >"$work/cut.bbtrace"
run "$MLGO_RA" replay --trace "$work/cut.bbtrace" --code "$base"
check "a truncated trace is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $work/cut.bbtrace: " <<<"$err"

run "$MLGO_RA" replay --trace "$trace" --baseline "$stress" --candidate "$base"
check "a baseline binary the trace was not recorded on is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $trace: was recorded on $base (build-id:[0-9a-f]*), not on $stress" <<<"$err"

mkdir "$work/nomap"
echo 'int f(int x) { return x + 1; }' >"$work/nomap/f.c"
"$CLANG" -O2 -c "$work/nomap/f.c" -o "$work/nomap/f.o"
run "$MLGO_RA" replay --trace "$trace" --code "$work/nomap"
check "objects without a BB address map are bad input (2)" [ "$code" = 2 ]
check "named in the error" [ "$err" = "mlgo-ra: error: $work/nomap/f.o: has no BB address map (build it with -fbasic-block-address-map)" ]

run "$MLGO_RA" replay --trace "$trace" --code "$base" --mcpu pentium-of-the-future
check "a CPU that MCA does not know is bad input (2)" [ "$code" = 2 ]
check "named in one error line that says how to list the CPUs" grep -qx \
  "mlgo-ra: error: --mcpu: 'pentium-of-the-future' is not a CPU that LLVM knows for x86_64-[a-z0-9_-]* ('--mcpu help' lists them)" <<<"$err"
run "$MLGO_RA" replay --trace "$trace" --code "$base" --mcpu pentium4
check "a CPU without a scheduling model is bad input (2)" [ "$code" = 2 ]
check "named in the error" [ "$err" = "mlgo-ra: error: --mcpu: 'pentium4' has no scheduling model to simulate ('--mcpu help' lists the CPUs that have one)" ]

# The CPU that matters: by default the host's, as LLVM (and clang -march=native) names it.
run "$MLGO_RA" replay --mcpu help
check "--mcpu help lists the CPUs, whatever else is missing (0)" [ "$code" = 0 -a -z "$err" ]
check "each modeled one on a line" grep -qx "  skylake" <<<"$out"
check "in-order cores marked" grep -qx "  bonnell  (in-order: --engine mca only)" <<<"$out"
check "then those without a scheduling model" \
  grep -q "^without a scheduling model, which replay needs: .* pentium4 " <<<"$out"
native=$(sed -n '1s/.*native, the default: \([^)]*\)):$/\1/p' <<<"$out")
host=$("$CLANG" -march=native -### -c -x c /dev/null 2>&1 | grep -o '"-target-cpu" "[^"]*"' |
  cut -d'"' -f4)
check "the default it names is the host's ($host), or skylake when LLVM cannot model it" \
  [ -n "$native" ] && [ "$native" = "$host" -o "$native" = skylake ]
run "$MLGO_RA" replay --trace "$trace" --code "$base" --json
check "replay models it by default" [ "$code" = 0 ]
check "and JSON names it" grep -q "^  \"cpu\": \"$native\",$" <<<"$out"
if [ "$native" = "$host" ]; then
  check "without a warning" [ -z "$err" ]
  # Where a hypervisor reports an older model than the core (KVM: a Granite Rapids core as
  # a Rocket Lake), but for one that names the CPU nearest by the host's features.
  names_nearest() {
    [ -z "$host_warning" ] || grep -qx "mlgo-ra: warning: --mcpu: the host CPU reports \
itself as '$host' but has [0-9]* features it lacks (.*), as a \
hypervisor may report another core; of the CPUs LLVM models, \
[a-z0-9-]* is nearest by features ([0-9]* lacked): --mcpu [a-z0-9-]* models it" \
      <<<"$host_warning"
  }
  check "or one that the host's features contradict its name" names_nearest
else
  check "with one warning naming the host's CPU and the fallback" grep -qx \
    "mlgo-ra: warning: --mcpu: LLVM .* the host CPU .*; modeling skylake instead .*" <<<"$err"
fi
run "$MLGO_RA" replay --trace "$trace" --code "$base" --mcpu native
check "--mcpu native is the same CPU, and the text names it" \
  grep -q "^  cpu        $native (x86_64" <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$base" --mcpu znver4
check "a named CPU is the one modeled" grep -q "^replay of .* (znver4, x86_64" <<<"$out"

# The engines: the flow engine by default, MCA on request; each says which ran.
run "$MLGO_RA" replay --trace "$trace" --code "$base" --json
check "the default engine is flow" grep -q '"engine": "flow"' <<<"$out"
check "replaying the whole trace" grep -q '"mode": "exact"' <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --code "$base" --engine mca --json
check "--engine mca runs MCA" grep -q '"engine": "mca"' <<<"$out"
check "with fast replay" grep -q '"mode": "fast"' <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --code "$base" --engine bogus
check "an unknown engine is a usage error (2)" [ "$code" = 2 ]
check "named in the error" [ "$err" = "mlgo-ra: error: --engine: 'bogus' is not an engine (flow, mca) (see 'mlgo-ra replay --help')" ]
run "$MLGO_RA" replay --trace "$trace" --code "$base" --mcpu bonnell
check "an in-order CPU is bad input for the flow engine (2)" [ "$code" = 2 ]
check "the error says to use MCA" [ "$err" = "mlgo-ra: error: --mcpu: 'bonnell' is an in-order core, which the flow engine does not model; use --engine mca" ]
run "$MLGO_RA" replay --trace "$trace" --code "$base" --mcpu bonnell --engine mca
check "which MCA replays" [ "$code" = 0 ]

run "$MLGO_RA" replay --trace "$trace" --code "$base" --unmapped replay
check "--unmapped replay on a trace without unmapped bytes is bad input (2)" [ "$code" = 2 ]
check "named in the error, which says how to record one" \
  [ "$err" = "mlgo-ra: error: $trace: holds no bytes of unmapped code to replay (record it with trace record --keep-unmapped, or use --unmapped skip)" ]

# Unmapped code replayed from its recorded bytes, on a program that runs mostly in libc.
loops=$work/loops
"$CLANG" -O2 -fbasic-block-address-map "$SRC/test/programs/libc_loops.c" -o "$loops" || exit 1
"$MLGO_RA" trace record --binary "$loops" -o "$work/loops.bbtrace" --keep-unmapped -- "$loops" \
  >/dev/null 2>&1 || { echo "FAILED: trace record --keep-unmapped"; exit 1; }
run "$MLGO_RA" replay --trace "$work/loops.bbtrace" --code "$loops" --unmapped replay --json
check "--unmapped replay on a trace that kept the bytes succeeds" [ "$code" = 0 ]
check "it models every traced instruction (iterations of rep instructions folded)" \
  [ "$(($(json_number instructions) + $(json_number folded_iterations)))" = "$(json_number trace_instructions)" ]
check "it replayed every unmapped one" \
  [ "$(json_number unmapped_replayed)" = "$(json_number unmapped_instructions)" ]
check "and skipped none" [ "$(json_number unmapped_skipped)" = 0 ]
check "libc's cycles are a pseudo-function" grep -q '"function": "\[unmapped\] libc.so.6"' <<<"$out"
run "$MLGO_RA" replay --trace "$work/loops.bbtrace" --code "$loops" --unmapped replay
check "the text says so" \
  grep -q "^  modeled    100.00% of [0-9]* traced instructions (--unmapped replay: [0-9]* unmapped replayed, 0 skipped, [0-9]* rep iterations folded), [0-9]* branches mispredicted$" <<<"$out"
run "$MLGO_RA" replay --trace "$work/loops.bbtrace" --baseline "$loops" --candidate "$loops" \
  --unmapped replay --json
check "the baseline against itself, unmapped code included, is exactly 0" \
  [ "$code" = 0 -a "$(json_number speedup)" = "0.0" ]
head -c 3000 "$work/loops.bbtrace" >"$work/loops-cut.bbtrace"
run "$MLGO_RA" replay --trace "$work/loops-cut.bbtrace" --code "$loops" --unmapped replay
check "a truncated trace with unmapped code is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $work/loops-cut.bbtrace: " <<<"$err"

run "$MLGO_RA" replay --trace "$trace"
check "no code to replay is a usage error (2)" [ "$code" = 2 ]
finish
