// Writes the Roblox mesh format model as .mesh bytes, versions 2.00-7.00 and, on explicit request, the
// text versions 1.00/1.01 (docs/formats/roblox-mesh.md §4-§9, §14).
//
// The writer is lossless for what the model holds: header sizes larger than standard, 36-byte
// vertices, the bone name table, v4Unused, chunk order, unknown chunks and trailing bytes come back as
// read, so read-then-write reproduces a file (strides larger than standard are written at the standard
// size: the extra bytes are not in the model). Content a version cannot hold (skinning before 4.00,
// FACS before 5.00, HSRAVIS before 6.00, several LOD levels in 2.00, counts past a u16) is a
// FormatError rather than silently dropped; the builder decides what to drop for exporters.
//
// Choices where the reference leaves one:
//  * 5.00 without FACS is written with facsDataFormat 0 and facsDataSize 0 (readers interpret the blob
//    only when the format is 1 and the size positive), so a skinned mesh can always be written as 5.00.
//  * 7.00 writes COREMESH v2 (Draco) unless WriteOptions::draco is false or the model says
//    coremeshVersion 1 (a real 7.00 file with a raw COREMESH, kept on round trips); 6.00 always v1.
//  * Text 1.00/1.01 is written only when asked for by version (never chosen automatically); numbers are
//    %g-style and read back to the same floats, except V, which the text stores as 1 - v (exact for
//    v in [0.5, 1], within 2^-24 below). Tangent and colour bytes are not part of the text format.
//  * A LOD table of fewer than 2 entries is written as [0, numFaces] (Roblox treats shorter 3.00
//    tables as empty).
#include "importers/roblox_mesh/mesh_writer.hpp"

#include "common/ascii.hpp"
#include "common/byte_writer.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_mesh/draco_encode.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gamefmt::rbxmesh {
namespace {

enum class Layout { Text, V2, V3, V4, V5, Chunked };

constexpr std::size_t kVertexSize = 40;
constexpr std::size_t kFaceSize = 12;
constexpr std::size_t kEnvelopeSize = 8;
constexpr std::size_t kBoneSize = 60;
constexpr std::size_t kSubsetSize = 72;

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(kFormatName, message);
}

bool ParseLayout(const std::string &version, Layout &layout) {
    if (version == "1.00" || version == "1.01")
        layout = Layout::Text;
    else if (version == "2.00")
        layout = Layout::V2;
    else if (version == "3.00" || version == "3.01")
        layout = Layout::V3;
    else if (version == "4.00" || version == "4.01")
        layout = Layout::V4;
    else if (version == "5.00")
        layout = Layout::V5;
    else if (version == "6.00" || version == "7.00")
        layout = Layout::Chunked;
    else
        return false;
    return true;
}

std::uint16_t StandardHeaderSize(Layout layout) {
    switch (layout) {
    case Layout::Text:
        return 0;
    case Layout::V2:
        return 12;
    case Layout::V3:
        return 16;
    case Layout::V4:
        return 24;
    case Layout::V5:
        return 32;
    case Layout::Chunked:
        return 0;
    }
    return 0;
}

std::string Count(std::size_t n, const char *what) {
    return std::to_string(n) + " " + what;
}

std::uint16_t CheckU16(std::size_t n, const char *what, const std::string &version) {
    if (n > 0xFFFF) Fail(version + " holds at most 65535 " + what + "; the mesh has " + std::to_string(n));
    return static_cast<std::uint16_t>(n);
}

std::uint32_t CheckU32(std::size_t n, const char *what) {
    if (n > std::numeric_limits<std::uint32_t>::max())
        Fail("the mesh has " + Count(n, what) + ", more than a u32 count holds");
    return static_cast<std::uint32_t>(n);
}

// The table as written: the model's own when it has at least two entries, else one level of all faces.
std::vector<std::uint32_t> OffsetsToWrite(const RobloxMesh &mesh) {
    if (mesh.lodOffsets.size() >= 2) return mesh.lodOffsets;
    return {0, static_cast<std::uint32_t>(mesh.faces.size())};
}

