#!/usr/bin/env bash
# cmake --install and cpack -G DEB of the current build: the installed tree, moved
# elsewhere, records and replays a small program with its own mlgotrace tool (not the
# build tree's); the Debian package declares what mlgo-ra links and runs.
# Set by CTest besides lib.sh's: BUILD (the build tree), CMAKE, CPACK.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tiny_program.sh"
built=$MLGO_RA

run "$CMAKE" --install "$BUILD" --prefix "$work/prefix"
check "cmake --install succeeds" [ "$code" = 0 ]
for file in bin/mlgo-ra libexec/mlgo-ra/mlgotrace-amd64-linux libexec/mlgo-ra/LICENSE \
  libexec/mlgo-ra/vgpreload_core-amd64-linux.so share/doc/mlgo-ra/README.md \
  share/doc/mlgo-ra/LICENSE share/doc/mlgo-ra/LICENSE.mlgotrace; do
  check "it installs $file" [ -e "$work/prefix/$file" ]
done
check "the tool's directory links Valgrind's own files" \
  [ "$(readlink "$work/prefix/libexec/mlgo-ra/vgpreload_core-amd64-linux.so")" = \
    /usr/libexec/valgrind/vgpreload_core-amd64-linux.so ]
check "the installed binary has no run path into the build tree" \
  bash -c "! readelf -d '$work/prefix/bin/mlgo-ra' | grep -q '$BUILD'"

# The tree, moved: every path the binary uses is relative to where it now is.
mv "$work/prefix" "$work/moved"
installed=$work/moved/bin/mlgo-ra
run env -u MLGO_RA_VALGRIND_LIB "$installed" --version
check "the installed binary runs" [ "$code" = 0 ]
check "--version names it and its LLVM" grep -q '^mlgo-ra [0-9.]* (LLVM 22\.' <<<"$out"

# The training tests' tiny program, recorded by the installed binary.
unset MLGO_RA_VALGRIND_LIB
MLGO_RA=$installed
build_tiny_program 2 || { echo "FAILED: program, corpus, trace and subset"; exit 1; }
check "the installed binary records a trace" [ -s "$work/app.bbtrace" ]
run "$installed" trace show "$work/app.bbtrace" --json
check "which reads back" grep -q '"name": "mix"' <<<"$out"
run "$installed" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu skylake --json
check "the installed binary replays it" [ "$code" = 0 ]
installed_cycles=$(grep -o '"cycles": [0-9]*' <<<"$out" | head -1)
run "$built" replay --trace "$work/app.bbtrace" --code "$work/app" --mcpu skylake --json
check "to the cycles the build tree's binary predicts" \
  [ -n "$installed_cycles" -a "$(grep -o '"cycles": [0-9]*' <<<"$out" | head -1)" = "$installed_cycles" ]

# Proof that it used its own tool: without it, it does not fall back to the build's.
cp -a "$work/moved" "$work/notool"
rm "$work/notool/libexec/mlgo-ra/mlgotrace-amd64-linux"
run "$work/notool/bin/mlgo-ra" trace record --binary "$work/app" -o "$work/x.bbtrace" -- "$work/app"
check "a copy without the tool is bad input (2)" [ "$code" = 2 ]
check "naming its own libexec directory, not the build tree's" [ "$err" = \
  "mlgo-ra: error: $work/notool/libexec/mlgo-ra: no mlgotrace tool here ($work/notool/libexec/mlgo-ra/mlgotrace-amd64-linux is missing)" ]

# The Debian package (dpkg-shlibdeps computes the library dependencies).
if command -v "$CPACK" >/dev/null && command -v dpkg-deb >/dev/null &&
  command -v dpkg-shlibdeps >/dev/null; then
  run "$CPACK" -G DEB --config "$BUILD/CPackConfig.cmake" -B "$work/package"
  check "cpack -G DEB succeeds" [ "$code" = 0 ]
  deb=$(ls "$work"/package/mlgo-ra_*_amd64.deb 2>/dev/null | head -1)
  check "it makes a .deb" [ -n "$deb" ]
  depends=$(dpkg-deb -f "$deb" Depends)
  for package in libllvm22 clang-22 'valgrind (>= ' libzstd1 libzip4 zlib1g libfmt9 libc6; do
    check "whose control file depends on $package" grep -qF "$package" <<<"$depends"
  done
  contents=$(dpkg-deb -c "$deb")
  for file in ./usr/bin/mlgo-ra ./usr/libexec/mlgo-ra/mlgotrace-amd64-linux \
    ./usr/libexec/mlgo-ra/LICENSE ./usr/share/doc/mlgo-ra/README.md; do
    check "and holds $file" grep -q " $file\( \|$\)" <<<"$contents"
  done
else
  echo "skipped: cpack -G DEB (needs cpack, dpkg-deb and dpkg-shlibdeps from dpkg-dev)"
fi

finish
