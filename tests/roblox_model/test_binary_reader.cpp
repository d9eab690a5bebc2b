// Tests of the binary Roblox model/place reader (docs/formats/roblox-model.md §2, checklist §8 items 1-14, 21):
// primitives, the byte examples of §2.4, hand-built fixtures, the corpus against its READMEs and
// snapshots, and hostile input.
#include "fixtures/rbx_fixtures.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"

#include "common/byte_writer.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"
#include "importers/roblox_model/document/binary_primitives.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/xml_reader.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "support/bits.hpp"
#include "support/rbx_values.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace gamefmt::test;

namespace fs = std::filesystem;
namespace fx = gamefmt::fixtures::rbx;
namespace bin = gamefmt::rbx::bin;
using gamefmt::FormatError;
using namespace gamefmt::rbx;
using Bytes = std::vector<std::uint8_t>;

Document Read(const Bytes &b, const ReadOptions &o = {}) {
    return ReadBinary(b.data(), b.size(), o);
}

const Instance *ByName(const Document &d, const std::string &name) {
    for (const Instance &i : d.instances)
        if (i.name == name) return &i;
    return nullptr;
}

const Value &Prop(const Document &d, const Instance &i, const std::string &name) {
    static const Value kMissing{Type::Unknown, UnknownValue{}, XmlTag::Default};
    const Property *p = d.findProperty(i, name);
    if (p == nullptr) {
        ADD_FAILURE() << "property " << name << " missing on " << i.name;
        return kMissing;
    }
    return p->value;
}

bool HasWarning(const Document &d, const std::string &needle) {
    for (const std::string &w : d.warnings)
        if (Contains(w, needle)) return true;
    return false;
}

// A file with one class "C" (id 0) of `n` instances (referents 0..n-1, all roots) and one PROP
// "P" of type `type` holding `values` verbatim.
Bytes OneProp(std::size_t n, std::uint8_t type, const Bytes &values, const std::vector<std::string> &sstr = {}) {
    Bytes f = fx::Header(1, static_cast<std::int32_t>(n));
    if (!sstr.empty()) fx::AppendChunk(f, "SSTR", fx::SstrBody(sstr));
    std::vector<std::int32_t> refs;
    std::vector<std::pair<std::int32_t, std::int32_t>> links;
    for (std::size_t i = 0; i < n; ++i) {
        refs.push_back(static_cast<std::int32_t>(i));
        links.emplace_back(static_cast<std::int32_t>(i), -1);
    }
    fx::AppendChunk(f, "INST", fx::InstBody(0, "C", refs));
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "P", type, values));
    fx::AppendChunk(f, "PRNT", fx::PrntBody(links));
    fx::AppendEnd(f);
    return f;
}

// Values of property "P" of a OneProp file, in instance order.
std::vector<Value> OnePropValues(std::size_t n, std::uint8_t type, const Bytes &values) {
    const Document d = Read(OneProp(n, type, values));
    std::vector<Value> out;
    for (const Instance &i : d.instances) out.push_back(Prop(d, i, "P"));
    return out;
}

std::optional<fs::path> CorpusRoot() {
    const auto root = gamefmt::test::CorpusDir();
    if (!root || !fs::exists(*root / "rbx/rbx-test-files")) return std::nullopt;
    return *root / "rbx/rbx-test-files";
}

std::vector<fs::path> CorpusBinaries() {
    std::vector<fs::path> files;
    const auto root = CorpusRoot();
    if (!root) return files;
    for (const char *dir : {"models", "places"})
        for (const auto &e : fs::directory_iterator(*root / dir))
            for (const char *name : {"binary.rbxm", "binary.rbxl"})
                if (fs::exists(e.path() / name)) files.push_back(e.path() / name);
    std::sort(files.begin(), files.end());
    return files;
}

Document ReadCorpus(const std::string &rel) {
    return Read(gamefmt::test::ReadBytes(*CorpusRoot() / rel));
}

// The chunk start offsets of a well-formed file (header excluded), and the file size after END.
std::vector<std::size_t> ChunkOffsets(const Bytes &b) {
    std::vector<std::size_t> out;
    std::size_t at = 32;
    while (at + 16 <= b.size()) {
        out.push_back(at);
        std::uint32_t cl, ul;
        std::memcpy(&cl, &b[at + 4], 4);
        std::memcpy(&ul, &b[at + 8], 4);
        const bool end = std::memcmp(&b[at], "END\0", 4) == 0;
        at += 16 + (cl == 0 ? ul : cl);
        if (end) break;
    }
    out.push_back(at);
    return out;
}

// ------------------------------------------------------------------ primitives (§2.2, §8 item 4)
TEST(RbxBinaryReader, ZigzagExamples) {
    EXPECT_EQ(bin::ZigzagEncode32(0), 0u);
    EXPECT_EQ(bin::ZigzagEncode32(-1), 1u);
    EXPECT_EQ(bin::ZigzagEncode32(1), 2u);
    EXPECT_EQ(bin::ZigzagEncode32(-2), 3u);
    EXPECT_EQ(bin::ZigzagEncode32(42), 84u);
    EXPECT_EQ(bin::ZigzagEncode32(-30), 59u);
    EXPECT_EQ(bin::ZigzagEncode32(std::numeric_limits<std::int32_t>::max()), 0xFFFFFFFEu);
    EXPECT_EQ(bin::ZigzagEncode32(std::numeric_limits<std::int32_t>::min()), 0xFFFFFFFFu);
    EXPECT_EQ(bin::ZigzagDecode32(0xFFFFFFFEu), std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(bin::ZigzagDecode32(0xFFFFFFFFu), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(bin::ZigzagDecode32(59), -30);
    EXPECT_EQ(bin::ZigzagDecode32(1), -1);
    EXPECT_EQ(bin::ZigzagDecode32(2), 1);
    EXPECT_EQ(bin::ZigzagDecode64(0x25AD0E), 1234567);
    EXPECT_EQ(bin::ZigzagDecode64(0xE99761), -7654321);
    EXPECT_EQ(bin::ZigzagDecode64(0xA72), 1337);
    EXPECT_EQ(bin::ZigzagDecode64(0xFFFFFFFFFFFFFFFFull), std::numeric_limits<std::int64_t>::min());
}

TEST(RbxBinaryReader, RbxFloatExactBytes) {
    EXPECT_EQ(bin::RbxFloatEncode(-0.15625f), 0x7C400001u);
    EXPECT_EQ(bin::RbxFloatEncode(1.0f), 0x7F000000u);
    EXPECT_EQ(bin::RbxFloatEncode(-1.0f), 0x7F000001u);
    EXPECT_EQ(bin::RbxFloatEncode(0.0f), 0x00000000u);
    EXPECT_EQ(bin::RbxFloatEncode(-0.0f), 0x00000001u);
    EXPECT_EQ(bin::RbxFloatEncode(std::numeric_limits<float>::infinity()), 0xFF000000u);
    EXPECT_EQ(bin::RbxFloatEncode(-std::numeric_limits<float>::infinity()), 0xFF000001u);
    EXPECT_EQ(FloatBits(bin::RbxFloatDecode(0x7C400001u)), FloatBits(-0.15625f));
    EXPECT_EQ(FloatBits(bin::RbxFloatDecode(0x00000001u)), 0x80000000u);
    EXPECT_TRUE(std::isnan(bin::RbxFloatDecode(0xFF800000u))); // quiet NaN 7FC00000 rotated
    EXPECT_EQ(FloatBits(bin::RbxFloatDecode(0xFF800000u)), 0x7FC00000u);
    // Decoded through a Float32 column: stored BE and interleaved.
    const std::vector<Value> v =
        OnePropValues(3, 0x04, Bytes{0x7C, 0x7F, 0xFF, 0x40, 0x00, 0x80, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00});
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].as<float>(), -0.15625f);
    EXPECT_EQ(v[1].as<float>(), -1.0f);
    EXPECT_TRUE(std::isnan(v[2].as<float>()));
}

TEST(RbxBinaryReader, InterleaveCounts) {
    std::uint32_t none[1] = {7};
    bin::DeinterleaveBE<4>(nullptr, 0, none);
    EXPECT_EQ(none[0], 7u);
    const std::uint8_t one[4] = {0x01, 0x02, 0x03, 0x04};
    std::uint32_t out1 = 0;
    bin::DeinterleaveBE<4>(one, 1, &out1);
    EXPECT_EQ(out1, 0x01020304u);
    // A0 A1 B0 B1 C0 C1 stored as A0 B0 C0 A1 B1 C1.
    const std::uint8_t three[6] = {0xA0, 0xB0, 0xC0, 0xA1, 0xB1, 0xC1};
    std::uint16_t out3[3] = {};
    bin::DeinterleaveBE<2>(three, 3, out3);
    EXPECT_EQ(out3[0], 0xA0A1);
    EXPECT_EQ(out3[1], 0xB0B1);
    EXPECT_EQ(out3[2], 0xC0C1);
    // An Int32 column of zero values decodes to nothing for a class without instances.
    const Document d = Read(OneProp(0, 0x03, Bytes{}));
    EXPECT_TRUE(d.instances.empty());
}

