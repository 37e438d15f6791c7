// .bbtrace files made to exhaust memory: zstd turns a few KB into GBs of repeated bytes,
// so the reader bounds what it keeps by the file's size, and reads regular files only.
#include "SegmentTrace.h"
#include "SegmentTraceFormat.h"
#include "TestSupport.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <zstd.h>

using namespace mlgo;
using namespace mlgo::test;

namespace {

std::string tooLarge(const std::string &Path, const std::string &What) {
  return Path + ": " + What + " larger than " + std::to_string(BbtraceFormat::MaxExpansion) +
         " times the file's size: corrupt, or not written by mlgo-ra";
}

/// The error that reading \p Path to its end stops at.
std::string readError(const std::string &Path) {
  auto Reader = requireOk(SegmentTraceReader::open(Path));
  return requireError(forEachEvent(*Reader, [](uint32_t, const SegmentEvent &) {
    return llvm::Error::success();
  }));
}

SegmentTraceHeader smallHeader() {
  return {"id", "/bin/p", {{"f", {{0, {3}}, {1, {2, 1}}}}}};
}

/// A version 1 .bbtrace at \p Path whose header defines one segment of 3 instructions
/// and whose records are \p Records, as the writer would not write them.
void writeRecords(const std::string &Path, const std::string &Records) {
  std::string Header("\0\0\1\1f\1\0\1\3", 9); // identity, path, f: block 0: 3
  std::string Plain = char(Header.size()) + Header + Records;
  std::string Packed(ZSTD_compressBound(Plain.size()), '\0');
  Packed.resize(ZSTD_compress(Packed.data(), Packed.size(), Plain.data(), Plain.size(), 3));
  writeFile(Path, std::string("MLGOBBTR\1\0\0\0", 12) + Packed);
}

} // namespace

TEST_CASE("a header of millions of empty segments is refused at once", "[trace]") {
  std::string Dir = makeTempDir("hostile-trace");
  SegmentTraceHeader Header = smallHeader();
  Header.Functions[0].Blocks[0].SegmentInstructions.assign(size_t(1) << 22, 0);
  std::string Path = Dir + "/bomb.bbtrace";
  auto Writer = requireOk(SegmentTraceWriter::create(Path, Header));
  requireSuccess(Writer->finish());
  REQUIRE(readFile(Path).size() < 2000);
  CHECK(requireError(SegmentTraceReader::open(Path)) == tooLarge(Path, "a header"));
}

TEST_CASE("module records and code chunks may not grow past the file", "[trace]") {
  std::string Dir = makeTempDir("hostile-trace");
  std::string Modules = Dir + "/modules.bbtrace";
  auto Writer = requireOk(SegmentTraceWriter::create(Modules, smallHeader()));
  requireSuccess(Writer->defineModule(1 << 20, "/lib/x.so"));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::Unmapped, 1 << 20, 0, 5}));
  requireSuccess(Writer->finish());
  CHECK(readError(Modules) == tooLarge(Modules, "module records"));

  std::string Chunks = Dir + "/chunks.bbtrace";
  Writer = requireOk(SegmentTraceWriter::create(Chunks, smallHeader(), true));
  for (uint32_t Id = 0; Id < 200; ++Id) {
    CodeChunk C{Id, 0, 0x1000, std::vector<uint8_t>(4096, 15),
                std::vector<uint8_t>(4096 * 15, 0x66)};
    requireSuccess(Writer->onCodeChunk(C));
    requireSuccess(Writer->onEvent(1, {SegmentEvent::UnmappedCode, Id, 0, 1}));
  }
  requireSuccess(Writer->finish());
  CHECK(readError(Chunks) == tooLarge(Chunks, "code chunks"));

  // A real trace is far below the bound.
  std::string Small = Dir + "/small.bbtrace";
  Writer = requireOk(SegmentTraceWriter::create(Small, smallHeader(), true));
  requireSuccess(Writer->defineModule(1, "/lib/x.so"));
  requireSuccess(Writer->onCodeChunk({0, 1, 0x1000, {1, 3}, {0x90, 0x48, 0x89, 0xc3}}));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::UnmappedCode, 0, 0, 2}));
  requireSuccess(Writer->finish());
  auto Reader = requireOk(SegmentTraceReader::open(Small));
  requireSuccess(forEachEvent(*Reader, [](uint32_t, const SegmentEvent &) {
    return llvm::Error::success();
  }));
}

TEST_CASE("a .bbtrace must be a regular file", "[trace]") {
  std::string Dir = makeTempDir("hostile-trace");
  CHECK(requireError(SegmentTraceReader::open("/dev/zero")) == "/dev/zero: not a regular file");
  REQUIRE(::mkfifo((Dir + "/fifo").c_str(), 0600) == 0);
  CHECK(requireError(SegmentTraceReader::open(Dir + "/fifo")) ==
        Dir + "/fifo: not a regular file");
  CHECK(requireError(SegmentTraceReader::open(Dir)) == Dir + ": is a directory, not a file");
}