// The bone name table and each bone's offset into it. The model's table is written byte for byte when
// every bone's name is what its nameOffset resolves to (round trips); otherwise (hand-built models,
// renamed bones) a fresh NUL-terminated table in bone order.
struct NameTable {
    bool fromModel = false;
    std::vector<std::uint8_t> built;
    std::vector<std::uint32_t> offsets;

    const std::vector<std::uint8_t> &bytes(const RobloxMesh &mesh) const { return fromModel ? mesh.boneNames : built; }
};

bool TableMatchesNames(const RobloxMesh &mesh) {
    const auto &t = mesh.boneNames;
    if (t.empty()) return false;
    for (const Bone &b : mesh.bones) {
        if (b.nameOffset >= t.size()) return false;
        const auto *begin = t.data() + b.nameOffset;
        const auto *end = static_cast<const std::uint8_t *>(std::memchr(begin, 0, t.size() - b.nameOffset));
        if (end == nullptr) end = t.data() + t.size();
        if (static_cast<std::size_t>(end - begin) != b.name.size() ||
            !std::equal(begin, end, reinterpret_cast<const std::uint8_t *>(b.name.data())))
            return false;
    }
    return true;
}

NameTable MakeNameTable(const RobloxMesh &mesh) {
    NameTable table;
    table.offsets.reserve(mesh.bones.size());
    if (TableMatchesNames(mesh)) {
        table.fromModel = true;
        for (const Bone &b : mesh.bones) table.offsets.push_back(b.nameOffset);
    } else {
        for (const Bone &b : mesh.bones) {
            if (b.name.find('\0') != std::string::npos) Fail("bone name '" + b.name + "' contains a NUL byte");
            table.offsets.push_back(CheckU32(table.built.size(), "bytes of bone names"));
            table.built.insert(table.built.end(), b.name.begin(), b.name.end());
            table.built.push_back(0);
        }
    }
    CheckU32(table.bytes(mesh).size(), "bytes of bone names");
    return table;
}

// Checks that our own reader (and Roblox's) will accept what is written: indices in range, counts
// consistent. Hostile or hand-made models fail here with the reason instead of producing a bad file.
void ValidateGeometry(const RobloxMesh &mesh) {
    CheckU32(mesh.vertices.size(), "vertices");
    CheckU32(mesh.faces.size(), "faces");
    const std::size_t n = mesh.vertices.size();
    for (std::size_t j = 0; j < mesh.faces.size(); ++j) {
        const Face &f = mesh.faces[j];
        if (f.a >= n || f.b >= n || f.c >= n)
            Fail("face " + std::to_string(j) + " (" + std::to_string(f.a) + ", " + std::to_string(f.b) + ", " +
                 std::to_string(f.c) + ") references a vertex past the " + Count(n, "vertices"));
    }
}

void ValidateSkinning(const RobloxMesh &mesh) {
    const std::size_t nb = mesh.bones.size();
    // Bone indices are u16 everywhere (parents, subset entries) and 0xFFFF means "none".
    if (nb > 0xFFFF) Fail("at most 65535 bones fit a Roblox mesh; the mesh has " + std::to_string(nb));
    if (mesh.envelopes.size() != mesh.vertices.size())
        Fail("a skinned mesh needs one envelope per vertex: " + Count(mesh.envelopes.size(), "envelopes") + " for " +
             Count(mesh.vertices.size(), "vertices"));
    for (std::size_t i = 0; i < nb; ++i) {
        const std::uint16_t p = mesh.bones[i].parent;
        if (p != kNoBone && p >= nb)
            Fail("bone " + std::to_string(i) + " ('" + mesh.bones[i].name + "') has parent " + std::to_string(p) +
                 " past the " + Count(nb, "bones"));
    }
    for (std::size_t s = 0; s < mesh.subsets.size(); ++s) {
        const Subset &sub = mesh.subsets[s];
        if (sub.numBoneIndices > kMaxBonesPerSubset)
            Fail("subset " + std::to_string(s) + " uses " + std::to_string(sub.numBoneIndices) +
                 " bones; a subset holds at most 26");
        for (std::uint16_t b : sub.boneIndices)
            if (b != kNoBone && b >= nb)
                Fail("subset " + std::to_string(s) + " references bone " + std::to_string(b) + " past the " +
                     Count(nb, "bones"));
    }
}

