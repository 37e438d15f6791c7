// The .bbtrace format: a recorded segment trace survives the round trip exactly, and
// damaged or foreign files are refused with the reason.
#include "SegmentBuilder.h"
#include "SegmentTrace.h"
#include "TestSupport.h"
#include "code/CodeImage.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include <fmt/format.h>
#include <zstd.h>

using namespace mlgo;
using namespace mlgo::test;

namespace {

struct Recorded {
  uint32_t Thread;
  SegmentEvent Event;
  bool operator==(const Recorded &O) const {
    return Thread == O.Thread && Event.What == O.Event.What && Event.Index == O.Event.Index &&
           Event.Offset == O.Event.Offset && Event.Count == O.Event.Count;
  }
};

/// Passes events to the writer and keeps a copy.
struct Tee : SegmentSink {
  SegmentTraceWriter *Writer;
  std::vector<Recorded> Events;
  llvm::Error onEvent(uint32_t Thread, const SegmentEvent &E) override {
    Events.push_back({Thread, E});
    return Writer->onEvent(Thread, E);
  }
};

std::vector<Recorded> readAll(SegmentTraceReader &R) {
  std::vector<Recorded> Events;
  Recorded Next{};
  while (requireOk(R.next(Next.Thread, Next.Event)))
    Events.push_back(Next);
  return Events;
}

/// A small hand-made trace of \p Binary: every segment once, on two threads.
std::string writeSmallTrace(const CodeImage &Image, const std::string &Path,
                            const SegmentTraceHeader &Header, bool Finish = true) {
  auto Writer = requireOk(SegmentTraceWriter::create(Path, Header));
  requireSuccess(Writer->defineModule(3, "/lib/libc.so.6"));
  for (uint32_t S = 0; S < Image.segments().size(); ++S)
    requireSuccess(Writer->onEvent(1 + S % 2, {SegmentEvent::Segment, S, 0,
                                               Image.segments()[S].NumInstructions}));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::Unmapped, 3, 0, 1234}));
  requireSuccess(Writer->onEvent(2, {SegmentEvent::PartialSegment, 1, 4, 2}));
  requireSuccess(Writer->onEvent(2, {SegmentEvent::Padding, 0, 0, 3}));
  if (Finish)
    requireSuccess(Writer->finish());
  return Path;
}

CodeImage loadTestBinary(const std::string &Dir) {
  initializeTargets();
  writeFile(Dir + "/p.c", "int f(int x) { return x > 3 ? f(x - 1) * 2 : 1; }\n"
                          "int main(int argc, char **argv) { return f(argc + 5) & 1; }\n");
  CommandResult R = runShell(std::string(ClangPath) + " -O1 -fbasic-block-address-map "
                                                      "p.c -o p", Dir);
  REQUIRE(R.ExitCode == 0);
  return requireOk(CodeImage::loadBinary(Dir + "/p"));
}

} // namespace

TEST_CASE("a .bbtrace round-trips its header and events", "[trace]") {
  std::string Dir = makeTempDir("bbtrace");
  CodeImage Image = loadTestBinary(Dir);
  SegmentTraceHeader Header = describeImage(Image);
  writeSmallTrace(Image, Dir + "/t.bbtrace", Header);
  auto Reader = requireOk(SegmentTraceReader::open(Dir + "/t.bbtrace"));
  CHECK(Reader->header().Identity == Image.identity());
  CHECK(Reader->header().BinaryPath == Dir + "/p");
  REQUIRE(Reader->header().Functions.size() == Image.functions().size());
  CHECK(Reader->header().Functions[0].Key == Image.functions()[0].key());
  CHECK(Reader->segments().size() == Image.segments().size());
  // Without kept unmapped code, the trace is version 1, as before version 2 existed.
  CHECK(readFile(Dir + "/t.bbtrace")[8] == 1);
  CHECK(!Reader->keepsUnmappedCode());
  std::vector<Recorded> Events = readAll(*Reader);
  REQUIRE(Events.size() == Image.segments().size() + 3);
  CHECK(Events[0] == Recorded{1, {SegmentEvent::Segment, 0, 0,
                                  Image.segments()[0].NumInstructions}});
  CHECK(Events.back() == Recorded{2, {SegmentEvent::Padding, 0, 0, 3}});
  CHECK(Reader->modules().at(3) == "/lib/libc.so.6");
  CHECK(Reader->instructions() == Image.totalInstructions() + 1234 + 2 + 3);
}

