// Float scene data -> RG3DModel (docs/formats/redguard-3d.md §15 "Input", "Faces", "Computed fields", ".3D v5.0",
// ".3DC"): the inverse axis transform and quantisation, vertex welding, texture values from material data,
// UV deltas, face normals, radius, Section4, normal slots and frames. No Assimp here: the exporter fills a
// BuildInput from an aiScene; tests fill it directly.
#pragma once

#include "importers/redguard/model.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::redguard {

using Float3 = std::array<float, 3>;

// What a material contributes to the faces that use it.
struct BuildMaterial {
    std::string name;                    // "tex<bank>_<image>" / "color<index>" give the texture value
    std::optional<std::uint32_t> texRaw; // $rg.tex_raw: the stored texture value, verbatim
    std::optional<std::uint8_t> texHi;   // $rg.tex_hi
    std::optional<int> texW, texH;       // $rg.tex_w / $rg.tex_h: texel size the UVs are relative to
    std::string texturePath;             // the diffuse texture path ("TEXBSI.376" + image, or a "d76019" name)
    std::optional<Float3> diffuse;       // RGB 0..1, for solid faces
};

// A Section4 group to write: the faces it references (file face indices, i.e. after rg.face_order is applied)
// and the stored opaque triple when known. Centre and radius are always computed (§8).
struct BuildSection4Group {
    std::vector<std::uint32_t> faces;
    std::optional<std::array<float, 3>> opaque;
};

struct BuildPolygon {
    std::uint32_t material = 0;
    std::vector<std::uint32_t> corners; // indices into BuildInput::positions (and normals, uvs, frames)
};

struct BuildInput {
    // Per input vertex, in Assimp units and axes (node transforms already applied).
    std::vector<Float3> positions;
    std::vector<Float3> normals;             // empty = none
    std::vector<std::array<float, 2>> uvs;   // empty = none (U = V = 0)
    std::vector<std::vector<Float3>> frames; // frames 1..N-1, each absolute and sized like positions
    std::vector<BuildPolygon> polygons;
    std::vector<BuildMaterial> materials;

    // Round-trip data from the importer's metadata (assimp_glue/redguard/scene.hpp).
    std::vector<std::uint32_t> faceOrder;                    // file face index of each polygon; empty = keep order
    std::optional<std::vector<BuildSection4Group>> section4; // rg.section4; none = one group of every face
    std::optional<std::uint32_t> radius; // rg.radius: kept when within [r, r + 1 + r/16] of the computed r
    std::uint32_t header24 = 0;          // rg.header24
    // rg.vertex_order: the file vertex index of the k-th welded vertex (first use along the faces in file
    // order). Applied when it is a permutation of exactly the welded vertices; ignored (with a warning) else.
    std::vector<std::uint32_t> vertexOrder;
};

struct BuildOptions {
    enum class Kind { Static3D, Animated3DC } kind = Kind::Static3D;
    Version version = Version::V50; // .3D: V50 or V40 (.3DC is always v4.0)
    // How vertex normals are stored: Auto = table for v5.0 .3D, direct for v4.0 and .3DC.
    enum class Normals { Auto, Table, Direct } normals = Normals::Auto;
    float scale = 1.0f;                                   // GAMEFMT_RG_SCALE
    int fallbackTexSize = 256;                            // GAMEFMT_RG_FALLBACK_TEX_SIZE
    std::uint32_t defaultTexture = 0xFFF0FF00u;           // GAMEFMT_RG_DEFAULT_TEXTURE, encoded (color:255)
    std::optional<std::array<std::uint8_t, 768>> palette; // nearest entry to the diffuse colour for solids
};

// Parses a GAMEFMT_RG_DEFAULT_TEXTURE value ("tex:BANK/IMAGE" or "color:INDEX") to a texture value;
// nullopt when malformed or out of range.
std::optional<std::uint32_t> ParseDefaultTexture(const std::string &text);

// The texture value a material name or texture path spells ("tex376_19", "color85", ".../TEXBSI.376" with an
// image number after it, or a "d76019" image name); nullopt when it spells none.
std::optional<std::uint32_t> TextureFromName(const std::string &name);
std::optional<std::uint32_t> TextureFromPath(const std::string &path);

struct BuildResult {
    RG3DModel model;
    std::vector<std::string> warnings;
};

// Builds the model. Throws FormatError for what cannot be written (a polygon of more than 255 corners, a
// position outside i32 raw range, no faces, inconsistent input sizes).
BuildResult BuildModel(const BuildInput &input, const BuildOptions &options);

} // namespace gamefmt::redguard
