// The `extract` verb: write a file's embedded textures, compressed ones as their own bytes and
// uncompressed ones as PNG (glTF and most tools cannot use raw texels, docs/formats/assimp-integration.md §6).
#include "args.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "png_writer.hpp"
#include "verbs.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace gamefmt::cli {
namespace {

// The format hint comes from the file: keep only letters and digits so it cannot form a path.
std::string ExtensionFromHint(const aiTexture &texture) {
    std::string ext;
    for (std::size_t i = 0; i < HINTMAXTEXTURELEN && texture.achFormatHint[i] != '\0'; ++i) {
        const auto c = static_cast<unsigned char>(texture.achFormatHint[i]);
        if (std::isalnum(c)) ext += static_cast<char>(std::tolower(c));
    }
    if (ext == "jpeg") ext = "jpg";
    return ext.empty() ? "bin" : ext;
}

bool WriteFile(const std::string &path, const std::uint8_t *data, std::size_t size, std::string &error) {
    std::ofstream file(PathFromUtf8(path), std::ios::binary | std::ios::trunc);
    if (file) file.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    if (file) file.close();
    if (!file) {
        error = std::strerror(errno);
        return false;
    }
    return true;
}

// Writes one embedded texture to `path` + its extension: compressed bytes as they are (extension from the
// format hint), raw texels as PNG. False with `error` set when it cannot.
bool WriteTexture(const aiTexture *texture, std::string &path, std::size_t &written, std::string &error) {
    bool ok = false;
    if (texture == nullptr) {
        error = "the texture is missing";
    } else if (texture->mHeight == 0) {
        path += "." + ExtensionFromHint(*texture);
        written = texture->mWidth;
        ok = texture->pcData != nullptr || texture->mWidth == 0;
        if (!ok) error = "the texture has no data";
        if (ok) ok = WriteFile(path, reinterpret_cast<const std::uint8_t *>(texture->pcData), written, error);
    } else {
        path += ".png";
        std::vector<std::uint8_t> png;
        ok = EncodePng(*texture, png, error) && WriteFile(path, png.data(), png.size(), error);
        written = png.size();
    }
    return ok;
}

} // namespace

int RunExtract(const Args &args, std::ostream &out, std::ostream &err) {
    std::string indexText;
    bool noSuffix = false;
    CommonOptions common;
    std::vector<std::string> files;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &error) {
        if (IsPostProcessFlag(cursor.current())) return FlagResult::NotMine;
        if (cursor.flag("-s", "--no-suffix")) return noSuffix = true, FlagResult::Consumed;
        switch (cursor.value("-t", "--texture", true, indexText)) {
        case ArgCursor::Match::Yes:
            return FlagResult::Consumed;
        case ArgCursor::Match::MissingValue:
            error = "-t needs a texture index";
            return FlagResult::Error;
        case ArgCursor::Match::No:
            break;
        }
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("extract", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, files, err))
        return kExitUsage;
    if (files.empty() || files.size() > 2) {
        err << "gamefmt extract: expected FILE [OUT] (see 'gamefmt help extract')\n";
        return kExitUsage;
    }
    long long only = -1;
    if (!indexText.empty() && !ParseCount(indexText, 0, 0xFFFFFFFFLL, only)) {
        err << "gamefmt extract: -t needs a texture index, got '" << indexText << "'\n";
        return kExitUsage;
    }

    LogSession log(common, err);
    if (log.failed("extract", err)) return kExitUsage;
    const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(common.properties);
    const std::string &in = files[0];
    const LoadResult loaded = LoadScene(*importer, in, 0, common.ppSteps);
    if (loaded.scene == nullptr) {
        PrintFileError(err, loaded.failedStage, in, loaded.error);
        return kExitBadInput;
    }
    log.reportWarnings(in); // a failed import shows only its error
    const aiScene &scene = *loaded.scene;
    if (scene.mNumTextures == 0) {
        out << in << ": no embedded textures\n";
        return kExitOk;
    }
    if (only >= static_cast<long long>(scene.mNumTextures)) {
        err << "gamefmt extract: '" << in << "' has " << scene.mNumTextures << " embedded textures; -t " << only
            << " is out of range\n";
        return kExitUsage;
    }

    // As upstream: OUT (or IN) without its extension is the base name.
    std::filesystem::path base = PathFromUtf8(files.size() == 2 ? files[1] : in);
    base.replace_extension();
    const unsigned first = only >= 0 ? static_cast<unsigned>(only) : 0;
    const unsigned last = only >= 0 ? first + 1 : scene.mNumTextures;
    const bool suffix = !(noSuffix && last - first == 1);
    int status = kExitOk;
    for (unsigned i = first; i < last; ++i) {
        std::string path = PathToUtf8(base) + (suffix ? "_img" + std::to_string(i) : "");
        std::string error;
        std::size_t written = 0;
        const bool ok = WriteTexture(scene.mTextures[i], path, written, error);
        if (!ok) {
            PrintFileError(err, "extract texture " + std::to_string(i) + " to", path, error);
            status = kExitBadInput;
            continue;
        }
        out << "Wrote " << path << " (" << written << " bytes)\n";
    }
    return status;
}

} // namespace gamefmt::cli
