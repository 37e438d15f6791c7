// RunSynthesizer: where runs break, which superblocks it defines and how it reuses them.
#include "RunSynthesizer.h"
#include "TestSupport.h"

#include <fmt/format.h>

using namespace mlgo;
using namespace mlgo::test;

namespace {

struct Recorder : CollectorStreamListener {
  std::vector<CollectorSuperblock> Superblocks;
  std::vector<CollectorRun> Runs;
  llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index) override {
    CHECK(Index == Superblocks.size());
    Superblocks.push_back(S);
    return llvm::Error::success();
  }
  llvm::Error onRun(const CollectorRun &R) override {
    Runs.push_back(R);
    return llvm::Error::success();
  }
};

std::string describe(const std::vector<CollectorRun> &Runs) {
  std::string S;
  for (const CollectorRun &R : Runs)
    S += fmt::format("t{}:{:#x}+{}@{} ", R.ThreadId, R.Address, R.NumInstructions,
                     R.SuperblockIndex);
  return S;
}

} // namespace

TEST_CASE("runs break where the next address, thread or module does not continue",
          "[trace]") {
  Recorder R;
  RunSynthesizer Runs(R);
  Runs.addModuleRange(0x1000, 0x2000, 1);
  Runs.addModuleRange(0x2000, 0x3000, 2); // adjacent: a run still breaks between them
  auto Add = [&](uint32_t Thread, uint64_t Address, uint32_t Length) {
    requireSuccess(Runs.addInstruction(Thread, Address, Length));
  };
  Add(1, 0x1000, 2);
  Add(1, 0x1002, 3);  // continues
  Add(1, 0x1100, 1);  // a jump
  Add(2, 0x1101, 1);  // the next address, but another thread
  Add(2, 0x1ffe, 2);
  Add(2, 0x2000, 1);  // falls into module 2
  Add(2, 0x9000, 4);  // outside every module
  Add(1, 0x1000, 2);  // the first run again: its superblock is reused
  Add(1, 0x1002, 3);
  requireSuccess(Runs.flush());
  CHECK(describe(R.Runs) == "t1:0x1000+2@0 t1:0x1100+1@1 t2:0x1101+1@2 t2:0x1ffe+1@3 "
                            "t2:0x2000+1@4 t2:0x9000+1@5 t1:0x1000+2@0 ");
  REQUIRE(R.Superblocks.size() == 6);
  CHECK(R.Superblocks[0].InstrLengths == std::vector<uint8_t>{2, 3});
  CHECK(R.Superblocks[0].ExitInstrCounts == std::vector<uint8_t>{2});
  CHECK(R.Superblocks[0].ModuleId == 1);
  CHECK(R.Superblocks[4].ModuleId == 2);
  CHECK(R.Superblocks[5].ModuleId == 0);
  CHECK(Runs.instructions() == 9);
  CHECK(Runs.threads() == 2);
}

TEST_CASE("the same address with other lengths is another superblock, and long runs are cut",
          "[trace]") {
  Recorder R;
  RunSynthesizer Runs(R);
  requireSuccess(Runs.addInstruction(1, 0x500, 4));
  requireSuccess(Runs.flush());
  requireSuccess(Runs.addInstruction(1, 0x500, 2)); // code rewritten in place
  requireSuccess(Runs.flush());
  for (uint64_t I = 0; I < 600; ++I) // 600 one-byte instructions in a row
    requireSuccess(Runs.addInstruction(1, 0x1000 + I, 1));
  requireSuccess(Runs.flush());
  CHECK(describe(R.Runs) == "t1:0x500+1@0 t1:0x500+1@1 t1:0x1000+255@2 t1:0x10ff+255@3 "
                            "t1:0x11fe+90@4 ");
  CHECK(Runs.superblocks() == 5);
}
