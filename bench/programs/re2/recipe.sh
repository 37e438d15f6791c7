# RE2: Google's regular expression library (C++), built static with its own Makefile
# (its Unicode tables made from Debian's unicode-data, as Debian does), and our driver
# re2-bench.cc linked with it. Runs: server logs classified, parsed, scanned and masked;
# held out, orders and notes in UTF-8 with other patterns (Unicode classes, case folding,
# rewriting, patterns compiled from the data).
package=re2
language=C++
domain='regular expressions'
needs=(python3 python3-six unicode-data)
binary=re2-bench
# shellcheck disable=SC2086 # $CXXFLAGS and $LDFLAGS are lists of words
build() {
  make obj/libre2.a REBUILD_TABLES=1 CXX="$CXX" CXXFLAGS="$CXXFLAGS" LDFLAGS="$LDFLAGS" \
    AR="$AR" NM="$NM"
  cp "$recipe"/re2-bench.cc .
  # NDEBUG, as the Makefile compiles the library.
  "$CXX" $CXXFLAGS -DNDEBUG -pthread -I. -c re2-bench.cc -o re2-bench.o
  "$CXX" $CXXFLAGS $LDFLAGS -pthread re2-bench.o obj/libre2.a -o re2-bench
}
inputs() {
  perl "$recipe"/gen.pl logs 1600000 >logs.txt
  perl "$recipe"/gen.pl records 1200000 >records.txt
}
run=(logs logs.txt)
heldout=(records records.txt)
