#include "PairedPrograms.h"
#include "PairedHarness.h"
#include "TimedRun.h"
#include "code/DefinedGlobals.h"
#include "support/Error.h"
#include "support/OutputFile.h"
#include "support/WaitStatus.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include <fmt/format.h>
#include <algorithm>
#include <set>

namespace mlgo {
namespace {

/// llvm-objcopy of the LLVM that mlgo-ra was built with.
std::string objcopy() { return std::string(MLGO_LLVM_TOOLS_DIR) + "/llvm-objcopy"; }

llvm::Error runTool(const std::vector<std::string> &Argv, const std::string &Stderr,
                    const std::string &What) {
  auto Ran = runTimed({Argv, "", "", "", Stderr});
  if (!Ran)
    return Ran.takeError();
  if (Ran->Status != 0)
    return stageError("{} {} (see {})", What, describeWaitStatus(Ran->Status), Stderr);
  return llvm::Error::success();
}

/// Visits the object files in \p Path (an object or an archive's members).
llvm::Error forEachObject(const std::string &Path,
                          llvm::function_ref<void(const llvm::object::ObjectFile &)> Visit) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return inputError(Path, "cannot read: {}", Buffer.getError().message());
  auto Binary = llvm::object::createBinary((*Buffer)->getMemBufferRef());
  if (!Binary)
    return withInput(Path, Binary.takeError());
  if (auto *Object = llvm::dyn_cast<llvm::object::ObjectFile>(Binary->get())) {
    Visit(*Object);
    return llvm::Error::success();
  }
  auto *Archive = llvm::dyn_cast<llvm::object::Archive>(Binary->get());
  if (!Archive)
    return inputError(Path, "is neither an object nor an archive");
  llvm::Error Failed = llvm::Error::success();
  for (const auto &Child : Archive->children(Failed)) {
    auto Member = Child.getAsBinary();
    if (!Member)
      return withInput(Path, Member.takeError());
    if (auto *Object = llvm::dyn_cast<llvm::object::ObjectFile>(Member->get()))
      Visit(*Object);
  }
  return withInput(Path, std::move(Failed));
}

/// The global symbols the objects define.
llvm::Expected<std::set<std::string>> definedGlobals(const std::vector<std::string> &Paths) {
  std::set<std::string> Names;
  for (const std::string &Path : Paths)
    if (llvm::Error E = forEachObject(Path, [&](const llvm::object::ObjectFile &Object) {
          llvm::StringSet<> Defined;
          addDefinedGlobals(Object, Defined);
          for (const auto &Entry : Defined)
            Names.insert(Entry.getKey().str());
        }))
      return E;
  return Names;
}

/// The executable sections of \p Path aligned to more than \p Shift bytes.
llvm::Expected<std::set<std::string>> overAlignedCode(const std::string &Path,
                                                      uint64_t Shift) {
  std::set<std::string> Names;
  if (llvm::Error E = forEachObject(Path, [&](const llvm::object::ObjectFile &Object) {
        for (const llvm::object::SectionRef &Section : Object.sections()) {
          auto Name = Section.getName();
          if (!Name) {
            llvm::consumeError(Name.takeError());
            continue;
          }
          if (Section.isText() && Section.getAlignment().value() > Shift)
            Names.insert(Name->str());
        }
      }))
    return E;
  return Names;
}

} // namespace

