#!/usr/bin/env bash
# Hostile and careless inputs of trace and replay: block IDs that hash tables reserve,
# .bbtrace files that decompress to GBs, devices and FIFOs where a file is expected,
# symbolic link loops, names with newlines, outputs that name an input, a program that
# does not exist. Each ends in one error line (exit 2) or a safe result, quickly.
source "$(dirname "$0")/lib.sh"

# bounded RUN...: runs it with at most 4 GB of address space and 120 seconds. An ASan
# build reserves terabytes of address space for its shadow: there the bound is on the
# resident memory, which ASan enforces itself (and reports as an error).
if [ "${SANITIZED:-0}" = 1 ]; then
  bounded() {
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:hard_rss_limit_mb=4000" run timeout 120 "$@"
  }
else
  bounded() { run bash -c 'ulimit -v 4000000; exec timeout 120 "$@"' bounded "$@"; }
fi
# error_line CODE [MESSAGE]: exit code CODE and one error line on stderr (that one).
error_line() {
  [ "$code" = "$1" ] && [ "$(wc -l <<<"$err")" = 1 ] && [[ $err == "mlgo-ra: error: "* ]] &&
    { [ $# = 1 ] || [ "$err" = "mlgo-ra: error: $2" ]; }
}

cat >"$work/f.c" <<'C'
__attribute__((noinline)) int work(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i) s += i * i;
  return s;
}
int main(int argc, char **argv) { return work(argc * 1000) & 1; }
C
flags="-O2 -fbasic-block-address-map"
"$CLANG" $flags "$work/f.c" -o "$work/f" &&
  "$CLANG" $flags -S "$work/f.c" -o "$work/f.s" || { echo "FAILED: build"; exit 1; }
"$MLGO_RA" trace record --binary "$work/f" -o "$work/f.bbtrace" -- "$work/f" >/dev/null 2>&1 ||
  { echo "FAILED: trace record"; exit 1; }

# Block ID 0xFFFFFFFF is llvm::DenseMap's empty key: the loop block of work() gets it.
sed 's/^\t\.byte\t3 *# BB id$/\t.uleb128 4294967295/' "$work/f.s" >"$work/id.s"
check "the assembly names a block 4294967295" grep -q 4294967295 "$work/id.s"
"$CLANG" "$work/id.s" -o "$work/id" || exit 1
"$MLGO_RA" trace record --binary "$work/id" -o "$work/id.bbtrace" -- "$work/id" >/dev/null 2>&1 ||
  { echo "FAILED: trace record of id"; exit 1; }
run "$MLGO_RA" replay --trace "$work/id.bbtrace" --code "$work/id"
check "a trace with block 4294967295 replays on its binary" [ "$code" = 0 ]
run "$MLGO_RA" replay --trace "$work/id.bbtrace" --code "$work/f"
check "and on a binary without that block, fails with one line (2)" error_line 2
check "naming the block" grep -q "work (CFG changed: no block 4294967295)" <<<"$err"
run "$MLGO_RA" replay --trace "$work/f.bbtrace" --code "$work/id"
check "so does the other way round" error_line 2

# A 16 KB .bbtrace whose header declares 2^29 empty segments, written by hand: a zstd
# frame of raw blocks and 4096 RLE blocks of 128 KiB of zeros.
leb128() { # leb128 N: N as unsigned LEB128, in printf escapes
  local n=$1 s=""
  while ((n >= 128)); do s+=$(printf '\\x%02x' $(((n & 127) | 128))); n=$((n >> 7)); done
  printf '%s\\x%02x' "$s" "$n"
}
block() { # block LAST TYPE SIZE: a zstd block header
  local h=$(($1 | ($2 << 1) | ($3 << 3)))
  printf '\\x%02x\\x%02x\\x%02x' $((h & 255)) $(((h >> 8) & 255)) $((h >> 16))
}
segments=$((1 << 29))
# identity "", binary "", 1 function "f" with 1 block (ID 0) of $segments segments
fields="\\x00\\x00\\x01\\x01f\\x01\\x00$(leb128 $segments)"
prefix="$(leb128 $((7 + 5 + segments)))$fields"
prefix_size=$(printf "$prefix" | wc -c)
{
  printf 'MLGOBBTR\x01\x00\x00\x00\x28\xb5\x2f\xfd\x00\x38'
  printf "$(block 0 0 "$prefix_size")$prefix"
  rle=$(block 0 1 131072)
  for ((i = 0; i < segments / 131072; ++i)); do printf "$rle\\x00"; done
  printf "$(block 1 0 3)\\x00\\x00\\x00" # the end record: 0 instructions in 0 events
} >"$work/bomb.bbtrace"
check "the bomb is small" [ "$(wc -c <"$work/bomb.bbtrace")" -lt 20000 ]
for cmd in "trace show" "trace show --events" "replay --code $work/f --trace"; do
  bounded "$MLGO_RA" $cmd "$work/bomb.bbtrace"
  check "$cmd: a header of 2^29 segments in 16 KB is refused with one line (2)" error_line 2
  check "saying why" grep -q "bomb.bbtrace: a header larger than 64 times the file's size" <<<"$err"
done

# Devices and FIFOs where a file is expected.
mkfifo "$work/fifo"
for input in /dev/zero "$work/fifo"; do
  bounded "$MLGO_RA" replay --trace "$work/f.bbtrace" --code "$input"
  check "replay --code $input fails at once with one line (2)" \
    error_line 2 "$input: not a regular file"
  bounded "$MLGO_RA" trace show "$input"
  check "trace show $input too" error_line 2 "$input: not a regular file"
  bounded "$MLGO_RA" trace import --format lackey --binary "$work/f" -o "$work/x.bbtrace" "$input"
  check "trace import $input too" error_line 2 "$input: not a regular file"
done
bounded "$MLGO_RA" trace record --binary /dev/zero -o "$work/x.bbtrace" -- "$work/f"
check "trace record --binary /dev/zero too" error_line 2 "/dev/zero: not a regular file"

# Symbolic link loops in a directory of objects: each object is loaded once.
mkdir -p "$work/objs/sub" "$work/clean"
"$CLANG" $flags -c "$work/f.c" -o "$work/clean/f.o" || exit 1
cp "$work/clean/f.o" "$work/objs/"
ln -s . "$work/objs/self"
ln -s .. "$work/objs/sub/up"
ln -s ../f.o "$work/objs/sub/again.o"
bounded "$MLGO_RA" replay --trace "$work/f.bbtrace" --code "$work/clean" --exact --json
clean=$(grep -o '"cycles": [0-9]*' <<<"$out" | head -1)
bounded "$MLGO_RA" replay --trace "$work/f.bbtrace" --code "$work/objs" --exact --json
check "replay --code DIR with link loops ends" [ "$code" = 0 ]
check "with the cycles of the objects counted once" \
  [ -n "$clean" -a "$(grep -o '"cycles": [0-9]*' <<<"$out" | head -1)" = "$clean" ]

# A function name with a newline and an escape sequence, from a real binary.
cat >"$work/n.c" <<'C'
__attribute__((noinline)) int work(int x) __asm__("wo\nmlgo-ra: error: forged\x1b[31m");
__attribute__((noinline)) int work(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i) s += i * i;
  return s;
}
int main(int argc, char **argv) { return work(argc * 1000) & 1; }
C
"$CLANG" $flags "$work/n.c" -o "$work/n" || exit 1
"$MLGO_RA" trace record --binary "$work/n" -o "$work/n.bbtrace" -- "$work/n" >/dev/null 2>&1 ||
  { echo "FAILED: trace record of n"; exit 1; }
