# CPython 3.11: the large program of the arena. Upstream's source built with its own
# configure and Makefile, statically: the interpreter and the standard extension modules
# that need no other library in one binary, so that the code a Python program runs is
# the binary's. Runs: two Python programs of ours (pure-Python work and
# the C modules it calls: json, re, collections, struct...), printing checksums.
package=python3.11
tree=orig
language=C
domain="interpreter (large)"
binary=python
build() {
  # OPT: what CPython needs (-fwrapv), without its -g -O3 (CFLAGS has -O2).
  MODULE_BUILDTYPE=static OPT="-DNDEBUG -fwrapv" ./configure --disable-shared \
    --without-ensurepip
  # Every standard extension module that needs no library beyond libc, libm and zlib,
  # built into the binary (Modules/Setup.local is read before the others): the same
  # modules on every machine, whatever -dev packages it has.
  local others='_bz2|_lzma|_crypt|nis|spwd|_sqlite3|_ssl|_hashlib|_uuid|_tkinter|_ctypes'
  {
    echo '*static*'
    sed -n '/^\*static\*$/,/^\*shared\*$/p' Modules/Setup.stdlib |
      grep -v -E "^[*#]|^\$|^($others|_test[a-z_]*|_xxtestfuzz) "
  } >Modules/Setup.local
  make python
}
inputs() {
  cp "$recipe"/train.py "$recipe"/heldout.py .
  # The interpreter finds its library through PYTHONHOME, the same way wherever the
  # binary is (the build directory or a variant's).
  mkdir -p home/lib
  ln -s "$build/Lib" home/lib/python3.11
  # The library compiled once, so that a run reads it as every later run does.
  env "${run_env[@]}" "$build/python" -S -m compileall -q "$build/Lib" >/dev/null || true
}
run_env=(PYTHONHOME="$root/inputs/home" PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1)
run=(-S train.py)
heldout=(-S heldout.py)