void PutVertex(ByteWriter &w, const Vertex &v, bool withColor) {
    w.f32le(v.px);
    w.f32le(v.py);
    w.f32le(v.pz);
    w.f32le(v.nx);
    w.f32le(v.ny);
    w.f32le(v.nz);
    w.f32le(v.u);
    w.f32le(v.v);
    w.bytes(v.tangent.data(), 4);
    if (withColor) w.bytes(v.color.data(), 4);
}

void PutVertices(ByteWriter &w, const std::vector<Vertex> &vertices, bool withColor) {
    for (const Vertex &v : vertices) PutVertex(w, v, withColor);
}

void PutFaces(ByteWriter &w, const std::vector<Face> &faces) {
    for (const Face &f : faces) {
        w.u32le(f.a);
        w.u32le(f.b);
        w.u32le(f.c);
    }
}

void PutEnvelopes(ByteWriter &w, const std::vector<Envelope> &envelopes) {
    for (const Envelope &e : envelopes) {
        w.bytes(e.bones.data(), 4);
        w.bytes(e.weights.data(), 4);
    }
}

void PutBones(ByteWriter &w, const RobloxMesh &mesh, const NameTable &names) {
    for (std::size_t i = 0; i < mesh.bones.size(); ++i) {
        const Bone &b = mesh.bones[i];
        w.u32le(names.offsets[i]);
        w.u16le(b.parent);
        w.u16le(b.lodParent);
        w.f32le(b.culling);
        for (float r : b.rotation) w.f32le(r);
        for (float p : b.position) w.f32le(p);
    }
}

void PutSubsets(ByteWriter &w, const std::vector<Subset> &subsets) {
    for (const Subset &s : subsets) {
        w.u32le(s.facesBegin);
        w.u32le(s.facesLength);
        w.u32le(s.vertsBegin);
        w.u32le(s.vertsLength);
        w.u32le(s.numBoneIndices);
        for (std::uint16_t b : s.boneIndices) w.u16le(b);
    }
}

void PutOffsets(ByteWriter &w, const std::vector<std::uint32_t> &offsets) {
    for (std::uint32_t o : offsets) w.u32le(o);
}

bool AllWhite(const std::vector<Vertex> &vertices) {
    return std::all_of(vertices.begin(), vertices.end(), [](const Vertex &v) {
        return v.color[0] == 255 && v.color[1] == 255 && v.color[2] == 255 && v.color[3] == 255;
    });
}

// The header size to write: the model's when it is larger than standard and came from a file of the
// same layout (the extra bytes were not kept, so they are written as zeros), else the standard size.
std::uint16_t HeaderSize(const RobloxMesh &mesh, Layout layout) {
    const std::uint16_t standard = StandardHeaderSize(layout);
    Layout source;
    if (mesh.headerSize > standard && ParseLayout(mesh.version, source) && source == layout) return mesh.headerSize;
    return standard;
}

void PutVersionLine(ByteWriter &w, const std::string &version) {
    w.string("version " + version + "\n");
}

// ---------------------------------------------------------------- 2.00 / 3.xx

