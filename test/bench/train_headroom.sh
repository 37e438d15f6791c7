# bench/train-headroom end to end on crypto with two perturbations at each of two σ: the
# preparation it shares with bench/train-native (bench/lib/programs.sh), one record per
# policy, the references' invariants, a sample's cycles against replay run by hand on the
# same policy, the module mix put together from the policies' objects, and bad input.
# Set by CTest: MLGO_RA, ACCURACY_TOOLS, SRC, SCRATCH.
source "$(dirname "$0")/../cli/lib.sh"
headroom() {
  SAMPLES=${SAMPLES:-2} SIGMAS=${SIGMAS:-0.05 1} MLGO_RA=$MLGO_RA \
    ACCURACY_PERTURB=$ACCURACY_TOOLS/accuracy-perturb "$SRC/bench/train-headroom" "$@"
}
field() { # field POLICY EXPRESSION: a Python expression of POLICY's record r
  python3 -c "import json, sys
r = next(r for r in map(json.loads, open(sys.argv[1])) if r['policy'] == sys.argv[2])
print($2)" "$dir/headroom.jsonl" "$1"
}
is() { [ "$code" = "$1" ] && [ "$err" = "$2" ]; } # is CODE STDERR: the last run's
dir=$work/run/crypto

run headroom -o "$work/run" crypto
check "train-headroom on crypto succeeds" [ "$code" = 0 ]
prepared() { [ -x "$dir/build/crypto-workload" ] && [ -s "$dir/train.bbtrace" ] &&
  [ -s "$dir/heldout.bbtrace" ] && [ -s "$dir/subset/subset_functions.json" ]; }
check "  prepared as train-native prepares it" prepared
check "  one record per policy: default, initial, poor and 2 x 2 samples, none failed" \
  [ "$(grep -c '"cycles"' "$dir/headroom.jsonl")" = 7 ]
check "  default's speedup is 0 and its code is its own" \
  [ "$(field default 'r["speedup"], r["code_changed_functions"]')" = "0.0 []" ]
check "  initial changes none of its own decisions" \
  [ "$(field initial 'r["decisions_changed_vs_initial"], r["decisions"] > 0')" = "0 True" ]
check "  poor is predicted slower than default" \
  [ "$(field poor 'r["speedup"] < 0')" = True ]
check "  the table has crypto's row" grep -q '^| crypto | [0-9]* | ' "$work/run/table.md"

# The sample at σ 1 with seed 3, compiled and replayed by hand.
policy=$dir/policies/s1-3.json
cycles() { # cycles VARIANT [OPTION...]: its cycles on the training trace, as the bench
  "$MLGO_RA" replay --trace "$dir/train.bbtrace" --code "$1" --exact --json --mcpu skylake \
    --on-cfg-mismatch baseline "${@:2}" | grep -m1 -o '"cycles": [0-9]*' | grep -o '[0-9]*$'
}
"$MLGO_RA" compile --corpus "$dir/subset" --policy "$policy" -o "$work/hand" >/dev/null 2>&1
hand=$(cycles "$work/hand")
check "  a sample's cycles are replay's by hand ($hand)" \
  [ "$(field s1-3 'r["cycles"]')" = "$hand" ]
"$ACCURACY_TOOLS/accuracy-perturb" initial --sigma 1 --seed 3 -o "$work/p.json"
check "  and its policy file is accuracy-perturb's at that σ and seed" \
  cmp -s "$work/p.json" "$policy"
mixed=$(cycles "$dir/variants/mix")
check "  the module mix is objects of the policies, replayed ($mixed)" python3 -c "
import filecmp, json, sys
m = json.load(open('$dir/mix.json'))
same = all(filecmp.cmp('$dir/variants/mix/' + o, '$dir/variants/%s/%s' % (p, o),
                       shallow=False) for o, p in m['modules'].items())
sys.exit(not (same and len(m['modules']) == 4 and m['cycles'] == $mixed))"

# REPLAY_FLAGS: every replay with them, as by hand.
REPLAY_FLAGS=--load-dependences run headroom --reuse -o "$work/run" crypto
check "REPLAY_FLAGS=--load-dependences succeeds" [ "$code" = 0 ]
hand=$(cycles "$work/hand" --load-dependences)
check "  a sample's cycles are replay's with them by hand ($hand)" \
  [ "$(field s1-3 'r["cycles"]')" = "$hand" ]
all_with_flag() { # each of the 7 policies replayed, and every replay with the flag
  local replays
  replays=$(grep -h '^== .* replay ' "$dir"/log/*.txt)
  [ "$(wc -l <<<"$replays")" -ge 7 ] &&
    [ "$(grep -c -- ' --load-dependences' <<<"$replays")" = "$(wc -l <<<"$replays")" ]
}
check "  every replay of the 7 policies had them" all_with_flag
check "  and the table says so" \
  grep -qF '(flow engine, `--mcpu skylake` `--load-dependences`)' "$work/run/table.md"

run headroom -o "$work/run" sha3
check "an unknown program is an error" is 2 "bench/train-headroom: unknown program sha3"
SAMPLES=0 run headroom -o "$work/run" crypto
check "SAMPLES must be positive" \
  is 2 "bench/train-headroom: SAMPLES must be a positive count, not '0'"
run "$SRC/bench/train-native" sha3
check "train-native, which shares the program list, knows it too" \
  is 2 "bench/train-native: unknown program sha3"
finish
