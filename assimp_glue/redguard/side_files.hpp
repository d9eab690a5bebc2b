// Side files of Redguard imports (docs/formats/redguard-3d.md §12, docs/formats/redguard-world.md §4): the folders
// searched (the asset folder, the file's folder, its sibling fxart/), names tried as given, upper and lower case,
// texture banks read once per import, palettes, external .3DC models. Every file goes through the IOSystem.
#pragma once

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "importers/redguard/model.hpp"
#include "importers/redguard/texbsi.hpp"

#include <assimp/IOSystem.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gamefmt::glue::rgside {

inline constexpr const char *kMagicName = "$$$___magic___$$$";

inline void RgWarn(const std::string &message) {
    LogWarn(std::string(redguard::kFormatName) + ": " + message);
}

inline std::string Upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}
inline std::size_t LastSeparator(const std::string &path) {
    return path.find_last_of("/\\");
}

// "a/b/c.3d" -> "a/b"; "c.3d" -> "" (the current folder).
inline std::string DirectoryOf(const std::string &path) {
    const std::size_t at = LastSeparator(path);
    if (at == std::string::npos) return {};
    return at == 0 ? path.substr(0, 1) : path.substr(0, at);
}
inline std::string FileNameOf(const std::string &path) {
    const std::size_t at = LastSeparator(path);
    return at == std::string::npos ? path : path.substr(at + 1);
}
inline std::string StemOf(const std::string &path) {
    const std::string name = FileNameOf(path);
    const std::size_t dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}
inline std::string Join(const std::string &dir, const std::string &name) {
    if (dir.empty()) return name;
    const char last = dir.back();
    return last == '/' || last == '\\' ? dir + name : dir + "/" + name;
}
// The folder holding `dir` ("" = current folder).
inline std::string ParentOf(const std::string &dir) {
    if (dir.empty() || dir == ".") return "..";
    const std::size_t at = LastSeparator(dir);
    if (at == std::string::npos) return {};
    return at == 0 ? dir.substr(0, 1) : dir.substr(0, at);
}

inline bool IsMagic(const std::string &file) {
    return FileNameOf(file).rfind(kMagicName, 0) == 0;
}

// Side-file lookup and caching for one import. Every file is opened through the IOSystem.
class SideFileResolver {
public:
    SideFileResolver(Assimp::IOSystem *io, const std::string &modelFile, const std::string &assetDir)
        : mIo(io), mModelDir(DirectoryOf(modelFile)) {
        // §12: the asset folder, the model's folder, its sibling fxart/ (either case).
        std::vector<std::string> dirs;
        if (!assetDir.empty()) dirs.push_back(assetDir);
        dirs.push_back(mModelDir);
        const std::string parent = ParentOf(mModelDir);
        dirs.push_back(Join(parent, "fxart"));
        dirs.push_back(Join(parent, "FXART"));
        for (const std::string &d : dirs)
            if (std::find(mDirs.begin(), mDirs.end(), d) == mDirs.end()) mDirs.push_back(d);
    }

    // The first existing `name` (as given, UPPER, lower) in `dirs`; nullopt when none.
    std::optional<std::string> find(const std::string &name, const std::vector<std::string> &dirs) const {
        for (const std::string &dir : dirs)
            for (const std::string &variant : {name, Upper(name), AsciiLower(name)}) {
                const std::string path = Join(dir, variant);
                if (exists(path)) return path;
            }
        return std::nullopt;
    }
    std::optional<std::string> find(const std::string &name) const { return find(name, mDirs); }

    bool exists(const std::string &path) const { return FileExists(mIo, path); }

    std::vector<std::uint8_t> read(const std::string &path) const { return ReadAll(mIo, path, redguard::kFormatName); }

    const redguard::TexBank *bank(unsigned number) {
        const auto cached = mBanks.find(number);
        if (cached != mBanks.end()) return cached->second ? &*cached->second : nullptr;
        std::optional<redguard::TexBank> bank;
        char name[32];
        std::snprintf(name, sizeof(name), "TEXBSI.%03u", number);
        const std::optional<std::string> path = find(name);
        if (!path) {
            RgWarn(std::string(name) + " not found (searched " + searchedText() +
                   "); its materials stay untextured (set GAMEFMT_RG_ASSET_DIR)");
        } else {
            try {
                const std::vector<std::uint8_t> bytes = read(*path);
                bank = redguard::ReadTexBsi(bytes.data(), bytes.size());
                for (const std::string &w : bank->warnings) RgWarn(*path + ": " + w);
            } catch (const std::exception &e) {
                RgWarn(*path + " cannot be read: " + e.what() + "; its materials stay untextured");
                bank.reset();
            }
        }
        const auto inserted = mBanks.emplace(number, std::move(bank)).first;
        return inserted->second ? &*inserted->second : nullptr;
    }