TEST(RbxBinaryReader, SummedReferents) {
    std::int32_t d[6] = {1619, 1, 4, 2, 3, 5};
    bin::PrefixSumReferents(d, 6);
    EXPECT_EQ((std::vector<std::int32_t>(d, d + 6)), (std::vector<std::int32_t>{1619, 1620, 1624, 1626, 1629, 1634}));
    std::int32_t n[3] = {5, -6, 7}; // 5, then -1 (null), then 6
    bin::PrefixSumReferents(n, 3);
    EXPECT_EQ(n[1], -1);
    EXPECT_EQ(n[2], 6);
    // Through the reader: INST referents from deltas 1619 1 4 2 3 5; a Ref to -1 is null.
    Bytes f = fx::Header(1, 6);
    Bytes inst;
    {
        gamefmt::ByteWriter w;
        w.u32le(0);
        w.u32le(1);
        w.string("C");
        w.u8(0);
        w.u32le(6);
        inst = w.take();
        const Bytes col = fx::Int32Column({1619, 1, 4, 2, 3, 5});
        inst.insert(inst.end(), col.begin(), col.end());
    }
    fx::AppendChunk(f, "INST", inst);
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "Target", 0x13, fx::ReferentColumn({1634, -1, 1619, 1620, 1620, 1})));
    fx::AppendChunk(f, "PRNT",
                    fx::PrntBody({{1619, -1}, {1620, 1619}, {1624, 1619}, {1626, -1}, {1629, -1}, {1634, -1}}));
    fx::AppendEnd(f);
    const Document doc = Read(f);
    ASSERT_EQ(doc.instances.size(), 6u);
    const std::vector<std::string> refs = {"1619", "1620", "1624", "1626", "1629", "1634"};
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(doc.instances[i].referent, refs[i]);
    EXPECT_EQ(Prop(doc, doc.instances[0], "Target").as<RefValue>().target, 5u);
    EXPECT_EQ(Prop(doc, doc.instances[1], "Target").as<RefValue>().target, kNoInstance);
    EXPECT_EQ(Prop(doc, doc.instances[2], "Target").as<RefValue>().target, 0u);
    EXPECT_EQ(Prop(doc, doc.instances[5], "Target").as<RefValue>().target, kNoInstance); // referent 1: absent
    EXPECT_TRUE(HasWarning(doc, "not in the file"));
    EXPECT_EQ(doc.roots, (std::vector<std::uint32_t>{0, 3, 4, 5}));
    EXPECT_EQ(doc.instances[0].children, (std::vector<std::uint32_t>{1, 2}));
}

// ------------------------------------------------------------------ §2.4 byte examples
TEST(RbxBinaryReader, UDimExample) {
    const auto v = OnePropValues(
        2, 0x06, Bytes{0x7F, 0x80, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x08});
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].type, Type::UDim);
    EXPECT_EQ(v[0].as<UDim>().scale, 1.0f);
    EXPECT_EQ(v[0].as<UDim>().offset, 2);
    EXPECT_EQ(v[1].as<UDim>().scale, 3.0f);
    EXPECT_EQ(v[1].as<UDim>().offset, 4);
}

TEST(RbxBinaryReader, UDim2Example) {
    const auto v = OnePropValues(
        1, 0x07, Bytes{0x7E, 0x80, 0x00, 0x00, 0x7F, 0x80, 0x00, 0x01, 0x00, 0x00, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x78});
    ASSERT_EQ(v.size(), 1u);
    const UDim2 u = v[0].as<UDim2>();
    EXPECT_EQ(u.x.scale, 0.75f);
    EXPECT_EQ(u.x.offset, -30);
    EXPECT_EQ(u.y.scale, -1.5f);
    EXPECT_EQ(u.y.offset, 60);
}

TEST(RbxBinaryReader, Vector3Example) {
    const auto v =
        OnePropValues(2, 0x0E, Bytes{0x7F, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x80, 0x80, 0x00, 0x00,
                                     0x00, 0x00, 0x00, 0x01, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x00, 0x01});
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].as<Vector3>().x, 1.0f);
    EXPECT_EQ(v[0].as<Vector3>().y, 2.0f);
    EXPECT_EQ(v[0].as<Vector3>().z, 3.0f);
    EXPECT_EQ(v[1].as<Vector3>().x, -1.0f);
    EXPECT_EQ(v[1].as<Vector3>().y, -2.0f);
    EXPECT_EQ(v[1].as<Vector3>().z, -3.0f);
}

TEST(RbxBinaryReader, BrickColorExample) {
    const auto v =
        OnePropValues(3, 0x0B, Bytes{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x03, 0xEC, 0x25, 0xF2});
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].as<BrickColor>().number, 1004u);
    EXPECT_EQ(v[1].as<BrickColor>().number, 37u);
    EXPECT_EQ(v[2].as<BrickColor>().number, 1010u);
}

TEST(RbxBinaryReader, Color3uint8Example) {
    const auto v = OnePropValues(2, 0x1A, Bytes{0x00, 0x3F, 0xFF, 0x00, 0xFF, 0x7F});
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].as<Color3uint8>().r, 0);
    EXPECT_EQ(v[0].as<Color3uint8>().g, 255);
    EXPECT_EQ(v[0].as<Color3uint8>().b, 255);
    EXPECT_EQ(v[1].as<Color3uint8>().r, 63);
    EXPECT_EQ(v[1].as<Color3uint8>().g, 0);
    EXPECT_EQ(v[1].as<Color3uint8>().b, 127);
}

TEST(RbxBinaryReader, Vector3int16IsLittleEndian) {
    const auto v =
        OnePropValues(2, 0x14, Bytes{0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0xFF, 0xFF, 0xFE, 0xFF, 0xFD, 0xFF});
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].as<Vector3int16>().x, 1);
    EXPECT_EQ(v[0].as<Vector3int16>().y, 2);
    EXPECT_EQ(v[0].as<Vector3int16>().z, 3);
    EXPECT_EQ(v[1].as<Vector3int16>().x, -1);
    EXPECT_EQ(v[1].as<Vector3int16>().y, -2);
    EXPECT_EQ(v[1].as<Vector3int16>().z, -3);
}

TEST(RbxBinaryReader, OptionalCFrameExample) {
    Bytes b{0x10, 0x0A, 0x02};
    b.insert(b.end(), 24, 0x00); // X[2] Y[2] Z[2], all zero
    b.insert(b.end(), {0x02, 0x01, 0x00});
    const auto v = OnePropValues(2, 0x1E, b);
    ASSERT_EQ(v.size(), 2u);
    const OptionalCFrame a = v[0].as<OptionalCFrame>();
    EXPECT_TRUE(a.present);
    EXPECT_EQ(a.value.rotation, (std::array<float, 9>{0, -1, 0, 1, 0, 0, 0, 0, 1})); // id 0A
    const OptionalCFrame none = v[1].as<OptionalCFrame>();
    EXPECT_FALSE(none.present);
    EXPECT_EQ(none.value.rotation, (std::array<float, 9>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    // A wrong inner type byte is an error.
    Bytes bad = b;
    bad[0] = 0x11;
    EXPECT_THROW(Read(OneProp(2, 0x1E, bad)), FormatError);
    bad = b;
    bad[27] = 0x03;
    EXPECT_THROW(Read(OneProp(2, 0x1E, bad)), FormatError);
}

TEST(RbxBinaryReader, Int64ThreeIntValuesExample) {
    const auto v =
        OnePropValues(3, 0x1B, Bytes{0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                     0x00, 0x00, 0x00, 0x25, 0x00, 0xE9, 0xAD, 0x0A, 0x97, 0x0E, 0x72, 0x61});
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].as<Int64Value>().value, 1234567);
    EXPECT_EQ(v[1].as<Int64Value>().value, 1337);
    EXPECT_EQ(v[2].as<Int64Value>().value, -7654321);
}

// ------------------------------------------------------------------ CFrame rotation ids (§2.5)
using gamefmt::fixtures::rbx::kRotationTable;
using gamefmt::fixtures::rbx::RotationRow;

TEST(RbxBinaryReader, All24RotationIdsFromHandBuiltColumn) {
    Bytes b;
    for (const RotationRow &r : kRotationTable) b.push_back(r.id);
    b.insert(b.end(), 24 * 12, 0x00);
    const auto v = OnePropValues(24, 0x10, b);
    ASSERT_EQ(v.size(), 24u);
    for (std::size_t i = 0; i < 24; ++i) {
        SCOPED_TRACE(int(kRotationTable[i].id));
        EXPECT_EQ(v[i].as<CFrame>().rotation, kRotationTable[i].m);
        for (float f : v[i].as<CFrame>().rotation) EXPECT_FALSE(std::signbit(f) && f == 0.0f);
    }
}

