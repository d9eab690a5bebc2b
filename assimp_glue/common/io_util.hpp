// Reading files through Assimp's IOSystem: every importer's bytes come through here, so memory reads
// (ReadFileFromMemory) and custom file systems work. Streams are closed with IOSystem::Close.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace Assimp {
class IOSystem;
class IOStream;
} // namespace Assimp

namespace gamefmt::glue {

struct StreamCloser {
    Assimp::IOSystem *io = nullptr;
    void operator()(Assimp::IOStream *stream) const;
};
using StreamPtr = std::unique_ptr<Assimp::IOStream, StreamCloser>;

// Opens `path` for binary reading; null when it cannot be opened. Never throws.
StreamPtr OpenForRead(Assimp::IOSystem *io, const std::string &path) noexcept;

// Up to `maxBytes` leading bytes of `path` (fewer for a short file); empty when it cannot be read.
// Never throws: this is what CanRead uses.
std::vector<std::uint8_t> ReadHead(Assimp::IOSystem *io, const std::string &path, std::size_t maxBytes) noexcept;

// True when the IOSystem has `path` and it opens: use this, never IOSystem::Exists alone (Assimp 5.3-5.4's
// DefaultIOSystem::Exists can say yes for a missing file). Never throws.
bool FileExists(Assimp::IOSystem *io, const std::string &path) noexcept;

// True when `path` is a folder on disk, or something the IOSystem has and opens: for asset-folder options, which
// must exist when they are given. Never throws.
bool FolderExists(Assimp::IOSystem *io, const std::string &path) noexcept;

// The largest file any importer reads whole (importers cap further by their own format limits).
constexpr std::uint64_t kMaxInputFileSize = std::uint64_t(2) << 30; // 2 GiB

// The whole of `path`, in one read. Throws FormatError naming `formatName` when the file cannot be
// opened, is larger than `maxSize`, or reads short.
std::vector<std::uint8_t> ReadAll(Assimp::IOSystem *io, const std::string &path, const std::string &formatName,
                                  std::uint64_t maxSize = kMaxInputFileSize);

// Reads all of `path` (at most `maxBytes`, at least one byte) into `bytes`; false when it cannot be opened, is
// empty or too large, or reads short. Never throws. Assimp's FileSystemFilter may answer a missing file with a
// folder whose name starts like it (its BuildPath fallback): nothing reads from a folder, so that is false too.
// With `size`, it receives the file's size whenever the file opened (so callers can say a file was too large).
bool TryReadFile(Assimp::IOSystem *io, const std::string &path, std::uint64_t maxBytes,
                 std::vector<std::uint8_t> &bytes, std::uint64_t *size = nullptr) noexcept;

// What exporters use to read the external texture files a scene names: `path` relative to `base` (the input's
// folder: GAMEFMT_GLTF_TEXTURE_BASE), then as given; never a path with "..".
using FileReader = std::function<bool(const std::string &path, std::vector<std::uint8_t> &bytes)>;
FileReader MakeTextureReader(Assimp::IOSystem *io, std::string base, std::uint64_t maxBytes);

} // namespace gamefmt::glue
