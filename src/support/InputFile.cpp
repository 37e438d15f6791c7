/// \file
/// Regular-file checks before reading, and output/input identity by device and inode.
#include "InputFile.h"
#include "Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlgo {

llvm::Expected<uint64_t> regularFileSize(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status))
    return inputError(Path, "cannot read: {}", EC.message());
  if (llvm::sys::fs::is_directory(Status))
    return inputError(Path, "is a directory, not a file");
  if (!llvm::sys::fs::is_regular_file(Status))
    return inputError(Path, "not a regular file");
  return Status.getSize();
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readRegularFile(llvm::StringRef Path) {
  auto Size = regularFileSize(Path);
  if (!Size)
    return Size.takeError();
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Path, "cannot read: {}", Buffer.getError().message());
  return std::move(*Buffer);
}

bool isSameFile(llvm::StringRef A, llvm::StringRef B) {
  bool Same = false;
  // An error (either one missing) means they are not the same existing file.
  return !llvm::sys::fs::equivalent(A, B, Same) && Same;
}

/// Whether \p Output would be written inside the existing directory \p Dir, or below it:
/// the nearest existing directory on its path is Dir or lies within it.
static bool isInsideDirectory(llvm::StringRef Output, llvm::StringRef Dir) {
  if (!llvm::sys::fs::is_directory(Dir))
    return false;
  llvm::SmallString<256> Absolute(Output);
  if (llvm::sys::fs::make_absolute(Absolute))
    return false;
  llvm::StringRef Parent = llvm::sys::path::parent_path(Absolute);
  while (!Parent.empty() && !llvm::sys::fs::is_directory(Parent))
    Parent = llvm::sys::path::parent_path(Parent);
  for (; !Parent.empty(); Parent = llvm::sys::path::parent_path(Parent)) {
    if (isSameFile(Parent, Dir))
      return true;
    if (llvm::sys::path::parent_path(Parent) == Parent)
      break; // the root
  }
  return false;
}

llvm::Error checkOutputIsNoInput(llvm::StringRef Output, llvm::ArrayRef<std::string> Inputs) {
  for (const std::string &Input : Inputs) {
    if (Input.empty())
      continue;
    if (isSameFile(Output, Input))
      return inputError(Output, "the output is also the input {}: refusing to overwrite it",
                        Input);
  }
  return llvm::Error::success();
}

llvm::Error checkOutputOutsideInputs(llvm::StringRef Output,
                                     llvm::ArrayRef<std::string> Inputs) {
  if (llvm::Error E = checkOutputIsNoInput(Output, Inputs))
    return E;
  for (const std::string &Input : Inputs)
    if (!Input.empty() && isInsideDirectory(Output, Input))
      return inputError(Output, "lies inside the input directory {}: refusing to write "
                                "there",
                        Input);
  return llvm::Error::success();
}

} // namespace mlgo
