# GNU awk: the interpreter, built with its own configure and Makefile (no NLS, MPFR,
# readline or dynamic extensions, so nothing but libc outside the binary). Runs: awk
# programs of ours over generated prose and CSV (word frequencies, field aggregation,
# string functions, regular expressions); held out, another program over generated web
# server logs.
package=gawk
language=C
domain="text processing"
binary=gawk
build() {
  ./configure --disable-nls --disable-mpfr --without-readline --disable-extensions \
    CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" AR="$AR" RANLIB="$RANLIB"
  # Not doc/: its Makefile would remake the manual from a source the tarball lacks.
  make SUBDIRS=support
}
inputs() {
  cp "$recipe"/train.awk "$recipe"/heldout.awk .
  perl "$recipe"/gen.pl prose 400000 >prose.txt
  perl "$recipe"/gen.pl sales 500000 >sales.csv
  perl "$recipe"/gen.pl access 750000 >access.log
}
# A fixed locale, whatever the caller's: C, so that the time is gawk's own (in UTF-8 much
# of it goes to the C library's multibyte conversions).
run_env=(LC_ALL=C)
run=(-f train.awk prose.txt sales.csv)
heldout=(-f heldout.awk access.log)
