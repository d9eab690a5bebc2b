// What every gamefmt exporter entry point shares.
#include "assimp_glue/common/export_util.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Exceptional.h>
#include <assimp/Exporter.hpp>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

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
        ThrowExportError(prefix +
                         (std::strcmp(e.format().c_str(), formatName) == 0 ? e.message() : std::string(e.what())));
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

void RunStreamingExport(const std::string &label, const char *formatName, const aiScene *scene, Assimp::IOSystem *io,
                        const std::function<void(const OpenOutput &open)> &produce) {
    RunExport(label, formatName, scene, io, [&] {
        StreamPtr stream(nullptr, StreamCloser{io});
        const OpenOutput open = [&stream, io](const std::string &path) -> ByteSink {
            stream.reset(io->Open(path.c_str(), "wb"));
            if (!stream) throw std::runtime_error("cannot open '" + path + "' for writing");
            Assimp::IOStream *out = stream.get();
            return [out, path](const char *data, std::size_t size) {
                if (size != 0 && out->Write(data, 1, size) != size)
                    throw std::runtime_error("writing '" + path + "' failed");
            };
        };
        produce(open);
        return ExportedFiles{};
    });
}

bool ReadExportText(const Assimp::ExportProperties &p, const char *name, std::string &out, const char *floatFormat) {
    if (p.HasPropertyString(name)) {
        out = p.GetPropertyString(name);
        return true;
    }
    if (p.HasPropertyFloat(name)) {
        char text[64];
        std::snprintf(text, sizeof text, floatFormat, static_cast<double>(p.GetPropertyFloat(name)));
        out = text;
        return true;
    }
    if (p.HasPropertyInteger(name)) {
        out = std::to_string(p.GetPropertyInteger(name));
        return true;
    }
    return false;
}

std::optional<bool> ReadExportBool(const Assimp::ExportProperties &p, const char *name, const char *formatName) {
    if (p.HasPropertyInteger(name)) return p.GetPropertyInteger(name) != 0;
    if (p.HasPropertyFloat(name)) return p.GetPropertyFloat(name) != 0;
    if (p.HasPropertyString(name)) {
        std::string text = p.GetPropertyString(name);
        text = AsciiLower(std::move(text));
        if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
        if (text == "false" || text == "0" || text == "no" || text == "off") return false;
        throw FormatError(formatName, std::string("option ") + name + " must be true or false, not '" +
                                          p.GetPropertyString(name) + "'");
    }
    return std::nullopt;
}

std::optional<std::vector<float>> ParseLodRatios(const std::string &text) {
    std::vector<float> ratios;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        std::string piece = text.substr(start, comma - start);
        while (!piece.empty() && std::isspace(static_cast<unsigned char>(piece.back()))) piece.pop_back();
        while (!piece.empty() && std::isspace(static_cast<unsigned char>(piece.front()))) piece.erase(0, 1);
        float ratio = 0;
        const char *end = piece.data() + piece.size();
        const auto result = std::from_chars(piece.data(), end, ratio);
        if (piece.empty() || result.ec != std::errc() || result.ptr != end || !(ratio > 0.0f) || !(ratio < 1.0f))
            return std::nullopt;
        ratios.push_back(ratio);
        start = comma + 1;
    }
    if (ratios.empty()) return std::nullopt;
    return ratios;
}

} // namespace gamefmt::glue
