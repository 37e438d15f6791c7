# Snappy: Google's fast compressor, a C++ library built static with its own CMake (tests
# and benchmarks off), and our driver snappy-bench.cc linked with it. Runs: prose and log
# lines compressed and decompressed in 64 KiB blocks through the string API; held out,
# binary records and noise in 16 KiB blocks through the Source/Sink and iovec API.
package=snappy
language=C++
domain=compression
binary=snappy-bench
# shellcheck disable=SC2086 # $CXXFLAGS and $LDFLAGS are lists of words
build() {
  # Only the target snappy: Debian's patch adds a second static library of the same name.
  # No build type, but NDEBUG as a release has it (Release would put -O3 after our -O2).
  cmake -S . -B cmake-build -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS="$CXXFLAGS -DNDEBUG" \
    -DBUILD_SHARED_LIBS=OFF -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF \
    -DCMAKE_AR="$AR" -DCMAKE_RANLIB="$RANLIB"
  cmake --build cmake-build --target snappy
  cp "$recipe"/snappy-bench.cc .
  "$CXX" $CXXFLAGS -DNDEBUG -Icmake-build -I. -c snappy-bench.cc -o snappy-bench.o
  "$CXX" $CXXFLAGS $LDFLAGS snappy-bench.o cmake-build/libsnappy.a -o snappy-bench
}
inputs() {
  perl "$recipe"/gen.pl text 8000000 >text.txt
  perl "$recipe"/gen.pl records 8000000 >records.bin
}
run=(flat text.txt 65536 3)
heldout=(stream records.bin 16384 3)
