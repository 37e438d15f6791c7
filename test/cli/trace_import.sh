#!/usr/bin/env bash
# trace import end to end: Lackey's log of a run of the bundled workload and `trace
# record` of the same run give the same segment trace, event for event; bad inputs fail
# with one line naming the file.
source "$(dirname "$0")/lib.sh"

build="$work/workload"
"$SRC/examples/build-workload.sh" "$build" >/dev/null || { echo "FAILED: build"; exit 1; }
app=$build/workload

# Both runs must see the very same environment: the environment decides how many
# instructions ld.so runs before main. (bash's "_" variable alone, the path of the
# command it starts, differs between mlgo-ra and valgrind and changes the count.)
# trace record adds VALGRIND_LIB last; so does this list.
same_env=(env -i PATH="$PATH" HOME="$work")
run "${same_env[@]}" "$MLGO_RA" trace record --binary "$app" -o "$work/recorded.bbtrace" \
  --json -- "$app" 0.01
check "record succeeds" [ "$code" = 0 ]
recorded=$(grep -o '"instructions": [0-9]*' <<<"$out" | grep -o '[0-9]*$')

# The flags trace record's tool forces, so that Lackey logs exactly the executed
# instructions (with chasing, it also logs branch arms that never ran).
run "${same_env[@]}" VALGRIND_LIB="$VALGRIND_LIB_DIR" valgrind --tool=lackey --trace-mem=yes \
  --vex-guest-chase=no --vex-iropt-unroll-thresh=0 --fair-sched=yes \
  --log-file="$work/lackey.log" "$app" 0.01
check "lackey runs" [ "$code" = 0 ]
lackey=$(grep -o 'guest instrs: *[0-9,]*' "$work/lackey.log" | tr -dc '0-9')

run "$MLGO_RA" trace import --binary "$app" --format lackey -o "$work/imported.bbtrace" \
  --json "$work/lackey.log"
check "import succeeds" [ "$code" = 0 ]
imported=$(grep -o '"instructions": [0-9]*' <<<"$out" | grep -o '[0-9]*$')
check "record, Lackey and import count the same instructions ($recorded)" \
  [ "${recorded:-0}" -gt 1000000 -a "$recorded" = "$lackey" -a "$recorded" = "$imported" ]

# Lackey names no modules: merge the unmapped counts outside the binary ($1), then
# compare every event.
outside_binary() {
  awk -v bin="$(realpath "$1")" '
    /: unmapped in / {
      n = index($0, ": unmapped in "); thread = substr($0, 1, n - 1)
      rest = substr($0, n + 14); at = match(rest, /, [0-9]+ instructions$/)
      module = substr(rest, 1, at - 1); count = substr(rest, at + 2) + 0
      if (module != bin) module = "(outside the binary)"
      if (open && thread == last_thread && module == last_module) { sum += count; next }
      flush(); open = 1; last_thread = thread; last_module = module; sum = count; next
    }
    { flush(); print }
    function flush() {
      if (open) print last_thread ": unmapped in " last_module ", " sum " instructions"
      open = 0
    }
    END { flush() }'
}
"$MLGO_RA" trace show --events "$work/recorded.bbtrace" | outside_binary "$app" >"$work/recorded.events"
"$MLGO_RA" trace show --events "$work/imported.bbtrace" | outside_binary "$app" >"$work/imported.events"
check "the two segment traces hold the same events" \
  cmp "$work/recorded.events" "$work/imported.events"
check "and many of them" [ "$(grep -c ': segment ' "$work/imported.events")" -gt 10000 ]

# Valgrind counts a client request (5 instructions, 19 bytes) as one instruction: its
# segment ran whole but stays partial, with that count, in both traces.
cat >"$work/request.c" <<'C'
#include <stdio.h>
#include <valgrind/valgrind.h>
int main(void) { printf("%d\n", (int)RUNNING_ON_VALGRIND); return 0; }
C
"$CLANG" -O2 -fbasic-block-address-map "$work/request.c" -o "$work/request" || exit 1
"${same_env[@]}" "$MLGO_RA" trace record --binary "$work/request" -o "$work/request.bbtrace" \
  -- "$work/request" >/dev/null 2>&1
"${same_env[@]}" VALGRIND_LIB="$VALGRIND_LIB_DIR" valgrind --tool=lackey --trace-mem=yes \
  --vex-guest-chase=no --vex-iropt-unroll-thresh=0 --fair-sched=yes \
  --log-file="$work/request.log" "$work/request" >/dev/null
run "$MLGO_RA" trace import --binary "$work/request" --format lackey \
  -o "$work/request-imported.bbtrace" "$work/request.log"
check "a log with a client request imports" [ "$code" = 0 ]
"$MLGO_RA" trace show --events "$work/request.bbtrace" | outside_binary "$work/request" \
  >"$work/request.events"
"$MLGO_RA" trace show --events "$work/request-imported.bbtrace" |
  outside_binary "$work/request" >"$work/request-imported.events"
check "and equals the recording, both readable" \
  cmp "$work/request.events" "$work/request-imported.events"
check "the request's segment is partial: counted otherwise than decoded" \
  grep -q "partial main block 0 segment 0 from byte 0, " "$work/request.events"

# Bad inputs: one line naming the file, exit code 2, no output.
head -n 1000 "$work/lackey.log" >"$work/cut.log"
run "$MLGO_RA" trace import --binary "$app" --format lackey -o "$work/cut.bbtrace" "$work/cut.log"
check "a cut log is bad input (2)" [ "$code" = 2 ]
check "named in one line" [ "$err" = "mlgo-ra: error: $work/cut.log: no \"guest instrs\" total at its end: the log is cut short, or Lackey ran with --basic-counts=no" ]
check "and no trace file" [ ! -e "$work/cut.bbtrace" ]

"$CLANG" -O2 -fbasic-block-address-map -x c - -o "$work/other" <<<'int main(void) { return 0; }'
run "$MLGO_RA" trace import --binary "$work/other" --format lackey -o "$work/x.bbtrace" "$work/lackey.log"
check "another binary's log is bad input (2)" [ "$code" = 2 ]
check "said so" grep -q "^mlgo-ra: error: $work/lackey.log: the instruction at 0x[0-9a-f]* is [0-9]* bytes long, but $work/other has .* there: the trace is of another program or another build$" <<<"$err"

mkdir -p "$work/empty"
run "$MLGO_RA" trace import --binary "$app" --format drmemtrace -o "$work/x.bbtrace" "$work/empty"
check "a directory without thread files is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $work/empty: holds no drmemtrace thread files" <<<"$err"

run "$MLGO_RA" trace import --binary "$app" --format pin -o "$work/x.bbtrace" "$work/lackey.log"
check "an unknown format is a usage error (2)" [ "$code" = 2 ]
finish
