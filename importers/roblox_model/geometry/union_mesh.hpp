// Union geometry blobs (docs/formats/roblox-union-mesh.md): the render meshes Roblox keeps in union parts
// (CSGMDL v2/v4/v5 in MeshData/MeshData2, SolidMesh in SolidMeshHolder) and the CSGPHS convex hulls of
// PhysicalConfigData/PhysicsData. Blobs are sniffed by their bytes, never by the property that held them. No
// Assimp here: the glue turns a UnionMesh into aiMeshes.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbx {

inline constexpr const char *kUnionFormatName = "Roblox union mesh";

// What a blob is, from its first bytes (§0).
enum class UnionBlob : std::uint8_t {
    Empty,
    CsgMdl,    // CSGMDL, obfuscated header; `version` 2, 4 or 5 (others unsupported)
    SolidMesh, // 03 01, lengths, "SolidMesh"
    Csgk,      // a key of a mesh kept elsewhere: no geometry
    Csgphs,    // physics hulls
    Model,     // "<roblox!": a nested binary model of the source parts
    Unknown,
};
UnionBlob SniffUnionBlob(const std::uint8_t *data, std::size_t size, std::uint32_t *version = nullptr);

// LOD 0 of a union's geometry in the union's local frame (studs, at InitialSize, §9), as triangles.
struct UnionMesh {
    std::string source; // "CSGMDL2", "CSGMDL4", "CSGMDL5", "SolidMesh", "CSGPHS6", …
    std::vector<Vector3> positions;
    std::vector<Vector3> normals;                    // one per position; empty for hulls (flat faces)
    std::vector<std::array<float, 2>> uvs;           // studs, V as stored (top-down); empty when absent
    std::vector<std::array<std::uint8_t, 4>> colors; // RGBA; empty when absent
    std::vector<std::uint32_t> indices;              // 3 per triangle, counter-clockwise = front
    std::vector<std::string> warnings;               // recoverable oddities (a bad LOD table, trailing bytes)
};

// The render mesh of a CSGMDL (v2, v4, v5) or SolidMesh blob; nullopt for blobs without one (empty, CSGK,
// CSGPHS, a nested model, unknown bytes, an unsupported CSGMDL version or stride). Malformed blobs throw
// FormatError (kUnionFormatName, the problem, the byte offset in the blob).
std::optional<UnionMesh> DecodeUnionRenderMesh(const std::uint8_t *data, std::size_t size);

// The hulls of a CSGPHS blob (versions 3, 5, 6, 7) as one mesh; nullopt for v0 (a box), v8 (zstd +
// Edgebreaker, recognised, not decoded) and anything else. Malformed hull data throws FormatError.
std::optional<UnionMesh> DecodeUnionHulls(const std::uint8_t *data, std::size_t size);

// The CSGMDL obfuscation (§3): XORs `data` in place with the 31-byte key from absolute offset `from` to `to`.
void CsgMdlXor(std::uint8_t *data, std::size_t from, std::size_t to);

} // namespace gamefmt::rbx
