// Decoders and encoders of the blobs stored in String properties (docs/formats/roblox-model.md §2.6): attributes,
// tags and Terrain material colours. Decoders never throw: a blob that does not parse stays raw.
#include "importers/roblox_model/document/blobs.hpp"

#include "common/bit_cast.hpp"
#include "common/byte_reader.hpp"
#include "importers/roblox_model/document/binary_primitives.hpp"

#include <array>
#include <cstring>

namespace gamefmt::rbx {
namespace {

template <typename T> void Put(std::string &out, T v) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    out.append(bytes, sizeof(T));
}
void PutString(std::string &out, std::string_view s) {
    Put(out, static_cast<std::uint32_t>(s.size()));
    out.append(s);
}

bool ReadF32s(ByteReader &c, float *out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!c.tryLE(out[i])) return false;
    return true;
}

// The families the attribute codecs are organised by, from the attribute type id.
enum class AttributeFamily { Scalar, Vector, Sequence, Unknown };

AttributeFamily FamilyOfAttribute(std::uint8_t id) {
    switch (id) {
    case 0x02: // String
    case 0x03: // Bool
    case 0x04: // Int32
    case 0x05: // Float32
    case 0x06: // Float64
    case 0x0E: // BrickColor
    case 0x15: // EnumItem
        return AttributeFamily::Scalar;
    case 0x09: // UDim
    case 0x0A: // UDim2
    case 0x0F: // Color3
    case 0x10: // Vector2
    case 0x11: // Vector3
    case 0x14: // CFrame
    case 0x1C: // Rect
        return AttributeFamily::Vector;
    case 0x17: // NumberSequence
    case 0x19: // ColorSequence
    case 0x1B: // NumberRange
    case 0x21: // Font
        return AttributeFamily::Sequence;
    default:
        return AttributeFamily::Unknown;
    }
}

// String 0x02, Bool 0x03, Int32 0x04, Float32 0x05, Float64 0x06, BrickColor 0x0E, EnumItem 0x15.
bool DecodeScalarAttribute(ByteReader &c, Attribute &a) {
    Value &v = a.value;
    switch (a.type) {
    case 0x02: {
        std::string s;
        if (!c.tryStringU32le(s)) return false;
        v.type = Type::String;
        v.data = std::move(s);
        return true;
    }
    case 0x03: {
        std::uint8_t b = 0;
        if (!c.tryLE(b) || b > 1) return false; // anything else would not encode back to the same byte
        v.type = Type::Bool;
        v.data = b != 0;
        return true;
    }
    case 0x04: {
        std::int32_t i = 0;
        if (!c.tryLE(i)) return false;
        v.type = Type::Int32;
        v.data = i;
        return true;
    }
    case 0x05: {
        float f = 0;
        if (!c.tryLE(f)) return false;
        v.type = Type::Float32;
        v.data = f;
        return true;
    }
    case 0x06: {
        double d = 0;
        if (!c.tryLE(d)) return false;
        v.type = Type::Float64;
        v.data = d;
        return true;
    }
    case 0x0E: {
        BrickColor b;
        if (!c.tryLE(b.number)) return false;
        v.type = Type::BrickColor;
        v.data = b;
        return true;
    }
    case 0x15: {
        if (!c.tryStringU32le(a.enumItem.enumName) || !c.tryLE(a.enumItem.value)) return false;
        v.type = Type::Enum;
        v.data = EnumValue{a.enumItem.value};
        return true;
    }
    default:
        return false;
    }
}

