#!/usr/bin/env bash
# Corpora from a build we do not trust, run unattended: a .cmd may name a response file
# that loads a plugin, options that write files or change the action, a module may be
# corrupt, the "compiler" may do nothing, the output may hold a user's files, the object
# directory may loop. Each case ends in one clear line or a safe result.
source "$(dirname "$0")/lib.sh"

mkdir -p "$work/src" "$work/objs"
cat >"$work/src/a.c" <<'EOF'
int table[64];
int mix(int n) { int s = 0; for (int i = 0; i < n; ++i) s += table[i & 63] * i; return s; }
EOF
cat >"$work/src/b.c" <<'EOF'
extern int mix(int);
int twice(int n) { return mix(n) + mix(n + 1); }
EOF
flags=(-O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map
  -mllvm -disable-branch-fold -mllvm -enable-tail-merge=false
  -mllvm -branch-fold-placement=false -mllvm -disable-tail-duplicate
  -mllvm -tail-dup-placement=false -mllvm -enable-shrink-wrap=false)
for m in a b; do
  "$CLANG" "${flags[@]}" -c "$work/src/$m.c" -o "$work/objs/$m.o" ||
    { echo "FAILED: build"; exit 1; }
done
"$MLGO_RA" extract-corpus "$work/objs" -o "$work/corpus" >/dev/null ||
  { echo "FAILED: extract-corpus"; exit 1; }

