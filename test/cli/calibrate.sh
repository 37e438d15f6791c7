#!/usr/bin/env bash
# calibrate writes a core profile that replay reads with --core-profile; replay names the
# profile it used (auto: the built-in one of --mcpu's CPU, if any); bad profiles are one
# line and exit 2. What the profile's numbers do to the engine's cycles is
# test/replay/FlowSimulatorTest.cpp's.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }

run "$MLGO_RA" calibrate --runs 1 -o "$work/profile.json"
check "calibrate writes a profile" [ "$code" = 0 -a -s "$work/profile.json" -a -z "$err" ]
check "and says what it measured" grep -q '^  spill_reload ' <<<"$out"
check "the profile names its format" grep -q '"format": "mlgo-ra-core-profile"' "$work/profile.json"
native=$("$MLGO_RA" replay --mcpu help | sed -n 's/.*native, the default: \([^)]*\)).*/\1/p')
check "and the host's CPU ($native)" grep -q "\"mcpu\": \"$native\"" "$work/profile.json"
check "seven loops measured" [ "$(grep -c '"store_to_load_cycles"' "$work/profile.json")" = 7 ]
check "and four of the front end" [ "$(grep -c '"cycles_per_block"' "$work/profile.json")" = 4 ]
check "the profile says how late a forwarded reload's value comes" \
  grep -Eq '"forwarded_reload_cycles": (null|[0-9]+)' "$work/profile.json"
check "and how soon an add to a slot has the stored value" \
  grep -Eq '"slot_operation_cycles": [0-9]+' "$work/profile.json"
check "two loops chase a pointer, with and without a store behind" \
  [ "$(grep -Ec '"name": "(pointer_chase|load_past_store)"' "$work/profile.json")" = 2 ]
check "and the profile says whether loads go ahead of unknown store addresses" \
  grep -Eq '"speculative_loads": (true|false)' "$work/profile.json"
check "and how many plain stores issue a cycle" \
  grep -Eq '"stores_per_cycle": [1-9][0-9]*' "$work/profile.json"
check "the profile says what line the front end fetches by" \
  grep -Eq '"fetch_line_bytes": (null|16|32|64)' "$work/profile.json"
clock=$(grep -o '"clock_ghz": [0-9.]*' "$work/profile.json" | grep -o '[0-9.]*$')
check "a clock between 0.5 and 8 GHz ($clock)" awk -v c="$clock" 'BEGIN { exit !(c > 0.5 && c < 8) }'
run "$MLGO_RA" calibrate --runs 1 --json
check "--json prints the profile" [ "$code" = 0 ] && grep -q '"renamed_reload_cycles"' <<<"$out"

# replay CPU PROFILE-OPTION...: the core profile replay --json reports.
profile_of() {
  run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu "$1" --json \
    "${@:2}"
  grep -o '"core_profile": [^,]*' <<<"$out"
}
check "replay uses the file it is given" \
  [ "$(profile_of znver4 --core-profile "$work/profile.json")" = "\"core_profile\": \"$work/profile.json\"" ]
check "znver4's built-in profile by default" \
  [ "$(profile_of znver4)" = '"core_profile": "built-in znver4"' ]
check "emeraldrapids's too" \
  [ "$(profile_of emeraldrapids)" = '"core_profile": "built-in emeraldrapids"' ]
check "and znver5's" [ "$(profile_of znver5)" = '"core_profile": "built-in znver5"' ]
check "and znver3's" [ "$(profile_of znver3)" = '"core_profile": "built-in znver3"' ]
check "and graniterapids's" \
  [ "$(profile_of graniterapids)" = '"core_profile": "built-in graniterapids"' ]
check "none for a CPU not measured" [ "$(profile_of skylake)" = '"core_profile": null' ]
check "none when told" [ "$(profile_of znver4 --core-profile none)" = '"core_profile": null' ]
run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu znver4
check "the text names it" grep -q 'flow engine, core profile built-in znver4' <<<"$out"

# bad PROFILE-TEXT MESSAGE: replay with a profile file holding TEXT fails with MESSAGE.
bad() {
  printf '%s' "$1" >"$work/bad.json"
  run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu znver4 \
    --core-profile "$work/bad.json"
  check "refused: $2" [ "$code" = 2 -a "$err" = "mlgo-ra: error: $work/bad.json: $2" ]
}
head='"format": "mlgo-ra-core-profile", "version": 1'
bad '{"format": "mlgo-ra-policy", "version": 1}' "not a core profile (format 'mlgo-ra-policy')"
bad '{"format": "mlgo-ra-core-profile", "version": 2}' \
  "core profile format version 2 (this mlgo-ra reads 1)"
bad "{$head}" "missing field 'renamed_reload_cycles' (null: not renamed)"
bad "{$head, \"renamed_reload_cycles\": 1000}" \
  "renamed_reload_cycles 1000 is not a latency (at most 64)"
bad "{$head, \"renamed_reload_cycles\": null, \"forwarded_reload_cycles\": 65}" \
  "forwarded_reload_cycles 65 is not a latency (at most 64)"
bad "{$head, \"renamed_reload_cycles\": 0, \"slot_operation_cycles\": 100}" \
  "slot_operation_cycles 100 is not a latency (at most 64)"
bad "{$head, \"renamed_reload_cycles\": 0, \"fetch_line_bytes\": 48}" \
  "fetch_line_bytes 48 is not a line size (a power of two, 16 to 4096)"
bad "{$head, \"renamed_reload_cycles\": 0, \"stores_per_cycle\": 0}" \
  "stores_per_cycle 0 is not a store throughput (1 to 16)"
bad "{$head, \"renamed_reload_cycles\": -1}" \
  "field 'renamed_reload_cycles': -1 is not an integer from 0 to 4294967295"
run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu znver4 \
  --core-profile "$work/missing.json"
check "a missing profile file is one line" [ "$code" = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] &&
  grep -q "^mlgo-ra: error: $work/missing.json: " <<<"$err"
# train records the profile's numbers in its checkpoint: a resume under another is
# another reward, refused.
train() {
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$work/run" --iterations 1 --perturbations 2 --seed 7 -j 2 --mcpu znver4 "$@"
}
run train
check "train with znver4's built-in profile" [ "$code" = 0 ] &&
  grep -q '"core_profile": "renamed-reload 0"' "$work/run/checkpoint.json"
run train --resume --iterations 2 --core-profile none
check "a resume without it is refused (2)" [ "$code" = 2 ] &&
  grep -q 'checkpoint.json: was written with core_profile' <<<"$err"
finish