// UDim 0x09, UDim2 0x0A, Color3 0x0F, Vector2 0x10, Vector3 0x11, CFrame 0x14, Rect 0x1C.
bool DecodeVectorAttribute(ByteReader &c, Attribute &a) {
    Value &v = a.value;
    switch (a.type) {
    case 0x09: {
        UDim u;
        if (!c.tryLE(u.scale) || !c.tryLE(u.offset)) return false;
        v.type = Type::UDim;
        v.data = u;
        return true;
    }
    case 0x0A: {
        UDim2 u;
        if (!c.tryLE(u.x.scale) || !c.tryLE(u.x.offset) || !c.tryLE(u.y.scale) || !c.tryLE(u.y.offset)) return false;
        v.type = Type::UDim2;
        v.data = u;
        return true;
    }
    case 0x0F: {
        Color3 col;
        if (!c.tryLE(col.r) || !c.tryLE(col.g) || !c.tryLE(col.b)) return false;
        v.type = Type::Color3;
        v.data = col;
        return true;
    }
    case 0x10: {
        Vector2 p;
        if (!c.tryLE(p.x) || !c.tryLE(p.y)) return false;
        v.type = Type::Vector2;
        v.data = p;
        return true;
    }
    case 0x11: {
        Vector3 p;
        if (!c.tryLE(p.x) || !c.tryLE(p.y) || !c.tryLE(p.z)) return false;
        v.type = Type::Vector3;
        v.data = p;
        return true;
    }
    case 0x14: {
        CFrame cf;
        std::uint8_t id = 0;
        if (!c.tryLE(cf.position.x) || !c.tryLE(cf.position.y) || !c.tryLE(cf.position.z) || !c.tryLE(id)) return false;
        if (id == 0) {
            if (!ReadF32s(c, cf.rotation.data(), 9)) return false;
        } else if (!bin::RotationFromId(id, cf.rotation)) {
            return false;
        }
        a.cframeRotationId = id;
        v.type = Type::CFrame;
        v.data = cf;
        return true;
    }
    case 0x1C: {
        Rect r;
        if (!c.tryLE(r.min.x) || !c.tryLE(r.min.y) || !c.tryLE(r.max.x) || !c.tryLE(r.max.y)) return false;
        v.type = Type::Rect;
        v.data = r;
        return true;
    }
    default:
        return false;
    }
}

// NumberSequence 0x17, ColorSequence 0x19, NumberRange 0x1B, Font 0x21.
bool DecodeSequenceAttribute(ByteReader &c, Attribute &a) {
    Value &v = a.value;
    switch (a.type) {
    case 0x17: {
        std::uint32_t k = 0;
        if (!c.tryLE(k)) return false;
        NumberSequence seq;
        // 12 bytes per keypoint: bounds the allocation by the blob size.
        if (k > c.remaining() / 12) return false;
        seq.keypoints.reserve(k);
        for (std::uint32_t i = 0; i < k; ++i) {
            NumberKeypoint kp;
            if (!c.tryLE(kp.envelope) || !c.tryLE(kp.time) || !c.tryLE(kp.value)) return false;
            seq.keypoints.push_back(kp);
        }
        v.type = Type::NumberSequence;
        v.data = std::move(seq);
        return true;
    }
    case 0x19: {
        std::uint32_t k = 0;
        if (!c.tryLE(k)) return false;
        ColorSequence seq;
        if (k > c.remaining() / 20) return false;
        seq.keypoints.reserve(k);
        for (std::uint32_t i = 0; i < k; ++i) {
            ColorKeypoint kp;
            if (!c.tryLE(kp.envelope) || !c.tryLE(kp.time) || !c.tryLE(kp.color.r) || !c.tryLE(kp.color.g) ||
                !c.tryLE(kp.color.b))
                return false;
            seq.keypoints.push_back(kp);
        }
        v.type = Type::ColorSequence;
        v.data = std::move(seq);
        return true;
    }
    case 0x1B: {
        NumberRange r;
        if (!c.tryLE(r.min) || !c.tryLE(r.max)) return false;
        v.type = Type::NumberRange;
        v.data = r;
        return true;
    }
    case 0x21: {
        Font f;
        if (!c.tryLE(f.weight) || !c.tryLE(f.style) || !c.tryStringU32le(f.family) || !c.tryStringU32le(f.cachedFaceId))
            return false;
        v.type = Type::Font;
        v.data = std::move(f);
        return true;
    }
    default:
        return false;
    }
}

bool DecodeValue(ByteReader &c, Attribute &a) {
    switch (FamilyOfAttribute(a.type)) {
    case AttributeFamily::Scalar:
        return DecodeScalarAttribute(c, a);
    case AttributeFamily::Vector:
        return DecodeVectorAttribute(c, a);
    case AttributeFamily::Sequence:
        return DecodeSequenceAttribute(c, a);
    case AttributeFamily::Unknown:
        return false; // a newer id: the caller keeps the blob raw
    }
    return false;
}

// String 0x02, Bool 0x03, Int32 0x04, Float32 0x05, Float64 0x06, BrickColor 0x0E, EnumItem 0x15.
void EncodeScalarAttribute(std::string &out, const Attribute &a) {
    const Value &v = a.value;
    switch (a.type) {
    case 0x02:
        PutString(out, v.as<std::string>());
        break;
    case 0x03:
        Put(out, static_cast<std::uint8_t>(v.as<bool>() ? 1 : 0));
        break;
    case 0x04:
        Put(out, v.as<std::int32_t>());
        break;
    case 0x05:
        Put(out, v.as<float>());
        break;
    case 0x06:
        Put(out, v.as<double>());
        break;
    case 0x0E:
        Put(out, v.as<BrickColor>().number);
        break;
    case 0x15:
        PutString(out, a.enumItem.enumName);
        Put(out, a.enumItem.value);
        break;
    default:
        break;
    }
}