TEST_CASE("a trace may not name more threads than its size allows", "[trace]") {
  std::string Dir = makeTempDir("hostile-trace");
  // Each thread is a core of its own in replay: 20,000 of them took 0.9 GB from 58 KB.
  auto write = [&](const std::string &Path, uint32_t Threads) {
    auto Writer = requireOk(SegmentTraceWriter::create(Path, smallHeader()));
    for (uint32_t T = 1; T <= Threads; ++T)
      requireSuccess(Writer->onEvent(T, {SegmentEvent::Segment, 0, 0, 3}));
    requireSuccess(Writer->finish());
    return Path;
  };
  std::string Many = write(Dir + "/many.bbtrace", 20000);
  uint64_t Allowed = BbtraceFormat::MaxThreads + readFile(Many).size() / BbtraceFormat::FileBytesPerThread;
  CHECK(readError(Many) == Many + ": more than " + std::to_string(Allowed) +
                               " threads, more than the file's size allows: corrupt, or "
                               "not written by mlgo-ra");
  std::string Some = write(Dir + "/some.bbtrace", 1000);
  auto Reader = requireOk(SegmentTraceReader::open(Some));
  requireSuccess(forEachEvent(*Reader, [](uint32_t, const SegmentEvent &) {
    return llvm::Error::success();
  }));
}

TEST_CASE("records that are not events may not repeat without end", "[trace]") {
  std::string Dir = makeTempDir("hostile-trace");
  // Thread 1 runs segment 0, then the end record: 3 instructions in 1 event.
  std::string Run("\1\1\2\0", 4), End("\0\3\1", 3);
  std::string Path = Dir + "/t.bbtrace";
  writeRecords(Path, Run + End);
  auto Reader = requireOk(SegmentTraceReader::open(Path));
  requireSuccess(forEachEvent(*Reader, [](uint32_t, const SegmentEvent &) {
    return llvm::Error::success();
  }));

  // A megabyte of thread records is a few hundred bytes of zstd.
  writeRecords(Path, std::string(1 << 20, '\1') + Run + End);
  REQUIRE(readFile(Path).size() < 1000);
  CHECK(readError(Path) == Path + ": a thread record without an event after it");

  // Module 1 named twice (an empty name costs no memory).
  writeRecords(Path, std::string("\6\1\0\6\1\0", 6) + Run + End);
  CHECK(readError(Path) == Path + ": module 1 is defined twice");
}

TEST_CASE("a .bbtrace in memory reads as the file does", "[trace]") {
  std::string Dir = makeTempDir("hostile-trace");
  std::string Path = Dir + "/t.bbtrace";
  auto Writer = requireOk(SegmentTraceWriter::create(Path, smallHeader(), true, true));
  requireSuccess(Writer->defineModule(1, "/lib/x.so"));
  requireSuccess(Writer->onCodeChunk({0, 1, 0x1000, {1, 3}, {0x90, 0x48, 0x89, 0xc3}}));
  requireSuccess(Writer->onEvent(1, {SegmentEvent::UnmappedCode, 0, 0, 2}));
  requireSuccess(Writer->onEvent(2, {SegmentEvent::Segment, 1, 0, 2}));
  Writer->setLoadDependences({{1, {{5, 2}, {7, 0}}}});
  requireSuccess(Writer->finish());
  std::string Bytes = readFile(Path);
  auto events = [](SegmentTraceReader &R) {
    std::vector<std::string> Read;
    requireSuccess(forEachEvent(R, [&](uint32_t Thread, const SegmentEvent &E) {
      Read.push_back(fmt::format("{} {} {} {} {}", Thread, int(E.What), E.Index, E.Offset,
                                 E.Count));
      return llvm::Error::success();
    }));
    return Read;
  };
  auto File = requireOk(SegmentTraceReader::open(Path));
  auto Memory = requireOk(SegmentTraceReader::openBytes("bytes", Bytes));
  CHECK(events(*Memory) == events(*File));
  REQUIRE(Memory->loadDependences().size() == 1);
  CHECK(Memory->loadDependences()[0].Segment == 1);
  CHECK(Memory->loadDependences()[0].Loads == File->loadDependences()[0].Loads);
  CHECK(Memory->chunks().size() == 1);
  CHECK(Memory->moduleName(1) == "/lib/x.so");
  // Cut anywhere, it fails as the file would, naming what it was given.
  for (size_t Cut : {size_t(5), size_t(20), Bytes.size() - 1}) {
    std::string Head = Bytes.substr(0, Cut);
    writeFile(Dir + "/cut.bbtrace", Head);
    auto CutFile = SegmentTraceReader::open(Dir + "/cut.bbtrace");
    auto CutMemory = SegmentTraceReader::openBytes(Dir + "/cut.bbtrace", Head);
    REQUIRE(!CutFile);
    REQUIRE(!CutMemory);
    CHECK(llvm::toString(CutMemory.takeError()) == llvm::toString(CutFile.takeError()));
  }
}