esc=$(printf '\x1b')
no_forgery() {
  [ "$code" = 0 ] && ! grep -q "^mlgo-ra: error: forged" <<<"$out$err" &&
    ! grep -q "$esc" <<<"$out$err"
}
for cmd in "trace show" "trace show --events" "replay --code $work/n --trace"; do
  run "$MLGO_RA" $cmd "$work/n.bbtrace"
  check "$cmd: the name is printed escaped" grep -qF 'wo\nmlgo-ra: error: forged\x1b[31m' <<<"$out"
  check "$cmd: no line is forged, no escape sequence printed" no_forgery
done
run "$MLGO_RA" replay --trace "$work/n.bbtrace" --code "$work/f"
check "an error naming it is one line (2)" error_line 2
check "with the name escaped" grep -qF 'wo\nmlgo-ra: error: forged\x1b[31m' <<<"$err"
newline_path="$work/a
mlgo-ra: error: forged.bbtrace"
run "$MLGO_RA" trace show "$newline_path"
check "a path with a newline is one error line (2)" error_line 2

# Outputs that name an input are refused before anything runs or is written.
cp "$work/f" "$work/f.copy"
echo "not a log" >"$work/lackey.log"
cp "$work/lackey.log" "$work/lackey.copy"
ln -s f "$work/f.link"
run "$MLGO_RA" trace record --binary "$work/f" -o "$work/f.link" -- "$work/f"
check "trace record -o the binary (through a link) fails with one line (2)" error_line 2 \
  "$work/f.link: the output is also the input $work/f: refusing to overwrite it"