TEST_CASE("damaged and foreign .bbtrace files are refused", "[trace]") {
  std::string Dir = makeTempDir("bbtrace");
  CodeImage Image = loadTestBinary(Dir);
  SegmentTraceHeader Header = describeImage(Image);
  std::string Good = readFile(writeSmallTrace(Image, Dir + "/t.bbtrace", Header));

  // Cut anywhere, the file fails to open or fails before its end record.
  writeFile(Dir + "/cut.bbtrace", Good.substr(0, Good.size() - 6));
  std::string Message;
  auto Cut = SegmentTraceReader::open(Dir + "/cut.bbtrace");
  if (!Cut)
    Message = llvm::toString(Cut.takeError());
  while (Message.empty()) {
    uint32_t Thread;
    SegmentEvent E;
    auto More = (*Cut)->next(Thread, E);
    if (!More)
      Message = llvm::toString(More.takeError());
    else
      REQUIRE(*More);
  }
  CHECK_THAT(Message, Catch::StartsWith(Dir + "/cut.bbtrace: truncated") ||
                          Catch::StartsWith(Dir + "/cut.bbtrace: corrupt compressed data"));

  std::string OtherVersion = Good;
  OtherVersion[8] = 7;
  writeFile(Dir + "/v7.bbtrace", OtherVersion);
  CHECK(requireError(SegmentTraceReader::open(Dir + "/v7.bbtrace")) ==
        Dir + "/v7.bbtrace: .bbtrace version 7, this mlgo-ra reads versions 1 to 3");
  CHECK(requireError(SegmentTraceReader::open(Dir + "/p")) ==
        Dir + "/p: not a .bbtrace file");
}

namespace mlgo {
// In mlgo, for Catch to find it.
bool operator==(const CodeChunk &A, const CodeChunk &B) {
  return A.Id == B.Id && A.Module == B.Module && A.Address == B.Address &&
         A.InstrLengths == B.InstrLengths && A.Bytes == B.Bytes;
}
} // namespace mlgo

namespace {

// Two chunks of x86-64 code: nop; mov %rax,%rbx (module 3) and ret (no module).
const CodeChunk ChunkA{0, 3, 0x1000, {1, 3}, {0x90, 0x48, 0x89, 0xc3}};
const CodeChunk ChunkB{1, 0, 0x2000, {1}, {0xc3}};

/// A version 2 trace: chunk A run whole then in part, chunk B, and \p Last.
std::string writeTraceWithCode(const CodeImage &Image, const std::string &Path,
                               const SegmentEvent &Last) {
  auto Writer = requireOk(SegmentTraceWriter::create(Path, describeImage(Image),
                                                     /*KeepsUnmappedCode=*/true));
  requireSuccess(Writer->defineModule(3, "/lib/libc.so.6"));
  requireSuccess(Writer->onCodeChunk(ChunkA));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::UnmappedCode, 0, 0, 2}));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::UnmappedCode, 0, 0, 1}));
  requireSuccess(Writer->onCodeChunk(ChunkB));
  requireSuccess(Writer->onEvent(2, {SegmentEvent::UnmappedCode, 1, 0, 1}));
  requireSuccess(Writer->onEvent(2, Last));
  requireSuccess(Writer->finish());
  return Path;
}

