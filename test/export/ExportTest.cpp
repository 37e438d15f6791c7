// runExport: the files each format writes, and the inputs and outputs it refuses.
#include "CompileFixture.h"
#include "Export.h"
#include "ModelClass.h"
#include "TestSupport.h"
#include "policy/Policy.h"

#include "llvm/Support/FileSystem.h"
#include <cmath>

using namespace mlgo;
using namespace mlgo::test;

namespace {

ExportResult exportOk(const std::string &Policy, ExportFormat Format,
                      const std::string &Output) {
  return requireOk(runExport({Policy, Format, Output}));
}

std::string exportError(const std::string &Policy, ExportFormat Format,
                        const std::string &Output) {
  return requireError(runExport({Policy, Format, Output}));
}

} // namespace

TEST_CASE("json writes the policy file, which loads back the same policy", "[export]") {
  std::string Dir = makeTempDir("export-json");
  ExportResult R = exportOk("initial", ExportFormat::Json, Dir + "/initial.json");
  REQUIRE(R.PolicyName == "initial");
  Policy Back = requireOk(loadPolicy(Dir + "/initial.json"));
  REQUIRE(Back.name() == "initial");
  REQUIRE(Back.network().parameters() ==
          requireOk(builtinPolicy("initial")).network().parameters());

  // default has no network: a policy file, but no C++ class.
  exportOk("default", ExportFormat::Json, Dir + "/default.json");
  REQUIRE(!requireOk(loadPolicy(Dir + "/default.json")).usesAdvisor());
  std::string E = exportError(Dir + "/default.json", ExportFormat::Cpp, Dir + "/cpp");
  REQUIRE_THAT(E, Catch::StartsWith(Dir + "/default.json: the default policy is LLVM's "
                                          "own heuristic and has no network"));
  REQUIRE(!fileExists(Dir + "/cpp"));
}

TEST_CASE("cpp writes the class, the TensorFlow stand-in and a README", "[export]") {
  std::string Dir = makeTempDir("export-cpp");
  std::string Out = Dir + "/model";
  ExportResult R = exportOk("poor", ExportFormat::Cpp, Out + "/");
  REQUIRE(R.Files == std::vector<std::string>{
                         "RegAllocEvictModel.h", "RegAllocEvictModel.cpp", "README.md",
                         "tensorflow/xla_aot_runtime_src/CMakeLists.txt",
                         "tensorflow/xla_aot_runtime_src/tf_xla_runtime.cpp"});
  REQUIRE(R.Parameters == 2081);
  std::string Header = readFile(Out + "/" + ModelHeaderFile);
  REQUIRE_THAT(Header, Catch::Contains("class RegAllocEvictModel {"));
  REQUIRE_THAT(Header, Catch::Contains("policy \"poor\""));
  // Self-contained: the standard library and its own header only.
  std::string Source = readFile(Out + "/" + ModelSourceFile);
  for (llvm::StringRef Rest = Source; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    if (Line.starts_with("#include"))
      CHECK((Line.starts_with("#include <") || Line == "#include \"RegAllocEvictModel.h\""));
  }
  REQUIRE_THAT(readFile(Out + "/tensorflow/xla_aot_runtime_src/CMakeLists.txt"),
               Catch::Contains("add_library(tf_xla_runtime STATIC"));
  std::string Readme = readFile(Out + "/README.md");
  for (const char *Flag :
       {"EXPORT=" /* then the absolute directory */, "-DTENSORFLOW_AOT_PATH=\"$EXPORT/tensorflow\"",
        "-DLLVM_OVERRIDE_MODEL_HEADER_REGALLOCEVICTMODEL=\"$EXPORT/RegAllocEvictModel.h\"",
        "-DLLVM_OVERRIDE_MODEL_OBJECT_REGALLOCEVICTMODEL=\"$EXPORT/RegAllocEvictModel.o\"",
        "-DLLVM_INLINER_MODEL_PATH=none", "-regalloc-enable-advisor=release"})
    CHECK_THAT(Readme, Catch::Contains(Flag));
  CHECK_THAT(Readme, Catch::Contains("EXPORT=" + Out + "\n"));
  REQUIRE(listDir(Dir) == std::vector<std::string>{"model"}); // no temporaries left
}

