/// \file
/// Decodes the stream that the mlgotrace Valgrind tool (src/trace/valgrind/) writes:
/// the modules and superblocks the traced program ran, and per executed superblock a
/// run of instructions. The format is specified in src/trace/valgrind/README.md.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlgo {

/// An object file that held traced code (one Valgrind DebugInfo).
struct CollectorModule {
  uint32_t Id = 0; ///< 1-based, in order of appearance; 0 in a superblock means none
  bool IsMainExecutable = false;
  uint64_t TextAddress = 0; ///< run-time address of the text mapping
  uint64_t TextSize = 0;
  int64_t LoadBias = 0; ///< run-time address minus link-time address
  std::string Path;
};

/// A superblock: contiguous guest instructions that may be left early through side
/// exits. Exit I has id FirstExitId + I and leaves after ExitInstrCounts[I]
/// instructions; the last exit is the fall-through and runs all of them.
struct CollectorSuperblock {
  uint64_t Address = 0;
  uint32_t ModuleId = 0;
  uint32_t FirstExitId = 0;
  std::vector<uint8_t> InstrLengths;
  std::vector<uint8_t> Bytes; ///< the code, InstrLengths summed
  std::vector<uint8_t> ExitInstrCounts;
  size_t numInstructions() const { return InstrLengths.size(); }
};

/// NumInstructions contiguous instructions from Address, executed by one thread.
struct CollectorRun {
  uint32_t ThreadId = 0;
  uint64_t Address = 0;
  uint32_t NumInstructions = 0;
  uint32_t SuperblockIndex = 0; ///< into CollectorStreamReader::superblocks()
  /// The exit it left through: CollectorSuperblock::FirstExitId + the exit's index.
  uint32_t ExitId = 0;
};

/// A load instruction's loads (--mlgotrace-loads=yes): how many executed, and how many
/// read memory that one of the last 64 stores wrote (a store that may still be in
/// flight when the load wants to go).
struct CollectorLoadSite {
  uint64_t Address = 0; ///< the instruction's run-time address
  uint64_t Executions = 0, Dependent = 0;
};

/// A run in a batch (CollectorStreamListener::onRuns), and how many times in a row the
/// thread ran it (a loop that is one superblock, a `rep` instruction).
struct RepeatedRun {
  uint32_t ExitId;
  uint32_t Repeat;
};

class CollectorStreamReader;

/// Receives the stream's records in order. A module or superblock is always reported
/// before the first run that uses it. Returning an error stops the reader.
class CollectorStreamListener {
public:
  virtual ~CollectorStreamListener();
  virtual llvm::Error onModule(const CollectorModule &M);
  virtual llvm::Error onSuperblock(const CollectorSuperblock &S, uint32_t Index);
  virtual void onThreadSwitch(uint32_t ThreadId);
  /// Version 2: after the last run, before the end record, once per load instruction.
  virtual llvm::Error onLoadSite(const CollectorLoadSite &Site);
  virtual llvm::Error onRun(const CollectorRun &R) = 0;
  /// Consecutive runs of \p ThreadId, in order: the reader hands over runs in batches
  /// (nothing else happens between them). The default calls onRun() for each run,
  /// Repeat times, with Reader.runThrough().
  virtual llvm::Error onRuns(const CollectorStreamReader &Reader, uint32_t ThreadId,
                             llvm::ArrayRef<RepeatedRun> Runs);
};

/// Reads a stream incrementally from a file descriptor (a file, a pipe or a FIFO),
/// in chunks of at most 1 MiB, so a trace need never be stored whole.
class CollectorStreamReader {
public:
  /// The newest version read; version 1 has no load sites.
  static constexpr uint32_t Version = 2;

  /// Opens \p Path for reading; for a FIFO this blocks until the writer opens it.
  static llvm::Expected<std::unique_ptr<CollectorStreamReader>>
  open(llvm::StringRef Path);
  /// Reads from \p Fd, closing it on destruction if \p OwnsFd. \p Name is used in
  /// error messages. Each read() asks for at most \p ReadSize bytes (tests use tiny
  /// sizes to cut records at every byte).
  CollectorStreamReader(int Fd, std::string Name, bool OwnsFd,
                        size_t ReadSize = size_t(1) << 20);
  ~CollectorStreamReader();
  CollectorStreamReader(const CollectorStreamReader &) = delete;
  CollectorStreamReader &operator=(const CollectorStreamReader &) = delete;

  /// Reads one chunk and decodes every complete record in it. Returns false once the
  /// end record has been read and checked, true if more is to come.
  llvm::Expected<bool> step(CollectorStreamListener &L);
  /// Calls step() until the end record.
  llvm::Error run(CollectorStreamListener &L);

  const std::vector<CollectorModule> &modules() const { return Modules; }
  /// The module with \p Id, or null for 0 or an unknown id.
  const CollectorModule *module(uint32_t Id) const;
  /// The module flagged as the traced program's executable, or null.
  const CollectorModule *mainExecutable() const;
  const std::vector<CollectorSuperblock> &superblocks() const { return Superblocks; }
  /// The run of \p ThreadId through the defined exit \p ExitId.
  CollectorRun runThrough(uint32_t ThreadId, uint32_t ExitId) const {
    const ExitInfo &X = Exits[ExitId];
    return {ThreadId, X.Address, ExitInstructions[ExitId], X.SuperblockIndex, ExitId};
  }

  uint32_t pid() const { return Pid; }
  /// Instructions and runs decoded so far; after the end record they equal its counts.
  uint64_t numInstructions() const { return NumInstructions; }
  uint64_t numRuns() const { return NumRuns; }
  bool finished() const { return Finished; }
  /// The descriptor reached its end (the writer closed it).
  bool eof() const { return Eof; }

private:
  struct ExitInfo {
    uint64_t Address;
    uint32_t SuperblockIndex;
  };
  enum class Parse { Done, NeedMore };

  llvm::Expected<size_t> fill();
  llvm::Error readHeader();
  llvm::Expected<Parse> parseRecords(CollectorStreamListener &L);
  /// Decodes the run records of 1 or 2 bytes (exit ids below 16368) at the start of
  /// [P, End) and hands them to \p L in batches; returns where they end. Longer and
  /// invalid run records are left to parseRecords(), which reports the errors.
  llvm::Expected<const uint8_t *> decodeRuns(const uint8_t *P, const uint8_t *End,
                                             CollectorStreamListener &L);
  llvm::Error error(uint64_t Offset, const llvm::Twine &Message) const;

  int Fd;
  std::string Name;
  bool OwnsFd;
  size_t ReadSize;
  std::vector<uint8_t> Buf;
  size_t Pos = 0, End = 0;  ///< unread bytes are Buf[Pos, End)
  uint64_t BufOffset = 0;   ///< stream offset of Buf[0]
  bool Eof = false, HeaderRead = false, Finished = false;

  uint32_t Pid = 0;
  uint32_t ThreadId = 0;
  uint64_t NumInstructions = 0, NumRuns = 0;
  std::vector<CollectorModule> Modules;
  std::vector<CollectorSuperblock> Superblocks;
  std::vector<ExitInfo> Exits;
  std::vector<uint8_t> ExitInstructions; ///< by exit id; apart, as runs need only this
};

} // namespace mlgo
