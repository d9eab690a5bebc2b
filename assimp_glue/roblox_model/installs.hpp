// Roblox Studio and Player installs on this machine (`--asset-dir auto`, `gamefmt assets --where`;
// docs/roblox-assets.md "Roblox installs"): their content folders resolve rbxasset:// paths (textures/face.png,
// fonts/hat.mesh …) without typing paths. Read-only: nothing of an install but its folder names is looked at.
#pragma once

#include <string>
#include <vector>

namespace gamefmt::glue {

// Where installs are looked for; CurrentInstallPlaces() reads them from the environment, tests make them up.
struct InstallPlaces {
    std::string localAppData; // Windows %LOCALAPPDATA%: Roblox\Versions\*, Bloxstrap\Versions\*, Fishstrap\Versions\*
    std::string home;         // HOME (or USERPROFILE): ~/Applications, ~/.local/share, ~/.var/app
    std::string xdgDataHome;  // XDG_DATA_HOME (default ~/.local/share): vinegar/versions/*
    std::vector<std::string> applications; // macOS application folders: RobloxStudio.app, Roblox.app
};
InstallPlaces CurrentInstallPlaces();

// Every install folder found (a folder holding content/ or PlatformContent/), newest first within each place:
// Windows Roblox, Bloxstrap and Fishstrap versions; macOS RobloxStudio.app / Roblox.app Contents/Resources; Linux
// Vinegar (native and Flatpak) versions and Sober's assets folder.
std::vector<std::string> FindRobloxInstalls(const InstallPlaces &places);

// GAMEFMT_RBX_ASSET_DIR's folders with each "auto" replaced by FindRobloxInstalls(CurrentInstallPlaces()) (in
// place, so the folders around it keep their order). `foundNone` is set when an "auto" found nothing.
std::vector<std::string> ExpandAssetFolders(const std::vector<std::string> &folders, bool *foundNone = nullptr);

} // namespace gamefmt::glue
