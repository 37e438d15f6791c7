#!/usr/bin/env bash
# replay --explain and --markdown on the bundled workload and a variant whose hash kernel
# has more spill code (-stress-regalloc=4 on hash.c): the explanation finds the kernel,
# marks the spills and reloads only the candidate has and nowhere else (the other
# functions' code is the same); the Markdown report carries the verdict and exit code of
# --fail-if-slower. Replays model skylake, whatever the host, for the same cycles everywhere.
source "$(dirname "$0")/lib.sh"

workload_pair 0.02

# explained FUNCTION: the lines of FUNCTION's explanation in the text in $out.
explained() {
  awk -v f="  $1: " 'index($0, f) == 1 { on = 1; print; next } /^  [^ ]/ { on = 0 } on' <<<"$out"
}

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress"
check "a replay without --explain explains nothing" [ "$code" = 0 ]
check "(no why)" bash -c "! grep -q '^  why' <<<\"\$0\"" "$out"
text_speedup=$(grep -o 'predicted speedup [-+][0-9.]*%' <<<"$out" | sed 's/predicted speedup //')
hash_delta=$(grep ' wl_hash_kernel$' <<<"$out" | awk '{ print $3 }')

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain
check "--explain succeeds" [ "$code" = 0 ]
check "the same speedup as without it" grep -q "predicted speedup $text_speedup" <<<"$out"
check "it explains after the functions" \
  grep -q "^  why: the functions and blocks that changed most (c/run: cycles a run of the block, over the trace)$" <<<"$out"
functions=$(sed -n '/^  why/,$p' <<<"$out" | grep -c '^  [^ ].*: [-+][0-9]* cycles (')
check "three functions by default" [ "$functions" = 3 ]
first=$(sed -n '/^  why/,$p' <<<"$out" | sed -n 2p)
check "the hash kernel first, with its delta" \
  grep -q "^  wl_hash_kernel: $hash_delta cycles (+[0-9.]*%): baseline [0-9]*, candidate [0-9]*$" <<<"$first"
hash=$(explained wl_hash_kernel)
spills=$(grep -o 'spills [0-9]* → [0-9]*' <<<"$hash" | head -1)
reloads=$(grep -o 'reloads [0-9]* → [0-9]*' <<<"$hash" | head -1)
check "the candidate's kernel has more spills ($spills)" \
  awk -v s="$spills" 'BEGIN { split(s, a, " "); exit !(a[4] > a[2]) }'
check "and more reloads ($reloads)" \
  awk -v s="$reloads" 'BEGIN { split(s, a, " "); exit !(a[4] > a[2]) }'
check "added spills are marked" grep -q ' +spill$' <<<"$hash"
check "in blocks whose code differs" \
  bash -c 'awk "/^    block /{ b = \$0 } / [-+](spill|reload)\$/{ print b }" <<<"$0" | grep -qv "(code differs)" && exit 1 || exit 0' "$hash"
check "added reloads are marked" grep -q ' +reload$' <<<"$hash"
check "each marked +spill is a candidate's store to a stack slot" \
  bash -c '! grep " +spill$" <<<"$0" | grep -qv "ptr \[r[sb]p[^]]*\], [^ ]* *[0-9.]*  +spill$"' "$hash"
check "each marked +reload a candidate's load from one" \
  bash -c '! grep " +reload$" <<<"$0" | grep -qv "\[r[sb]p[^]]*\] *[0-9.]*  +reload$"' "$hash"
check "every block ran as often in both" bash -c '! grep -q "ran [0-9]* / [0-9]* times" <<<"$0"' "$out"
others=$(sed -n '/^  why/,$p' <<<"$out" | tail -n +2 | awk '/^  [^ ]/ { on = index($0, "  wl_hash_kernel: ") != 1 } on')
check "two other functions are explained" [ "$(grep -c '^  [^ ]' <<<"$others")" = 2 ]
check "the other functions' code is the same: no spill or reload added or removed" \
  bash -c '! grep -qE " [-+](reload|spill)" <<<"$0"' "$others"
check "their blocks' code is the same" \
  bash -c '! grep "^    block " <<<"$0" | grep -qv "^    block [0-9]* (same code), "' "$others"
check "and their spill counts are equal" \
  bash -c '! grep -o "spills [0-9]* → [0-9]*, reloads [0-9]* → [0-9]*" <<<"$0" |
           awk "{ if (\$2 != \$4 || \$6 != \$8) bad = 1 } END { exit !bad }"' "$others"

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain 1 \
  --json --engine mca
check "--explain 1 --json succeeds, with MCA too" [ "$code" = 0 ]
check "whose replays it makes exact" [ "$(grep -c '"mode": "exact"' <<<"$out")" = 2 ]
check "one function explained" [ "$(grep -c '"spills_run"' <<<"$out")" = 2 ]
check "the hash kernel" grep -q '"explain": \[ *{ *"function": "wl_hash_kernel"' <<<"$(tr -d '\n' <<<"$out")"
check "with spills marked in JSON" grep -q '"mark": "+spill"' <<<"$out"
check "rows carry instructions with cycles and executions" \
  grep -q '"text": "mov qword ptr \[rsp + 0x[0-9a-f]*\], [a-z0-9]*", *"cycles": [0-9]*, *"executions": [1-9][0-9]*, *"spill": true' \
  <<<"$(tr -d '\n' <<<"$out" | tr -s ' ')"