TEST(RbxBinaryReader, InvalidRotationIdsAreErrors) {
    for (std::uint8_t id : {0x01, 0x04, 0x08, 0x0B, 0x0F, 0x12, 0x13, 0x16, 0x1A, 0x1D, 0x21, 0x24, 0x25, 0xFF}) {
        SCOPED_TRACE(int(id));
        Bytes b{id};
        b.insert(b.end(), 12, 0x00);
        const FormatError e = Thrown([&] { Read(OneProp(1, 0x10, b)); });
        EXPECT_TRUE(Contains(e.message(), "rotation id"));
        // Raw body: the offset is exact (header 32 + INST + PROP header positions vary, so check range).
        EXPECT_TRUE(e.hasOffset());
    }
}

TEST(RbxBinaryReader, CorpusCFrameSpecialCases) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("models/cframe-special-cases/binary.rbxm");
    ASSERT_EQ(d.instances.size(), 24u);
    for (const RotationRow &r : kRotationTable) {
        char name[3];
        std::snprintf(name, sizeof name, "%02x", r.id); // the corpus names them in lower case
        const Instance *i = ByName(d, name);
        ASSERT_NE(i, nullptr) << name;
        const CFrame c = Prop(d, *i, "Value").as<CFrame>();
        EXPECT_EQ(c.rotation, r.m) << name;
        EXPECT_EQ(c.position.x, 0.0f);
    }
}

TEST(RbxBinaryReader, CorpusRawCFramesKeptExactly) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    // README: 0.15625, -0.15625, 0.1, -0.1, 0, 0, 1337, -1337, inf, -inf, nan, nan (position, rows).
    const Document d = ReadCorpus("models/cframe-case-mixture/binary.rbxm");
    bool found = false;
    for (const Instance &i : d.instances) {
        const CFrame c = Prop(d, i, "Value").as<CFrame>();
        if (c.position.x != 0.15625f) continue;
        found = true;
        EXPECT_EQ(c.position.y, -0.15625f);
        EXPECT_EQ(c.position.z, 0.1f);
        EXPECT_EQ(c.rotation[0], -0.1f);
        EXPECT_EQ(c.rotation[3], 1337.0f);
        EXPECT_EQ(c.rotation[4], -1337.0f);
        EXPECT_EQ(c.rotation[5], std::numeric_limits<float>::infinity());
        EXPECT_EQ(c.rotation[6], -std::numeric_limits<float>::infinity());
        EXPECT_TRUE(std::isnan(c.rotation[7]));
        EXPECT_TRUE(std::isnan(c.rotation[8]));
    }
    EXPECT_TRUE(found);
    // two-cframevalues: 1, 2, 3, then rows 4 5 6 | -1 -2 -3 | -4 -5 -6 stored in that order.
    const Document t = ReadCorpus("models/two-cframevalues/binary.rbxm");
    found = false;
    for (const Instance &i : t.instances) {
        const CFrame c = Prop(t, i, "Value").as<CFrame>();
        if (c.position.x != 1.0f) continue;
        found = true;
        EXPECT_EQ(c.position.y, 2.0f);
        EXPECT_EQ(c.position.z, 3.0f);
        EXPECT_EQ(c.rotation, (std::array<float, 9>{4, 5, 6, -1, -2, -3, -4, -5, -6}));
    }
    EXPECT_TRUE(found);
}

// ------------------------------------------------------------------ Faces, Axes, PhysicalProperties
std::uint8_t BitsFromNames(const std::string &names, const std::vector<std::string> &order) {
    std::uint8_t bits = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        std::stringstream ss(names);
        std::string item;
        while (std::getline(ss, item, ',')) {
            item.erase(0, item.find_first_not_of(' '));
            if (item == order[k]) bits = static_cast<std::uint8_t>(bits | (1u << k));
        }
    }
    return bits;
}

TEST(RbxBinaryReader, CorpusFacesAndAxes) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document f = ReadCorpus("models/faces/binary.rbxm");
    ASSERT_EQ(f.instances.size(), 64u);
    std::set<int> seen;
    for (const Instance &i : f.instances) {
        const std::uint8_t bits = Prop(f, i, "Faces").as<Faces>().bits;
        EXPECT_EQ(bits, BitsFromNames(i.name, {"Right", "Top", "Back", "Left", "Bottom", "Front"})) << i.name;
        seen.insert(bits);
    }
    EXPECT_EQ(seen.size(), 64u);
    const Document a = ReadCorpus("models/axes/binary.rbxm");
    ASSERT_EQ(a.instances.size(), 8u);
    for (const Instance &i : a.instances)
        EXPECT_EQ(Prop(a, i, "Axes").as<Axes>().bits, BitsFromNames(i.name, {"X", "Y", "Z"})) << i.name;
}

TEST(RbxBinaryReader, FacesAbove63AndAxesAbove7AreErrors) {
    EXPECT_EQ(OnePropValues(1, 0x09, Bytes{63})[0].as<Faces>().bits, 63);
    EXPECT_EQ(OnePropValues(1, 0x0A, Bytes{7})[0].as<Axes>().bits, 7);
    EXPECT_TRUE(Contains(Thrown([] { Read(OneProp(2, 0x09, Bytes{1, 64})); }).message(), "Faces"));
    EXPECT_TRUE(Contains(Thrown([] { Read(OneProp(1, 0x0A, Bytes{8})); }).message(), "Axes"));
}

TEST(RbxBinaryReader, CorpusPhysicalPropertiesAcoustics) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("models/physical-properties-acoustics/binary.rbxm");
    const Instance *custom = ByName(d, "CustomProperties");
    const Instance *plain = ByName(d, "NoCustomProperties");
    ASSERT_TRUE(custom && plain);
    const PhysicalProperties p = Prop(d, *custom, "CustomPhysicalProperties").as<PhysicalProperties>();
    EXPECT_TRUE(p.custom());
    EXPECT_TRUE(p.hasAcoustic());
    EXPECT_EQ(Describe(p),
              "flags=3 density=0.25 friction=0.5 elasticity=0.125 frictionWeight=1 elasticityWeight=0.25 acoustic=0.5");
    const PhysicalProperties q = Prop(d, *plain, "CustomPhysicalProperties").as<PhysicalProperties>();
    EXPECT_FALSE(q.custom());
    EXPECT_EQ(q.flags, 2); // new Studio's default marker
}

TEST(RbxBinaryReader, PhysicalPropertiesFlags) {
    gamefmt::ByteWriter w;
    w.u8(0);
    w.u8(1);
    for (float f : {1.f, 2.f, 3.f, 4.f, 5.f}) w.f32le(f);
    w.u8(2);
    w.u8(3);
    for (float f : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) w.f32le(f);
    const auto v = OnePropValues(4, 0x19, w.take());
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].as<PhysicalProperties>().flags, 0);
    EXPECT_EQ(v[1].as<PhysicalProperties>().elasticityWeight, 5.0f);
    EXPECT_EQ(v[1].as<PhysicalProperties>().acousticAbsorption, 0.0f);
    EXPECT_EQ(v[2].as<PhysicalProperties>().flags, 2);
    EXPECT_EQ(v[3].as<PhysicalProperties>().acousticAbsorption, 6.0f);
    EXPECT_TRUE(Contains(Thrown([] { Read(OneProp(1, 0x19, Bytes{4})); }).message(), "PhysicalProperties flag 4"));
}

// ------------------------------------------------------------------ Content, UniqueId, SecurityCapabilities, Int64
TEST(RbxBinaryReader, CorpusImageLabelContent) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("models/imagelabel-content/binary.rbxm");
    const Instance *a = ByName(d, "Placeholder");
    const Instance *b = ByName(d, "SpawnLocation");
    const Instance *c = ByName(d, "None");
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(Prop(d, *a, "ImageContent").type, Type::Content);
    EXPECT_EQ(Prop(d, *a, "ImageContent").as<Content>().source, Content::Source::Uri);
    EXPECT_EQ(Prop(d, *a, "ImageContent").as<Content>().uri, "rbxasset://textures/ui/GuiImagePlaceholder.png");
    EXPECT_EQ(Prop(d, *b, "ImageContent").as<Content>().uri, "rbxasset://textures/SpawnLocation.png");
    EXPECT_EQ(Prop(d, *c, "ImageContent").as<Content>().source, Content::Source::None);
}

