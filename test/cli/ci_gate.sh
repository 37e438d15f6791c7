#!/usr/bin/env bash
# examples/ci/gate-policy.sh, the script the GitHub and GitLab jobs run, on the bundled
# workload: a policy predicted slower than allowed fails the gate (exit 1) with the
# verdict in the summary and in GitHub's step summary; the trace is recorded once and
# then taken from the cache; an unchanged policy passes; with --baseline-ref the policy
# as git has it is the baseline; a missing policy is bad input with the error in the
# summary.
source "$(dirname "$0")/lib.sh"
gate=$SRC/examples/ci/gate-policy.sh
gate_out=$work/out cache=$work/cache
export MLGO_RA

printf 'an earlier step\n' >"$work/step-summary.md"
run env GITHUB_STEP_SUMMARY="$work/step-summary.md" "$gate" poor --out "$gate_out" --cache "$cache"
check "the poor policy fails the gate (1)" [ "$code" = 1 ]
check "after recording the trace" grep -q "^trace: recorded $cache/traces/[0-9a-f]*.bbtrace$" <<<"$out"
speedup=$(grep -o '"speedup": -\?[0-9.e+-]*' "$gate_out/replay.json" | head -1 | sed 's/.*: //')
slower=$(awk -v s="$speedup" 'BEGIN { printf "%.3f", -100 * s }')
verdict="**Verdict: fail.** The candidate is predicted $slower% slower, more than the 0.5% that \`--fail-if-slower 0.5\` allows (exit code 1)."
check "the summary has the verdict, as replay's JSON has the speedup" grep -qxF "$verdict" "$gate_out/summary.md"
check "the job log too" grep -qxF "$verdict" <<<"$out"
check "the summary explains the function that changed most" grep -q '^#### `wl_[a-z]*_kernel`: +[0-9]* cycles' "$gate_out/summary.md"
check "GitHub's step summary gets it after what was there" \
  [ "$(cat "$work/step-summary.md")" = "$(printf 'an earlier step\n'; cat "$gate_out/summary.md")" ]
check "the replay's JSON says it regressed" grep -q '"regressed": true' "$gate_out/replay.json"

run "$gate" default --out "$gate_out" --cache "$cache"
check "the default policy against itself passes (0)" [ "$code" = 0 ]
check "on the cached trace" grep -q "^trace: cached $cache/traces/[0-9a-f]*.bbtrace$" <<<"$out"
check "recorded once" [ "$(ls "$cache/traces" | wc -l)" = 1 ]
check "the summary passes it" grep -qxF "**Verdict: pass.** The candidate is predicted neither faster nor slower, within the 0.5% that \`--fail-if-slower 0.5\` allows (exit code 0)." "$gate_out/summary.md"

if command -v git >/dev/null; then
  repo=$work/repo
  mkdir "$repo" && git -C "$repo" init -q &&
    "$MLGO_RA" export initial -o "$repo/policy.json" >/dev/null &&
    git -C "$repo" add policy.json &&
    git -C "$repo" -c user.name=test -c user.email=test@example.com commit -qm initial &&
    cp "$repo/policy.json" "$work/initial.json" &&
    "$MLGO_RA" export poor -o "$repo/policy.json" >/dev/null || { echo "FAILED: git setup"; exit 1; }
  run "$gate" "$repo/policy.json" --baseline-ref HEAD --fail-if-slower 100 --out "$gate_out" --cache "$cache"
  check "with --baseline-ref the committed policy is the baseline" [ "$code" = 0 ]
  check "as the log says" grep -qx "baseline: policy.json as of HEAD" <<<"$out"
  check "that version of it" cmp -s "$gate_out/baseline-policy.json" "$work/initial.json"
  check "named in the summary" grep -q "^| baseline | \`policy $gate_out/baseline-policy.json\`: " "$gate_out/summary.md"
  check "against the changed one" grep -q "^| candidate | \`policy $repo/policy.json\`: " "$gate_out/summary.md"
  run "$gate" "$repo/policy.json" --baseline-ref no-such-ref --out "$gate_out" --cache "$cache"
  check "a policy git lacks at the ref is checked against default" \
    grep -qx "baseline: $repo/policy.json is new at no-such-ref; checking it against default" <<<"$out"
fi

run "$gate" "$work/no-such-policy.json" --out "$gate_out" --cache "$cache"
check "a missing policy is bad input (2)" [ "$code" = 2 ]
check "the summary says replay failed" grep -qx "replay failed (exit code 2):" "$gate_out/summary.md"
check "with its error" grep -qx "mlgo-ra: error: $work/no-such-policy.json: cannot read: No such file or directory" "$gate_out/summary.md"
finish
