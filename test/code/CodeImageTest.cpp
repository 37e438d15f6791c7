// CodeImage on real clang-22 binaries: blocks, segments and lookups checked against
// llvm-objdump's disassembly and the BB address map.
#include "TestSupport.h"
#include "code/CodeImage.h"

#include "llvm/Support/Path.h"
#include <sstream>

using namespace mlgo;
using namespace mlgo::test;

namespace {

const char *const MapFlags = "-O2 -fbasic-block-address-map";

std::string buildProgram(const std::string &Dir, const std::string &Flags) {
  writeFile(Dir + "/a.c",
            "static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }\n"
            "int fromA(int x) { return helper(x); }\n");
  writeFile(Dir + "/b.c",
            "#include <stdio.h>\n"
            "int fromA(int);\n"
            "static __attribute__((noinline)) int helper(int x) { return x ^ 5; }\n"
            "int main(int argc, char **argv) {\n"
            "  int s = 0;\n"
            "  for (int i = 0; i < argc * 1000; ++i)\n"
            "    s += (i & 1) ? fromA(i) : helper(i);\n"
            "  printf(\"%d\\n\", s);\n"
            "  return 0;\n"
            "}\n");
  CommandResult R = runShell(std::string(ClangPath) + " " + Flags + " a.c b.c -o app", Dir);
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
  return Dir + "/app";
}

/// Instruction addresses and mnemonics from llvm-objdump -d.
std::map<uint64_t, std::string> objdumpInstructions(const std::string &Binary) {
  std::string Objdump = std::string(llvm::sys::path::parent_path(ClangPath)) + "/llvm-objdump";
  CommandResult R = runShell(Objdump + " -d --no-show-raw-insn " + shellQuote(Binary));
  REQUIRE(R.ExitCode == 0);
  std::map<uint64_t, std::string> Instructions;
  std::istringstream Lines(R.Output);
  std::string Line;
  while (std::getline(Lines, Line)) {
    // "    1139:      	movl	%edi, %eax"
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos || llvm::StringRef(Line).ends_with(">:"))
      continue; // not an instruction, or a symbol header "0000000000001160 <main>:"
    std::string Address = llvm::StringRef(Line).take_front(Colon).trim().str();
    uint64_t Value;
    if (Address.empty() || llvm::StringRef(Address).getAsInteger(16, Value))
      continue;
    std::istringstream Rest(Line.substr(Colon + 1));
    std::string Mnemonic;
    Rest >> Mnemonic;
    Instructions[Value] = Mnemonic;
  }
  return Instructions;
}

bool endsSegment(const std::string &Mnemonic) {
  return llvm::StringRef(Mnemonic).starts_with("call") ||
         llvm::StringRef(Mnemonic).starts_with("j") ||
         llvm::StringRef(Mnemonic).starts_with("ret");
}

} // namespace

TEST_CASE("blocks and segments agree with llvm-objdump", "[code]") {
  initializeTargets();
  std::string Binary = buildProgram(makeTempDir("image"), MapFlags);
  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  std::map<uint64_t, std::string> Objdump = objdumpInstructions(Binary);

  REQUIRE(Image.blocks().size() > 5);
  for (const CodeBlock &Block : Image.blocks()) {
    INFO("block " << Block.ID << " of " << Image.functions()[Block.Function].key());
    auto Begin = Objdump.lower_bound(Block.Address);
    auto End = Objdump.lower_bound(Block.Address + Block.Size);
    // Segments tile the block and end exactly after calls, jumps and returns.
    uint32_t Expected = 1, Instructions = 0;
    for (auto It = Begin; It != End; ++It, ++Instructions)
      if (std::next(It) != End && endsSegment(It->second))
        ++Expected;
    CHECK(Block.NumSegments == Expected);
    uint64_t Next = Block.Address;
    uint32_t Counted = 0;
    for (uint32_t S = Block.FirstSegment; S < Block.FirstSegment + Block.NumSegments; ++S) {
      const CodeSegment &Seg = Image.segments()[S];
      CHECK(Seg.Address == Next);
      CHECK(Objdump.count(Seg.Address) == 1);
      Next = Seg.Address + Seg.Size;
      Counted += Seg.NumInstructions;
      CHECK(Image.findSegment(Seg.Address) == S);
      CHECK(Image.findSegment(Seg.Address + Seg.Size - 1) == S);
    }
    CHECK(Next == Block.Address + Block.Size);
    CHECK(Counted == Instructions);
  }
}

