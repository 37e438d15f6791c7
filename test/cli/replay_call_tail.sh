#!/usr/bin/env bash
# replay across a copy the register allocator moved over a call (issue 8): in
# test/programs/call_tail.c, main's block 1 ends with a call to strtol; built as is, the
# call's result is copied right after the call, in the block (two segments); with
# -stress-regalloc=6 the block ends at the call (one segment). Each binary is traced
# and the other replayed on its trace with --on-cfg-mismatch fail: both must replay,
# every instruction of each executed block exactly once per execution (counted here
# from the disassembly and the trace's events, not by replay), and fast replay must
# predict the speedup of --exact within 0.05 points. A block that gains a branch instead
# (-DEXTRA_BRANCH: one segment more, not after its last call) is still a changed CFG.
source "$(dirname "$0")/lib.sh"
llvm_bin=$(dirname "$(readlink -f "$CLANG")")
# -falign-loops=1: no alignment padding that execution falls through, so every executed
# instruction is in a block and the counts below have no padding to add.
flags="-O2 -falign-loops=1 -fbasic-block-address-map -mllvm -disable-branch-fold
  -mllvm -enable-tail-merge=false -mllvm -branch-fold-placement=false
  -mllvm -disable-tail-duplicate -mllvm -tail-dup-placement=false
  -mllvm -enable-shrink-wrap=false"
# shellcheck disable=SC2086
"$CLANG" $flags "$SRC/test/programs/call_tail.c" -o "$work/base" &&
  "$CLANG" $flags -mllvm -stress-regalloc=6 "$SRC/test/programs/call_tail.c" \
    -o "$work/stress" &&
  "$CLANG" $flags -DEXTRA_BRANCH "$SRC/test/programs/call_tail.c" -o "$work/branch" ||
  { echo "FAILED: build"; exit 1; }

# block_ends BINARY FUNCTION ID: "CALLEND SIZE", where the block's last call ends and the
# block does (bytes from its start), from the BB address map.
block_ends() {
  "$llvm_bin/llvm-readobj" --bb-addr-map "$1" | awk -v f="$2" -v id="$3" '
    $1 == "Name:" { in_f = $2 == f }
    in_f && $1 == "ID:" { this = $2 == id }
    in_f && this && /Callsite End Offsets/ { gsub(/.*\[|\].*/, ""); n = split($0, o, ", "); last = o[n] }
    in_f && this && $1 == "Size:" { print last, $2; exit }'
}
code=
read -r base_call base_size <<<"$(block_ends "$work/base" main 1)"
read -r stress_call stress_size <<<"$(block_ends "$work/stress" main 1)"
check "as built, main's block 1 has code after its call" [ "$base_call" -lt $((base_size)) ]
check "stressed, it ends at the call" [ "$stress_call" = $((stress_size)) ]

# block_lengths BINARY: "FUNCTION ID INSTRUCTIONS" for every block of the BB address map.
block_lengths() {
  "$llvm_bin/llvm-readobj" --bb-addr-map "$1" | awk '
    $1 == "Name:" { f = $2 } $1 == "Base" { base = $3 } $1 == "ID:" { id = $2 }
    $1 == "Offset:" { off = $2 } $1 == "Size:" { print f, id, base, off, $2 }' |
    while read -r f id base off size; do
      start=$((base + off)) size=$((size)) n=0
      [ "$size" = 0 ] || n=$("$llvm_bin/llvm-objdump" -d --no-show-raw-insn \
        --start-address="$start" --stop-address=$((start + size)) "$1" | grep -c '^ *[0-9a-f]*:')
      echo "$f $id $n"
    done
}
# expected_instructions EVENTS BINARY: per traced function, the instructions of BINARY's
# blocks times their executions in EVENTS (trace show --events; each execution runs
# segment 0 once), and "total".
expected_instructions() {
  block_lengths "$2" >"$work/lengths"
  awk 'NR == FNR { n[$1 " " $2] = $3; next }
    $3 == "segment" && $7 == "segment" && $8 == "0," { runs[$4 " " $6]++ }
    END { for (b in runs) { split(b, k, " "); sum[k[1]] += runs[b] * n[b]; total += runs[b] * n[b] }
      for (f in sum) print f, sum[f]; print "total", total }' "$work/lengths" "$1"
}
json_number() { grep -o "\"$1\": -\?[0-9.e+-]*" <<<"$out" | head -1 | sed 's/.*: //'; }
function_instructions() { # function_instructions NAME: from a replay --json in $out
  grep -A1 "\"function\": \"$1\"" <<<"$out" | grep -o '"instructions": [0-9]*' | grep -o '[0-9]*$'
}

# traced: the binary the trace is recorded on; replayed: the other.
for traced in base stress; do
  replayed=$([ $traced = base ] && echo stress || echo base)
  "$MLGO_RA" trace record --binary "$work/$traced" -o "$work/$traced.bbtrace" -- \
    "$work/$traced" 500 >/dev/null 2>&1 || { echo "FAILED: trace record"; exit 1; }
  "$MLGO_RA" trace show "$work/$traced.bbtrace" --events >"$work/events"
  check "the trace of $traced has only whole segments (no padding or partial events)" \
    [ "$(grep -v ': unmapped in ' "$work/events" | grep -vc ': segment ')" = 0 ]
  expected=$(expected_instructions "$work/events" "$work/$replayed")
  run "$MLGO_RA" replay --trace "$work/$traced.bbtrace" --code "$work/$replayed" \
    --on-cfg-mismatch fail --exact --json --mcpu skylake
  check "$replayed replays on the trace of $traced" [ "$code" = 0 ]
  check "with no function falling back" grep -q '"replayed_with_baseline_code": \[\]' <<<"$out"
  check "main simulates its blocks' instructions once per execution" \
    [ "$(function_instructions main)" = "$(awk '$1 == "main" { print $2 }' <<<"$expected")" ]
  check "and so does the whole program" \
    [ "$(json_number instructions)" = "$(awk '$1 == "total" { print $2 }' <<<"$expected")" ]
  check "every one of them simulated" \
    [ "$(json_number simulated_instructions)" = "$(json_number instructions)" ]
  exact_instructions=$(json_number instructions)

  run "$MLGO_RA" replay --trace "$work/$traced.bbtrace" --code "$work/$replayed" \
    --on-cfg-mismatch fail --json --cache-dir "$work/cache" --mcpu skylake
  check "fast replay of $replayed runs the same instructions" \
    [ "$code" = 0 -a "$(json_number instructions)" = "$exact_instructions" ]

  speedups=()
  for mode in --exact ""; do
    run "$MLGO_RA" replay --trace "$work/$traced.bbtrace" --baseline "$work/$traced" \
      --candidate "$work/$replayed" --on-cfg-mismatch fail --json --cache-dir "$work/cache" \
      --mcpu skylake $mode
    check "$replayed against $traced replays (${mode:-fast})" [ "$code" = 0 ]
    speedups+=("$(json_number speedup)")
  done
  check "fast replay's speedup is within 0.05 points of --exact's (${speedups[*]})" \
    awk -v e="${speedups[0]}" -v f="${speedups[1]}" \
    'BEGIN { d = 100 * (e - f); exit !(e != "" && f != "" && d <= 0.05 && d >= -0.05) }'
done

run "$MLGO_RA" replay --trace "$work/base.bbtrace" --code "$work/branch" --on-cfg-mismatch fail
check "a block with a branch more does not match (2)" [ "$code" = 2 ]
check "and says so" [ "$err" = "mlgo-ra: error: $work/branch: 1 traced function does not match the trace: main (CFG changed: block 1 has 3 segments, the trace has 2)" ]
finish
