/// \file
/// DrmemtraceFile for the three forms raw2trace writes: uncompressed (stdio), gzip
/// (zlib's gzread) and zip (libzip, entries read in archive order).
#include "DrmemtraceFile.h"
#include "support/Error.h"
#include "support/InputFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <zip.h>
#include <zlib.h>

namespace mlgo {

DrmemtraceFile::~DrmemtraceFile() = default;

namespace {

class PlainFile : public DrmemtraceFile {
public:
  PlainFile(std::string Path, std::FILE *File) : Path(std::move(Path)), File(File) {}
  ~PlainFile() override { std::fclose(File); }
  llvm::Expected<bool> nextChunk() override { return !std::exchange(Started, true); }
  llvm::Expected<size_t> read(uint8_t *Buf, size_t Size) override {
    size_t Got = std::fread(Buf, 1, Size, File);
    if (Got == 0 && std::ferror(File))
      return inputError(Path, "cannot read: {}", std::strerror(errno));
    return Got;
  }

private:
  std::string Path;
  std::FILE *File;
  bool Started = false;
};

class GzipFile : public DrmemtraceFile {
public:
  GzipFile(std::string Path, gzFile File) : Path(std::move(Path)), File(File) {}
  ~GzipFile() override { gzclose(File); }
  llvm::Expected<bool> nextChunk() override {
    if (Started)
      return false;
    Started = true;
    // zlib reads a file without a gzip header as is; a .gz must be compressed.
    if (gzdirect(File))
      return inputError(Path, "not gzip-compressed");
    return true;
  }
  llvm::Expected<size_t> read(uint8_t *Buf, size_t Size) override {
    int Got = gzread(File, Buf, static_cast<unsigned>(std::min<size_t>(Size, 1 << 30)));
    int Code = Z_OK;
    const char *Message = gzerror(File, &Code);
    // A cut-off stream reads as its end, with Z_BUF_ERROR set.
    if (Got < 0 || (Code != Z_OK && Code != Z_STREAM_END))
      return inputError(Path, "corrupt or truncated gzip data: {}", Message);
    return static_cast<size_t>(Got);
  }

private:
  std::string Path;
  gzFile File;
  bool Started = false;
};

std::string zipErrorText(int Code) {
  zip_error_t Error;
  zip_error_init_with_code(&Error, Code);
  std::string Text = zip_error_strerror(&Error);
  zip_error_fini(&Error);
  return Text;
}

class ZipFile : public DrmemtraceFile {
public:
  ZipFile(std::string Path, zip_t *Archive) : Path(std::move(Path)), Archive(Archive) {}
  ~ZipFile() override {
    if (Entry)
      zip_fclose(Entry);
    zip_discard(Archive);
  }
  llvm::Expected<bool> nextChunk() override {
    if (Entry) {
      zip_fclose(Entry);
      Entry = nullptr;
    }
    zip_int64_t Count = zip_get_num_entries(Archive, 0);
    if (Started)
      ++Index;
    Started = true;
    if (zip_int64_t(Index) >= Count) {
      if (Count == 0)
        return inputError(Path, "the zip archive has no entries");
      return false;
    }
    const char *Name = zip_get_name(Archive, Index, 0);
    EntryName = Name ? Name : "entry " + std::to_string(Index);
    Entry = zip_fopen_index(Archive, Index, 0);
    if (!Entry)
      return inputError(Path, "{}: cannot open: {}", EntryName, zip_strerror(Archive));
    return true;
  }
  llvm::Expected<size_t> read(uint8_t *Buf, size_t Size) override {
    zip_int64_t Got = zip_fread(Entry, Buf, Size);
    if (Got < 0) // includes a CRC mismatch, found at the entry's end
      return inputError(Path, "{}: cannot read: {}", EntryName, zip_file_strerror(Entry));
    return static_cast<size_t>(Got);
  }
  std::string chunkName() const override { return EntryName; }
  bool isChunked() const override { return true; }

private:
  std::string Path;
  zip_t *Archive;
  zip_file_t *Entry = nullptr;
  zip_uint64_t Index = 0;
  bool Started = false;
  std::string EntryName;
};

} // namespace

llvm::Expected<std::unique_ptr<DrmemtraceFile>> DrmemtraceFile::open(llvm::StringRef Path) {
  if (auto Size = regularFileSize(Path); !Size)
    return Size.takeError();
  std::string P = Path.str();
  if (Path.ends_with(".zip")) {
    int Code = 0;
    zip_t *Archive = zip_open(P.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &Code);
    if (!Archive)
      return inputError(Path, "not a readable zip archive (truncated?): {}",
                        zipErrorText(Code));
    return std::make_unique<ZipFile>(P, Archive);
  }
  if (Path.ends_with(".gz")) {
    gzFile File = gzopen(P.c_str(), "rb");
    if (!File)
      return inputError(Path, "cannot read: {}", std::strerror(errno));
    return std::make_unique<GzipFile>(P, File);
  }
  std::FILE *File = std::fopen(P.c_str(), "rb");
  if (!File)
    return inputError(Path, "cannot read: {}", std::strerror(errno));
  return std::make_unique<PlainFile>(P, File);
}

} // namespace mlgo
