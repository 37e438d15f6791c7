/// \file
/// Compiling policies into variants of one planned corpus.
#include "PolicyVariants.h"
#include "policy/Policy.h"
#include "support/Error.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <atomic>

namespace mlgo {

PolicyVariants::PolicyVariants(PolicyVariantsOptions Opts, VariantPlan Plan)
    : Opts(std::move(Opts)), Plan(std::move(Plan)) {
  if (this->Opts.Memo)
    Memo = std::make_unique<CompileMemo>(this->Plan.Modules.size(), 16);
}

PolicyVariants::~PolicyVariants() = default;

llvm::Expected<std::unique_ptr<PolicyVariants>>
PolicyVariants::create(llvm::StringRef Corpus, const PolicyVariantsOptions &Opts) {
  PlanOptions Planning;
  Planning.Clang = Opts.Clang;
  Planning.CacheDir = Opts.CacheDir;
  Planning.Jobs = Opts.PlanJobs;
  Planning.TimeoutSeconds = Opts.TimeoutSeconds;
  auto Plan = planVariant(Corpus, Planning);
  if (!Plan)
    return Plan.takeError();
  return std::unique_ptr<PolicyVariants>(new PolicyVariants(Opts, std::move(*Plan)));
}

llvm::Expected<VariantResult> PolicyVariants::compile(const Policy &P,
                                                      llvm::StringRef Directory) {
  VariantOptions Compiling;
  Compiling.Clang = Opts.Clang;
  Compiling.Jobs = Opts.Jobs;
  Compiling.TimeoutSeconds = Opts.TimeoutSeconds;
  Compiling.Memo = Memo.get();
  return compileVariant(P, Plan, Directory, Compiling);
}

llvm::Expected<std::string> PolicyVariants::compileNamed(llvm::StringRef NameOrPath,
                                                         llvm::StringRef WorkDir) {
  auto P = loadPolicy(NameOrPath);
  if (!P)
    return P.takeError();
  static std::atomic<unsigned> Counter{0};
  std::string Directory = fmt::format("{}/variant-{}", WorkDir.str(), Counter++);
  auto Compiled = compile(*P, Directory);
  if (!Compiled)
    return Compiled.takeError();
  return Directory;
}

bool namesPolicy(llvm::StringRef Argument) {
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(Argument, Status)) {
    // A directory is code (objects); a device or a FIFO too, for the code loader to
    // refuse: identify_magic would read it without end.
    if (!llvm::sys::fs::is_regular_file(Status))
      return false;
    llvm::file_magic Magic;
    return !llvm::identify_magic(Argument, Magic) && Magic != llvm::file_magic::elf_executable &&
           Magic != llvm::file_magic::elf_shared_object &&
           Magic != llvm::file_magic::elf_relocatable;
  }
  const auto &Names = builtinPolicyNames();
  return std::find(Names.begin(), Names.end(), Argument) != Names.end();
}

llvm::Expected<std::map<std::string, std::string>>
compileNamedPolicies(llvm::ArrayRef<std::string *> Arguments, llvm::StringRef Corpus,
                     const PolicyVariantsOptions &Opts, llvm::StringRef WorkDir) {
  std::map<std::string, std::string> PolicyOf;
  std::vector<std::string *> Named;
  for (std::string *Argument : Arguments)
    if (!Argument->empty() && namesPolicy(*Argument))
      Named.push_back(Argument);
  if (Named.empty())
    return PolicyOf;
  if (Corpus.empty())
    return inputError(*Named.front(), "names a policy: give --corpus to compile it");
  auto Variants = PolicyVariants::create(Corpus, Opts);
  if (!Variants)
    return Variants.takeError();
  for (std::string *Argument : Named) {
    auto Directory = (*Variants)->compileNamed(*Argument, WorkDir);
    if (!Directory)
      return Directory.takeError();
    PolicyOf[*Directory] = *Argument;
    *Argument = *Directory;
  }
  return PolicyOf;
}

} // namespace mlgo
