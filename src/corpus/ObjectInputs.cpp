/// \file
/// The four ways a build names its objects, as google/ml-compiler-opt's extract_ir
/// reads them.
#include "ObjectInputs.h"
#include "support/DirectoryWalk.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/Json.h"
#include "support/SafePath.h"
#include "support/ShellWords.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace mlgo {
namespace {

constexpr llvm::StringLiteral ThinLTOImportSuffix = ".3.import.bc";

bool isObjectName(llvm::StringRef Path) {
  return Path.ends_with(".o") || Path.ends_with(".obj");
}

/// Every file below \p Dir accepted by \p Keep, relative to Dir, sorted (DirectoryWalk.h:
/// symlink loops end, each file once).
llvm::Expected<std::vector<std::string>>
walkDirectory(llvm::StringRef Dir, llvm::function_ref<bool(llvm::StringRef)> Keep) {
  auto Paths = listFilesBelow(Dir, Keep);
  if (!Paths)
    return Paths.takeError();
  std::vector<std::string> Found;
  for (llvm::StringRef Relative : *Paths) {
    Relative.consume_front(Dir);
    Found.push_back(Relative.ltrim('/').str());
  }
  return Found;
}

llvm::Expected<std::vector<ObjectInput>> listDirectory(llvm::StringRef Dir) {
  auto Files = walkDirectory(Dir, isObjectName);
  if (!Files)
    return Files.takeError();
  std::vector<ObjectInput> Inputs;
  for (const std::string &File : *Files)
    Inputs.push_back({resolvePath(Dir, File), File, Dir.str()});
  return Inputs;
}

llvm::Expected<std::vector<ObjectInput>> listThinLTOLocal(llvm::StringRef Dir) {
  auto Files =
      walkDirectory(Dir, [](llvm::StringRef P) { return P.ends_with(ThinLTOImportSuffix); });
  if (!Files)
    return Files.takeError();
  std::vector<ObjectInput> Inputs;
  for (const std::string &File : *Files)
    Inputs.push_back({resolvePath(Dir, File),
                      llvm::StringRef(File).drop_back(ThinLTOImportSuffix.size()).str(),
                      Dir.str()});
  return Inputs;
}

/// The -o operand of a compile command, or "" when it has none (not a compile).
std::string outputOperand(llvm::ArrayRef<std::string> Args) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-o")
      return Args[I + 1];
  return "";
}

llvm::Expected<std::vector<ObjectInput>> listCompileCommands(llvm::StringRef Path) {
  auto Commands = readJsonFile(Path);
  if (!Commands)
    return Commands.takeError();
  if (!Commands->is_array())
    return inputError(Path, "expected a JSON array of compile commands");
  std::vector<ObjectInput> Inputs;
  llvm::StringSet<> Seen;
  for (size_t I = 0; I < Commands->size(); ++I) {
    const Json &Entry = (*Commands)[I];
    std::string Where = fmt::format("{}: entry {}", Path.str(), I);
    auto Directory = getJsonField<std::string>(Entry, "directory", Where);
    if (!Directory)
      return Directory.takeError();
    std::vector<std::string> Args;
    auto List = getOptionalJsonField<std::vector<std::string>>(Entry, "arguments", Where);
    if (!List)
      return List.takeError();
    if (*List) {
      Args = std::move(**List);
    } else {
      auto Command = getJsonField<std::string>(Entry, "command", Where);
      if (!Command) {
        llvm::consumeError(Command.takeError());
        return inputError(Where, "has neither 'arguments' nor 'command'");
      }
      Args = splitShellWords(*Command);
    }
    std::string Object = outputOperand(Args);
    if (Object.empty())
      continue; // not a compile that produces an object (ml-compiler-opt skips these too)
    std::string Module = containedRelativePath(Object, *Directory);
    if (Module.empty() || !Seen.insert(Module).second)
      continue;
    Inputs.push_back({resolvePath(*Directory, Object), Module, *Directory});
  }
  return Inputs;
}

llvm::Expected<std::vector<ObjectInput>> listLinkerParams(llvm::StringRef Path,
                                                          llvm::StringRef BaseDir) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  std::vector<std::string> Args = splitShellWords((*Buffer)->getBuffer());
  std::vector<ObjectInput> Inputs;
  llvm::StringSet<> Seen;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "-o") { // the linker's output, not an input
      ++I;
      continue;
    }
    if (Arg.starts_with("-") || !isObjectName(Arg))
      continue;
    std::string Module = containedRelativePath(Arg, BaseDir);
    if (Module.empty() || !Seen.insert(Module).second)
      continue;
    Inputs.push_back({resolvePath(BaseDir, Arg), Module, BaseDir.str()});
  }
  return Inputs;
}

} // namespace

llvm::Expected<std::vector<ObjectInput>> listObjectInputs(InputKind Kind,
                                                          const ExtractCorpusOptions &Opts) {
  switch (Kind) {
  case InputKind::Directory:
    return listDirectory(Opts.Input);
  case InputKind::ThinLTOLocal:
    return listThinLTOLocal(Opts.Input);
  case InputKind::CompileCommands:
    return listCompileCommands(Opts.Input);
  case InputKind::LinkerParams: {
    llvm::SmallString<256> Base(Opts.ObjectBaseDir);
    if (Base.empty())
      llvm::sys::fs::current_path(Base);
    return listLinkerParams(Opts.Input, Base);
  }
  case InputKind::Auto:
    break;
  }
  llvm_unreachable("input kind must be resolved before listing");
}

llvm::Expected<InputKind> detectInputKind(llvm::StringRef Input) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Input, Status))
    return inputError(Input, "cannot read: {}", EC.message());
  if (llvm::sys::fs::is_directory(Status)) {
    auto Imports = listFilesBelow(
        Input, [](llvm::StringRef P) { return P.ends_with(ThinLTOImportSuffix); });
    if (!Imports)
      return Imports.takeError();
    return Imports->empty() ? InputKind::Directory : InputKind::ThinLTOLocal;
  }
  auto Buffer = readRegularFile(Input);
  if (!Buffer)
    return Buffer.takeError();
  if ((*Buffer)->getBuffer().ltrim().starts_with("["))
    return InputKind::CompileCommands;
  return InputKind::LinkerParams;
}

llvm::StringRef inputKindName(InputKind Kind) {
  switch (Kind) {
  case InputKind::Auto: return "auto";
  case InputKind::Directory: return "directory";
  case InputKind::CompileCommands: return "compile-commands";
  case InputKind::LinkerParams: return "params";
  case InputKind::ThinLTOLocal: return "thinlto-local";
  }
  llvm_unreachable("unknown input kind");
}

std::optional<InputKind> parseInputKind(llvm::StringRef Name) {
  for (InputKind Kind : {InputKind::Auto, InputKind::Directory, InputKind::CompileCommands,
                         InputKind::LinkerParams, InputKind::ThinLTOLocal})
    if (inputKindName(Kind) == Name)
      return Kind;
  return std::nullopt;
}

} // namespace mlgo