TEST(RbxBinaryReader, ContentObjectsAndErrors) {
    // Sources Object, Uri, None; one URI, one object referent (→ instance 0), ext count 2 ignored.
    Bytes b = fx::Int32Column({2, 1, 0});
    gamefmt::ByteWriter w;
    w.u32le(1);
    w.u32le(3);
    w.string("u:1");
    w.u32le(1);
    Bytes tail = w.take();
    b.insert(b.end(), tail.begin(), tail.end());
    const Bytes refs = fx::ReferentColumn({0});
    b.insert(b.end(), refs.begin(), refs.end());
    b.insert(b.end(), {2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
    const auto v = OnePropValues(3, 0x22, b);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].as<Content>().source, Content::Source::Object);
    EXPECT_EQ(v[0].as<Content>().object, 0u);
    EXPECT_EQ(v[1].as<Content>().uri, "u:1");
    EXPECT_EQ(v[2].as<Content>().source, Content::Source::None);
    Bytes bad = b;
    bad[9] = 0x06; // the first value's low byte: zigzag 6 = source type 3
    EXPECT_TRUE(Contains(Thrown([&] { Read(OneProp(3, 0x22, bad)); }).message(), "Content source type 3"));
}

TEST(RbxBinaryReader, CorpusSecurityCapabilities) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("models/number-values-with-security-capabilities/binary.rbxm");
    std::multiset<std::uint64_t> values;
    for (const Instance &i : d.instances) {
        EXPECT_EQ(Prop(d, i, "Capabilities").type, Type::SecurityCapabilities);
        values.insert(Prop(d, i, "Capabilities").as<SecurityCapabilities>().bits);
    }
    EXPECT_EQ(values, (std::multiset<std::uint64_t>{0, 2882400000ull}));
}

TEST(RbxBinaryReader, CorpusThreeIntValuesInt64) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("models/three-intvalues/binary.rbxm");
    ASSERT_EQ(d.instances.size(), 3u);
    std::vector<std::int64_t> got;
    for (const Instance &i : d.instances) got.push_back(Prop(d, i, "Value").as<Int64Value>().value);
    EXPECT_EQ(got, (std::vector<std::int64_t>{1234567, 1337, -7654321}));
}

std::uint64_t Rotr64(std::uint64_t v, unsigned n) {
    return (v >> n) | (v << (64 - n));
}

std::string XmlHex(const UniqueId &u) {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%08x%08x", static_cast<unsigned long long>(Rotr64(u.random, 1)), u.time,
                  u.index);
    return buf;
}

TEST(RbxBinaryReader, CorpusBaseplate566UniqueIds) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("places/baseplate-566/binary.rbxl");
    std::set<std::string> ids;
    std::size_t zero = 0;
    for (const Instance &i : d.instances)
        for (const Property &p : i.properties)
            if (p.value.type == Type::UniqueId) {
                const std::string h = XmlHex(p.value.as<UniqueId>());
                if (h == std::string(32, '0'))
                    ++zero;
                else
                    ids.insert(h);
            }
    // From __input.snap (rbx_binary's reading): the UniqueId of the first two classes.
    EXPECT_EQ(ids.count("44b188dace632b4702e9c68d0048309a"), 1u);
    EXPECT_EQ(ids.count("44b188dace632b4702e9c68d00483096"), 1u);
    EXPECT_GT(zero, 0u); // HistoryIds are zero
}

TEST(RbxBinaryReader, CorpusTagsAndSharedStrings) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document d = ReadCorpus("models/tags/binary.rbxm");
    ASSERT_EQ(d.instances.size(), 1u);
    const Value &tags = Prop(d, d.instances[0], "Tags");
    ASSERT_EQ(tags.type, Type::String);
    // README: My, Cool, Tags; §2.6: Cool\0My\0Tags.
    EXPECT_EQ(tags.as<std::string>(), std::string("Cool\0My\0Tags", 12));
    const Document s = ReadCorpus("models/sharedstring/binary.rbxm");
    EXPECT_FALSE(s.sharedStrings.empty());
    for (const Instance &i : s.instances)
        for (const Property &p : i.properties)
            if (p.value.type == Type::SharedString) {
                EXPECT_LT(p.value.as<SharedStringRef>().index, s.sharedStrings.size());
            }
}

TEST(RbxBinaryReader, CorpusTreesAndNames) {
    if (!CorpusRoot()) GTEST_SKIP() << "corpus absent";
    const Document n = ReadCorpus("models/three-nested-folders/binary.rbxm");
    ASSERT_EQ(n.roots.size(), 1u);
    const Instance &g = n.instances[n.roots[0]];
    EXPECT_EQ(g.name, "Grandparent");
    ASSERT_EQ(g.children.size(), 1u);
    EXPECT_EQ(n.instances[g.children[0]].name, "Parent");
    ASSERT_EQ(n.instances[g.children[0]].children.size(), 1u);
    EXPECT_EQ(n.instances[n.instances[g.children[0]].children[0]].name, "Child");
    for (const Instance &i : n.instances) EXPECT_EQ(n.findProperty(i, "Name"), nullptr); // routed to name

    const Document r = ReadCorpus("models/ref-child/binary.rbxm");
    const Instance *value = ByName(r, "Value");
    ASSERT_NE(value, nullptr);
    const std::uint32_t target = Prop(r, *value, "Value").as<RefValue>().target;
    ASSERT_NE(target, kNoInstance);
    EXPECT_EQ(r.className(r.instances[target]), "Folder");
    EXPECT_EQ(r.instances[target].parent, static_cast<std::uint32_t>(value - r.instances.data()));

    const Document s = ReadCorpus("models/three-screengui/binary.rbxm");
    for (int k = 0; k < 3; ++k) {
        const Instance *i = ByName(s, "DisplayOrder" + std::to_string(k));
        ASSERT_NE(i, nullptr);
        EXPECT_EQ(Prop(s, *i, "DisplayOrder").as<std::int32_t>(), k);
    }
    const Document u = ReadCorpus("models/funny-uipadding/binary.rbxm");
    ASSERT_EQ(u.instances.size(), 1u);
    EXPECT_EQ(Prop(u, u.instances[0], "PaddingBottom").as<UDim>().scale, 13.37f);
    EXPECT_EQ(Prop(u, u.instances[0], "PaddingBottom").as<UDim>().offset, 42);
    EXPECT_EQ(Prop(u, u.instances[0], "PaddingLeft").as<UDim>().scale, -13.37f);

    const Document b = ReadCorpus("models/three-brickcolorvalues/binary.rbxm");
    std::multiset<std::uint32_t> colors;
    for (const Instance &i : b.instances) colors.insert(Prop(b, i, "Value").as<BrickColor>().number);
    EXPECT_EQ(colors.count(1004), 1u);
    EXPECT_EQ(colors.count(37), 1u);

    const Document o = ReadCorpus("models/optionalcoordinateframe-models/binary.rbxm");
    std::size_t absent = 0, infinite = 0;
    for (const Instance &i : o.instances) {
        const OptionalCFrame c = Prop(o, i, "WorldPivotData").as<OptionalCFrame>();
        if (!c.present)
            ++absent;
        else if (c.value.position.x == -0.5f && std::isinf(c.value.position.y) && std::isnan(c.value.position.z))
            ++infinite;
    }
    EXPECT_EQ(absent, 1u);
    EXPECT_EQ(infinite, 1u);
}

// ------------------------------------------------------------------ every corpus file
TEST(RbxBinaryReader, EveryCorpusBinaryFileDecodes) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    int models = 0, places = 0;
    for (const fs::path &f : CorpusBinaries()) {
        SCOPED_TRACE(f.string());
        const Document d = Read(gamefmt::test::ReadBytes(f));
        EXPECT_FALSE(d.instances.empty());
        EXPECT_TRUE(d.warnings.empty()) << d.warnings.front();
        EXPECT_TRUE(d.unknownChunks.empty());
        EXPECT_TRUE(d.rawProperties.empty());
        std::size_t reachable = 0;
        std::vector<std::uint32_t> stack(d.roots.begin(), d.roots.end());
        while (!stack.empty()) {
            const std::uint32_t i = stack.back();
            stack.pop_back();
            ++reachable;
            for (std::uint32_t c : d.instances[i].children) stack.push_back(c);
        }
        EXPECT_EQ(reachable, d.instances.size());
        (f.extension() == ".rbxm" ? models : places) += 1;
    }
    EXPECT_EQ(models, 50);
    EXPECT_EQ(places, 4);
}