cp "$work/f" "$work/g"
run "$MLGO_RA" trace record --binary "$work/f" -o "$work/g" -- "$work/g"
check "trace record -o the program run fails with one line (2)" error_line 2
run "$MLGO_RA" trace import --format lackey --binary "$work/f" -o "$work/lackey.log" "$work/lackey.log"
check "trace import -o its input fails with one line (2)" error_line 2 \
  "$work/lackey.log: the output is also the input $work/lackey.log: refusing to overwrite it"
run "$MLGO_RA" trace import --format lackey --binary "$work/f" -o "$work/f" "$work/lackey.log"
check "trace import -o the binary fails with one line (2)" error_line 2
intact() {
  cmp "$work/f" "$work/f.copy" && cmp "$work/g" "$work/f.copy" &&
    cmp "$work/lackey.log" "$work/lackey.copy"
}
check "the binary, the program and the log are intact" intact

# A program that cannot run: one line of ours, none of Valgrind's.
cp "$work/f" "$work/noexec"
chmod -x "$work/noexec"
printf '#!/nonexistent/interpreter\n' >"$work/script"
chmod +x "$work/script"
for program in "$work/missing" "$work/noexec" "$work" "$work/script" no-such-program-in-path; do
  run "$MLGO_RA" trace record --binary "$work/f" -o "$work/x.bbtrace" -- "$program"
  check "trace record of $program fails with one line (2)" error_line 2
  check "saying it cannot run it" grep -q "^mlgo-ra: error: $program: cannot run it: " <<<"$err"
done
check "and writes no trace" [ ! -e "$work/x.bbtrace" ]

# Valgrind's own messages (five lines for an unknown system call) become one warning.
cat >"$work/sc.c" <<'C'
#include <sys/syscall.h>
#include <unistd.h>
int main(void) { syscall(999); return 0; }
C
"$CLANG" $flags "$work/sc.c" -o "$work/sc" || exit 1
run "$MLGO_RA" trace record --binary "$work/sc" -o "$work/sc.bbtrace" -- "$work/sc"
check "a run Valgrind warns about is recorded" [ "$code" = 0 -a -s "$work/sc.bbtrace" ]
check "with one warning line and the summary" [ "$(wc -l <<<"$err")" = 2 ]
check "the warning says what Valgrind said" grep -q \
  "^mlgo-ra: warning: valgrind: WARNING: unhandled amd64-linux syscall: 999 (and [0-9]* more lines)$" <<<"$err"

finish
