// The Redguard model writer (docs/formats/redguard-3d.md §2-§8, §15): RG3DModel -> the bytes of a v4.0/v5.0 .3D, or of
// a v4.0-style .3DC (frame type 2, type 0 on i16 overflow, or the single-frame type 8). Content is written as the model
// holds it; only offsets and counts are computed, so a model read from a canonical file writes back byte-identical.
#include "importers/redguard/model.hpp"

#include "common/byte_writer.hpp"
#include "common/error.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace gamefmt::redguard {
namespace {

constexpr std::uint32_t kHeaderSize = 64;
constexpr std::uint32_t kFrameRecordSize = 16;

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(kFormatName, problem);
}

// Offsets are u32: every section start and the end must fit.
std::uint32_t Offset(std::uint64_t value, const char *what) {
    if (value > std::numeric_limits<std::uint32_t>::max())
        Fail(std::string("the model is too large: ") + what + " would start past 4 GiB");
    return static_cast<std::uint32_t>(value);
}

// The NaN "no normal" marker of §6: 00 00 C0 FF in each component.
float NoNormalMarker() {
    const std::uint32_t bits = 0xFFC00000u;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

void CheckModel(const RG3DModel &model) {
    if (IsV2(model.version)) Fail("v2.x models are never written; write v4.0 or v5.0");
    if (model.vertices.size() % 3 != 0) Fail("the vertex array does not hold whole vertices");
    const std::size_t nv = model.vertexCount();
    const std::size_t nf = model.faces.size();
    if (nv > std::numeric_limits<std::uint32_t>::max() / 12 || nf > std::numeric_limits<std::uint32_t>::max() / 12)
        Fail("too many vertices or faces");
    if (model.faceNormals.size() != 3 * nf)
        Fail("the model has " + std::to_string(model.faceNormals.size() / 3) + " face normals for " +
             std::to_string(nf) + " faces");
    if (model.vertexNormals.size() % 3 != 0) Fail("the vertex-normal array does not hold whole normals");
    for (std::size_t f = 0; f < nf; ++f) {
        const Face &face = model.faces[f];
        if (face.corners.size() < 3 || face.corners.size() > 255)
            Fail("face " + std::to_string(f) + " has " + std::to_string(face.corners.size()) +
                 " corners; a face holds 3 to 255 (triangulate larger polygons first)");
        for (const FaceVertex &corner : face.corners)
            if (corner.vertex >= nv)
                Fail("face " + std::to_string(f) + " uses vertex " + std::to_string(corner.vertex) + " of " +
                     std::to_string(nv));
    }
    for (std::size_t k = 0; k < model.frames.size(); ++k) {
        if (model.frames[k].positions.size() != model.vertices.size())
            Fail("frame " + std::to_string(k + 1) + " has " + std::to_string(model.frames[k].positions.size() / 3) +
                 " positions for " + std::to_string(nv) + " vertices");
        if (model.frames[k].faceNormals.size() != model.faceNormals.size())
            Fail("frame " + std::to_string(k + 1) + " has " + std::to_string(model.frames[k].faceNormals.size() / 3) +
                 " face normals for " + std::to_string(nf) + " faces");
    }
}

std::uint64_t CornerCount(const RG3DModel &model) {
    std::uint64_t total = 0;
    for (const Face &face : model.faces) total += face.corners.size();
    return total;
}

void WriteFaces(ByteWriter &w, const RG3DModel &model) {
    for (const Face &face : model.faces) {
        w.u8(static_cast<std::uint8_t>(face.corners.size()));
        w.u8(face.texHi);
        w.u32le(face.texture);
        w.u32le(face.unused);
        for (const FaceVertex &corner : face.corners) {
            w.u32le(corner.vertex);
            w.i16le(corner.du);
            w.i16le(corner.dv);
        }
    }
}

void WriteInts(ByteWriter &w, const std::vector<std::int32_t> &values) {
    for (std::int32_t v : values) w.i32le(v);
}

void WriteFloats(ByteWriter &w, const std::vector<float> &values) {
    for (float v : values) w.f32le(v);
}

// Direct (per-vertex) normals for the .3DC layouts, which have no table: a model holding a table gives each
// vertex the entry of its first corner (the marker when it has none).
std::vector<float> DirectNormals(const RG3DModel &model) {
    if (model.normalTable.empty() || model.vertexNormals.empty()) return model.vertexNormals;
    const std::size_t nv = model.vertexCount();
    const std::size_t entries = model.vertexNormals.size() / 3;
    const float marker = NoNormalMarker();
    std::vector<float> direct(3 * nv, marker);
    std::vector<bool> done(nv, false);
    std::size_t c = 0;
    for (const Face &face : model.faces)
        for (const FaceVertex &corner : face.corners) {
            const std::uint32_t slot = c < model.normalTable.size() ? model.normalTable[c] : RG3DModel::kNoNormal;
            ++c;
            if (done[corner.vertex] || slot == RG3DModel::kNoNormal || slot >= entries) continue;
            done[corner.vertex] = true;
            for (int i = 0; i < 3; ++i) direct[3 * corner.vertex + i] = model.vertexNormals[3 * slot + i];
        }
    return direct;
}

bool FitsI16(std::int64_t v) {
    return v >= std::numeric_limits<std::int16_t>::min() && v <= std::numeric_limits<std::int16_t>::max();
}

bool FramesFitI16(const RG3DModel &model) {
    for (const Frame &frame : model.frames)
        for (std::size_t i = 0; i < model.vertices.size(); ++i)
            if (!FitsI16(std::int64_t(model.vertices[i]) - frame.positions[i])) return false;
    return true;
}

void PutHeader(ByteWriter &w, const std::array<std::uint32_t, 16> &header) {
    for (std::size_t i = 0; i < 16; ++i) w.patchU32le(4 * i, header[i]);
}

std::array<std::uint32_t, 16> BaseHeader(const RG3DModel &model, std::uint32_t frames) {
    std::array<std::uint32_t, 16> h{};
    const char *version = VersionString(model.version);
    h[0] = std::uint32_t(std::uint8_t(version[0])) | std::uint32_t(std::uint8_t(version[1])) << 8 |
           std::uint32_t(std::uint8_t(version[2])) << 16 | std::uint32_t(std::uint8_t(version[3])) << 24;
    h[1] = static_cast<std::uint32_t>(model.vertexCount());
    h[2] = static_cast<std::uint32_t>(model.faces.size());
    h[3] = model.radius;
    h[4] = frames;
    h[6] = Offset(CornerCount(model), "the corner count");
    h[9] = model.header[9];
    h[14] = h[6];
    h[15] = kHeaderSize;
    return h;
}

// §3.1: faces, vertices, face normals, frame record, Section4 (v5.0), table, vertex normals.
std::vector<std::uint8_t> WriteStatic(const RG3DModel &model, std::vector<std::string> &warnings) {
    const bool section4 = model.version == Version::V50 && model.hasSection4;
    if (model.version != Version::V50 && model.hasSection4 && !model.section4.empty())
        warnings.push_back("Section4 dropped: " + std::string(VersionString(model.version)) + " has none");
    const bool table = !model.normalTable.empty();
    if (table && model.normalTable.size() != CornerCount(model))
        Fail("the normal table has " + std::to_string(model.normalTable.size()) + " entries for " +
             std::to_string(CornerCount(model)) + " face corners");

    ByteWriter w(kFormatName);
    w.zeros(kHeaderSize);
    std::array<std::uint32_t, 16> h = BaseHeader(model, 1);
    WriteFaces(w, model);
    h[12] = Offset(w.size(), "the vertices");
    WriteInts(w, model.vertices);
    h[13] = Offset(w.size(), "the face normals");
    WriteInts(w, model.faceNormals);
    h[5] = Offset(w.size(), "the frame record");
    w.u32le(h[12]);
    w.u32le(h[13]);
    w.u32le(0);
    w.u32le(0);

    if (section4) {
        const std::vector<std::uint64_t> faceOffsets = FaceRecordOffsets(model, kHeaderSize); // §8 targets
        h[7] = Offset(w.size(), "Section4");
        h[8] = static_cast<std::uint32_t>(model.section4.size());
        for (const Section4Group &group : model.section4) {
            if (group.refs.size() > 0xFFFF) Fail("a Section4 group references more than 65535 faces");
            WriteInts(w, std::vector<std::int32_t>(group.centre.begin(), group.centre.end()));
            w.u32le(group.radius);
            w.u16le(static_cast<std::uint16_t>(group.refs.size()));
            for (float f : group.opaque) w.f32le(f);
            for (const Section4Ref &ref : group.refs) {
                // A well-formed reference names a face by index·4; its record offset follows from the layout.
                const std::size_t index = ref.faceIndexTimes4 / 4u;
                const bool valid = ref.faceIndexTimes4 % 4 == 0 && index < faceOffsets.size();
                w.u32le(valid ? static_cast<std::uint32_t>(faceOffsets[index]) : ref.faceOffset);
                w.u16le(ref.faceIndexTimes4);
            }
        }
    }

    const bool normals = !model.vertexNormals.empty();
    const std::uint64_t tableAt = w.size();
    const std::uint64_t normalsAt = tableAt + (table ? 4 * std::uint64_t(model.normalTable.size()) : 0);
    if (table) {
        h[10] = Offset(tableAt, "the normal table");
        Offset(normalsAt, "the vertex normals");
        const std::size_t entries = model.vertexNormals.size() / 3;
        for (std::uint32_t slot : model.normalTable) {
            if (slot == RG3DModel::kNoNormal || slot >= entries) {
                w.u32le(0xFFFFFFFFu); // out of range on purpose: the reader shades the corner flat
                continue;
            }
            w.u32le(Offset(normalsAt + 12 * std::uint64_t(slot), "a vertex normal"));
        }
    }
    if (normals) {
        h[11] = Offset(normalsAt, "the vertex normals");
        WriteFloats(w, model.vertexNormals);
    }
    Offset(w.size(), "the end of the model");
    PutHeader(w, h);
    return w.take();
}

// §3.2 / §15: faces, base vertices, base face normals, N frame records, frames 1..N-1, direct vertex normals.
std::vector<std::uint8_t> WriteAnimated(const RG3DModel &model, std::vector<std::string> &warnings) {
    if (model.hasSection4 && !model.section4.empty()) warnings.push_back("Section4 dropped: .3DC files have none");
    const std::size_t nv = model.vertexCount();
    const std::size_t nf = model.faces.size();
    const std::uint32_t frameCount = static_cast<std::uint32_t>(model.frameCount());
    std::uint32_t frameType = 8;
    if (!model.frames.empty()) {
        frameType = 2;
        if (!FramesFitI16(model)) {
            frameType = 0;
            warnings.push_back("a frame moves a vertex by more than 32767 raw units (128 units) from the base pose: "
                               "written as frame type 0 (absolute i32 positions), which the engine may not accept");
        }
    }

    ByteWriter w(kFormatName);
    w.zeros(kHeaderSize);
    std::array<std::uint32_t, 16> h = BaseHeader(model, frameCount);
    WriteFaces(w, model);
    h[12] = Offset(w.size(), "the vertices");
    WriteInts(w, model.vertices);
    h[13] = Offset(w.size(), "the face normals");
    WriteInts(w, model.faceNormals);

    // Frame k's blocks follow the records; their sizes are fixed by the type.
    const std::uint64_t recordsAt = w.size();
    const std::uint64_t vertexBlock = frameType == 2 ? 6 * std::uint64_t(nv) : 12 * std::uint64_t(nv);
    const std::uint64_t normalBlock = frameType == 2 ? 4 * std::uint64_t(nf) : 12 * std::uint64_t(nf);
    h[5] = Offset(recordsAt, "the frame records");
    std::uint64_t at = recordsAt + kFrameRecordSize * std::uint64_t(frameCount);
    w.u32le(h[12]);
    w.u32le(h[13]);
    w.u32le(0);
    w.u32le(frameType);
    for (std::size_t k = 1; k < frameCount; ++k) {
        w.u32le(Offset(at, "a frame"));
        w.u32le(Offset(at + vertexBlock, "a frame"));
        w.u32le(0);
        w.u32le(0);
        at += vertexBlock + normalBlock;
    }
    for (const Frame &frame : model.frames) {
        if (frameType == 2) {
            for (std::size_t i = 0; i < model.vertices.size(); ++i)
                w.i16le(static_cast<std::int16_t>(std::int64_t(model.vertices[i]) - frame.positions[i]));
            for (std::size_t f = 0; f < nf; ++f)
                w.u32le(
                    PackNormal({frame.faceNormals[3 * f], frame.faceNormals[3 * f + 1], frame.faceNormals[3 * f + 2]}) &
                    0x3FFFFFFFu);
        } else {
            WriteInts(w, frame.positions);
            WriteInts(w, frame.faceNormals);
        }
    }
    const std::vector<float> direct = DirectNormals(model);
    if (!direct.empty()) {
        h[11] = Offset(w.size(), "the vertex normals");
        WriteFloats(w, direct);
    }
    Offset(w.size(), "the end of the model");
    PutHeader(w, h);
    return w.take();
}

} // namespace

std::vector<std::uint8_t> WriteModel(const RG3DModel &model, std::vector<std::string> *warnings) {
    CheckModel(model);
    std::vector<std::string> local;
    std::vector<std::string> &sink = warnings != nullptr ? *warnings : local;
    if (!model.frames.empty() || model.frameType == 8) return WriteAnimated(model, sink);
    return WriteStatic(model, sink);
}

} // namespace gamefmt::redguard
