/// \file
/// Regular-file checks before reading, and output/input identity by device and inode.
#include "InputFile.h"
#include "Error.h"

#include "llvm/Support/FileSystem.h"

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

llvm::Error checkOutputIsNoInput(llvm::StringRef Output, llvm::ArrayRef<std::string> Inputs) {
  for (const std::string &Input : Inputs)
    if (!Input.empty() && isSameFile(Output, Input))
      return inputError(Output, "the output is also the input {}: refusing to overwrite it",
                        Input);
  return llvm::Error::success();
}

} // namespace mlgo