TEST(RbxBinaryReader, CorpusCountsMatchHeaderAndSnapshots) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const fs::path snaps = *corpus_root / "rbx/rbx-dom-expected";
    int compared = 0;
    for (const fs::path &f : CorpusBinaries()) {
        const Bytes bytes = gamefmt::test::ReadBytes(f);
        const Document d = Read(bytes);
        std::int32_t classes, instances;
        std::memcpy(&classes, &bytes[16], 4);
        std::memcpy(&instances, &bytes[20], 4);
        EXPECT_EQ(d.instances.size(), static_cast<std::size_t>(instances)) << f; // Studio: header counts exact
        std::set<std::uint32_t> classNames;
        for (const Instance &i : d.instances) classNames.insert(i.className);
        EXPECT_LE(classNames.size(), static_cast<std::size_t>(classes)) << f;
        const fs::path snap = snaps / (f.parent_path().filename().string() + "__input.snap");
        if (!fs::exists(snap)) continue;
        std::ifstream in(snap);
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("num_instances: ", 0) == 0) {
                EXPECT_EQ(std::to_string(d.instances.size()), line.substr(15)) << f;
                ++compared;
            } else if (line.rfind("num_types: ", 0) == 0) {
                EXPECT_EQ(std::to_string(classes), line.substr(11)) << f;
            }
    }
    if (fs::exists(snaps)) {
        EXPECT_GE(compared, 40);
    }
}

