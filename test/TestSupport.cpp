/// \file
/// Test helpers: real processes through /bin/sh, sections through LLVM's Object library.
#define CATCH_CONFIG_MAIN
#include "TestSupport.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <sys/wait.h>

namespace mlgo::test {

const char *const ClangPath = MLGO_TEST_CLANG;
const char *const SourceDir = MLGO_TEST_SOURCE_DIR;
const char *const BinaryDir = MLGO_TEST_BINARY_DIR;

void requireSuccess(llvm::Error E) {
  if (E)
    FAIL(llvm::toString(std::move(E)));
}

std::string requireError(llvm::Error E) {
  if (!E)
    FAIL("expected an error, got success");
  return llvm::toString(std::move(E));
}

std::string makeTempDir(const std::string &Name) {
  llvm::SmallString<256> Base(BinaryDir);
  llvm::sys::path::append(Base, "test-scratch");
  llvm::sys::fs::create_directories(Base);
  llvm::SmallString<256> Dir;
  std::error_code EC =
      llvm::sys::fs::createUniqueDirectory(std::string(Base) + "/" + Name, Dir);
  REQUIRE_FALSE(EC);
  return std::string(Dir);
}

std::string shellQuote(const std::string &Word) {
  std::string Quoted = "'";
  for (char C : Word)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

CommandResult runShell(const std::string &Script, const std::string &Dir) {
  llvm::SmallString<128> OutPath;
  llvm::sys::fs::createTemporaryFile("mlgo-test", "out", OutPath);
  std::string Command = "cd " + shellQuote(Dir) + " && { " + Script + "; } > " +
                        shellQuote(std::string(OutPath)) + " 2>&1";
  int Status = std::system(Command.c_str());
  CommandResult Result{WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status),
                       readFile(std::string(OutPath))};
  llvm::sys::fs::remove(OutPath);
  return Result;
}

std::string buildTestProgram(const std::string &Name, const std::string &Dir) {
  CommandResult Built =
      runShell(std::string(ClangPath) + " -O2 -fbasic-block-address-map " +
                   shellQuote(std::string(SourceDir) + "/test/programs/" + Name + ".c") +
                   " -o " + shellQuote(Name),
               Dir);
  INFO(Built.Output);
  REQUIRE(Built.ExitCode == 0);
  return Dir + "/" + Name;
}

void writeFile(const std::string &Path, const std::string &Text) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  REQUIRE_FALSE(EC);
  OS << Text;
}

std::string readFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    FAIL("cannot read " + Path);
  return (*Buffer)->getBuffer().str();
}

bool fileExists(const std::string &Path) { return llvm::sys::fs::exists(Path); }

std::map<std::string, std::string> readSections(const std::string &ObjectPath,
                                                const std::string &Prefix) {
  auto Object = llvm::object::ObjectFile::createObjectFile(ObjectPath);
  if (!Object)
    FAIL(ObjectPath + ": " + llvm::toString(Object.takeError()));
  std::map<std::string, std::string> Sections;
  for (const llvm::object::SectionRef &Section : Object->getBinary()->sections()) {
    llvm::StringRef Name = llvm::cantFail(Section.getName());
    if (Name.starts_with(Prefix))
      Sections[Name.str()] += llvm::cantFail(Section.getContents()).str();
  }
  return Sections;
}

void initializeTargets() {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllDisassemblers();
  llvm::InitializeAllTargetMCAs();
}

} // namespace mlgo::test