TEST_CASE("the README's commands keep an odd directory name one word", "[export]") {
  std::string Dir = makeTempDir("export-quote");
  std::string Out = Dir + "/it's $(touch pwned) `touch pwned2` model";
  exportOk("poor", ExportFormat::Cpp, Out);
  std::string Readme = readFile(Out + "/README.md");
  size_t At = Readme.find("EXPORT=");
  REQUIRE(At != std::string::npos);
  std::string Line = Readme.substr(At, Readme.find('\n', At) - At);
  CommandResult R = runShell(Line + "; printf '%s' \"$EXPORT\"", Dir);
  CHECK(R.ExitCode == 0);
  CHECK(R.Output == Out);
  CHECK(!fileExists(Dir + "/pwned"));
  CHECK(!fileExists(Dir + "/pwned2"));
}

TEST_CASE("An earlier export is replaced, any other directory is not", "[export]") {
  std::string Dir = makeTempDir("export-replace");
  std::string Out = Dir + "/model";
  exportOk("poor", ExportFormat::Cpp, Out);
  writeFile(Out + "/" + ModelObjectFile, "compiled from poor, as the README says");
  exportOk("initial", ExportFormat::Cpp, Out);
  REQUIRE_THAT(readFile(Out + "/" + ModelHeaderFile), Catch::Contains("policy \"initial\""));
  REQUIRE(!fileExists(Out + "/" + ModelObjectFile)); // stale: it was poor's

  writeFile(Out + "/notes.txt", "mine");
  REQUIRE_THAT(exportError("poor", ExportFormat::Cpp, Out),
               Catch::Equals(Out + ": exists and holds 'notes.txt', which export does not "
                                   "write; not replacing it"));
  REQUIRE_THAT(readFile(Out + "/" + ModelHeaderFile), Catch::Contains("policy \"initial\""));

  writeFile(Dir + "/file", "");
  REQUIRE_THAT(exportError("poor", ExportFormat::Cpp, Dir + "/file"),
               Catch::Equals(Dir + "/file: exists and is not a directory"));
  REQUIRE_THAT(exportError("poor", ExportFormat::Cpp, Dir + "/file/model"),
               Catch::StartsWith(Dir + "/file/model: cannot create"));
  REQUIRE_THAT(exportError("poor", ExportFormat::Json, Dir + "/file/p.json"),
               Catch::StartsWith(Dir + "/file/p.json: cannot write: "));
  REQUIRE_THAT(exportError("poor", ExportFormat::Json, Out),
               Catch::StartsWith(Out + ": is a directory"));
  REQUIRE(listDir(Dir).size() == 2); // model and file: nothing half-written beside them
}

TEST_CASE("Unknown policies and corrupt policy files are input errors", "[export]") {
  std::string Dir = makeTempDir("export-inputs");
  REQUIRE_THAT(exportError("nosuch", ExportFormat::Cpp, Dir + "/m"),
               Catch::Equals("nosuch: neither a built-in policy (default, initial, poor) "
                             "nor a policy file"));
  writeFile(Dir + "/bad.json", "{\"format\": \"mlgo-ra-policy\", \"version\": 1,");
  REQUIRE_THAT(exportError(Dir + "/bad.json", ExportFormat::Cpp, Dir + "/m"),
               Catch::StartsWith(Dir + "/bad.json: invalid JSON"));
  REQUIRE(!fileExists(Dir + "/m"));
}

TEST_CASE("Only finite parameters are exported", "[export]") {
  Policy P = requireOk(builtinPolicy("initial"));
  P.parameters()[7] = std::nanf("");
  REQUIRE_THAT(requireError(renderModelClass(P, "p.json")),
               Catch::Equals("p.json: parameter 7 is nan; only finite parameters can be "
                             "exported"));
}
