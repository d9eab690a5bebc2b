// Reading files through Assimp's IOSystem.
#include "assimp_glue/common/io_util.hpp"

#include "common/error.hpp"

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

bool FolderExists(Assimp::IOSystem *io, const std::string &path) noexcept {
    try {
        if (io != nullptr && io->Exists(path.c_str())) return true;
    } catch (...) {
    }
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
}

} // namespace gamefmt::glue
