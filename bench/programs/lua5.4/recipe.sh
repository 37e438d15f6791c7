# Lua 5.4: the reference interpreter, built with its own Makefile (upstream's: Debian's
# patches make it libtool's). Runs: two Lua programs of ours, printing checksums.
package=lua5.4
tree=orig
language=C
domain=interpreter
binary=src/lua
build() {
  make -C src linux CC="$CC" AR="$AR rc" RANLIB="$RANLIB" MYCFLAGS="$CFLAGS" MYLDFLAGS="$LDFLAGS"
}
inputs() {
  cp "$recipe"/train.lua "$recipe"/heldout.lua .
}
run=(train.lua)
heldout=(heldout.lua)