// UDim 0x09, UDim2 0x0A, Color3 0x0F, Vector2 0x10, Vector3 0x11, CFrame 0x14, Rect 0x1C.
void EncodeVectorAttribute(std::string &out, const Attribute &a) {
    const Value &v = a.value;
    switch (a.type) {
    case 0x09:
        Put(out, v.as<UDim>().scale);
        Put(out, v.as<UDim>().offset);
        break;
    case 0x0A:
        Put(out, v.as<UDim2>().x.scale);
        Put(out, v.as<UDim2>().x.offset);
        Put(out, v.as<UDim2>().y.scale);
        Put(out, v.as<UDim2>().y.offset);
        break;
    case 0x0F:
        Put(out, v.as<Color3>().r);
        Put(out, v.as<Color3>().g);
        Put(out, v.as<Color3>().b);
        break;
    case 0x10:
        Put(out, v.as<Vector2>().x);
        Put(out, v.as<Vector2>().y);
        break;
    case 0x11:
        Put(out, v.as<Vector3>().x);
        Put(out, v.as<Vector3>().y);
        Put(out, v.as<Vector3>().z);
        break;
    case 0x14: {
        const CFrame &cf = v.as<CFrame>();
        Put(out, cf.position.x);
        Put(out, cf.position.y);
        Put(out, cf.position.z);
        // Repeat the id that was read only while it still describes the matrix exactly; otherwise the
        // nine floats, which are always valid.
        std::array<float, 9> fromId{};
        if (a.cframeRotationId != 0 && bin::RotationFromId(a.cframeRotationId, fromId) &&
            SameBits(fromId, cf.rotation)) {
            Put(out, a.cframeRotationId);
        } else {
            Put(out, std::uint8_t(0));
            for (float f : cf.rotation) Put(out, f);
        }
        break;
    }
    case 0x1C:
        Put(out, v.as<Rect>().min.x);
        Put(out, v.as<Rect>().min.y);
        Put(out, v.as<Rect>().max.x);
        Put(out, v.as<Rect>().max.y);
        break;
    default:
        break;
    }
}

// NumberSequence 0x17, ColorSequence 0x19, NumberRange 0x1B, Font 0x21.
void EncodeSequenceAttribute(std::string &out, const Attribute &a) {
    const Value &v = a.value;
    switch (a.type) {
    case 0x17:
        Put(out, static_cast<std::uint32_t>(v.as<NumberSequence>().keypoints.size()));
        for (const NumberKeypoint &k : v.as<NumberSequence>().keypoints) {
            Put(out, k.envelope);
            Put(out, k.time);
            Put(out, k.value);
        }
        break;
    case 0x19:
        Put(out, static_cast<std::uint32_t>(v.as<ColorSequence>().keypoints.size()));
        for (const ColorKeypoint &k : v.as<ColorSequence>().keypoints) {
            Put(out, k.envelope);
            Put(out, k.time);
            Put(out, k.color.r);
            Put(out, k.color.g);
            Put(out, k.color.b);
        }
        break;
    case 0x1B:
        Put(out, v.as<NumberRange>().min);
        Put(out, v.as<NumberRange>().max);
        break;
    case 0x21: {
        const Font &f = v.as<Font>();
        Put(out, f.weight);
        Put(out, f.style);
        PutString(out, f.family);
        PutString(out, f.cachedFaceId);
        break;
    }
    default:
        break;
    }
}

void EncodeValue(std::string &out, const Attribute &a) {
    switch (FamilyOfAttribute(a.type)) {
    case AttributeFamily::Scalar:
        return EncodeScalarAttribute(out, a);
    case AttributeFamily::Vector:
        return EncodeVectorAttribute(out, a);
    case AttributeFamily::Sequence:
        return EncodeSequenceAttribute(out, a);
    case AttributeFamily::Unknown:
        break; // DecodeAttributes never produces other ids
    }
}

