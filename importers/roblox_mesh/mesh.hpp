// The Roblox FileMesh (.mesh 1.00-7.00) format model: plain structs that mirror the file
// (docs/formats/roblox-mesh.md), shared by the reader, the writer and the Assimp glue. No Assimp here.
//
// Conventions of the model (the reader normalises text files to them, the writer keeps them):
//  * Vertex values are the binary file's: positions in studs at true scale (1.00's x2 already undone),
//    V top-down as binary files store it (text files' V converted: v_binary = 1 - v_text), tangent and
//    colour bytes raw.
//  * One face list holds every LOD level; lodOffsets gives the face-index boundaries (§10).
//  * Skinning records keep their file form: envelope bone indices are subset-local (§7).
//  * What is not interpreted is kept (raw FACS blob, HSRAVIS bits, unknown chunks, trailing bytes) so
//    read-then-write reproduces the file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbxmesh {

// The format name in every error this codec throws.
inline constexpr const char *kFormatName = "Roblox mesh";

inline constexpr std::size_t kMaxBonesPerSubset = 26;
inline constexpr std::uint16_t kNoBone = 0xFFFF;

struct Vertex {
    float px = 0, py = 0, pz = 0;
    float nx = 0, ny = 0, nz = 0;
    float u = 0, v = 0;                                    // v top-down (file convention)
    std::array<std::uint8_t, 4> tangent{0, 0, 0, 0};       // tx ty tz ts: t = b/127 - 1, w = ts >= 127 ? +1 : -1
    std::array<std::uint8_t, 4> color{255, 255, 255, 255}; // RGBA; white when the file has 36-byte vertices
};

struct Face {
    std::uint32_t a = 0, b = 0, c = 0;
};

struct Envelope {
    std::array<std::uint8_t, 4> bones{0, 0, 0, 0};   // indices into the owning subset's boneIndices
    std::array<std::uint8_t, 4> weights{0, 0, 0, 0}; // sum 255 in real files
};

struct Bone {
    std::uint32_t nameOffset = 0;   // into boneNames
    std::uint16_t parent = kNoBone; // kNoBone = root
    std::uint16_t lodParent = kNoBone;
    float culling = 0;
    std::array<float, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1}; // world bind pose, R00 R01 R02 R10 ... R22
    std::array<float, 3> position{0, 0, 0};                   // world bind position
    std::string name;                                         // resolved through nameOffset
};

struct Subset {
    std::uint32_t facesBegin = 0, facesLength = 0;
    std::uint32_t vertsBegin = 0, vertsLength = 0;
    std::uint32_t numBoneIndices = 0;
    std::array<std::uint16_t, kMaxBonesPerSubset> boneIndices{}; // unused entries kNoBone
};

// A FACS quantized matrix (§8): rows = face bones, cols = poses; element (r, c) at [r * cols + c].
struct QuantizedMatrix {
    std::uint16_t version = 2; // 1: raw f32 values; 2: min/max + u16
    std::uint32_t rows = 0, cols = 0;
    float min = 0, max = 0;       // version 2
    std::vector<std::uint16_t> q; // version 2
    std::vector<float> values;    // version 1 raw; version 2 dequantised (min + q*(max-min)/65535)
};

// The interpreted FACS blob. Present only when the blob parses cleanly.
struct FacsData {
    std::vector<std::string> faceBoneNames;
    std::vector<std::string> controlNames;
    QuantizedMatrix px, py, pz, rx, ry, rz; // translations and rotations (degrees) per bone and pose
    std::vector<std::array<std::uint16_t, 2>> twoPoseCorrectives;   // indices into controlNames
    std::vector<std::array<std::uint16_t, 3>> threePoseCorrectives; // indices into controlNames
};

// The FACS blob as stored (v5: after the subsets, sized by the header; 6.00/7.00: the FACS chunk's
// payload after its u32 size). Always kept raw for lossless writing.
struct Facs {
    std::uint32_t format = 1;       // 5.00 header facsDataFormat; 1 for chunked files
    std::vector<std::uint8_t> blob; // the blob, byte for byte
    std::optional<FacsData> parsed; // when the blob could be interpreted
};

struct Hsravis {
    std::uint32_t bitCount = 0;
    std::vector<std::uint8_t> bits; // (bitCount + 7) / 8 bytes, LSB first
};

// A chunk of a 6.00/7.00 file that the reader does not interpret (kept and written back in place).
struct RawChunk {
    std::string tag; // up to 8 ASCII bytes, NUL padding stripped
    std::uint32_t version = 0;
    std::vector<std::uint8_t> payload;
};

struct RobloxMesh {
    std::string version = "2.00"; // "1.00" ... "7.00"

    std::vector<Vertex> vertices;
    std::vector<Face> faces;

    // Binary header fields that matter for exact writing (2.00-5.00).
    std::uint16_t headerSize = 0; // 0 = the version's standard size
    std::uint8_t vertexSize = 40; // 36 or 40 (larger strides are read, written as 40)
    std::uint8_t faceSize = 12;
    std::uint16_t lodEntrySize = 4; // 3.xx sizeof_LOD

    // LODs (3.00+): levels + 1 face offsets; empty = one level of all faces.
    std::vector<std::uint32_t> lodOffsets;
    std::uint16_t lodType = 0;           // 4.00+: 0 None, 1 Unknown, 2 RbxSimplifier, 3 ZeuxMeshOptimizer, 4 (sloppy)
    std::uint8_t numHighQualityLODs = 0; // 4.00+
    std::uint8_t v4Unused = 0;           // 4.xx/5.00 header byte 23; never assumed 0

    // Skinning (4.00+): envelopes only when there are bones.
    std::vector<Envelope> envelopes;
    std::vector<Bone> bones;
    std::vector<std::uint8_t> boneNames; // the name table, byte for byte
    std::vector<Subset> subsets;

    std::optional<Facs> facs;       // 5.00+
    std::optional<Hsravis> hsravis; // 6.00+

    // 6.00/7.00 container.
    std::uint32_t coremeshVersion = 0;       // 1 raw, 2 Draco; 0 for non-chunked versions
    std::vector<std::string> chunkOrder;     // tags in file order, for writing back in the same order
    std::vector<RawChunk> unknownChunks;     // uninterpreted chunks, in file order
    std::vector<std::uint8_t> trailingBytes; // bytes after the last section (warned about)

    // Text versions (1.00/1.01): the file used CRLF line ends / ended with a newline.
    bool textCrlf = false;
    bool textFinalNewline = false;

    // Non-fatal problems met while reading (the glue forwards them to Assimp's logger).
    std::vector<std::string> warnings;

    bool isText() const { return version == "1.00" || version == "1.01"; }
    bool isChunked() const { return version == "6.00" || version == "7.00"; }
    bool hasSkinning() const { return !bones.empty(); }
};

// One LOD level: faces [faceBegin, faceEnd) of RobloxMesh::faces.
struct LodLevel {
    std::uint32_t faceBegin = 0, faceEnd = 0;
};

// The levels the offset table describes (§10.1): fewer than 3 entries, off[1] == 0, non-monotonic
// offsets or offsets beyond the face count give one level of all faces (and, for the malformed cases,
// a warning appended to `warnings` when it is not null).
std::vector<LodLevel> LodLevels(const RobloxMesh &mesh, std::vector<std::string> *warnings = nullptr);

} // namespace gamefmt::rbxmesh