TEST_CASE("static functions of the same name stay apart by file", "[code]") {
  initializeTargets();
  std::string Binary = buildProgram(makeTempDir("image"), MapFlags);
  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  std::vector<std::string> Keys;
  for (const CodeFunction &F : Image.functions())
    Keys.push_back(F.key());
  std::sort(Keys.begin(), Keys.end());
  CHECK(Keys == std::vector<std::string>{"a.c:helper", "b.c:helper", "fromA", "main"});
}

TEST_CASE("the identity is the GNU build ID", "[code]") {
  initializeTargets();
  std::string Dir = makeTempDir("image");
  std::string Binary = buildProgram(Dir, std::string(MapFlags) + " -Wl,--build-id=0x0123abcd");
  CHECK(requireOk(CodeImage::loadBinary(Binary)).identity() == "build-id:0123abcd");
  Binary = buildProgram(Dir, std::string(MapFlags) + " -Wl,--build-id=none");
  CHECK_THAT(requireOk(CodeImage::loadBinary(Binary)).identity(), Catch::StartsWith("xxh3:"));
}

TEST_CASE("addresses outside blocks are not mapped, padding goes to the block before",
          "[code]") {
  initializeTargets();
  std::string Binary = buildProgram(makeTempDir("image"), MapFlags);
  CodeImage Image = requireOk(CodeImage::loadBinary(Binary));
  const CodeFunction &First = Image.functions().front();
  CHECK_FALSE(Image.findSegment(First.Address - 1).has_value());
  CHECK_FALSE(Image.findSegment(0).has_value());
  // Find a gap between two blocks of one function (alignment padding), if any.
  for (uint32_t B = 0; B + 1 < Image.blocks().size(); ++B) {
    const CodeBlock &Here = Image.blocks()[B], &Next = Image.blocks()[B + 1];
    if (Here.Function != Next.Function || Here.Address + Here.Size >= Next.Address)
      continue;
    uint64_t Gap = Here.Address + Here.Size;
    CHECK_FALSE(Image.findSegment(Gap).has_value());
    CHECK(Image.findSegmentAtOrBefore(Gap) == Here.FirstSegment + Here.NumSegments - 1);
  }
}

TEST_CASE("binaries the trace cannot use are rejected with the reason", "[code]") {
  initializeTargets();
  std::string Dir = makeTempDir("image");
  std::string NoMap = buildProgram(Dir, "-O2");
  CHECK(requireError(CodeImage::loadBinary(NoMap)) ==
        NoMap + ": has no BB address map (build it with -fbasic-block-address-map)");
  CommandResult R = runShell(std::string(ClangPath) + " -O2 -fbasic-block-address-map -c "
                                                      "a.c -o a.o", Dir);
  REQUIRE(R.ExitCode == 0);
  CHECK(requireError(CodeImage::loadBinary(Dir + "/a.o")) ==
        Dir + "/a.o: not a linked ELF binary");
  writeFile(Dir + "/junk", "junk");
  CHECK_THAT(requireError(CodeImage::loadBinary(Dir + "/junk")),
             Catch::StartsWith(Dir + "/junk: not a readable object file"));
}

namespace {

/// Per function key: its block IDs and each block's segment sizes, in layout order.
std::map<std::string, std::vector<std::pair<uint32_t, std::vector<uint32_t>>>>
layout(const CodeImage &Image) {
  std::map<std::string, std::vector<std::pair<uint32_t, std::vector<uint32_t>>>> Layout;
  for (const CodeFunction &F : Image.functions())
    for (uint32_t B = F.FirstBlock; B < F.FirstBlock + F.NumBlocks; ++B) {
      const CodeBlock &Block = Image.blocks()[B];
      std::vector<uint32_t> Sizes;
      for (uint32_t S = Block.FirstSegment; S < Block.FirstSegment + Block.NumSegments; ++S)
        Sizes.push_back(Image.segments()[S].Size);
      Layout[F.key()].push_back({Block.ID, Sizes});
    }
  return Layout;
}

} // namespace

