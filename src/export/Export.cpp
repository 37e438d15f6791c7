/// \file
/// runExport: load the policy, render the files of the format, write them atomically.
#include "Export.h"

#include "BuildFiles.h"
#include "ModelClass.h"
#include "OutputDirectory.h"
#include "policy/Policy.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

namespace mlgo {
namespace {

llvm::Error writeJson(const Policy &P, const std::string &Output) {
  if (llvm::sys::fs::is_directory(Output))
    return inputError(Output, "is a directory (--format json writes a policy file)");
  if (llvm::Error E = savePolicy(P, Output))
    return inputError(Output, "cannot write: {}", llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Expected<std::vector<GeneratedFile>> renderCpp(const Policy &P,
                                                     const ExportOptions &Opts) {
  if (!P.usesAdvisor())
    return inputError(Opts.Policy,
                      "the default policy is LLVM's own heuristic and has no network to "
                      "export as C++ (an LLVM built without a model already uses it)");
  auto Files = renderModelClass(P, Opts.Policy);
  if (!Files)
    return Files.takeError();
  llvm::SmallString<256> Dir(directoryPath(Opts.Output));
  llvm::sys::fs::make_absolute(Dir);
  for (GeneratedFile &F : renderBuildFiles(P, Dir))
    Files->push_back(std::move(F));
  return Files;
}

} // namespace

Json ExportResult::toJSON() const {
  return Json{{"format", "mlgo-ra.export.summary"},
              {"version", 1},
              {"policy", PolicyName},
              {"export_format", Format == ExportFormat::Cpp ? "cpp" : "json"},
              {"output", Output},
              {"files", Files},
              {"parameters", Parameters}};
}

llvm::Expected<ExportResult> runExport(const ExportOptions &Opts) {
  const auto &Names = builtinPolicyNames();
  if (!llvm::is_contained(Names, Opts.Policy) && !llvm::sys::fs::exists(Opts.Policy))
    return inputError(Opts.Policy, "neither a built-in policy ({}) nor a policy file",
                      llvm::join(Names, ", "));
  if (llvm::Error E = checkOutputOutsideInputs(Opts.Output, {policyFile(Opts.Policy)}))
    return E;
  auto P = loadPolicy(Opts.Policy);
  if (!P)
    return P.takeError();
  ExportResult R;
  R.PolicyName = P->name();
  R.Format = Opts.Format;
  R.Output = Opts.Output;
  R.Parameters = P->usesAdvisor() ? P->network().parameters().size() : 0;
  if (Opts.Format == ExportFormat::Json) {
    if (llvm::Error E = writeJson(*P, Opts.Output))
      return E;
    return R;
  }
  auto Files = renderCpp(*P, Opts);
  if (!Files)
    return Files.takeError();
  if (llvm::Error E = writeDirectoryAtomically(Opts.Output, *Files, {ModelObjectFile}))
    return E;
  for (const GeneratedFile &F : *Files)
    R.Files.push_back(F.Path);
  return R;
}

} // namespace mlgo
