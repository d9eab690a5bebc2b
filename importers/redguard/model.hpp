// The Redguard .3D/.3DC model (docs/formats/redguard-3d.md §1-§8, §15, §16): plain structs that mirror the file, the
// reader (bytes -> RG3DModel), the writer (RG3DModel -> bytes, v4.0/v5.0 .3D and .3DC types 2/8/0) and the
// value codecs (base-40 texture names, solid colours, packed 10-10-10 normals). Native axes and raw units
// (1/256) throughout: the conversion to Assimp's frame is the glue's job. No Assimp here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::redguard {

// The format name FormatError carries for models, archives, banks and palettes.
inline constexpr const char *kFormatName = "Redguard 3D";

enum class Version : std::uint8_t { V26, V27, V40, V50 };
const char *VersionString(Version version); // "v2.6", "v2.7", "v4.0", "v5.0"
inline bool IsV2(Version v) {
    return v == Version::V26 || v == Version::V27;
}

using Int3 = std::array<std::int32_t, 3>;

// One polygon corner (§4 FaceVertex). `vertex` is the vertex index (v2.x byte offsets already divided by 12).
struct FaceVertex {
    std::uint32_t vertex = 0;
    std::int16_t du = 0; // UV deltas in 1/16 texel, accumulated in i32 along the face (§4)
    std::int16_t dv = 0;
    bool operator==(const FaceVertex &o) const { return vertex == o.vertex && du == o.du && dv == o.dv; }
};

struct Face {
    std::uint8_t texHi = 0;          // the opaque byte at +1, preserved
    std::uint32_t texture = 0;       // v4/v5: the u32 texture value; v2.x: the u16 value
    std::uint32_t unused = 0;        // v4/v5 +6 (u32), v2.x +4 (u32); 0 in real files
    std::vector<FaceVertex> corners; // 3-255
    bool operator==(const Face &o) const;
};

// Section4 (§8): sub-object groups.
struct Section4Ref {
    std::uint32_t faceOffset = 0; // model-relative offset of the face record
    std::uint16_t faceIndexTimes4 = 0;
    bool operator==(const Section4Ref &o) const {
        return faceOffset == o.faceOffset && faceIndexTimes4 == o.faceIndexTimes4;
    }
};
struct Section4Group {
    Int3 centre{};
    std::uint32_t radius = 0;
    std::array<float, 3> opaque{}; // v5.0 only (absent in the v2 form)
    std::vector<Section4Ref> refs;
    bool operator==(const Section4Group &o) const;
};

// An animation frame k >= 1, decoded to absolute values whatever the frame type stored.
struct Frame {
    std::vector<std::int32_t> positions;   // 3 per vertex, raw
    std::vector<std::int32_t> faceNormals; // 3 per face, raw (length ~256)
    bool operator==(const Frame &o) const { return positions == o.positions && faceNormals == o.faceNormals; }
};

struct RG3DModel {
    Version version = Version::V50;
    // The 64-byte header as stored (16 u32 LE). Readers use it for offsets; the writer recomputes every
    // offset and count and keeps only what it cannot compute (0x24, and 0x0C radius when keepRadius).
    std::array<std::uint32_t, 16> header{};
    std::uint32_t radius = 0;    // 0x0C, raw units
    std::uint32_t frameType = 0; // frame record 0's +0x0C (0 static, 2, 4, 8; §7)

    std::vector<std::int32_t> vertices; // base pose, 3 per vertex, raw (1/256 unit), +Y down
    std::vector<Face> faces;
    std::vector<std::int32_t> faceNormals; // base pose, 3 per face

    // Vertex normals (§6) as stored: 3 floats per entry, K = (end - [0x2C]) / 12 entries (v4/v5 .3D), or
    // nv direct entries (.3DC). Empty when the file has none.
    std::vector<float> vertexNormals;
    // The indirection table: one entry per corner in face order, each an index into vertexNormals
    // (the stored model-relative offset converted: (offset - [0x2C]) / 12), or kNoNormal when the stored
    // offset is out of range / misaligned. Empty = no table (direct lookup by vertex index, or none).
    std::vector<std::uint32_t> normalTable;
    static constexpr std::uint32_t kNoNormal = 0xFFFFFFFFu;

    bool hasSection4 = false;
    std::vector<Section4Group> section4;

    std::vector<Frame> frames; // frames 1 .. N-1 (frame 0 is vertices/faceNormals); N = 1 + frames.size()

    std::vector<std::uint8_t> v2Opaque; // v2.x: the 24·nf block at [0x18], kept verbatim

    std::vector<std::string> warnings; // what the reader degraded (§16 "warn and degrade"), in file order

    std::size_t vertexCount() const { return vertices.size() / 3; }
    std::size_t frameCount() const { return 1 + frames.size(); }
    bool operator==(const RG3DModel &o) const; // content, not header/warnings
};

// ---------------------------------------------------------------- value codecs (§4, §7)

