// Roblox installs (installs.hpp).
#include "assimp_glue/roblox_model/installs.hpp"

#include "common/utf8_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <utility>

namespace gamefmt::glue {
namespace fs = std::filesystem;
namespace {

// An environment variable as UTF-8 ("" when unset). Windows keeps the environment in UTF-16.
std::string Env(const char *name) {
#ifdef _WIN32
    const std::wstring wide(name, name + std::char_traits<char>::length(name));
    const wchar_t *value = _wgetenv(wide.c_str());
    return value != nullptr ? PathToUtf8(fs::path(value)) : std::string();
#else
    const char *value = std::getenv(name);
    return value != nullptr ? std::string(value) : std::string();
#endif
}

bool IsInstall(const fs::path &dir) {
    std::error_code ec;
    return fs::is_directory(dir / "content", ec) || fs::is_directory(dir / "PlatformContent", ec);
}

// The installs among the subfolders of `versions`, newest first.
void AddVersions(const fs::path &versions, std::vector<std::string> &out) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> found;
    for (fs::directory_iterator it(versions, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e;
        if (!it->is_directory(e) || !IsInstall(it->path())) continue;
        found.emplace_back(fs::last_write_time(it->path(), e), it->path());
    }
    std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto &[time, path] : found) out.push_back(PathToUtf8(path));
}

void AddIfInstall(const fs::path &dir, std::vector<std::string> &out) {
    if (IsInstall(dir)) out.push_back(PathToUtf8(dir));
}

} // namespace

InstallPlaces CurrentInstallPlaces() {
    InstallPlaces p;
    p.localAppData = Env("LOCALAPPDATA");
    p.home = Env("HOME");
    if (p.home.empty()) p.home = Env("USERPROFILE");
    p.xdgDataHome = Env("XDG_DATA_HOME");
    p.applications.push_back("/Applications");
    if (!p.home.empty()) p.applications.push_back(p.home + "/Applications");
    return p;
}

std::vector<std::string> FindRobloxInstalls(const InstallPlaces &places) {
    std::vector<std::string> out;
    if (!places.localAppData.empty()) {
        const fs::path local = PathFromUtf8(places.localAppData);
        for (const char *launcher : {"Roblox", "Bloxstrap", "Fishstrap"})
            AddVersions(local / launcher / "Versions", out);
    }
    for (const std::string &apps : places.applications)
        for (const char *app : {"RobloxStudio.app", "Roblox.app"})
            AddIfInstall(PathFromUtf8(apps) / app / "Contents" / "Resources", out);
    if (!places.home.empty() || !places.xdgDataHome.empty()) {
        const fs::path home = PathFromUtf8(places.home);
        const fs::path data = places.xdgDataHome.empty() ? home / ".local" / "share" : PathFromUtf8(places.xdgDataHome);
        AddVersions(data / "vinegar" / "versions", out);
        if (!places.home.empty()) {
            AddVersions(home / ".var" / "app" / "org.vinegarhq.Vinegar" / "data" / "vinegar" / "versions", out);
            AddIfInstall(home / ".var" / "app" / "org.vinegarhq.Sober" / "data" / "sober" / "assets", out);
        }
    }
    return out;
}

std::vector<std::string> ExpandAssetFolders(const std::vector<std::string> &folders, bool *foundNone) {
    std::vector<std::string> out;
    for (const std::string &folder : folders) {
        if (folder != "auto") {
            out.push_back(folder);
            continue;
        }
        const std::vector<std::string> installs = FindRobloxInstalls(CurrentInstallPlaces());
        if (installs.empty() && foundNone != nullptr) *foundNone = true;
        out.insert(out.end(), installs.begin(), installs.end());
    }
    return out;
}

} // namespace gamefmt::glue