void WriteV2V3(ByteWriter &w, const RobloxMesh &mesh, const std::string &version, Layout layout) {
    const std::uint16_t headerSize = HeaderSize(mesh, layout);
    // 36-byte vertices only when the model came that way and nothing is lost (all colours white).
    const bool withColor = !(mesh.vertexSize == 36 && AllWhite(mesh.vertices));
    const std::vector<std::uint32_t> offsets =
        layout == Layout::V3 ? OffsetsToWrite(mesh) : std::vector<std::uint32_t>{};
    const std::uint16_t numLods = CheckU16(offsets.size(), "LOD entries", version);

    w.reserve(13 + headerSize + mesh.vertices.size() * kVertexSize + mesh.faces.size() * kFaceSize +
              offsets.size() * 4 + mesh.trailingBytes.size());
    PutVersionLine(w, version);
    w.u16le(headerSize);
    w.u8(withColor ? 40 : 36);
    w.u8(static_cast<std::uint8_t>(kFaceSize));
    if (layout == Layout::V3) {
        w.u16le(4); // sizeof_LOD
        w.u16le(numLods);
    }
    w.u32le(static_cast<std::uint32_t>(mesh.vertices.size()));
    w.u32le(static_cast<std::uint32_t>(mesh.faces.size()));
    w.zeros(headerSize - StandardHeaderSize(layout));
    PutVertices(w, mesh.vertices, withColor);
    PutFaces(w, mesh.faces);
    PutOffsets(w, offsets);
}

// ---------------------------------------------------------------- 4.xx / 5.00

void WriteV4V5(ByteWriter &w, const RobloxMesh &mesh, const std::string &version, Layout layout) {
    const std::uint16_t headerSize = HeaderSize(mesh, layout);
    const bool skinned = mesh.hasSkinning();
    const std::vector<std::uint32_t> offsets = OffsetsToWrite(mesh);
    const std::uint16_t numLods = CheckU16(offsets.size(), "LOD entries", version);
    const std::uint16_t numBones = CheckU16(mesh.bones.size(), "bones", version);
    const std::uint16_t numSubsets = CheckU16(mesh.subsets.size(), "subsets", version);
    NameTable names;
    if (skinned) names = MakeNameTable(mesh);
    const std::vector<std::uint8_t> noNames;
    const std::vector<std::uint8_t> &nameBytes = skinned ? names.bytes(mesh) : noNames;
    const std::vector<std::uint8_t> *facsBlob = mesh.facs ? &mesh.facs->blob : nullptr;

    w.reserve(13 + headerSize + mesh.vertices.size() * (kVertexSize + (skinned ? kEnvelopeSize : 0)) +
              mesh.faces.size() * kFaceSize + offsets.size() * 4 + mesh.bones.size() * kBoneSize + nameBytes.size() +
              mesh.subsets.size() * kSubsetSize + (facsBlob ? facsBlob->size() : 0) + mesh.trailingBytes.size());
    PutVersionLine(w, version);
    w.u16le(headerSize);
    w.u16le(mesh.lodType);
    w.u32le(static_cast<std::uint32_t>(mesh.vertices.size()));
    w.u32le(static_cast<std::uint32_t>(mesh.faces.size()));
    w.u16le(numLods);
    w.u16le(numBones);
    w.u32le(static_cast<std::uint32_t>(nameBytes.size()));
    w.u16le(skinned ? numSubsets : 0);
    w.u8(mesh.numHighQualityLODs);
    w.u8(mesh.v4Unused);
    if (layout == Layout::V5) {
        w.u32le(mesh.facs ? mesh.facs->format : 0);
        w.u32le(facsBlob ? CheckU32(facsBlob->size(), "bytes of FACS data") : 0);
    }
    w.zeros(headerSize - StandardHeaderSize(layout));

    PutVertices(w, mesh.vertices, true);
    if (skinned) PutEnvelopes(w, mesh.envelopes); // no envelope array without bones (§7)
    PutFaces(w, mesh.faces);
    PutOffsets(w, offsets);
    if (skinned) {
        PutBones(w, mesh, names);
        w.bytes(nameBytes);
        PutSubsets(w, mesh.subsets);
    }
    if (layout == Layout::V5 && facsBlob) w.bytes(*facsBlob);
}

// ---------------------------------------------------------------- 1.00 / 1.01 (opt-in)

