#!/usr/bin/env bash
# Code that differs only in register names (issue 38): the interpreter example compiled
# to assembly, then assembled as it is and with two callee-saved registers exchanged in
# every module (bench/tools/swap-registers), each build linked and run. The flow engine
# must predict a swap that keeps every instruction's length (r15 for r14: both need a REX
# prefix) exactly as fast, with or without a front end; a swap that changes lengths (rbx
# for r14: 32-bit operations on ebx need no REX prefix, so the interpreter's loop gets
# shorter) exactly as fast without a front end, and differently only where a core
# profile's fetch line makes code position count: the one cause the engine has for
# register names to matter. Replays model skylake, whatever the host.
source "$(dirname "$0")/lib.sh"

flags=(-O2 -fbasic-block-address-map -falign-functions=64 -falign-loops=64)
for f in disable-branch-fold enable-tail-merge=false branch-fold-placement=false \
  disable-tail-duplicate tail-dup-placement=false enable-shrink-wrap=false; do
  flags+=(-mllvm "-$f")
done
sources=(main vm programs)
for s in "${sources[@]}"; do
  "$CLANG" "${flags[@]}" -S "$SRC/examples/interp/$s.c" -o "$work/$s.s" ||
    { echo "FAILED: clang -S $s.c"; exit 1; }
done

# build NAME [A B]: $work/NAME/interp from the assembly, A and B swapped.
build() {
  local dir=$work/$1 s
  mkdir -p "$dir"
  for s in "${sources[@]}"; do
    if [ $# = 3 ]; then
      "$SRC/bench/tools/swap-registers" "$2" "$3" <"$work/$s.s" >"$dir/$s.s" || return 1
    else
      cp "$work/$s.s" "$dir/$s.s"
    fi
    "$CLANG" -c "$dir/$s.s" -o "$dir/$s.o" || return 1
  done
  "$CLANG" "$dir"/*.o -o "$dir/interp"
}
build base && build same r15 r14 && build shorter rbx r14 || { echo "FAILED: build"; exit 1; }

text() { size -A "$1" | awk '$1 == ".text" { print $2 }'; }
check "the r15/r14 swap renames the interpreter's loop" \
  bash -c '! cmp -s "$0" "$1"' "$work/base/vm.s" "$work/same/vm.s"
check "and keeps its length" [ "$(text "$work/same/vm.o")" = "$(text "$work/base/vm.o")" ]
check "the rbx/r14 swap makes it shorter" [ "$(text "$work/shorter/vm.o")" -lt "$(text "$work/base/vm.o")" ]
expected=$("$work/base/interp" 0.05)
for b in same shorter; do
  check "the $b build computes the same" [ "$("$work/$b/interp" 0.05)" = "$expected" ]
done

trace=$work/interp.bbtrace
"$MLGO_RA" trace record --binary "$work/base/interp" -o "$trace" -- "$work/base/interp" 0.2 \
  >/dev/null 2>&1 || { echo "FAILED: trace record"; exit 1; }
profile() { # profile NAME RENAMED FETCH: a core profile file
  printf '{"format": "mlgo-ra-core-profile", "version": 1, "mcpu": "skylake", "renamed_reload_cycles": %s, "fetch_line_bytes": %s}\n' \
    "$2" "$3" >"$work/$1.json"
}
profile renames 0 null
profile fetch16 null 16

# changed BUILD PROFILE: the functions whose predicted cycles differ from the baseline's.
changed() {
  run "$MLGO_RA" replay --mcpu skylake --core-profile "$2" --trace "$trace" \
    --baseline "$work/base/interp" --candidate "$work/$1/interp" --json
  [ "$code" = 0 ] || { echo "replay failed: $err"; return; }
  python3 -c 'import json, sys
for f in json.load(sys.stdin)["functions"]:
    if f["baseline_cycles"] != f["candidate_cycles"]: print(f["function"])' <<<"$out"
}
for p in none "$work/renames.json" "$work/fetch16.json"; do
  check "same lengths, core profile ${p##*/}: every function's cycles the same" \
    [ -z "$(changed same "$p")" ]
done
for p in none "$work/renames.json"; do
  check "shorter code, core profile ${p##*/} (no front end): every function's cycles the same" \
    [ -z "$(changed shorter "$p")" ]
done
check "shorter code with a 16-byte fetch line: the interpreter's loop fetches differently" \
  grep -qx vm_run <<<"$(changed shorter "$work/fetch16.json")"
finish
