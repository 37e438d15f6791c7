#!/usr/bin/env bash
# Fast replay's automatic shard (issue 6): on a trace of at least 64 windows of 16384
# events, replay first simulates the 1024/16384 shard and keeps it only if its standard
# error is at most 0.0125 points of speedup; else it replays the whole trace. The
# workload at scale 0.2 has about 1.5 M events. The traced binary against itself has no
# difference to sample (error 0: kept); hash.c at -stress-regalloc=4 changes the hash
# kernel, a short phase that a shard of 1/16 catches in a few windows (error above
# the limit: the whole trace, the same cycles as --sample none). Short traces are
# replayed whole without trying (replay.sh, replay_fast.sh). Fast replay is the default
# with --engine mca; the flow engine (the default) does it with --fast.
source "$(dirname "$0")/lib.sh"

workload_pair 0.2
events=$("$MLGO_RA" trace show "$trace" | grep -o 'events [0-9]*' | cut -d' ' -f2)
check "the trace has at least 64 windows of 16384 events" [ "$events" -ge $((64 * 16384)) ]

replay() { # replay CANDIDATE ARGS...: a comparison with the traced binary, as JSON
  local candidate=$1
  shift
  run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$candidate" \
    --cache-dir "$work/cache" --json --fast --mcpu skylake "$@"
}
# json_in KEY TEXT: the value of the first "KEY": in TEXT, up to a comma or brace.
json_in() { grep -o "\"$1\": [^,}]*" <<<"$2" | head -1 | sed 's/^[^:]*: //'; }
candidate() { echo "${out#*\"candidate\"}"; }
auto_shard() { grep -A4 '"auto_shard": {' <<<"$(candidate)"; } # its object's lines

replay "$base"
check "the traced binary against itself replays" [ "$code" = 0 ]
check "on the 1024/16384 shard" [ "$(json_in sampling "$(auto_shard)")" = '"1024/16384"' ]
check "whose standard error is 0" [ "$(json_in speedup_error "$(auto_shard)")" = "0.0" ]
check "so it is kept" [ "$(json_in kept "$(auto_shard)")" = "true" ]
check "which it names" [ "$(json_in sampling "$(candidate)")" = '"1024/16384"' ]
check "with a speedup of exactly 0" [ "$(json_in speedup "$out")" = "0.0" ]

replay "$stress" --sample none
check "the stressed variant replays whole with --sample none" [ "$code" = 0 ]
check "without trying a shard" [ "$(json_in auto_shard "$(candidate)")" = "null" ]
whole=$(json_in cycles "$(candidate)")

replay "$stress"
check "by default it tries the shard" [ "$code" = 0 ]
shard_error=$(json_in speedup_error "$(auto_shard)")
check "whose standard error is above 0.0125 points" awk -v e="$shard_error" 'BEGIN { exit !(e > 0.000125) }'
check "so it is not kept" [ "$(json_in kept "$(auto_shard)")" = "false" ]
check "and the whole trace gives the same cycles as --sample none" \
  [ "$(json_in cycles "$(candidate)")" = "$whole" ]
check "with no shard named" [ "$(json_in sampling "$(candidate)")" = "null" ]
run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$stress" \
  --cache-dir "$work/cache" --fast
check "the text says why" grep -q "the whole trace, as a 1024/16384 shard's standard error was [0-9.]* points of speedup, above 0.0125" <<<"$out"
finish
