// Content URIs → files in local asset folders (docs/formats/roblox-model.md §5.5; GAMEFMT_RBX_ASSET_DIR): the
// URI forms Roblox files use, resolved only through Assimp's IOSystem, never the network, never outside the
// folder. Content is sniffed, never trusted by name.
#pragma once

#include "assimp_glue/roblox_model/geometry.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Assimp {
class IOSystem;
}
namespace gamefmt::rbx {
struct Document;
}

namespace gamefmt::glue {

// What a content URI names: an asset id ("rbxassetid://123", "https://www.roblox.com/asset/?id=123"), a
// path inside Studio's content folder ("rbxasset://textures/face.png"), or nothing we can look up.
struct RbxContentKey {
    enum class Kind { None, Id, Path };
    Kind kind = Kind::None;
    std::string value; // the id's digits, or the relative path ('/'-separated, no "..", no leading '/')
};
RbxContentKey ParseContentUri(std::string_view uri);

// The files a key may be, in the order they are tried, under each folder of `folders`: an id is "<dir>/<id>",
// then ".png", ".jpg", ".jpeg" (images), ".mesh" (meshes), ".rbxm", ".rbxmx" (animations, unions) or ".xml"
// (texture packs), then for images, meshes and animations ".rbxm", ".rbxmx" (and ".xml" for images): files that
// may be indirections (§5.5); a path is
// "<dir>/<path>", "<dir>/content/<path>", "<dir>/PlatformContent/pc/<path>", "<dir>/ExtraContent/<path>".
std::vector<std::string> CandidatePaths(const std::vector<std::string> &folders, const RbxContentKey &key,
                                        RbxAssetKind kind = RbxAssetKind::Image);

// "png" or "jpg" when the bytes start like a PNG or a JPEG file; empty otherwise.
std::string SniffImage(const std::uint8_t *data, std::size_t size);

// "png", "jpg", "mesh" (a Roblox mesh: "version " then a digit), "rbxm"/"rbxmx" (a Roblox model), "texturepack"
// (a TexturePack's XML) or empty.
std::string SniffAsset(const std::uint8_t *data, std::size_t size);

// The asset folders of a GAMEFMT_RBX_ASSET_DIR value: separated by ';' (or new lines), blanks dropped.
std::vector<std::string> SplitAssetFolders(std::string_view value);

// The content URI an indirection asset names for `kind` (§5.5): for an image, the first Decal / Texture texture,
// ShirtGraphic Graphic, Shirt or Pants template, ImageLabel / ImageButton image (a Decal, T-shirt, Shirt, Pants or
// Face asset is such a model); for a mesh, the first MeshPart's or SpecialMesh / FileMesh's mesh (a MeshPart
// asset); for an animation, the first Animation's AnimationId, unless the model holds KeyframeSequences or
// CurveAnimations itself. "" when there is none.
std::string IndirectUri(const rbx::Document &doc, RbxAssetKind kind);

// A resolver for AddRobloxGeometry that reads assets from `folders` through `io` (which must outlive it).
// A gzip-wrapped file is inflated first (one level, at most 256 MiB and 1024× its size). Files larger than
// 64 MiB, unreadable files, corrupt gzip and files that are not what was asked for (an image for a mesh, a
// mesh for an image, anything else) are skipped with a warning; the next candidate is tried. A file that is an
// indirection (IndirectUri; a TexturePack for an image: its colour map) is followed, at most 3 hops, each URI
// once per lookup.
RbxAssetResolver MakeAssetResolver(Assimp::IOSystem *io, std::vector<std::string> folders);

} // namespace gamefmt::glue