/// The error that reading \p Path to its end stops at.
std::string readError(const std::string &Path) {
  auto Reader = requireOk(SegmentTraceReader::open(Path));
  return requireError(forEachEvent(*Reader, [](uint32_t, const SegmentEvent &) {
    return llvm::Error::success();
  }));
}

} // namespace

TEST_CASE("a .bbtrace that keeps unmapped code reads back its chunks", "[trace]") {
  std::string Dir = makeTempDir("bbtrace-code");
  CodeImage Image = loadTestBinary(Dir);
  SegmentEvent Whole{SegmentEvent::Segment, 0, 0, Image.segments()[0].NumInstructions};
  std::string Path = writeTraceWithCode(Image, Dir + "/t.bbtrace", Whole);
  CHECK(readFile(Path)[8] == 2);
  auto Reader = requireOk(SegmentTraceReader::open(Path));
  CHECK(Reader->keepsUnmappedCode());
  CHECK(readAll(*Reader) == std::vector<Recorded>{{1, {SegmentEvent::UnmappedCode, 0, 0, 2}},
                                                  {1, {SegmentEvent::UnmappedCode, 0, 0, 1}},
                                                  {2, {SegmentEvent::UnmappedCode, 1, 0, 1}},
                                                  {2, Whole}});
  REQUIRE(Reader->chunks().size() == 2);
  CHECK(Reader->chunks()[0] == ChunkA);
  CHECK(Reader->chunks()[1] == ChunkB);
  CHECK(Reader->moduleName(ChunkA.Module) == "/lib/libc.so.6");
  CHECK(Reader->moduleName(ChunkB.Module) == "(no module)");
  CHECK(Reader->instructions() == 4 + Whole.Count);

  // An event that runs more than its chunk, or a chunk not defined before it.
  writeTraceWithCode(Image, Dir + "/long.bbtrace", {SegmentEvent::UnmappedCode, 1, 0, 2});
  CHECK(readError(Dir + "/long.bbtrace") ==
        Dir + "/long.bbtrace: unmapped code event of 2 instructions in chunk 1, which has 1");
  writeTraceWithCode(Image, Dir + "/undefined.bbtrace", {SegmentEvent::UnmappedCode, 2, 0, 1});
  CHECK(readError(Dir + "/undefined.bbtrace") ==
        Dir + "/undefined.bbtrace: unmapped code event of 1 instructions in chunk 2, which "
              "is not defined before it");

  // Cut anywhere, it fails to open or fails before its end record.
  std::string Good = readFile(Path);
  for (size_t Size = 12; Size < Good.size(); Size += 7) {
    writeFile(Dir + "/cut.bbtrace", Good.substr(0, Size));
    auto Cut = SegmentTraceReader::open(Dir + "/cut.bbtrace");
    std::string Message = Cut ? readError(Dir + "/cut.bbtrace") : llvm::toString(Cut.takeError());
    CHECK_THAT(Message, Catch::StartsWith(Dir + "/cut.bbtrace: "));
  }
}

TEST_CASE("an unfinished .bbtrace leaves no file behind", "[trace]") {
  std::string Dir = makeTempDir("bbtrace");
  CodeImage Image = loadTestBinary(Dir);
  SegmentTraceHeader Header = describeImage(Image);
  writeSmallTrace(Image, Dir + "/t.bbtrace", Header, /*Finish=*/false);
  std::error_code EC;
  std::vector<std::string> Left;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).contains(".bbtrace"))
      Left.push_back(It->path());
  CHECK(Left.empty());
}