    std::optional<std::pair<std::string, std::vector<std::uint8_t>>> externalModel(const std::string &segment) {
        const std::optional<std::string> path = find(segment + ".3DC");
        if (!path) return std::nullopt;
        try {
            return std::make_pair(*path, read(*path));
        } catch (const std::exception &e) {
            RgWarn(*path + " cannot be read: " + e.what());
            return std::nullopt;
        }
    }

    // §12: GAMEFMT_RG_PALETTE (a path or a stem), <stem>.COL beside the model, else none (grey ramp).
    std::optional<redguard::Palette> palette(const std::string &option, const std::string &modelStem) {
        std::vector<std::string> candidates;
        if (!option.empty()) {
            const bool isPath =
                LastSeparator(option) != std::string::npos || FileNameOf(option).find('.') != std::string::npos;
            std::optional<std::string> path;
            if (isPath && exists(option)) path = option;
            if (!path) path = find(isPath ? FileNameOf(option) : option + ".COL");
            // A palette the user named is required: guessing colours silently is worse than stopping.
            if (!path)
                throw FormatError(redguard::kFormatName,
                                  "palette \"" + Quote(option) +
                                      "\" (GAMEFMT_RG_PALETTE, --rg-palette) not found (searched " + searchedText() +
                                      "); fix the name or leave the option out");
            return loadRequired(*path);
        }
        if (!modelStem.empty()) {
            if (const std::optional<std::string> path = find(modelStem + ".COL", {mModelDir}))
                if (auto palette = load(*path)) return palette;
        }
        RgWarn("no palette found: solid colours use a grey ramp and textures are not embedded (set GAMEFMT_RG_PALETTE "
               "to the scene's .COL)");
        return std::nullopt;
    }

    // GAMEFMT_RG_ASSET_DIR, when set, must exist.
    void requireAssetDir(const std::string &assetDir) const {
        if (assetDir.empty() || FolderExists(mIo, assetDir)) return;
        throw FormatError(redguard::kFormatName, "asset folder \"" + Quote(assetDir) +
                                                     "\" (GAMEFMT_RG_ASSET_DIR, --rg-assets) does not exist");
    }

    // A palette file at `path`; nullopt (with a warning) when it cannot be read.
    std::optional<redguard::Palette> load(const std::string &path) const {
        try {
            return readPaletteFile(path);
        } catch (const std::exception &e) {
            RgWarn("palette " + path + " cannot be read: " + e.what());
            return std::nullopt;
        }
    }
    const std::string &modelDir() const { return mModelDir; }

private:
    static std::string Quote(const std::string &text) {
        return SanitizeForAiString(std::string_view(text).substr(0, 200));
    }

    // The palette at `path`, its reader's warnings logged; throws what the read or the reader throws.
    redguard::Palette readPaletteFile(const std::string &path) const {
        const std::vector<std::uint8_t> bytes = read(path);
        std::vector<std::string> warnings;
        redguard::Palette palette = redguard::ReadPalette(bytes.data(), bytes.size(), &warnings);
        for (const std::string &w : warnings) RgWarn(path + ": " + w);
        return palette;
    }

    redguard::Palette loadRequired(const std::string &path) const {
        try {
            return readPaletteFile(path);
        } catch (const std::exception &e) {
            throw FormatError(redguard::kFormatName,
                              "palette " + Quote(path) + " (GAMEFMT_RG_PALETTE) cannot be read: " + e.what());
        }
    }

public:
    std::string searchedText() const {
        std::string out;
        for (const std::string &d : mDirs)
            out += (out.empty() ? "'" : ", '") + (d.empty() ? std::string(".") : d) + "'";
        return out;
    }

private:
    Assimp::IOSystem *mIo;
    std::string mModelDir;
    std::vector<std::string> mDirs;
    std::map<unsigned, std::optional<redguard::TexBank>> mBanks;
};

} // namespace gamefmt::glue::rgside