// printf's %g (6 significant digits, as the real files were written) when the reader gets the model's
// value back from it (`restores`), else more digits until it does (9 always give the nearest float);
// exponents get three digits like the MSVC runtime that wrote the real files ("1.66306e-006").
// std::to_chars keeps it independent of the C locale.
template <typename Restores> void AppendTextNumber(std::string &out, float value, Restores restores) {
    if (!std::isfinite(value)) Fail("a non-finite value cannot be written in a text mesh");
    char buf[48];
    std::to_chars_result r{};
    for (int precision = 6; precision <= 9; ++precision) {
        r = std::to_chars(buf, buf + sizeof(buf), static_cast<double>(value), std::chars_format::general, precision);
        float back = 0;
        if (ParseFloat(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)), back) && restores(back)) break;
    }
    const std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
    const std::size_t e = text.find('e');
    if (e == std::string_view::npos) {
        out.append(text);
        return;
    }
    out.append(text.substr(0, e + 2)); // mantissa, 'e', sign
    const std::string_view digits = text.substr(e + 2);
    if (digits.size() < 3) out.append(3 - digits.size(), '0');
    out.append(digits);
}

// Unindexed triangles: three bracketed triples per corner. 1.00 stores positions at twice their size;
// text V is bottom-up (v_text = 1 - v). Tangents and colours have no place in the format.
void WriteText(ByteWriter &w, const RobloxMesh &mesh, const std::string &version) {
    const char *eol = mesh.textCrlf ? "\r\n" : "\n";
    const float scale = version == "1.00" ? 2.0f : 1.0f;
    std::string text = "version " + version + eol + std::to_string(mesh.faces.size()) + eol;
    text.reserve(text.size() + mesh.faces.size() * 3 * 80);
    auto same = [](float value) {
        return [value](float back) { return back == value && std::signbit(back) == std::signbit(value); };
    };
    auto number = [&](float value) { AppendTextNumber(text, value, same(value)); };
    auto triple = [&](float a, float b, float c) {
        text += '[';
        number(a);
        text += ',';
        number(b);
        text += ',';
        number(c);
        text += ']';
    };
    for (const Face &f : mesh.faces)
        for (std::uint32_t i : {f.a, f.b, f.c}) {
            const Vertex &v = mesh.vertices[i];
            triple(v.px * scale, v.py * scale, v.pz * scale);
            triple(v.nx, v.ny, v.nz);
            text += '[';
            number(v.u);
            text += ',';
            // The reader computes 1 - v_text in float: aim at that, not at the rounded 1 - v.
            AppendTextNumber(text, 1.0f - v.v, [&](float back) { return 1.0f - back == v.v; });
            text += ",0]";
        }
    if (mesh.textFinalNewline) text += eol;
    w.string(text);
}

// ---------------------------------------------------------------- 6.00 / 7.00

std::string StripNul(const std::string &tag) {
    const auto end = tag.find('\0');
    return end == std::string::npos ? tag : tag.substr(0, end);
}

// A chunk header, then the payload straight into the output; the size field is patched afterwards.
template <typename WritePayload>
void PutChunk(ByteWriter &w, const std::string &tag, std::uint32_t version, WritePayload writePayload) {
    w.fixedString(tag, 8);
    w.u32le(version);
    const std::size_t sizeAt = w.size();
    w.u32le(0);
    writePayload();
    w.patchU32le(sizeAt, CheckU32(w.size() - sizeAt - 4, "bytes in one chunk"));
}

void PutCoremesh(ByteWriter &w, const RobloxMesh &mesh, bool draco) {
    if (draco) {
        const std::vector<std::uint8_t> stream = EncodeCoremeshDraco(mesh.vertices, mesh.faces);
        w.u32le(CheckU32(stream.size(), "bytes of Draco data"));
        w.bytes(stream);
    } else {
        w.u32le(static_cast<std::uint32_t>(mesh.vertices.size()));
        PutVertices(w, mesh.vertices, true);
        w.u32le(static_cast<std::uint32_t>(mesh.faces.size()));
        PutFaces(w, mesh.faces);
    }
}

void PutLods(ByteWriter &w, const RobloxMesh &mesh) {
    const std::vector<std::uint32_t> offsets = OffsetsToWrite(mesh);
    w.u16le(mesh.lodType);
    w.u8(mesh.numHighQualityLODs);
    w.u32le(CheckU32(offsets.size(), "LOD entries"));
    PutOffsets(w, offsets);
}

