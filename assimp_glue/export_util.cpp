// What every gamefmt exporter entry point shares.
#include "export_util.hpp"

#include "common/error.hpp"
#include "io_util.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Exceptional.h>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>

#include <cstring>
#include <new>

namespace gamefmt::glue {

void ThrowExportError(const std::string &message) {
    Assimp::DefaultLogger::get()->error(message.c_str());
    throw DeadlyExportError(message);
}

void RunExport(const std::string &label, const char *formatName, const aiScene *scene, Assimp::IOSystem *io,
               const std::function<ExportedFiles()> &produce) {
    const std::string prefix = label + " export: ";
    if (scene == nullptr) ThrowExportError(prefix + "no scene");
    if (io == nullptr) ThrowExportError(prefix + "no IOSystem to write through");
    ExportedFiles files;
    try {
        files = produce();
    } catch (const FormatError &e) {
        ThrowExportError(prefix + (std::strcmp(e.format().c_str(), formatName) == 0 ? e.message()
                                                                                     : std::string(e.what())));
    } catch (const std::bad_alloc &) {
        ThrowExportError(prefix + "out of memory");
    } catch (const std::exception &e) {
        ThrowExportError(prefix + e.what());
    }
    for (const auto &file : files) {
        StreamPtr stream(io->Open(file.first.c_str(), "wb"), StreamCloser{io});
        if (!stream) ThrowExportError(prefix + "cannot open '" + file.first + "' for writing");
        const std::vector<std::uint8_t> &bytes = file.second;
        if (!bytes.empty() && stream->Write(bytes.data(), 1, bytes.size()) != bytes.size())
            ThrowExportError(prefix + "writing '" + file.first + "' failed");
    }
}

} // namespace gamefmt::glue