blocks_of() { grep -c '"baseline_runs"' <<<"$out"; } # blocks listed in JSON
three=$(blocks_of)
check "at most 3 blocks a function by default ($three)" [ "$three" -ge 1 -a "$three" -le 3 ]
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain 1 \
  --explain-blocks 1 --json
check "--explain-blocks 1 lists one" [ "$code" = 0 -a "$(blocks_of)" = 1 ]
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain 1 \
  --explain-blocks 1000 --json
all=$(blocks_of)
check "--explain-blocks 1000 lists every block that changed ($all), more than 3" [ "$code" = 0 -a "$all" -gt 3 ]
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain-blocks 5
check "--explain-blocks without --explain is a usage error (2)" [ "$code" = 2 ]

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$base" --explain --json
check "the baseline against itself explains nothing" grep -q '"explain": \[\]' <<<"$out"

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --code "$base" --explain
check "--explain needs a candidate (2)" [ "$code" = 2 ]
check "saying so" [ "$err" = "mlgo-ra: error: --explain requires --candidate (see 'mlgo-ra replay --help')" ]
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain --sample 256/2048
check "--explain with a trace shard is a usage error (2)" [ "$code" = 2 ]
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --explain 0
check "--explain 0 is a usage error (2)" [ "$code" = 2 ]

# Markdown.
md=$work/report/summary.md
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" \
  --fail-if-slower 0.5 --markdown "$md" --explain 1
check "a regression exits 1 with --markdown too" [ "$code" = 1 ]
check "the report is written (its directory made)" [ -f "$md" ]
report=$(cat "$md")
check "its title has the speedup and the verdict" \
  [ "$(head -1 "$md")" = "## mlgo-ra replay: predicted speedup $text_speedup (fail)" ]
check "the verdict line says why, with the exit code" \
  grep -qxF "**Verdict: fail.** The candidate is predicted ${text_speedup#-} slower, more than the 0.5% that \`--fail-if-slower 0.5\` allows (exit code 1)." <<<"$report"
check "baseline and candidate" grep -q "^| candidate | \`$stress\`: [0-9]* cycles, IPC [0-9.]* |$" <<<"$report"
check "the CPU and engine" grep -q '^| CPU | `skylake` (`[^`]*`), flow engine |$' <<<"$report"
check "the speedup" grep -qxF "| predicted speedup | $text_speedup |" <<<"$report"
check "the function that changed most first" \
  [ "$(grep -A4 '^### Functions that changed most' "$md" | tail -1 | cut -d'|' -f2,5)" = " \`wl_hash_kernel\` | $hash_delta " ]
check "and the explanation in a code block" grep -q '^#### `wl_hash_kernel`: [-+][0-9]* cycles' <<<"$report"
check "with the marks" grep -q ' +spill$' <<<"$report"

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" \
  --fail-if-slower 50 --markdown "$md" --json
check "within the margin it exits 0" [ "$code" = 0 ]
check "stdout stays JSON" [ "${out:0:1}" = "{" ]
check "the verdict passes, exit code 0" \
  grep -qxF "**Verdict: pass.** The candidate is predicted ${text_speedup#-} slower, within the 50% that \`--fail-if-slower 50\` allows (exit code 0)." "$md"
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --baseline "$base" --candidate "$stress" --markdown "$md"
check "without --fail-if-slower there is no check" \
  grep -qxF "**Verdict: no check** (no \`--fail-if-slower\`): the candidate is predicted ${text_speedup#-} slower (exit code 0)." "$md"

run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --code "$stress" --markdown "$md" --top 2
cycles=$(grep -o 'predicted  [0-9]* cycles' <<<"$out" | awk '{ print $2 }')
check "one variant's report has its predicted cycles" \
  [ "$(head -1 "$md")" = "## mlgo-ra replay: $cycles predicted cycles" ]
check "and its top functions" [ "$(grep -c '^| `' "$md")" = 2 ]

cp "$trace" "$work/copy.bbtrace"
run "$MLGO_RA" replay --mcpu skylake --trace "$trace" --code "$base" --markdown "$trace"
check "--markdown naming an input is bad input (2)" [ "$code" = 2 ]
check "saying so" [ "$err" = "mlgo-ra: error: $trace: the output is also the input $trace: refusing to overwrite it" ]
check "the trace is untouched" cmp -s "$trace" "$work/copy.bbtrace"
head -c 200 "$trace" >"$work/cut.bbtrace"
run "$MLGO_RA" replay --mcpu skylake --trace "$work/cut.bbtrace" --code "$base" --markdown "$work/none.md"
check "a failed replay writes no report" [ "$code" = 2 -a ! -e "$work/none.md" ]
finish