// ------------------------------------------------------------------ the fixture with every type
void CheckAllTypes(const Document &d) {
    ASSERT_EQ(d.instances.size(), 3u);
    const Instance &a = d.instances[0], &b = d.instances[1], &c = d.instances[2];
    EXPECT_EQ(a.name, "First");
    EXPECT_EQ(b.name, "Second");
    EXPECT_EQ(c.name, "Third");
    EXPECT_EQ(a.referent, "0");
    EXPECT_EQ(c.referent, "2");
    EXPECT_EQ(d.className(a), "AllTypes");
    EXPECT_EQ(d.roots, (std::vector<std::uint32_t>{0}));
    EXPECT_EQ(a.children, (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(d.meta, (std::vector<std::pair<std::string, std::string>>{{"ExplicitAutoJoints", "true"}}));
    ASSERT_EQ(d.sharedStrings.size(), 2u);
    EXPECT_EQ(d.sharedStrings[0].content, "shared-a");
    EXPECT_TRUE(d.warnings.empty()) << d.warnings.front();
    EXPECT_EQ(a.properties.size(), 34u); // 0x01..0x22, Name routed to the name

    for (std::uint8_t t = 0x01; t <= 0x22; ++t) {
        const char *name = TypeName(static_cast<Type>(t));
        EXPECT_EQ(Prop(d, a, name).type, static_cast<Type>(t)) << name;
    }
    EXPECT_EQ(Prop(d, a, "String").as<std::string>(), "hello");
    EXPECT_EQ(Prop(d, c, "String").as<std::string>(), std::string("with\0nul", 8));
    EXPECT_TRUE(Prop(d, a, "Bool").as<bool>());
    EXPECT_FALSE(Prop(d, b, "Bool").as<bool>());
    EXPECT_TRUE(Prop(d, c, "Bool").as<bool>());
    EXPECT_EQ(Prop(d, b, "Int32").as<std::int32_t>(), 2147483647);
    EXPECT_EQ(Prop(d, c, "Int32").as<std::int32_t>(), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(Prop(d, a, "Float32").as<float>(), -0.15625f);
    EXPECT_EQ(Prop(d, b, "Float32").as<float>(), std::numeric_limits<float>::infinity());
    EXPECT_EQ(FloatBits(Prop(d, c, "Float32").as<float>()), 0x80000000u);
    EXPECT_EQ(Prop(d, b, "Float64").as<double>(), -2.25e300);
    EXPECT_EQ(Prop(d, c, "Float64").as<double>(), 0.1);
    EXPECT_EQ(Prop(d, c, "UDim").as<UDim>().scale, -0.5f);
    EXPECT_EQ(Prop(d, c, "UDim").as<UDim>().offset, -7);
    EXPECT_EQ(Prop(d, a, "UDim2").as<UDim2>().x.offset, -30);
    EXPECT_EQ(Prop(d, a, "UDim2").as<UDim2>().y.scale, -1.5f);
    EXPECT_EQ(Prop(d, a, "Ray").as<Ray>().direction.z, 6.0f);
    EXPECT_EQ(Prop(d, b, "Ray").as<Ray>().origin.y, -2.0f);
    EXPECT_EQ(Prop(d, b, "Faces").as<Faces>().bits, 42);
    EXPECT_EQ(Prop(d, b, "Axes").as<Axes>().bits, 5);
    EXPECT_EQ(Prop(d, c, "BrickColor").as<BrickColor>().number, 1010u);
    EXPECT_EQ(Prop(d, c, "Color3").as<Color3>().g, 0.75f);
    EXPECT_EQ(Prop(d, b, "Vector2").as<Vector2>().y, 100.0f);
    EXPECT_EQ(Prop(d, c, "Vector3").as<Vector3>().z, -0.5f);
    EXPECT_EQ(Prop(d, b, "Vector2int16").as<Vector2int16>().x, 32767);
    EXPECT_EQ(Prop(d, b, "Vector2int16").as<Vector2int16>().y, -32768);
    EXPECT_EQ(Prop(d, a, "CFrame").as<CFrame>().rotation, kRotationTable[0].m);
    EXPECT_EQ(Prop(d, a, "CFrame").as<CFrame>().position.z, 3.0f);
    EXPECT_EQ(Prop(d, b, "CFrame").as<CFrame>().rotation, (std::array<float, 9>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(Prop(d, c, "CFrame").as<CFrame>().rotation, kRotationTable[23].m);
    EXPECT_EQ(Prop(d, a, "CFrameQuat").as<CFrame>().rotation, kRotationTable[8].m);
    EXPECT_EQ(Prop(d, b, "CFrameQuat").as<CFrame>().rotation, kRotationTable[0].m);
    EXPECT_EQ(Prop(d, b, "CFrameQuat").as<CFrame>().position.y, 5.0f);
    EXPECT_EQ(Prop(d, c, "Enum").as<EnumValue>().value, 4294967295u);
    EXPECT_EQ(Prop(d, a, "Ref").as<RefValue>().target, 1u);
    EXPECT_EQ(Prop(d, b, "Ref").as<RefValue>().target, kNoInstance);
    EXPECT_EQ(Prop(d, c, "Ref").as<RefValue>().target, 0u);
    EXPECT_EQ(Prop(d, c, "Vector3int16").as<Vector3int16>().y, -32768);
    const auto &ns = Prop(d, c, "NumberSequence").as<NumberSequence>().keypoints;
    ASSERT_EQ(ns.size(), 2u);
    EXPECT_EQ(ns[0].value, 6.0f);
    EXPECT_EQ(ns[0].envelope, 3.0f);
    EXPECT_EQ(ns[1].time, 1.0f);
    const auto &cs = Prop(d, a, "ColorSequence").as<ColorSequence>().keypoints;
    ASSERT_EQ(cs.size(), 2u);
    EXPECT_EQ(cs[0].color.r, 1.0f);
    EXPECT_EQ(cs[1].color.b, 1.0f);
    EXPECT_EQ(Prop(d, b, "NumberRange").as<NumberRange>().min, -5.0f);
    EXPECT_EQ(Prop(d, b, "Rect").as<Rect>().max.y, 4.0f);
    EXPECT_EQ(Prop(d, a, "PhysicalProperties").as<PhysicalProperties>().acousticAbsorption, 6.0f);
    EXPECT_EQ(Prop(d, b, "PhysicalProperties").as<PhysicalProperties>().density, 0.7f);
    EXPECT_EQ(Prop(d, c, "PhysicalProperties").as<PhysicalProperties>().flags, 2);
    EXPECT_EQ(Prop(d, b, "Color3uint8").as<Color3uint8>().b, 127);
    EXPECT_EQ(Prop(d, c, "Int64").as<Int64Value>().value, -7654321);
    EXPECT_EQ(Prop(d, b, "SharedString").as<SharedStringRef>().index, 1u);
    EXPECT_EQ(Prop(d, a, "Bytecode").as<Bytecode>().bytes, "\x01\x02"
                                                           "code");
    EXPECT_TRUE(Prop(d, a, "OptionalCFrame").as<OptionalCFrame>().present);
    EXPECT_FALSE(Prop(d, b, "OptionalCFrame").as<OptionalCFrame>().present);
    EXPECT_EQ(Prop(d, c, "OptionalCFrame").as<OptionalCFrame>().value.position.x, 4.0f);
    EXPECT_EQ(Prop(d, c, "OptionalCFrame").as<OptionalCFrame>().value.rotation[8], 9.0f);
    const UniqueId u = Prop(d, a, "UniqueId").as<UniqueId>();
    EXPECT_EQ(u.index, 1u);
    EXPECT_EQ(u.time, 2u);
    EXPECT_EQ(u.random, 0x0123456789ABCDEFull);
    EXPECT_EQ(Prop(d, b, "UniqueId").as<UniqueId>().index, 0xFFFFFFFFu);
    EXPECT_EQ(Prop(d, b, "UniqueId").as<UniqueId>().random, 0x8000000000000001ull);
    const Font f = Prop(d, a, "Font").as<Font>();
    EXPECT_EQ(f.family, "rbxasset://fonts/families/SourceSansPro.json");
    EXPECT_EQ(f.weight, 700);
    EXPECT_EQ(f.style, 1);
    EXPECT_EQ(f.cachedFaceId, "rbxasset://fonts/x.ttf");
    EXPECT_EQ(Prop(d, c, "Font").as<Font>().weight, 100);
    EXPECT_EQ(Prop(d, a, "SecurityCapabilities").as<SecurityCapabilities>().bits, 2882400000ull);
    EXPECT_EQ(Prop(d, c, "SecurityCapabilities").as<SecurityCapabilities>().bits, 0xFFFFFFFFFFFFFFFFull);
    EXPECT_EQ(Prop(d, a, "Content").as<Content>().uri, "rbxassetid://1");
    EXPECT_EQ(Prop(d, b, "Content").as<Content>().source, Content::Source::None);
    EXPECT_EQ(Prop(d, c, "Content").as<Content>().object, 1u);
}

TEST(RbxBinaryReader, FixtureAllTypesRaw) {
    CheckAllTypes(Read(fx::AllTypes(fx::ChunkMode::Raw)));
}
TEST(RbxBinaryReader, FixtureAllTypesLz4) {
    CheckAllTypes(Read(fx::AllTypes(fx::ChunkMode::Lz4)));
}
TEST(RbxBinaryReader, FixtureAllTypesZstd) {
    CheckAllTypes(Read(fx::AllTypes(fx::ChunkMode::Zstd)));
}

TEST(RbxBinaryReader, ReadDocumentSniffs) {
    const Bytes b = fx::ThreeFolders();
    EXPECT_EQ(ReadDocument(b.data(), b.size()).instances.size(), 3u);
    const std::string junk = "PK\x03\x04 not roblox";
    EXPECT_THROW(ReadDocument(reinterpret_cast<const std::uint8_t *>(junk.data()), junk.size()), FormatError);
    EXPECT_THROW(ReadDocument(nullptr, 0), FormatError);
    Bytes bom = {0xEF, 0xBB, 0xBF};
    bom.insert(bom.end(), b.begin(), b.end());
    EXPECT_THROW(ReadDocument(bom.data(), bom.size()), FormatError); // binary must start at byte 0
}

// ------------------------------------------------------------------ fixtures for reader decisions
TEST(RbxBinaryReader, UnknownChunkAndSignKeptRaw) {
    const Document d = Read(fx::UnknownChunk());
    ASSERT_EQ(d.unknownChunks.size(), 2u);
    EXPECT_EQ(d.unknownChunks[0].name, "ZZZZ");
    EXPECT_EQ(d.unknownChunks[0].data, (Bytes{1, 2, 3}));
    EXPECT_EQ(d.unknownChunks[0].position, 1u);
    EXPECT_EQ(d.unknownChunks[1].name, "SIGN");
    EXPECT_EQ(d.unknownChunks[1].position, 4u);
    EXPECT_TRUE(HasWarning(d, "ZZZZ"));
    EXPECT_EQ(d.instances.size(), 3u);
    EXPECT_EQ(d.instances[0].name, "A");
}

TEST(RbxBinaryReader, UnknownTypeKeptRawWarnedOnce) {
    const Document d = Read(fx::UnknownTypeId());
    ASSERT_EQ(d.rawProperties.size(), 2u);
    EXPECT_EQ(d.rawProperties[0].className, "Folder");
    EXPECT_EQ(d.rawProperties[0].propertyName, "Mystery");
    EXPECT_EQ(d.rawProperties[0].type, 0x7F);
    EXPECT_EQ(d.rawProperties[0].body, fx::PropBody(0, "Mystery", 0x7F, Bytes{0xAA, 0xBB, 0xCC}));
    EXPECT_EQ(d.rawProperties[1].propertyName, "Other");
    EXPECT_EQ(
        std::count_if(d.warnings.begin(), d.warnings.end(), [](const std::string &w) { return Contains(w, "0x7F"); }),
        1);
    EXPECT_TRUE(d.instances[0].properties.empty());
}

TEST(RbxBinaryReader, PropWithoutTypeIgnored) {
    const Document d = Read(fx::PropWithoutType());
    EXPECT_EQ(d.instances.size(), 3u);
    for (const Instance &i : d.instances) EXPECT_TRUE(i.properties.empty());
    EXPECT_TRUE(d.rawProperties.empty());
}

TEST(RbxBinaryReader, PropForUndeclaredClassKeptRaw) {
    const Document d = Read(fx::PropForUndeclaredClass());
    ASSERT_EQ(d.rawProperties.size(), 1u);
    EXPECT_EQ(d.rawProperties[0].propertyName, "Ghost");
    EXPECT_EQ(d.rawProperties[0].type, 0x01);
    EXPECT_TRUE(HasWarning(d, "undeclared class id 9"));
    EXPECT_EQ(d.instances.size(), 3u);
}

TEST(RbxBinaryReader, PrntAnyOrderSiblingOrderKept) {
    const Document d = Read(fx::PrntOutOfOrder());
    ASSERT_EQ(d.instances.size(), 4u);
    EXPECT_EQ(d.roots, (std::vector<std::uint32_t>{0}));
    EXPECT_EQ(d.instances[0].children, (std::vector<std::uint32_t>{2, 1})); // C then B: pair order
    EXPECT_EQ(d.instances[2].children, (std::vector<std::uint32_t>{3}));
    EXPECT_EQ(d.instances[3].parent, 2u);
    EXPECT_EQ(d.instances[3].referent, "40");
    EXPECT_TRUE(d.warnings.empty());
}

TEST(RbxBinaryReader, OrphanCycleUndeclared) {
    const Document d = Read(fx::OrphanAndCycle());
    ASSERT_EQ(d.instances.size(), 5u);
    // Every instance reachable exactly once from the roots.
    std::vector<int> seen(5, 0);
    std::vector<std::uint32_t> stack(d.roots.begin(), d.roots.end());
    while (!stack.empty()) {
        const std::uint32_t i = stack.back();
        stack.pop_back();
        ++seen[i];
        for (std::uint32_t c : d.instances[i].children) stack.push_back(c);
    }
    EXPECT_EQ(seen, (std::vector<int>{1, 1, 1, 1, 1}));
    EXPECT_EQ(d.roots.size(), 4u); // A, one of B/C, E, D
    EXPECT_EQ(d.roots.front(), 0u);
    EXPECT_EQ(d.roots.back(), 3u); // the orphan D comes after the linked instances
    EXPECT_EQ(d.instances[4].parent, kNoInstance);
    EXPECT_TRUE(HasWarning(d, "cycle"));
    EXPECT_TRUE(HasWarning(d, "undeclared child"));
    EXPECT_TRUE(HasWarning(d, "undeclared parent"));
    EXPECT_TRUE(HasWarning(d, "without a parent link"));
}

TEST(RbxBinaryReader, DuplicateChildFirstWins) {
    const Document d = Read(fx::DuplicateChild());
    EXPECT_EQ(d.instances[1].parent, 0u);
    EXPECT_EQ(d.instances[0].children, (std::vector<std::uint32_t>{1, 2}));
    EXPECT_TRUE(d.instances[2].children.empty());
    EXPECT_TRUE(HasWarning(d, "listed twice"));
}

TEST(RbxBinaryReader, TagsAsSharedString) {
    const Document d = Read(fx::TagsAsSharedString());
    const Value &t = Prop(d, d.instances[0], "Tags");
    ASSERT_EQ(t.type, Type::SharedString);
    EXPECT_EQ(d.sharedStrings[t.as<SharedStringRef>().index].content, std::string("Cool\0My\0Tags", 12));
    EXPECT_EQ(d.sharedStrings[Prop(d, d.instances[1], "Tags").as<SharedStringRef>().index].content, "");
    EXPECT_EQ(d.roots.size(), 2u);
}

TEST(RbxBinaryReader, SharedStringIndexOutOfRange) {
    EXPECT_EQ(Read(OneProp(1, 0x1C, fx::U32Column({1}), {"a", "b"})).instances.size(), 1u);
    const Bytes f = OneProp(1, 0x1C, fx::U32Column({2}), {"a", "b"});
    EXPECT_TRUE(Contains(Thrown([&] { Read(f); }).message(), "SharedString index 2 out of range"));
    // A Name stored as SharedString is dereferenced into the name.
    Bytes g = fx::Header(1, 1);
    fx::AppendChunk(g, "SSTR", fx::SstrBody({"Shared name"}));
    fx::AppendChunk(g, "INST", fx::InstBody(0, "C", {0}));
    fx::AppendChunk(g, "PROP", fx::PropBody(0, "Name", 0x1C, fx::U32Column({0})));
    fx::AppendChunk(g, "PRNT", fx::PrntBody({{0, -1}}));
    fx::AppendEnd(g);
    EXPECT_EQ(Read(g).instances[0].name, "Shared name");
}

TEST(RbxBinaryReader, RepeatedPropertyLastWins) {
    Bytes f = fx::Header(1, 2);
    fx::AppendChunk(f, "INST", fx::InstBody(0, "C", {0, 1}));
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "P", 0x03, fx::Int32Column({1, 2})));
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "Q", 0x02, Bytes{1, 1}));
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "P", 0x01, fx::StringColumn({"x", "y"})));
    fx::AppendChunk(f, "PRNT", fx::PrntBody({{0, -1}, {1, -1}}));
    fx::AppendEnd(f);
    const Document d = Read(f);
    ASSERT_EQ(d.instances[1].properties.size(), 2u);
    EXPECT_EQ(Prop(d, d.instances[1], "P").type, Type::String);
    EXPECT_EQ(Prop(d, d.instances[1], "P").as<std::string>(), "y");
    EXPECT_TRUE(HasWarning(d, "appears twice"));
}