// Terrain material order of the MaterialColors blob.
constexpr std::array<const char *, 21> kTerrainMaterials = {
    "Grass",   "Slate",       "Concrete",  "Brick",      "Sand",   "WoodPlanks", "Rock",
    "Glacier", "Snow",        "Sandstone", "Mud",        "Basalt", "Ground",     "CrackedLava",
    "Asphalt", "Cobblestone", "Ice",       "LeafyGrass", "Salt",   "Limestone",  "Pavement"};
constexpr std::size_t kMaterialColorsHeader = 6;

} // namespace

std::optional<std::vector<Attribute>> DecodeAttributes(std::string_view blob) {
    std::vector<Attribute> out;
    if (blob.empty()) return out;
    ByteReader c(reinterpret_cast<const std::uint8_t *>(blob.data()), blob.size(), "Roblox attributes");
    std::uint32_t count = 0;
    if (!c.tryLE(count)) return std::nullopt;
    // Each entry takes at least 4 (name length) + 1 (type) bytes: bounds the reservation by the blob.
    if (count > (blob.size() - 4) / 5) return std::nullopt;
    out.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        Attribute a;
        if (!c.tryStringU32le(a.name) || !c.tryLE(a.type) || !DecodeValue(c, a)) return std::nullopt;
        out.push_back(std::move(a));
    }
    // Trailing bytes would be lost by re-encoding: treat them as an unknown layout.
    if (!c.atEnd()) return std::nullopt;
    return out;
}

std::string EncodeAttributes(const std::vector<Attribute> &attributes) {
    std::string out;
    if (attributes.empty()) return out; // Studio writes an empty string, not a zero count
    Put(out, static_cast<std::uint32_t>(attributes.size()));
    for (const Attribute &a : attributes) {
        PutString(out, a.name);
        Put(out, a.type);
        EncodeValue(out, a);
    }
    return out;
}

std::vector<std::string> DecodeTags(std::string_view blob) {
    std::vector<std::string> tags;
    if (blob.empty()) return tags;
    std::size_t start = 0;
    for (;;) {
        const std::size_t nul = blob.find('\0', start);
        tags.emplace_back(blob.substr(start, nul == std::string_view::npos ? std::string_view::npos : nul - start));
        if (nul == std::string_view::npos) break;
        start = nul + 1;
    }
    return tags;
}

std::string EncodeTags(const std::vector<std::string> &tags) {
    std::string out;
    for (std::size_t i = 0; i < tags.size(); ++i) {
        if (i) out += '\0';
        out += tags[i];
    }
    return out;
}

// Layout: 6 header bytes (zero), then one RGB triple per terrain material in kTerrainMaterials order.
// The reference does not document it; this is the layout recalled from rbx-dom, checked on the corpus:
// all four places' Terrain blobs are 69 bytes with a zero header, and baseplate-566's triples equal the
// material colours rbx-dom prints in baseplate-566__decoded.snap.
std::optional<std::vector<MaterialColor>> DecodeMaterialColors(std::string_view blob) {
    if (blob.size() != kMaterialColorsHeader + 3 * kTerrainMaterials.size()) return std::nullopt;
    for (std::size_t i = 0; i < kMaterialColorsHeader; ++i)
        if (blob[i] != 0) return std::nullopt; // an unknown header would be lost by re-encoding
    std::vector<MaterialColor> out;
    out.reserve(kTerrainMaterials.size());
    for (std::size_t i = 0; i < kTerrainMaterials.size(); ++i) {
        const std::size_t at = kMaterialColorsHeader + 3 * i;
        MaterialColor m;
        m.material = kTerrainMaterials[i];
        m.color.r = static_cast<std::uint8_t>(blob[at]);
        m.color.g = static_cast<std::uint8_t>(blob[at + 1]);
        m.color.b = static_cast<std::uint8_t>(blob[at + 2]);
        out.push_back(std::move(m));
    }
    return out;
}

// Materials are placed by name; a material that is not listed keeps black, unknown names are dropped
// (the blob has no slot for them).
std::string EncodeMaterialColors(const std::vector<MaterialColor> &colors) {
    std::string out(kMaterialColorsHeader + 3 * kTerrainMaterials.size(), '\0');
    for (const MaterialColor &m : colors) {
        for (std::size_t i = 0; i < kTerrainMaterials.size(); ++i) {
            if (m.material != kTerrainMaterials[i]) continue;
            const std::size_t at = kMaterialColorsHeader + 3 * i;
            out[at] = static_cast<char>(m.color.r);
            out[at + 1] = static_cast<char>(m.color.g);
            out[at + 2] = static_cast<char>(m.color.b);
        }
    }
    return out;
}

} // namespace gamefmt::rbx