TEST_CASE("objects give the same functions, blocks and segments as their link",
          "[code]") {
  initializeTargets();
  for (const char *Extra : {"", " -ffunction-sections"}) {
    std::string Dir = makeTempDir("image");
    buildProgram(Dir, MapFlags);
    CommandResult R = runShell(std::string(ClangPath) + " " + MapFlags + Extra +
                                   " -c a.c b.c && mkdir objs && mv a.o b.o objs/ && " +
                                   ClangPath + " objs/a.o objs/b.o -o linked", Dir);
    INFO(R.Output);
    REQUIRE(R.ExitCode == 0);
    CodeImage Objects = requireOk(CodeImage::load(Dir + "/objs"));
    CodeImage Linked = requireOk(CodeImage::load(Dir + "/linked"));
    CHECK(layout(Objects) == layout(Linked));
    CHECK(Objects.totalInstructions() == Linked.totalInstructions());
    CHECK(Objects.findFunction("b.c:helper").has_value());
    CHECK_THAT(Objects.identity(), Catch::StartsWith("objects:xxh3:"));
    CHECK(Objects.triple() == Linked.triple());
  }
}

TEST_CASE("a destructor's alias names its code, in objects as in their link", "[code]") {
  // C++'s complete and base object destructors (D1, D2) are one function at one address;
  // which name a file lists first is its own affair, and a trace may carry either.
  initializeTargets();
  std::string Dir = makeTempDir("image");
  writeFile(Dir + "/x.cpp", "extern \"C\" void release(int *);\n"
                            "struct S { int *p; ~S(); };\n"
                            "S::~S() { release(p); }\n"
                            "extern \"C\" int use(int *q) { S s{q}; return *q; }\n");
  writeFile(Dir + "/m.c", "void release(int *p) { (void)p; }\n"
                          "int use(int *);\n"
                          "int main(void) { int x = 1; return use(&x) - 1; }\n");
  CommandResult R = runShell(std::string(ClangPath) + " " + MapFlags +
                                 " -fno-exceptions -c x.cpp m.c && mkdir objs && "
                                 "mv x.o m.o objs/ && " + ClangPath +
                                 " objs/x.o objs/m.o -o linked && nm objs/x.o",
                             Dir);
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
  REQUIRE_THAT(R.Output, Catch::Contains("T _ZN1SD1Ev") && Catch::Contains("T _ZN1SD2Ev"));
  for (const char *Path : {"/objs", "/linked"}) {
    INFO(Path);
    CodeImage Image = requireOk(CodeImage::load(Dir + Path));
    auto D1 = Image.findFunction("_ZN1SD1Ev"), D2 = Image.findFunction("_ZN1SD2Ev");
    REQUIRE(D1.has_value());
    REQUIRE(D2.has_value());
    CHECK(*D1 == *D2);
    size_t Named = 0;
    for (const CodeFunction &F : Image.functions())
      Named += F.Name == "_ZN1SD1Ev" || F.Name == "_ZN1SD2Ev";
    CHECK(Named == 1); // one function, found by either name
  }
}

TEST_CASE("a directory without objects, or objects without a map, is rejected", "[code]") {
  initializeTargets();
  std::string Dir = makeTempDir("image");
  CHECK(requireError(CodeImage::load(Dir)) == Dir + ": holds no object files (*.o)");
  writeFile(Dir + "/a.c", "int f(int x) { return x + 1; }\n");
  REQUIRE(runShell(std::string(ClangPath) + " -O2 -c a.c -o a.o", Dir).ExitCode == 0);
  CHECK(requireError(CodeImage::load(Dir)) ==
        Dir + "/a.o: has no BB address map (build it with -fbasic-block-address-map)");
}

TEST_CASE("links in a directory of objects neither loop nor count an object twice",
          "[code]") {
  initializeTargets();
  std::string Dir = makeTempDir("image");
  buildProgram(Dir, MapFlags);
  CommandResult R = runShell(std::string(ClangPath) + " " + MapFlags +
                                 " -c a.c b.c && mkdir -p clean/sub objs/sub && "
                                 "cp a.o clean/ && cp b.o clean/sub/ && cp a.o objs/ && "
                                 "cp b.o objs/sub/ && ln -s . objs/self && "
                                 "ln -s a.o objs/alias.o && ln -s ../a.o objs/sub/z.o",
                             Dir);
  INFO(R.Output);
  REQUIRE(R.ExitCode == 0);
  CodeImage Clean = requireOk(CodeImage::load(Dir + "/clean"));
  CodeImage Linked = requireOk(CodeImage::load(Dir + "/objs"));
  // The identity hashes every object loaded, in order: the same two objects.
  CHECK(Linked.identity() == Clean.identity());
  CHECK(layout(Linked) == layout(Clean));
}

TEST_CASE("a device or a FIFO is no binary", "[code]") {
  CHECK(requireError(CodeImage::load("/dev/zero")) == "/dev/zero: not a regular file");
  CHECK(requireError(CodeImage::loadObjects({"/dev/zero"}, "objects")) ==
        "/dev/zero: not a regular file");
}