TEST(RbxBinaryReader, WideningOnlyWhenBothWidthsAppear) {
    Bytes f = fx::Header(3, 3);
    fx::AppendChunk(f, "INST", fx::InstBody(0, "IntValue", {0}));
    fx::AppendChunk(f, "INST", fx::InstBody(1, "BigValue", {1}));
    fx::AppendChunk(f, "INST", fx::InstBody(2, "Other", {2}));
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "Value", 0x03, fx::Int32Column({-5})));
    fx::AppendChunk(f, "PROP", fx::PropBody(1, "Value", 0x1B, fx::Int64Column({1LL << 40})));
    fx::AppendChunk(f, "PROP", fx::PropBody(0, "Scale", 0x04, fx::FloatColumn({0.5f})));
    fx::AppendChunk(f, "PROP", fx::PropBody(2, "Scale", 0x05, Bytes{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
    fx::AppendChunk(f, "PROP", fx::PropBody(2, "Count", 0x03, fx::Int32Column({7})));
    fx::AppendChunk(f, "PRNT", fx::PrntBody({{0, -1}, {1, -1}, {2, -1}}));
    fx::AppendEnd(f);
    const Document d = Read(f);
    EXPECT_EQ(Prop(d, d.instances[0], "Value").type, Type::Int64);
    EXPECT_EQ(Prop(d, d.instances[0], "Value").as<Int64Value>().value, -5);
    EXPECT_EQ(Prop(d, d.instances[1], "Value").as<Int64Value>().value, 1LL << 40);
    EXPECT_EQ(Prop(d, d.instances[0], "Scale").type, Type::Float64);
    EXPECT_EQ(Prop(d, d.instances[0], "Scale").as<double>(), 0.5);
    EXPECT_EQ(Prop(d, d.instances[2], "Scale").as<double>(), 1.0);
    EXPECT_EQ(Prop(d, d.instances[2], "Count").type, Type::Int32); // no Int64 "Count": kept
}

TEST(RbxBinaryReader, ServiceMarkers) {
    Bytes f = fx::Header(2, 2);
    fx::AppendChunk(f, "INST", fx::InstBody(0, "Workspace", {0}, true));
    fx::AppendChunk(f, "INST", fx::InstBody(1, "Part", {1}));
    fx::AppendChunk(f, "PRNT", fx::PrntBody({{1, 0}, {0, -1}}));
    fx::AppendEnd(f);
    const Document d = Read(f);
    EXPECT_TRUE(d.instances[0].isService);
    EXPECT_FALSE(d.instances[1].isService);
}

TEST(RbxBinaryReader, DuplicateClassIdOrReferentIsError) {
    Bytes f = fx::Header(2, 2);
    fx::AppendChunk(f, "INST", fx::InstBody(0, "A", {0}));
    fx::AppendChunk(f, "INST", fx::InstBody(0, "B", {1}));
    fx::AppendEnd(f);
    EXPECT_TRUE(Contains(Thrown([&] { Read(f); }).message(), "duplicate class id"));
    Bytes g = fx::Header(2, 2);
    fx::AppendChunk(g, "INST", fx::InstBody(0, "A", {0}));
    fx::AppendChunk(g, "INST", fx::InstBody(1, "B", {0}));
    fx::AppendEnd(g);
    EXPECT_TRUE(Contains(Thrown([&] { Read(g); }).message(), "duplicate referent"));
}

// ------------------------------------------------------------------ header and chunk framing
TEST(RbxBinaryReader, HeaderChecks) {
    const Bytes good = fx::ThreeFolders();
    Bytes b = good;
    b[0] = 'X';
    EXPECT_EQ(Thrown([&] { Read(b); }).offset(), 0u);
    b = good;
    b[10] = 0x00; // signature
    EXPECT_EQ(Thrown([&] { Read(b); }).offset(), 8u);
    b = good;
    b[14] = 1; // version
    EXPECT_TRUE(Contains(Thrown([&] { Read(b); }).message(), "version 1"));
    b = good;
    b[27] = 5; // reserved: warning only
    EXPECT_TRUE(HasWarning(Read(b), "reserved"));
    // Signature without 0D: the header is one byte shorter.
    b = good;
    b.erase(b.begin() + 10);
    const Document d = Read(b);
    EXPECT_EQ(d.instances.size(), 3u);
    EXPECT_TRUE(HasWarning(d, "0D"));
    // Too short for a header.
    EXPECT_THROW(Read(Bytes(good.begin(), good.begin() + 20)), FormatError);
    EXPECT_THROW(Read(Bytes{}), FormatError);
}

TEST(RbxBinaryReader, ChunkFraming) {
    const Bytes good = fx::ThreeFolders();
    const std::vector<std::size_t> at = ChunkOffsets(good);
    ASSERT_EQ(at.size(), 5u); // INST PROP PRNT END + end offset
    // Non-zero reserved field: error at the chunk offset.
    Bytes b = good;
    b[at[1] + 12] = 1;
    const FormatError e = Thrown([&] { Read(b); });
    EXPECT_EQ(e.offset(), at[1]);
    EXPECT_TRUE(Contains(e.message(), "reserved"));
    // Missing END.
    EXPECT_TRUE(
        Contains(Thrown([&] { Read(Bytes(good.begin(), good.begin() + static_cast<long>(at[3]))); }).message(), "END"));
    // Bytes after END are ignored.
    b = good;
    b.insert(b.end(), {1, 2, 3, 4, 5});
    EXPECT_EQ(Read(b).instances.size(), 3u);
    // Body longer than the file.
    b = Bytes(good.begin(), good.begin() + static_cast<long>(at[1]) + 20);
    EXPECT_EQ(Thrown([&] { Read(b); }).offset(), at[1]);
}

TEST(RbxBinaryReader, CompressedChunks) {
    // LZ4 and zstd variants of the same file decode the same.
    EXPECT_EQ(Read(fx::ThreeFolders(fx::ChunkMode::Lz4)).instances[2].name, "C");
    EXPECT_EQ(Read(fx::ThreeFolders(fx::ChunkMode::Zstd)).instances[2].name, "C");
    // LZ4 chunk whose declared size disagrees with the block: error at the chunk offset.
    Bytes b = fx::ThreeFolders(fx::ChunkMode::Lz4);
    const auto at = ChunkOffsets(b);
    std::uint32_t ul;
    std::memcpy(&ul, &b[at[0] + 8], 4);
    ++ul;
    std::memcpy(&b[at[0] + 8], &ul, 4);
    EXPECT_EQ(Thrown([&] { Read(b); }).offset(), at[0]);
    // zstd chunk with a wrong size.
    b = fx::ThreeFolders(fx::ChunkMode::Zstd);
    std::memcpy(&ul, &b[at[0] + 8], 4);
    ul += 3;
    std::memcpy(&b[at[0] + 8], &ul, 4);
    EXPECT_EQ(Thrown([&] { Read(b); }).offset(), at[0]);
    // zlib fallback (§2.1).
    const Bytes inst = fx::InstBody(0, "Folder", {0});
    const Bytes z = gamefmt::DeflateZlib(inst.data(), inst.size());
    Bytes f = fx::Header(1, 1);
    gamefmt::ByteWriter w;
    w.string("INST");
    w.u32le(static_cast<std::uint32_t>(z.size()));
    w.u32le(static_cast<std::uint32_t>(inst.size()));
    w.u32le(0);
    w.bytes(z);
    const Bytes chunk = w.take();
    f.insert(f.end(), chunk.begin(), chunk.end());
    fx::AppendChunk(f, "PRNT", fx::PrntBody({{0, -1}}));
    fx::AppendEnd(f);
    EXPECT_EQ(Read(f).instances.size(), 1u);
}

TEST(RbxBinaryReader, DecompressionLimits) {
    // LZ4 ratio: ul > 255 * cl + 16.
    const FormatError e = Thrown([] { Read(fx::HugeChunkLength()); });
    EXPECT_EQ(e.offset(), 32u);
    // ul = 255 * cl + 17 cannot come from one LZ4 block of cl bytes: rejected before decompressing.
    Bytes r = fx::Header(0, 0);
    gamefmt::ByteWriter w;
    w.string("INST");
    w.u32le(16);
    w.u32le(255 * 16 + 17);
    w.u32le(0);
    w.zeros(16);
    const Bytes chunk = w.take();
    r.insert(r.end(), chunk.begin(), chunk.end());
    fx::AppendEnd(r);
    const FormatError ratio = Thrown([&] { Read(r); });
    EXPECT_EQ(ratio.offset(), 32u);
    EXPECT_TRUE(Contains(ratio.message(), "ratio"));
    // The running total under ReadOptions::maxDecompressed.
    const Bytes b = fx::AllTypes(fx::ChunkMode::Lz4);
    ReadOptions small;
    small.maxDecompressed = 200;
    EXPECT_TRUE(Contains(Thrown([&] { Read(b, small); }).message(), "budget"));
    small.maxDecompressed = 1 << 20;
    EXPECT_EQ(Read(b, small).instances.size(), 3u);
}

// ------------------------------------------------------------------ hostile counts
TEST(RbxBinaryReader, HugeCountsFailFast) {
    EXPECT_TRUE(Contains(Thrown([] { Read(fx::HugeInstCount()); }).message(), "4294967295"));
    EXPECT_EQ(Read(fx::HugeHeaderCounts()).instances.size(), 3u); // header counts are hints
    EXPECT_THROW(Read(fx::HugeStringLength()), FormatError);
    EXPECT_THROW(Read(fx::HugePrntCount()), FormatError);
    // Other count fields at 0xFFFFFFFF.
    gamefmt::ByteWriter w;
    w.u32le(0xFFFFFFFFu);
    Bytes meta = fx::Header(0, 0);
    fx::AppendChunk(meta, "META", w.take());
    fx::AppendEnd(meta);
    EXPECT_THROW(Read(meta), FormatError);
    Bytes sstr = fx::Header(0, 0);
    fx::AppendChunk(sstr, "SSTR", Bytes{0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF});
    fx::AppendEnd(sstr);
    EXPECT_THROW(Read(sstr), FormatError);
    gamefmt::ByteWriter seq;
    seq.u32le(0xFFFFFFFFu);
    EXPECT_THROW(Read(OneProp(1, 0x15, seq.take())), FormatError);
    gamefmt::ByteWriter content;
    content.bytes(fx::Int32Column({1}));
    content.u32le(0xFFFFFFFFu);
    EXPECT_THROW(Read(OneProp(1, 0x22, content.take())), FormatError);
}

TEST(RbxBinaryReader, ErrorOffsetsInRawChunksAreExact) {
    // Faces value 64 as the second value: its absolute offset is the PROP body offset + 4 (class id)
    // + 4 + 1 (name "P") + 1 (type) + 1.
    const Bytes f = OneProp(2, 0x09, Bytes{1, 64});
    const auto at = ChunkOffsets(f);
    const std::size_t propBody = at[1] + 16;
    EXPECT_EQ(Thrown([&] { Read(f); }).offset(), propBody + 11);
    // The same value in an LZ4 chunk is reported at the chunk offset.
    Bytes g = fx::Header(1, 2);
    fx::AppendChunk(g, "INST", fx::InstBody(0, "C", {0, 1}));
    fx::AppendChunk(g, "PROP", fx::PropBody(0, "P", 0x09, Bytes{1, 64}), fx::ChunkMode::Lz4);
    fx::AppendEnd(g);
    const FormatError e = Thrown([&] { Read(g); });
    EXPECT_EQ(e.offset(), ChunkOffsets(g)[1]);
    EXPECT_TRUE(Contains(e.message(), "PROP chunk"));
}

TEST(RbxBinaryReader, TooFewValueBytesIsErrorExtraIsWarning) {
    EXPECT_THROW(Read(OneProp(2, 0x03, Bytes{0, 0, 0, 0, 0, 0, 0})), FormatError);
    EXPECT_THROW(Read(OneProp(2, 0x10, Bytes{0x02, 0x02})), FormatError);
    const Document d = Read(OneProp(1, 0x02, Bytes{1, 9, 9}));
    EXPECT_TRUE(HasWarning(d, "extra bytes"));
    EXPECT_TRUE(Prop(d, d.instances[0], "P").as<bool>());
}

// ------------------------------------------------------------------ fuzz-style robustness (§8 item 21)
// Reads `b`; anything but success or FormatError fails the test.
void ReadOrFormatError(const Bytes &b) {
    try {
        (void)Read(b);
    } catch (const FormatError &) {
    }
}

TEST(RbxBinaryReader, CorpusTruncatedAtEveryChunkBoundaryAndRandomOffsets) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    std::mt19937 rng(1234);
    for (const fs::path &f : CorpusBinaries()) {
        SCOPED_TRACE(f.string());
        const Bytes b = gamefmt::test::ReadBytes(f);
        const auto at = ChunkOffsets(b);
        for (std::size_t cut : at)
            if (cut < b.size()) {
                EXPECT_THROW(Read(Bytes(b.begin(), b.begin() + static_cast<long>(cut))), FormatError);
            }
        for (int k = 0; k < 200; ++k) {
            const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, b.size() - 1)(rng);
            EXPECT_THROW(Read(Bytes(b.begin(), b.begin() + static_cast<long>(cut))), FormatError) << cut;
        }
    }
}