llvm::Expected<PairedPrograms>
PairedPrograms::prepare(const LinkCommand &Link, const std::vector<std::string> &Directories,
                        const std::string &Scratch, const std::string &Clang,
                        uint64_t CodeShift) {
  PairedPrograms P;
  P.CodeShift = CodeShift;
  P.Link = Link;
  P.Scratch = Scratch;
  P.Clang = Clang;
  P.Directory = Directories.front();
  std::vector<std::string> Relative = Link.objects();
  for (size_t B = 0; B < Directories.size(); ++B) {
    std::string Dir = fmt::format("{}/v{}", Scratch, B);
    std::string Shifted = Dir + "-shifted";
    for (const std::string &D : {Dir, Shifted})
      if (std::error_code EC = llvm::sys::fs::create_directories(D))
        return stageError("{}: cannot create: {}", D, EC.message());
    std::vector<std::string> Sources;
    for (const std::string &Object : Relative) {
      std::string Source = Directories[B] + "/" + Object;
      if (!llvm::sys::fs::is_regular_file(Source))
        return inputError(Source, "no such object (the link command names it)");
      Sources.push_back(Source);
    }
    auto Globals = definedGlobals(Sources);
    if (!Globals)
      return Globals.takeError();
    if (!Globals->count("main"))
      return inputError(Directories[B], "its objects define no main");
    std::string Map;
    for (const std::string &Name : *Globals)
      Map += fmt::format("{} {}__v{}\n", Name, Name, B);
    std::string MapPath = Dir + ".map";
    if (llvm::Error E = writeFileAtomically(MapPath, Map))
      return E;
    P.Objects.emplace_back();
    P.ObjectsShifted.emplace_back();
    for (size_t O = 0; O < Sources.size(); ++O) {
      std::string Suffix = llvm::StringRef(Sources[O]).ends_with(".a") ? ".a" : ".o";
      std::string Renamed = fmt::format("{}/{}{}", Dir, O, Suffix);
      std::string Aligned = fmt::format("{}/{}{}", Shifted, O, Suffix);
      if (llvm::Error E = runTool({objcopy(), "--redefine-syms=" + MapPath, Sources[O], Renamed},
                                  Scratch + "/objcopy.err",
                                  fmt::format("{}: llvm-objcopy", Sources[O])))
        return E;
      // Code aligned to more than the shift is aligned to the shift in the copies the
      // shifted layouts link; none is: those layouts link the renamed objects.
      auto Over = overAlignedCode(Renamed, CodeShift);
      if (!Over)
        return Over.takeError();
      if (Over->empty()) {
        Aligned = Renamed;
      } else {
        std::vector<std::string> Align = {objcopy()};
        for (const std::string &Section : *Over)
          Align.push_back(fmt::format("--set-section-alignment={}={}", Section, CodeShift));
        Align.push_back(Renamed);
        Align.push_back(Aligned);
        if (llvm::Error E = runTool(Align, Scratch + "/objcopy.err",
                                    fmt::format("{}: llvm-objcopy", Sources[O])))
          return E;
      }
      P.Objects.back().push_back(Renamed);
      P.ObjectsShifted.back().push_back(Aligned);
    }
  }
  std::string HarnessSource = Scratch + "/harness.c";
  P.Harness = Scratch + "/harness.o";
  if (llvm::Error E = writeFileAtomically(HarnessSource, pairedHarnessSource()))
    return E;
  if (llvm::Error E = runTool({Clang, "-x", "c", "-O2", "-c", HarnessSource, "-o", P.Harness},
                              Scratch + "/harness.err", "compiling the harness: " + Clang))
    return E;
  return P;
}

llvm::Expected<std::string> PairedPrograms::link(unsigned Layout, std::mt19937_64 &Random,
                                                 std::vector<size_t> &Order) const {
  size_t Count = Objects.size();
  Order.clear();
  for (size_t B = 0; B < Count; ++B)
    Order.push_back(Layout == 1 ? Count - 1 - B : B);
  if (Layout >= 2)
    std::shuffle(Order.begin(), Order.end(), Random);
  std::vector<std::string> Linked = {Harness};
  for (size_t B : Order) {
    if (Layout < 2) {
      Linked.insert(Linked.end(), Objects[B].begin(), Objects[B].end());
      continue;
    }
    std::string Pad = fmt::format("{}/pad{}-{}", Scratch, Layout, B);
    if (llvm::Error E = writeFileAtomically(
            Pad + ".s", fmt::format(".text\n.p2align 6\n.skip {}, 0x90\n.data\n.skip {}\n",
                                    Random() % (4096 / CodeShift) * CodeShift,
                                    Random() % 64 * 64)))
      return E;
    if (llvm::Error E = runTool({Clang, "-c", Pad + ".s", "-o", Pad + ".o"},
                                Scratch + "/pad.err", "assembling a layout's padding: " + Clang))
      return E;
    Linked.push_back(Pad + ".o");
    Linked.insert(Linked.end(), ObjectsShifted[B].begin(), ObjectsShifted[B].end());
  }
  std::string Program = fmt::format("{}/layout{}", Scratch, Layout);
  std::string Stderr = Scratch + "/link.err";
  // In the baseline's directory, where the link command's other paths (-L) lead.
  auto Ran = runTimed({Link.with(Linked, Program), Directory, "", "", Stderr});
  if (!Ran)
    return Ran.takeError();
  if (Ran->Status != 0)
    return inputError("--link", "linking the builds into one program {}: {}",
                      describeWaitStatus(Ran->Status), firstLineOf(Stderr));
  // The pads are of this layout only.
  for (size_t B = 0; Layout >= 2 && B < Count; ++B)
    for (const char *Ext : {".s", ".o"})
      llvm::sys::fs::remove(fmt::format("{}/pad{}-{}{}", Scratch, Layout, B, Ext));
  return Program;
}

} // namespace mlgo