#ifdef MLGO_TEST_VALGRIND_LIB_DIR
TEST_CASE("the workload's recorded segment trace is stored exactly and compactly",
          "[trace]") {
  initializeTargets();
  std::string Dir = makeTempDir("bbtrace-workload");
  REQUIRE(runShell(std::string(SourceDir) + "/examples/build-workload.sh " +
                   shellQuote(Dir + "/build")).ExitCode == 0);
  std::string Binary = Dir + "/build/workload";
  REQUIRE(runShell("VALGRIND_LIB=" + shellQuote(MLGO_TEST_VALGRIND_LIB_DIR) + " " +
                       shellQuote(MLGO_TEST_VALGRIND) +
                       " -q --tool=mlgotrace --mlgotrace-out=raw.bin " + shellQuote(Binary) +
                       " 0.25 >/dev/null",
                   Dir).ExitCode == 0);
  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  SegmentTraceHeader Header = describeImage(Image);
  auto Writer = requireOk(SegmentTraceWriter::create(Dir + "/w.bbtrace", Header));
  Tee Sink;
  Sink.Writer = Writer.get();
  SegmentBuilder Builder(Image, Sink);
  auto Collector = requireOk(CollectorStreamReader::open(Dir + "/raw.bin"));
  requireSuccess(Collector->run(Builder));
  requireSuccess(Builder.finish());
  requireSuccess(Writer->finish());

  auto Reader = requireOk(SegmentTraceReader::open(Dir + "/w.bbtrace"));
  CHECK(readAll(*Reader) == Sink.Events);
  CHECK(Reader->instructions() == Collector->numInstructions());
  uint64_t Bytes = readFile(Dir + "/w.bbtrace").size();
  INFO(Bytes << " bytes for " << Collector->numInstructions() << " instructions");
  CHECK(Bytes * 1000000 < Collector->numInstructions() * uint64_t(1 << 20));
}
#endif

TEST_CASE("a .bbtrace with load dependences reads them back", "[trace]") {
  std::string Dir = makeTempDir("bbtrace-loads");
  CodeImage Image = loadTestBinary(Dir);
  REQUIRE(Image.segments().size() >= 3);
  LoadDependences Loads = {{0, {{10, 0}, {10, 10}}}, {2, {{1ull << 40, 5}, {0, 0}, {7, 3}}}};
  SegmentEvent Whole{SegmentEvent::Segment, 0, 0, Image.segments()[0].NumInstructions};
  for (bool KeepsCode : {false, true}) {
    std::string Path = Dir + (KeepsCode ? "/code.bbtrace" : "/t.bbtrace");
    auto Writer = requireOk(
        SegmentTraceWriter::create(Path, describeImage(Image), KeepsCode, /*Loads=*/true));
    requireSuccess(Writer->onEvent(1, Whole));
    Writer->setLoadDependences(Loads);
    requireSuccess(Writer->finish());
    CHECK(readFile(Path)[8] == 3);
    auto Reader = requireOk(SegmentTraceReader::open(Path));
    CHECK(Reader->hasLoadDependences());
    CHECK(Reader->keepsUnmappedCode() == KeepsCode);
    REQUIRE(Reader->loadDependences().size() == 2);
    for (size_t S = 0; S < 2; ++S) {
      CHECK(Reader->loadDependences()[S].Segment == Loads[S].Segment);
      CHECK(Reader->loadDependences()[S].Loads == Loads[S].Loads);
    }
    // The events stop at the section: it is not read as compressed data.
    CHECK(readAll(*Reader) == std::vector<Recorded>{{1, Whole}});
  }

  // Cut anywhere, or with a damaged section, it is refused naming the file.
  std::string Good = readFile(Dir + "/t.bbtrace");
  for (size_t Size = 12; Size < Good.size(); Size += 5) {
    writeFile(Dir + "/cut.bbtrace", Good.substr(0, Size));
    auto Cut = SegmentTraceReader::open(Dir + "/cut.bbtrace");
    std::string Message = Cut ? readError(Dir + "/cut.bbtrace") : llvm::toString(Cut.takeError());
    CHECK_THAT(Message, Catch::StartsWith(Dir + "/cut.bbtrace: "));
  }
  // The section's last load: 7 executions, 3 dependent, then the size and the magic.
  std::string Damaged = Good;
  size_t Dependent = Good.size() - 16 - 1;
  REQUIRE(Damaged[Dependent] == 3);
  Damaged[Dependent] = 9; // more dependent executions than executions
  writeFile(Dir + "/damaged.bbtrace", Damaged);
  CHECK(requireError(SegmentTraceReader::open(Dir + "/damaged.bbtrace")) ==
        Dir + "/damaged.bbtrace: malformed load dependences");
  // A segment the header does not define.
  auto Writer = requireOk(SegmentTraceWriter::create(Dir + "/foreign.bbtrace",
                                                     describeImage(Image), false, true));
  Writer->setLoadDependences({{uint32_t(Image.segments().size()), {{1, 1}}}});
  requireSuccess(Writer->finish());
  CHECK(requireError(SegmentTraceReader::open(Dir + "/foreign.bbtrace")) ==
        Dir + "/foreign.bbtrace: load dependences of a segment the header does not define");
}