TEST(RbxBinaryReader, CorpusRandomByteFlipsNeverCrash) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    std::mt19937 rng(5678);
    for (const fs::path &f : CorpusBinaries()) {
        SCOPED_TRACE(f.string());
        const Bytes original = gamefmt::test::ReadBytes(f);
        Bytes b = original;
        for (int k = 0; k < 200; ++k) {
            const std::size_t at = std::uniform_int_distribution<std::size_t>(0, b.size() - 1)(rng);
            const auto flip = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(1, 255)(rng));
            b[at] ^= flip;
            ReadOrFormatError(b);
            b[at] = original[at];
        }
    }
}

TEST(RbxBinaryReader, FixturesSurviveFlipsAndTruncation) {
    // The raw fixture exposes every value byte to the flips (no compression in front of them).
    const Bytes original = fx::AllTypes(fx::ChunkMode::Raw);
    std::mt19937 rng(42);
    Bytes b = original;
    for (int k = 0; k < 2000; ++k) {
        const std::size_t at = std::uniform_int_distribution<std::size_t>(0, b.size() - 1)(rng);
        b[at] ^= static_cast<std::uint8_t>(std::uniform_int_distribution<int>(1, 255)(rng));
        ReadOrFormatError(b);
        b[at] = original[at];
    }
    for (std::size_t cut = 0; cut < original.size(); ++cut)
        EXPECT_THROW(Read(Bytes(original.begin(), original.begin() + static_cast<long>(cut))), FormatError) << cut;
}

// ReadOptions::keepProperty: only the accepted properties are decoded (binary and XML alike), Name always;
// nothing of the others remains, not even as raw data.
TEST(RbxBinaryReader, KeepPropertyDecodesOnlyWhatIsAsked) {
    ReadOptions options;
    options.keepProperty = [](std::string_view name) { return name == "Int32" || name == "CFrame"; };
    const Bytes binary = fx::AllTypes(fx::ChunkMode::Lz4);
    const Document full = ReadBinary(binary.data(), binary.size());
    const std::string xml = WriteXml(full);
    for (const Document &doc : {ReadBinary(binary.data(), binary.size(), options),
                                ReadXml(reinterpret_cast<const std::uint8_t *>(xml.data()), xml.size(), options)}) {
        ASSERT_EQ(doc.instances.size(), 3u);
        EXPECT_TRUE(doc.rawProperties.empty());
        for (const Instance &inst : doc.instances) {
            std::vector<std::string> names;
            for (const Property &p : inst.properties) names.push_back(doc.names.str(p.name));
            std::sort(names.begin(), names.end());
            EXPECT_EQ(names, (std::vector<std::string>{"CFrame", "Int32"})) << inst.name;
        }
        std::vector<std::string> instanceNames;
        for (const Instance &inst : doc.instances) instanceNames.push_back(inst.name);
        std::sort(instanceNames.begin(), instanceNames.end());
        EXPECT_EQ(instanceNames, (std::vector<std::string>{"First", "Second", "Third"}));
        for (const Instance &inst : doc.instances)
            if (inst.name == "Second") {
                EXPECT_EQ(doc.findProperty(inst, "Int32")->value.as<std::int32_t>(), 2147483647);
            }
    }
}

} // namespace