void PutSkinning(ByteWriter &w, const RobloxMesh &mesh) {
    const NameTable names = MakeNameTable(mesh);
    w.u32le(static_cast<std::uint32_t>(mesh.envelopes.size()));
    PutEnvelopes(w, mesh.envelopes);
    w.u32le(static_cast<std::uint32_t>(mesh.bones.size()));
    PutBones(w, mesh, names);
    w.u32le(static_cast<std::uint32_t>(names.bytes(mesh).size()));
    w.bytes(names.bytes(mesh));
    w.u32le(CheckU32(mesh.subsets.size(), "subsets"));
    PutSubsets(w, mesh.subsets);
}

void PutHsravis(ByteWriter &w, const Hsravis &h) {
    if (h.bits.size() != (static_cast<std::uint64_t>(h.bitCount) + 7) / 8)
        Fail("HSRAVIS has " + std::to_string(h.bitCount) + " bits but " + Count(h.bits.size(), "bytes") +
             " (needs (bitCount + 7) / 8)");
    w.u32le(h.bitCount);
    w.bytes(h.bits);
}

void WriteChunked(ByteWriter &w, const RobloxMesh &mesh, const std::string &version, bool draco) {
    const bool useDraco = version == "7.00" && draco && mesh.coremeshVersion != 1;
    const bool writeFacs =
        mesh.facs && (!mesh.facs->blob.empty() || std::find(mesh.chunkOrder.begin(), mesh.chunkOrder.end(),
                                                            std::string("FACS")) != mesh.chunkOrder.end());
    std::size_t estimate = 13 + 16 * (5 + mesh.unknownChunks.size()) + mesh.vertices.size() * kVertexSize +
                           mesh.faces.size() * kFaceSize + mesh.envelopes.size() * kEnvelopeSize +
                           mesh.bones.size() * kBoneSize + mesh.boneNames.size() + mesh.subsets.size() * kSubsetSize +
                           (mesh.facs ? mesh.facs->blob.size() : 0);
    for (const RawChunk &c : mesh.unknownChunks) estimate += c.payload.size();
    w.reserve(estimate);

    // Known chunks are written once each; unknown ones in model order, matched to chunkOrder by tag
    // through a queue per tag (hostile files may hold many small chunks: stay linear).
    bool doneCore = false, doneLods = false, doneSkin = !mesh.hasSkinning(), doneFacs = !writeFacs,
         doneHsravis = !mesh.hsravis.has_value();
    std::unordered_map<std::string, std::vector<std::size_t>> unknownByTag;
    for (std::size_t i = 0; i < mesh.unknownChunks.size(); ++i)
        unknownByTag[StripNul(mesh.unknownChunks[i].tag)].push_back(i);
    std::unordered_map<std::string, std::size_t> nextOfTag;
    std::vector<bool> doneUnknown(mesh.unknownChunks.size(), false);

    auto writeUnknown = [&](std::size_t i) {
        const RawChunk &c = mesh.unknownChunks[i];
        PutChunk(w, StripNul(c.tag), c.version, [&] { w.bytes(c.payload); });
        doneUnknown[i] = true;
    };
    auto writeKnown = [&](const std::string &tag) -> bool {
        if (tag == "COREMESH" && !doneCore) {
            PutChunk(w, "COREMESH", useDraco ? 2 : 1, [&] { PutCoremesh(w, mesh, useDraco); });
            doneCore = true;
        } else if (tag == "LODS" && !doneLods) {
            PutChunk(w, "LODS", 1, [&] { PutLods(w, mesh); });
            doneLods = true;
        } else if (tag == "SKINNING" && !doneSkin) {
            PutChunk(w, "SKINNING", 1, [&] { PutSkinning(w, mesh); });
            doneSkin = true;
        } else if (tag == "FACS" && !doneFacs) {
            PutChunk(w, "FACS", 1, [&] {
                w.u32le(CheckU32(mesh.facs->blob.size(), "bytes of FACS data"));
                w.bytes(mesh.facs->blob);
            });
            doneFacs = true;
        } else if (tag == "HSRAVIS" && !doneHsravis) {
            PutChunk(w, "HSRAVIS", 1, [&] { PutHsravis(w, *mesh.hsravis); });
            doneHsravis = true;
        } else {
            return false;
        }
        return true;
    };

    PutVersionLine(w, version);
    for (const std::string &raw : mesh.chunkOrder) {
        const std::string tag = StripNul(raw);
        if (writeKnown(tag)) continue;
        const auto it = unknownByTag.find(tag);
        if (it == unknownByTag.end()) continue;
        std::size_t &next = nextOfTag[tag];
        if (next < it->second.size()) writeUnknown(it->second[next++]);
    }
    // Whatever the order did not name, in the standard order (§14.6).
    for (const char *tag : {"COREMESH", "LODS", "SKINNING", "FACS", "HSRAVIS"}) writeKnown(tag);
    for (std::size_t i = 0; i < mesh.unknownChunks.size(); ++i)
        if (!doneUnknown[i]) writeUnknown(i);
}

} // namespace