struct TextureRef {
    enum class Kind : std::uint8_t { Solid, Texture, Invalid };
    Kind kind = Kind::Invalid;
    std::uint8_t colour = 0;  // Solid: palette index
    std::uint8_t lowByte = 0; // Solid v4/v5: the low byte LL of 0xFFF0_CC_LL (kept)
    std::uint16_t bank = 0;   // Texture: TEXBSI bank number (0-599)
    std::uint16_t image = 0;  // Texture: image index (0-999; v2 0-127)
};

// Decodes a face's texture value for its version (§4): v4/v5 solid iff (raw >> 20) == 0xFFF, else base-40;
// v2.x solid iff value >> 7 < 2, else bank = value >> 7, image = value & 0x7F.
TextureRef DecodeTexture(std::uint32_t value, Version version);
// Base-40 "Lddiii" value for bank 0-599, image 0-999; nullopt outside those ranges.
std::optional<std::uint32_t> EncodeBase40(unsigned bank, unsigned image);
// 0xFFF00000 | colour << 8 | lowByte.
std::uint32_t EncodeSolid(std::uint8_t colour, std::uint8_t lowByte = 0);

// Packed 10-10-10 normal (§7): bits 0-9 x, 10-19 y, 20-29 z, two's complement; bits 30-31 ignored / written 0.
Int3 UnpackNormal(std::uint32_t packed);
std::uint32_t PackNormal(const Int3 &normal); // each component clamped to -512..511

// trunc(256 · unit((v1 - v0) × (v2 - v0))) toward zero (§5); Newell normal of all corners when the first three
// are collinear; (0, 0, 0) for a degenerate polygon.
Int3 ComputeFaceNormal(const std::vector<std::int32_t> &positions, const Face &face);
// The model-relative offset of each face record when the records start at `firstRecord` and follow each other
// (10 + 8n bytes each, v2.x 8 + 8n; §3, §4). Section4 references point at these (§8). With the read file's
// faces offset (header[15], [0x3C]) they are that file's offsets when the reader skipped no face (faces of fewer
// than 3 corners); the writer lays faces out from 0x40.
std::vector<std::uint64_t> FaceRecordOffsets(const RG3DModel &model, std::uint64_t firstRecord);
// floor(max ||v||) over the given positions (raw units, §5).
std::uint32_t ComputeRadius(const std::vector<std::int32_t> &positions);

// ---------------------------------------------------------------- derived per-corner data (§4, §6)

// Accumulated UVs of every corner, face by face, in 1/16 texel (i32 running sums, §4). For v2.x models,
// corners >= 3 are rebuilt from the affine map of corners 0-2 (unless those are collinear).
std::vector<std::array<double, 2>> CornerUVs(const RG3DModel &model);
void CornerUVs(const RG3DModel &model, std::vector<std::array<double, 2>> &uvs); // into reused storage

// The normal of every corner per §6's table (native axes, unit length), and whether it is smooth (a valid
// vertex normal) or flat (the normalised face normal).
struct CornerNormal {
    std::array<float, 3> normal{};
    bool smooth = false;
    std::uint32_t slot = 0; // smooth: the vertexNormals entry; flat: the face index
};
std::vector<CornerNormal> CornerNormals(const RG3DModel &model);

// The same §6 resolution without a normal per corner: each corner names its source, and each source's unit
// normal is computed once (a vertex-normal entry is shared by many corners). normal(c) equals
// CornerNormals(model)[c].normal.
struct CornerShading {
    struct Source {
        std::uint32_t slot = 0; // smooth: the vertexNormals entry; flat: the face index
        bool smooth = false;
    };
    std::vector<Source> corners;                    // one per corner, faces in order
    std::vector<std::array<float, 3>> entryNormals; // per vertexNormals entry, unit length; zero when §6-invalid
    std::vector<std::array<float, 3>> flatNormals;  // per face
    const std::array<float, 3> &normal(std::size_t corner) const {
        const Source &s = corners[corner];
        return s.smooth ? entryNormals[s.slot] : flatNormals[s.slot];
    }
};
CornerShading ResolveCornerShading(const RG3DModel &model);
void ResolveCornerShading(const RG3DModel &model, CornerShading &out); // into reused storage

// ---------------------------------------------------------------- reading and writing

// Reads one model from data[0..size) (a file, or a ROB segment payload: offsets are relative to `data`).
// `baseOffset` is added to error offsets (the payload's place in the archive). Throws FormatError for what
// §16 says fails the import; degrades with warnings otherwise. v2.x .3DC: base pose only + warning.
RG3DModel ReadModel(const std::uint8_t *data, std::size_t size, std::size_t baseOffset = 0);

// Writes v4.0/v5.0 (model.version; v2.x is never written: FormatError) with the model's content as it is —
// vertices, faces, face normals, radius, vertex normals and table, Section4 (v5.0) — computing only offsets
// and counts (0x24 from header[9]), so a model read from a canonical file writes back byte-identical.
// Static models (no frames, frameType 0): the .3D layout of §15. frameType 8 without frames: the single-frame
// .3DC layout (one record, direct normals, no table). Frames: .3DC frame type 2 when every base - frame
// component fits in i16, otherwise type 0 with absolute frames and a warning in `warnings`.
std::vector<std::uint8_t> WriteModel(const RG3DModel &model, std::vector<std::string> *warnings = nullptr);

} // namespace gamefmt::redguard
