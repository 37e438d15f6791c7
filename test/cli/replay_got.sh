#!/usr/bin/env bash
# Position-independent code (-fPIC) reads a global that the program defines through the
# GOT; the linker relaxes each such load into an address computation (mov becomes lea).
# replay of compiled objects does as the linker: the program's corpus compiled with
# `default` is predicted at the traced binary's cycles exactly, where the unrelaxed loads
# cost it cycles (python3.11: 3.4%; here, where each call's store waits for the
# address, 40%). A subset of the objects without the module that defines the global (a
# data-only module: a subset keeps the modules of traced functions) is relaxed as well,
# from the traced binary's symbols; and without that binary, from the objects' own.
source "$(dirname "$0")/lib.sh"

cat >"$work/data.c" <<'C'
int counter;
C
cat >"$work/table.c" <<'C'
extern int counter;
__attribute__((noinline)) void step(int x) { counter = counter * 3 + x; }
C
cat >"$work/main.c" <<'C'
extern int counter;
void step(int x);
int main(void) {
  for (int i = 0; i < 20000; ++i) step(i);
  return counter == 42;
}
C
flags="-O2 -fPIC -Xclang -fembed-bitcode=all -fbasic-block-address-map"
mkdir "$work/objs"
# shellcheck disable=SC2086
"$CLANG" $flags -c "$work/data.c" -o "$work/objs/data.o" &&
  "$CLANG" $flags -c "$work/table.c" -o "$work/objs/table.o" &&
  "$CLANG" $flags -c "$work/main.c" -o "$work/objs/main.o" &&
  "$CLANG" "$work/objs/data.o" "$work/objs/table.o" "$work/objs/main.o" -o "$work/app" &&
  "$MLGO_RA" extract-corpus "$work/objs" -o "$work/corpus" >/dev/null &&
  "$MLGO_RA" trace record --binary "$work/app" -o "$work/app.bbtrace" -- "$work/app" \
    >/dev/null 2>&1 || { echo "FAILED: program, corpus and trace"; exit 1; }

code=0 out= err=
objdump=$(dirname "$(command -v "$CLANG")")/llvm-objdump
[ -x "$objdump" ] || objdump=llvm-objdump-22
check "the object loads counter's address from the GOT" \
  grep -q "R_X86_64_REX_GOTPCRELX.*counter" <<<"$("$objdump" -dr "$work/objs/table.o")"
check "  the linked program computes it (lea)" \
  grep -Eq "lea.*<counter>" <<<"$("$objdump" -d --no-show-raw-insn "$work/app")"

run "$MLGO_RA" replay --corpus "$work/corpus" --trace "$work/app.bbtrace" --baseline "$work/app" \
  --candidate default --mcpu skylake --json --cache-dir "$work/cache"
field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)" <<<"$out"; }
check "replay of the compiled corpus runs" [ "$code" = 0 ]
traced=$(field "['baseline']['cycles']") compiled=$(field "['candidate']['cycles']")
check "  at the traced binary's cycles ($traced and $compiled)" [ "$traced" = "$compiled" ]

# The functions' objects without data.o, which defines counter.
mkdir "$work/functions"
cp "$work/objs/table.o" "$work/objs/main.o" "$work/functions/"
cycles() { # CODE: exact replay's predicted cycles
  run "$MLGO_RA" replay --trace "$work/app.bbtrace" --code "$1" --exact --mcpu skylake --json
  [ "$code" = 0 ] && field "['cycles']"
}
check "objects without the global's module, at the traced binary's cycles" \
  [ "$(cycles "$work/functions")" = "$traced" ]
mv "$work/app" "$work/app.moved"
check "  without the traced binary, the loads are not relaxed (more cycles)" \
  [ "$(cycles "$work/functions")" -gt "$traced" ]
check "  and all the objects are, by what they define" [ "$(cycles "$work/objs")" = "$traced" ]
finish