std::vector<std::uint8_t> WriteRobloxMesh(const RobloxMesh &mesh, const WriteOptions &options) {
    const std::string version = options.version.empty() ? mesh.version : options.version;
    Layout layout;
    if (!ParseLayout(version, layout)) {
        Fail("cannot write version '" + version +
             "'; writable: 1.00, 1.01, 2.00, 3.00, 3.01, 4.00, 4.01, 5.00, 6.00, 7.00");
    }

    ValidateGeometry(mesh);
    if (mesh.hasSkinning()) {
        if (layout == Layout::Text || layout == Layout::V2 || layout == Layout::V3)
            Fail(version + " cannot hold skinning (" + Count(mesh.bones.size(), "bones") +
                 "); write 4.00 or later, or remove the bones");
        ValidateSkinning(mesh);
    }
    if ((layout == Layout::Text || layout == Layout::V2) && LodLevels(mesh).size() > 1)
        Fail(version + " has no LOD table but the mesh has " + std::to_string(LodLevels(mesh).size()) +
             " LOD levels; write 3.00 or later, or keep LOD0 only");
    if (mesh.facs && !mesh.facs->blob.empty() && (layout != Layout::V5 && layout != Layout::Chunked))
        Fail(version + " cannot hold FACS data (" + Count(mesh.facs->blob.size(), "bytes") +
             "); write 5.00 or later, or remove it");
    if (mesh.hsravis && (mesh.hsravis->bitCount > 0 || !mesh.hsravis->bits.empty()) && layout != Layout::Chunked)
        Fail(version + " cannot hold HSRAVIS data; write 6.00 or 7.00, or remove it");

    ByteWriter w(kFormatName);
    switch (layout) {
    case Layout::Text:
        WriteText(w, mesh, version);
        break;
    case Layout::V2:
    case Layout::V3:
        WriteV2V3(w, mesh, version, layout);
        break;
    case Layout::V4:
    case Layout::V5:
        WriteV4V5(w, mesh, version, layout);
        break;
    case Layout::Chunked:
        WriteChunked(w, mesh, version, options.draco);
        break;
    }
    // Bytes after the last section belong to the file they came from: only a rewrite of that version
    // gets them back.
    if (version == mesh.version) w.bytes(mesh.trailingBytes);
    return w.take();
}

std::optional<std::string> NormaliseRobloxMeshVersion(const std::string &text) {
    std::string trimmed = text;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.pop_back();
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) trimmed.erase(0, 1);
    const std::string lower = AsciiLower(trimmed);
    if (lower == "auto") return std::string("auto");
    double number = 0;
    const char *end = trimmed.data() + trimmed.size();
    const auto result = std::from_chars(trimmed.data(), end, number);
    if (trimmed.empty() || result.ec != std::errc() || result.ptr != end) return std::nullopt;
    for (const char *version : kWritableVersions)
        if (double known = 0; ParseDouble(version, known) && std::fabs(number - known) < 1e-4)
            return std::string(version);
    return std::nullopt;
}

} // namespace gamefmt::rbxmesh
