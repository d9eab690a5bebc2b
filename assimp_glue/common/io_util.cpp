// Reading files through Assimp's IOSystem.
#include "assimp_glue/common/io_util.hpp"

#include "common/error.hpp"
#include "common/utf8_path.hpp"

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>

#include <filesystem>

namespace gamefmt::glue {

void StreamCloser::operator()(Assimp::IOStream *stream) const {
    if (stream != nullptr && io != nullptr) io->Close(stream);
}

StreamPtr OpenForRead(Assimp::IOSystem *io, const std::string &path) noexcept {
    if (io == nullptr) return StreamPtr(nullptr, StreamCloser{io});
    try {
        return StreamPtr(io->Open(path.c_str(), "rb"), StreamCloser{io});
    } catch (...) {
        return StreamPtr(nullptr, StreamCloser{io});
    }
}

std::vector<std::uint8_t> ReadHead(Assimp::IOSystem *io, const std::string &path, std::size_t maxBytes) noexcept {
    try {
        StreamPtr stream = OpenForRead(io, path);
        if (!stream) return {};
        const std::size_t size = stream->FileSize();
        std::vector<std::uint8_t> head(size < maxBytes ? size : maxBytes);
        if (head.empty()) return head;
        const std::size_t got = stream->Read(head.data(), 1, head.size());
        head.resize(got);
        return head;
    } catch (...) {
        return {};
    }
}

std::vector<std::uint8_t> ReadAll(Assimp::IOSystem *io, const std::string &path, const std::string &formatName,
                                  std::uint64_t maxSize) {
    StreamPtr stream = OpenForRead(io, path);
    if (!stream) throw FormatError(formatName, "cannot open '" + path + "'");
    const std::uint64_t size = stream->FileSize();
    if (size > maxSize)
        throw FormatError(formatName, "file '" + path + "' is " + std::to_string(size) + " bytes, more than the " +
                                          std::to_string(maxSize) + "-byte limit");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    if (!bytes.empty()) {
        const std::size_t got = stream->Read(bytes.data(), 1, bytes.size());
        if (got != bytes.size())
            throw FormatError(formatName, "read only " + std::to_string(got) + " of " + std::to_string(size) +
                                              " bytes of '" + path + "'");
    }
    return bytes;
}

bool FileExists(Assimp::IOSystem *io, const std::string &path) noexcept {
    try {
        // Assimp 5.3 and 5.4 decide DefaultIOSystem::Exists from stat()'s buffer even when stat() failed, so a
        // missing file "exists" at random: only a file that also opens is there. Opening is not proof either: an
        // importer's FileSystemFilter that fails to open DIR/NAME tries NAME in the model's own folder, so a missing
        // side file opens as its namesake there. So when the file's folder is on disk, the disk decides whether
        // the file is there; only folders the disk does not have (archives, virtual file systems) are left to the
        // IOSystem alone.
        if (io == nullptr) return false;
        std::error_code ec;
        const std::filesystem::path onDisk = PathFromUtf8(path);
        if (onDisk.has_parent_path() && std::filesystem::is_directory(onDisk.parent_path(), ec) &&
            !std::filesystem::exists(onDisk, ec))
            return false;
        return io->Exists(path.c_str()) && OpenForRead(io, path) != nullptr;
    } catch (...) {
        return false;
    }
}

bool FolderExists(Assimp::IOSystem *io, const std::string &path) noexcept {
    std::error_code ec;
    if (std::filesystem::is_directory(PathFromUtf8(path), ec)) return true;
    return FileExists(io, path); // a folder only the IOSystem knows (an archive, a virtual file system)
}

bool TryReadFile(Assimp::IOSystem *io, const std::string &path, std::uint64_t maxBytes,
                 std::vector<std::uint8_t> &bytes, std::uint64_t *sizeOut) noexcept {
    try {
        StreamPtr stream = OpenForRead(io, path);
        if (!stream) return false;
        const std::uint64_t size = stream->FileSize();
        if (sizeOut != nullptr) *sizeOut = size;
        if (size == 0 || size > maxBytes) return false;
        bytes.resize(static_cast<std::size_t>(size));
        return stream->Read(bytes.data(), 1, bytes.size()) == bytes.size();
    } catch (...) {
        return false;
    }
}

FileReader MakeTextureReader(Assimp::IOSystem *io, std::string base, std::uint64_t maxBytes) {
    return [io, base = std::move(base), maxBytes](const std::string &path, std::vector<std::uint8_t> &bytes) {
        if (io == nullptr || path.empty() || path.find("..") != std::string::npos) return false;
        const bool absolute = path[0] == '/' || (path.size() > 2 && path[1] == ':');
        for (const std::string &candidate : {absolute || base.empty() ? path : base + "/" + path, path})
            if (TryReadFile(io, candidate, maxBytes, bytes)) return true;
        return false;
    };
}

} // namespace gamefmt::glue
