# bzip2: the block-sorting compressor (Burrows-Wheeler, Huffman), built with its own
# Makefile (upstream's: Debian's links the program to the shared library) against libbz2.a.
# Inputs: mixed text, logs, CSV, C-like code and binary records of tools/textgen.pl.
# Runs: training, compressing 1.6 MB at -9 (900 KB blocks); held out, decompressing 5 MB
# of another mix, compressed at -5 by the program when the inputs are made.
package=bzip2
tree=orig
language=C
domain=compression
binary=bzip2
build() {
  make bzip2 CC="$CC" AR="$AR" RANLIB="$RANLIB" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" \
    LDFLAGS="$LDFLAGS"
}
inputs() {
  perl "$recipe"/../tools/textgen.pl 1 1600000 text,log,csv,code,binary >train.dat
  perl "$recipe"/../tools/textgen.pl 2 5000000 text,csv,binary,log >heldout.dat
  "$build/$binary" -5 -c heldout.dat >heldout.dat.bz2
  rm heldout.dat
}
run=(-9 -c train.dat)
heldout=(-d -c heldout.dat.bz2)