TEST_CASE("a version 3 .bbtrace with header flags this reader does not know is refused",
          "[trace]") {
  std::string Dir = makeTempDir("bbtrace-flags");
  CodeImage Image = loadTestBinary(Dir);
  auto Writer = requireOk(SegmentTraceWriter::create(Dir + "/t.bbtrace", describeImage(Image),
                                                     /*KeepsUnmappedCode=*/false,
                                                     /*Loads=*/true));
  requireSuccess(Writer->finish());
  std::string Good = readFile(Dir + "/t.bbtrace");
  REQUIRE(Good[8] == 3);
  // Magic and version (12 bytes), the zstd frame, the load section and its trailer (the
  // section's size, then its magic).
  uint64_t Section = llvm::support::endian::read64le(Good.data() + Good.size() - 16);
  std::string Frame = Good.substr(12, Good.size() - 12 - 16 - Section);
  // The writer streams: the frame does not say its size.
  std::string Plain;
  ZSTD_DCtx *D = ZSTD_createDCtx();
  ZSTD_inBuffer In{Frame.data(), Frame.size(), 0};
  char Out[4096];
  while (In.pos < In.size) {
    ZSTD_outBuffer O{Out, sizeof(Out), 0};
    REQUIRE(!ZSTD_isError(ZSTD_decompressStream(D, &O, &In)));
    Plain.append(Out, O.pos);
  }
  ZSTD_freeDCtx(D);
  // The header: its size, the identity and the binary's path (each a length and bytes),
  // then the flags (LEB128 varints).
  size_t At = 0;
  auto Varint = [&] {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      uint8_t B = Plain.at(At++);
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  };
  Varint();
  At += Varint();
  At += Varint();
  REQUIRE(Plain[At] == 0);
  for (uint8_t Flags : {uint8_t(2), uint8_t(0x41)}) {
    Plain[At] = char(Flags);
    std::string Packed(ZSTD_compressBound(Plain.size()), '\0');
    Packed.resize(ZSTD_compress(Packed.data(), Packed.size(), Plain.data(), Plain.size(), 3));
    std::string Bad = Good.substr(0, 12) + Packed + Good.substr(Good.size() - 16 - Section);
    writeFile(Dir + "/flags.bbtrace", Bad);
    CHECK(requireError(SegmentTraceReader::open(Dir + "/flags.bbtrace")) ==
          Dir + fmt::format("/flags.bbtrace: unknown .bbtrace header flags {:#x}",
                            Flags & ~1));
  }
  // Flags it knows still read.
  Plain[At] = 1;
  std::string Packed(ZSTD_compressBound(Plain.size()), '\0');
  Packed.resize(ZSTD_compress(Packed.data(), Packed.size(), Plain.data(), Plain.size(), 3));
  writeFile(Dir + "/code.bbtrace",
            Good.substr(0, 12) + Packed + Good.substr(Good.size() - 16 - Section));
  CHECK(requireOk(SegmentTraceReader::open(Dir + "/code.bbtrace"))->keepsUnmappedCode());
}
