#!/usr/bin/env bash
# trace record and trace show end to end: real programs under the mlgotrace tool.
source "$(dirname "$0")/lib.sh"

build="$work/workload"
"$SRC/examples/build-workload.sh" "$build" >/dev/null || { echo "FAILED: build"; exit 1; }
app=$build/workload

run "$MLGO_RA" trace record --binary "$app" -o "$work/w.bbtrace" --json -- "$app" 0.25
check "record succeeds with the program's exit code 0" [ "$code" = 0 ]
check "the program's output passes through" grep -q "^hash " <<<"$out"
recorded=$(grep -o '"instructions": [0-9]*' <<<"$out" | grep -o '[0-9]*$')
check "record --json counts instructions" [ "${recorded:-0}" -gt 1000000 ]

run "$MLGO_RA" trace show "$work/w.bbtrace" --json
check "show succeeds" [ "$code" = 0 ]
check "show counts the same instructions" grep -q "\"instructions\": $recorded," <<<"$out"
check "show names the hottest function" grep -q '"name": "wl_compress_kernel"' <<<"$out"

cat >"$work/io.c" <<'C'
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  char line[64];
  if (argc > 1 && !strcmp(argv[1], "kill")) raise(SIGKILL);
  if (fgets(line, sizeof line, stdin)) printf("read %s", line);
  fprintf(stderr, "to stderr\n");
  return argc > 1 ? atoi(argv[1]) : 0;
}
C
"$CLANG" -O2 -fbasic-block-address-map "$work/io.c" -o "$work/io" || exit 1

echo hello >"$work/in.txt"
run "$MLGO_RA" trace record --binary "$work/io" -o "$work/io.bbtrace" -- "$work/io" 3 <"$work/in.txt"
check "the program's exit code is preserved" [ "$code" = 3 ]
check "stdin reaches the program and its stdout comes back" [ "$out" = "read hello" ]
check "its stderr too" grep -q "^to stderr$" <<<"$err"
check "the trace is written" [ -s "$work/io.bbtrace" ]

run "$MLGO_RA" trace record --binary "$work/io" -o "$work/killed.bbtrace" -- "$work/io" kill
check "a killed program fails the recording (1)" [ "$code" = 1 ]
check "with one line saying so" grep -q "^mlgo-ra: error: .*io: the traced program was killed" <<<"$err"
check "and no trace file" [ -z "$(ls "$work" | grep killed)" ]

"$CLANG" -O2 "$work/io.c" -o "$work/nomap"
run "$MLGO_RA" trace record --binary "$work/nomap" -o "$work/x.bbtrace" -- "$work/nomap"
check "a binary without a BB address map is bad input (2)" [ "$code" = 2 ]
check "named in the error" \
  [ "$err" = "mlgo-ra: error: $work/nomap: has no BB address map (build it with -fbasic-block-address-map)" ]

# Threads: two workers, alive at once (Valgrind reuses an exited thread's id), each with
# its own work. test/trace/TraceRecordTest.cpp checks a threaded trace event by event.
"$CLANG" -O2 -fbasic-block-address-map -pthread "$SRC/test/programs/two_threads.c" \
  -o "$work/threads" || exit 1
run "$MLGO_RA" trace record --binary "$work/threads" -o "$work/threads.bbtrace" -- "$work/threads"
check "a threaded program is recorded" [ "$code" = 0 ]
run "$MLGO_RA" trace show "$work/threads.bbtrace" --json
per_thread=$(sed -n '/"threads": {/,/}/p' <<<"$out" | grep -o '"[0-9]*": [0-9]*')
total=$(grep -o '"instructions": [0-9]*' <<<"$out" | head -1 | grep -o '[0-9]*$')
check "show has one stream per thread (main and two workers)" [ "$(wc -l <<<"$per_thread")" = 3 ]
check "the threads' counts add up to the total" \
  [ "$(($(grep -o '[0-9]*$' <<<"$per_thread" | paste -sd+)))" = "${total:-x}" ]
check "the first worker's function ran" grep -q '"name": "count_odd"' <<<"$out"
check "and the second's" grep -q '"name": "sum_squares"' <<<"$out"

# Unmapped code kept as bytes, on a program that runs mostly in libc.
"$CLANG" -O2 -fbasic-block-address-map "$SRC/test/programs/libc_loops.c" -o "$work/loops" || exit 1
# Both recorded alike: where stdout goes changes what libc runs.
run "$MLGO_RA" trace record --binary "$work/loops" -o "$work/counted.bbtrace" -- "$work/loops"
run "$MLGO_RA" trace record --binary "$work/loops" -o "$work/kept.bbtrace" --keep-unmapped -- "$work/loops"
check "record --keep-unmapped succeeds" [ "$code" = 0 ]
check "saying how many chunks of code it kept" grep -q " chunks of unmapped code, " <<<"$err"
run "$MLGO_RA" trace show "$work/kept.bbtrace"
check "show says the unmapped code is kept" \
  grep -q "^  unmapped code kept: [0-9]* instructions in [0-9]* chunks (.* KB of code)$" <<<"$out"
kept_modules=$(sed -n '/^unmapped instructions by module:/,$p' <<<"$out")
run "$MLGO_RA" trace show "$work/counted.bbtrace"
check "and of a trace without, that it is only counted" \
  grep -q "^  unmapped code counted only (trace record --keep-unmapped keeps its bytes)$" <<<"$out"
check "both hold the same unmapped instructions per module" \
  [ "$kept_modules" = "$(sed -n '/^unmapped instructions by module:/,$p' <<<"$out")" ]
run "$MLGO_RA" trace show "$work/kept.bbtrace" --json
check "show --json says so too" grep -q '"unmapped_code_kept": true' <<<"$out"
run "$MLGO_RA" trace show "$work/kept.bbtrace" --events
check "show --events names each run's chunk" \
  grep -q "^thread 1: unmapped code chunk [0-9]* at 0x[0-9a-f]* in .*/libc.so.6, [0-9]* instructions$" <<<"$out"
head -c 3000 "$work/kept.bbtrace" >"$work/kept-cut.bbtrace"
run "$MLGO_RA" trace show "$work/kept-cut.bbtrace"
check "a truncated trace with unmapped code is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $work/kept-cut.bbtrace: " <<<"$err"

head -c 100 "$work/w.bbtrace" >"$work/cut.bbtrace"
run "$MLGO_RA" trace show "$work/cut.bbtrace"
check "a truncated trace is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $work/cut.bbtrace: " <<<"$err"
finish
