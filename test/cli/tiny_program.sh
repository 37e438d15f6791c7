# The tiny program of the training tests: a register-hungry kernel in its own module,
# built with the flags mlgo-ra needs, its corpus, a trace of one run and the subset.
# build_tiny_program [ROUNDS]: fills $work with app, corpus/, app.bbtrace and subset/; the
# program runs its kernel ROUNDS times (default 4: about 7,300 events) on 256 elements, or
# on as many as its argument says (at most 256): another input of the same binary.
build_tiny_program() {
  local rounds=${1:-4}
  cat >"$work/kernels.c" <<'C'
__attribute__((noinline)) int g(int x) { return x * 3 + 1; }
int mix(int *a, int n) {
  int s = 0, t = 1, u = 2, v = 3, w = 4, x = 5, y = 6, z = 7;
  for (int i = 0; i < n; i++) {
    s += a[i] * t; t ^= g(s); u += s * v; v -= g(u); w += t * u; x ^= w + v + s;
    y += x * z; z ^= g(y + w);
    a[i] = s + t + u + v + w + x + y + z;
  }
  return s + t + u + v + w + x + y + z;
}
C
  cat >"$work/main.c" <<C
int mix(int *a, int n);
int main(int argc, char **argv) {
  static int a[256];
  int n = 256, s = 0;
  if (argc > 1)
    for (n = 0; *argv[1] >= '0' && *argv[1] <= '9' && n < 256; ++argv[1])
      n = n * 10 + *argv[1] - '0';
  for (int r = 0; r < $rounds; ++r) s += mix(a, n > 256 ? 256 : n);
  return s == 42;
}
C
  local flags="-O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map
    -mllvm -disable-branch-fold -mllvm -enable-tail-merge=false
    -mllvm -branch-fold-placement=false -mllvm -disable-tail-duplicate
    -mllvm -tail-dup-placement=false -mllvm -enable-shrink-wrap=false"
  mkdir "$work/objs"
  # shellcheck disable=SC2086
  "$CLANG" $flags -c "$work/kernels.c" -o "$work/objs/kernels.o" &&
    "$CLANG" $flags -c "$work/main.c" -o "$work/objs/main.o" &&
    "$CLANG" "$work/objs/kernels.o" "$work/objs/main.o" -o "$work/app" &&
    "$MLGO_RA" extract-corpus "$work/objs" -o "$work/corpus" >/dev/null &&
    "$MLGO_RA" trace record --binary "$work/app" -o "$work/app.bbtrace" -- "$work/app" \
      >/dev/null 2>&1 &&
    "$MLGO_RA" subset --corpus "$work/corpus" --trace "$work/app.bbtrace" -o "$work/subset" \
      >/dev/null
}
