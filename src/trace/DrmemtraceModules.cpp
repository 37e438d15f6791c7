/// \file
/// modules.log parsing. Module lines are printed as
/// "%3u, %3u, 0x..., 0x..., 0x..., <offset>, 0x..., [custom fields] <path>\n".
#include "DrmemtraceModules.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

namespace mlgo {
namespace {

/// Reads one comma-terminated field, trimmed, from the front of \p Text.
llvm::StringRef takeField(llvm::StringRef &Text) {
  auto [Field, Rest] = Text.split(',');
  Text = Rest;
  return Field.trim();
}

bool parseNumber(llvm::StringRef Field, bool Hex, uint64_t &Value) {
  if (Hex)
    Field.consume_front("0x");
  return !Field.empty() && !Field.getAsInteger(Hex ? 16 : 10, Value);
}

} // namespace

llvm::Expected<std::vector<DrmemtraceModule>> readModulesLog(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  llvm::StringRef Text = (*Buffer)->getBuffer();
  auto NextLine = [&Text] {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    return Line.rtrim('\r');
  };

  unsigned Version = 0, Count = 0;
  llvm::StringRef Title = NextLine();
  if (!Title.consume_front("Module Table: version ") ||
      Title.consumeInteger(10, Version) || !Title.consume_front(", count ") ||
      Title.getAsInteger(10, Count))
    return inputError(Path, "not a DynamoRIO module list (no \"Module Table: version N, "
                            "count M\" line)");
  llvm::StringRef ColumnsLine = NextLine();
  if (!ColumnsLine.consume_front("Columns: "))
    return inputError(Path, "no \"Columns:\" line");
  llvm::SmallVector<llvm::StringRef, 12> Columns;
  ColumnsLine.split(Columns, ", ");
  // The numeric columns come before "(custom fields)" and "path", which end the line.
  size_t Fixed = 0;
  while (Fixed < Columns.size() && Columns[Fixed] != "(custom fields)" &&
         Columns[Fixed] != "path")
    ++Fixed;
  bool Custom = Fixed < Columns.size() && Columns[Fixed] == "(custom fields)";
  for (llvm::StringRef Needed :
       {"id", "containing_id", "start", "end", "entry", "preferred_base"})
    if (std::find(Columns.begin(), Columns.begin() + Fixed, Needed) ==
        Columns.begin() + Fixed)
      return inputError(Path, "module table version {} has no \"{}\" column", Version,
                        Needed.str());

  std::vector<DrmemtraceModule> Modules;
  for (unsigned I = 0; I < Count; ++I) {
    if (Text.empty())
      return inputError(Path, "lists {} of its {} modules (truncated?)", I, Count);
    DrmemtraceModule M;
    for (size_t C = 0; C < Fixed; ++C) {
      llvm::StringRef Name = Columns[C], Field = takeField(Text);
      uint64_t Value = 0;
      bool Decimal = Name == "id" || Name == "containing_id";
      bool Wanted = Decimal || Name == "start" || Name == "end" || Name == "entry" ||
                    Name == "preferred_base";
      if (Wanted && !parseNumber(Field, !Decimal, Value))
        return inputError(Path, "module {}: bad {} \"{}\"", I, Name.str(), Field.str());
      if (Name == "id")
        M.Id = Value;
      else if (Name == "containing_id")
        M.ContainingId = Value;
      else if (Name == "start")
        M.Start = Value;
      else if (Name == "end")
        M.End = Value;
      else if (Name == "entry")
        M.Entry = Value;
      else if (Name == "preferred_base")
        M.PreferredBase = Value;
    }
    if (Custom) {
      // "v#1,SIZE," then SIZE raw bytes, which may hold newlines.
      llvm::StringRef Tag = takeField(Text), SizeText = takeField(Text);
      uint64_t Size = 0;
      if (!Tag.starts_with("v#") || !parseNumber(SizeText, false, Size) ||
          Size > Text.size())
        return inputError(Path, "module {}: bad custom field \"{},{}\"", I, Tag.str(),
                          SizeText.str());
      Text = Text.drop_front(Size);
    }
    M.Path = NextLine().ltrim(' ').str();
    if (M.ContainingId > M.Id || M.End < M.Start)
      return inputError(Path, "module {}: inconsistent ids or addresses", I);
    Modules.push_back(std::move(M));
  }
  return Modules;
}

} // namespace mlgo