# fresh: a pristine copy of the corpus in $c; add WORD...: appends words to a.o.cmd.
fresh() { rm -rf "$work/c" "$work/v"; cp -r "$work/corpus" "$work/c"; c=$work/c; }
add() { printf '%s\0' "$@" >>"$c/a.o.cmd"; }
one_line() { [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [ "${err#mlgo-ra: error: }" != "$err" ]; }

# A plugin that leaves a marker when loaded.
cat >"$work/evil.c" <<EOF
#include <stdio.h>
__attribute__((constructor)) static void loaded(void) { fclose(fopen("$work/loaded", "w")); }
EOF
"$CLANG" -shared -fPIC "$work/evil.c" -o "$work/evil.so" || { echo "FAILED: plugin"; exit 1; }
printf -- '-load\n%s\n' "$work/evil.so" >"$work/evil.rsp"
"$CLANG" -cc1 "@$work/evil.rsp" -triple x86_64-pc-linux-gnu -emit-obj -x ir \
  "$work/corpus/b.o.bc" -o "$work/probe.o" >/dev/null 2>&1
check "clang-22 really loads the plugin through the response file" [ -e "$work/loaded" ]
rm -f "$work/loaded"

fresh
add "@$work/evil.rsp"
for mode in --full --cache-dir; do
  extra=()
  [ "$mode" = --cache-dir ] && extra=(--cache-dir "$work/cache")
  [ "$mode" = --full ] && extra=(--full)
  run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" "${extra[@]}"
  check "a response file in a .cmd is refused ($mode, 2)" [ "$code" = 2 ]
  check "in one line naming it ($mode)" [ "$err" = "mlgo-ra: error: $c/a.o.cmd: refusing '@$work/evil.rsp': clang would read more options from that response file" ]
  check "the plugin was not loaded ($mode)" [ ! -e "$work/loaded" ]
  check "no variant ($mode)" [ ! -e "$work/v" ]
done
fresh
rm "$c"/*.cmd
printf '{"global_command_override": ["-cc1", "-triple", "x86_64-pc-linux-gnu", "-O2", "@%s"], "has_thinlto": false, "modules": ["a.o", "b.o"]}\n' \
  "$work/evil.rsp" >"$c/corpus_description.json"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "a response file in global_command_override is refused (2)" [ "$code" = 2 ]
check "in one line naming the description" [ "$err" = "mlgo-ra: error: $c/corpus_description.json: refusing '@$work/evil.rsp': clang would read more options from that response file" ]
check "the plugin was not loaded (override)" [ ! -e "$work/loaded" ]

# Options that write files: dropped (known spellings) or refused (unknown ones).
fresh
add -ftime-report -mllvm "--info-output-file=$work/leak-info" "-stats-file=$work/leak-stats"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "known file-writing options are dropped: the compile succeeds" [ "$code" = 0 ]
check "and writes nothing outside its output" [ ! -e "$work/leak-info" -a ! -e "$work/leak-stats" ]
fresh
add -mllvm -stats -mllvm -info-output-file -mllvm "$work/leak-sep"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "an -mllvm option off the allow-list is refused (2)" [ "$code" = 2 ]
check "in one line" [ "$err" = "mlgo-ra: error: $c/a.o.cmd: refusing option '-mllvm -stats': not one of the LLVM options known to be safe (see README, extract-corpus)" ]
check "and writes nothing" [ ! -e "$work/leak-sep" ]
fresh
add "-fverify-debuginfo-preserve-export=$work/leak-verify"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "a cc1 option off the allow-list is refused (2)" [ "$code" = 2 ]
check "and writes nothing (cc1)" [ ! -e "$work/leak-verify" ]

# An action in the .cmd: the variant still holds real objects.
fresh
sed -i 's/-emit-obj/-emit-llvm/' "$c/a.o.cmd"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "-emit-llvm in a .cmd still compiles" [ "$code" = 0 ]
check "to an ELF object, not IR text" [ "$(head -c 4 "$work/v/a.o" | od -An -c | tr -d ' ')" = '177ELF' ]

# A "compiler" that does nothing.
fresh
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full --clang /bin/true -j 1
check "a compiler that writes no object fails (1)" [ "$code" = 1 ]
check "in one line naming the module" [ "$err" = "mlgo-ra: error: module 'a.o': true exited 0 but wrote no object" ]
check "and writes no variant" [ ! -e "$work/v" ]
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --clang /bin/true \
  --cache-dir "$work/cache-true" -j 1
check "on the fast path too (1)" [ "$code" = 1 ]
check "in one line naming the bitcode" [ "$err" = "mlgo-ra: error: $c/a.o.bc: true exited 0 but wrote no bitcode" ]
check "and no variant (fast path)" [ ! -e "$work/v" ]

# Corrupt bitcode is bad input, in one line.
fresh
head -c 200 "$work/corpus/a.o.bc" >"$c/a.o.bc"
for mode in --full --cache-dir; do
  extra=(--full)
  [ "$mode" = --cache-dir ] && extra=(--cache-dir "$work/cache")
  run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" "${extra[@]}"
  check "a truncated module is bad input ($mode, 2)" [ "$code" = 2 ]
  check "named in one line ($mode)" one_line
  check "as not valid bitcode ($mode)" grep -q "^mlgo-ra: error: $c/a.o.bc: not valid bitcode: " <<<"$err"
done

# A user's own file in a variant directory is never deleted.
fresh
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "a first variant compiles" [ "$code" = 0 ]
echo mine >"$work/v/keep.txt"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "a variant directory with a user's file is not replaced (2)" [ "$code" = 2 ]
check "saying which file" [ "$err" = "mlgo-ra: error: $work/v: holds keep.txt, which is not a file of the earlier variant; not replacing the directory" ]
check "and the file is still there" [ "$(cat "$work/v/keep.txt")" = mine ]
rm "$work/v/keep.txt"
run "$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full
check "an earlier variant alone is replaced" [ "$code" = 0 ]

# Symlink loops in an object directory: the walk ends, each object counts once.
mkdir -p "$work/loops/sub" && cp "$work/objs/a.o" "$work/loops/" && cp "$work/objs/b.o" "$work/loops/sub/"
ln -s . "$work/loops/self" && ln -s .. "$work/loops/sub/up" && ln -s ../sub "$work/loops/sub/again"
run timeout 60 "$MLGO_RA" extract-corpus "$work/loops" -o "$work/loops-corpus"
check "extract-corpus ends on symlink loops" [ "$code" = 0 ]
check "counting each object once" grep -q "^extract-corpus: 2 modules from 2 objects" <<<"$out"

# An interrupt: one line, exit 130.
printf '#!/bin/sh\nsleep 20 &\nwait\n' >"$work/slow-clang" && chmod +x "$work/slow-clang"
fresh
"$MLGO_RA" compile --corpus "$c" --policy default -o "$work/v" --full -j 2 \
  --clang "$work/slow-clang" >"$work/stdout" 2>"$work/stderr" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
code=$? err=$(cat "$work/stderr") out=
check "an interrupted compile exits 130" [ "$code" = 130 ]
check "with one line" [ "$err" = "mlgo-ra: error: interrupted" ]
check "and no variant (interrupted)" [ ! -e "$work/v" ]
finish
