// The asset references of a Roblox document: every content URI in its properties, what it is for (its kind) and
// the instances that use it. `gamefmt assets` lists them; `gamefmt assets fetch` downloads them and follows the
// ones fetched models name (docs/roblox-assets.md).
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::cli {

// What a content property is for, by its name and class (docs/formats/roblox-model.md §5.3–§5.5): "mesh",
// "union", "surface map", "texture pack", "decal", "texture", "sound", "animation", "image", "sky", "clothing" or
// "other".
std::string KindOf(std::string_view cls, std::string_view prop);

// The URI a property holds: a Content's, or a string that looks like one ("scheme://…"); empty otherwise.
std::string UriOf(const rbx::Value &value);

// "Workspace.Model.Part", as Roblox's GetFullName (bounded: a hostile parent chain cannot loop).
std::string FullName(const rbx::Document &doc, std::uint32_t index);

struct Asset {
    std::string uri;
    std::string kind;
    std::vector<std::string> users; // full names of the instances that reference it
    std::string status;             // "found", "missing", "not looked up" (no asset folder), "not resolvable"
    std::string path;               // the file, when found
    std::string id;                 // the asset id, when the URI names one
};

// Every (URI, kind) once, in the order first met, with its users.
std::vector<Asset> Collect(const rbx::Document &doc);

struct Property;
// Imports `file` (instances only, no geometry) with `properties` and gives its document; false with the failed stage
// and the problem when it is not a Roblox model or place or does not import (assets.cpp).
bool LoadRobloxDocument(const std::string &file, const std::vector<Property> &properties, rbx::Document &doc,
                        std::string &stage, std::string &problem);

} // namespace gamefmt::cli
