// Tests of the Second Life mesh asset codec (codec layer, no Assimp): docs/formats/sl-mesh.md §11's worked vectors,
// the §10 repairs with their warnings, the writer's layout (§13 steps 10-11), round trips, and hostile input.
#include "fixtures/sl_fixtures.hpp"

#include "common/compression.hpp"
#include "common/error.hpp"
#include "importers/sl_mesh/asset.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fx = gamefmt::fixtures;
using namespace gamefmt::slmesh;
using gamefmt::FormatError;
using Bytes = std::vector<std::uint8_t>;

std::uint32_t Bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

std::uint64_t Bits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

SLMeshAsset Read(const Bytes &b, const ReadOptions &options = {}) {
    return ReadAsset(b.data(), b.size(), options);
}

Bytes Inflate(const Bytes &b) {
    return gamefmt::InflateZlibUnknownSize(b.data(), b.size(), "test");
}

Bytes Deflate(const Bytes &b, int level = 9) {
    return gamefmt::DeflateZlib(b.data(), b.size(), level, "test");
}

Bytes Deflate(const LLSD &v) {
    return Deflate(WriteBinaryLLSD(v));
}

LLSD Parse(const Bytes &b) {
    return ParseBinaryLLSD(b.data(), b.size()).value;
}

bool HasWarning(const SLMeshAsset &a, const std::string &needle) {
    for (const std::string &w : a.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

std::string AllWarnings(const SLMeshAsset &a) {
    std::string s;
    for (const std::string &w : a.warnings) s += w + "\n";
    return s;
}

struct RawBlock {
    std::string key;
    Bytes bytes;
};

// Header with {offset, size} entries for `blocks` laid out in order (plus `extra` header keys), then the blocks.
Bytes AssetOf(const std::vector<RawBlock> &blocks, LLSD::Map extra = {}) {
    LLSD header = LLSD::MakeMap(std::move(extra));
    std::int32_t offset = 0;
    for (const RawBlock &b : blocks) {
        header.set(b.key, LLSD::MakeMap({{"offset", LLSD::Integer(offset)},
                                         {"size", LLSD::Integer(static_cast<std::int32_t>(b.bytes.size()))}}));
        offset += static_cast<std::int32_t>(b.bytes.size());
    }
    Bytes out = WriteBinaryLLSD(header);
    for (const RawBlock &b : blocks) out.insert(out.end(), b.bytes.begin(), b.bytes.end());
    return out;
}

// The §11.2 face as an LLSD map, for variations.
LLSD TriangleFace() {
    return Parse(fx::SlTriangleLodLlsd()).array().at(0);
}

Bytes LodBlock(const std::vector<LLSD> &faces) {
    return Deflate(LLSD::MakeArray(faces));
}

Bytes U16Bytes(std::initializer_list<int> values) {
    Bytes b;
    for (const int v : values) {
        b.push_back(static_cast<std::uint8_t>(v & 0xFF));
        b.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
    }
    return b;
}

SLMeshAsset ReadFace(const LLSD &face) {
    return Read(AssetOf({{"high_lod", LodBlock({face})}}));
}

std::string Hex(const Bytes &b, std::size_t from, std::size_t count) {
    static const char *digits = "0123456789ABCDEF";
    std::string s;
    for (std::size_t i = from; i < from + count && i < b.size(); ++i) {
        if (!s.empty()) s += ' ';
        s += digits[b[i] >> 4];
        s += digits[b[i] & 15];
    }
    return s;
}

// Header of an asset written by WriteAsset, its end and the blocks by key.
struct Layout {
    LLSD header;
    std::size_t end = 0;
};

Layout HeaderOf(const Bytes &asset) {
    LLSDParseResult r = ParseBinaryLLSD(asset.data(), asset.size());
    return Layout{r.value, r.end};
}

Bytes BlockBytes(const Bytes &asset, const std::string &key) {
    const Layout l = HeaderOf(asset);
    const LLSD *entry = l.header.find(key);
    if (entry == nullptr) return {};
    const std::size_t offset = static_cast<std::size_t>(entry->find("offset")->asInteger());
    const std::size_t size = static_cast<std::size_t>(entry->find("size")->asInteger());
    return Bytes(asset.begin() + static_cast<std::ptrdiff_t>(l.end + offset),
                 asset.begin() + static_cast<std::ptrdiff_t>(l.end + offset + size));
}

const char *const kAllBlockKeys[] = {"skin",       "physics_convex", "lowest_lod",  "low_lod",
                                     "medium_lod", "high_lod",       "physics_mesh"};

// ================================================================ quantization and weights

TEST(SlAssetQuantization, ReferenceTable) {
    // §11.4, every row.
    EXPECT_EQ(QuantizeComponent(0.25f, -0.5f, 0.5f), 49151);
    EXPECT_FLOAT_EQ(DequantizeComponent(49151, -0.5, 0.5), 0.24999619f);
    EXPECT_EQ(QuantizeComponent(0.0f, -0.5f, 0.5f), 32767);
    EXPECT_FLOAT_EQ(DequantizeComponent(32767, -0.5, 0.5), -7.6293945e-6f);
    EXPECT_EQ(QuantizeComponent(0.5f, -0.5f, 0.5f), 65535);
    EXPECT_EQ(QuantizeComponent(-0.5f, -0.5f, 0.5f), 0);
    EXPECT_EQ(Bits(DequantizeComponent(65535, -0.5, 0.5)), Bits(0.5f));
    EXPECT_EQ(Bits(DequantizeComponent(0, -0.5, 0.5)), Bits(-0.5f));
    EXPECT_EQ(QuantizeComponent(1.9f, 0.0f, 2.0f), 62258);
    EXPECT_FLOAT_EQ(DequantizeComponent(62258, 0.0, 2.0), 1.8999923f);
    EXPECT_EQ(QuantizeNormal(0.0f), 32767);
    EXPECT_FLOAT_EQ(DequantizeNormal(32767), -1.5258789e-5f);
    EXPECT_FLOAT_EQ(DequantizeNormal(32768), 1.5258789e-5f);
    // Bytes as stored: little-endian u16.
    const std::uint16_t q = QuantizeComponent(0.25f, -0.5f, 0.5f);
    EXPECT_EQ(q & 0xFF, 0xFF);
    EXPECT_EQ(q >> 8, 0xBF);
    EXPECT_EQ(QuantizeComponent(1.9f, 0.0f, 2.0f), 0xF332);
}

TEST(SlAssetQuantization, ExactFloat32Steps) {
    // The viewer's arithmetic, one float rounding per step, for every q of two domains.
    for (const auto &d : {std::pair<float, float>{-0.5f, 0.5f}, std::pair<float, float>{-0.25f, 1.75f}}) {
        for (std::uint32_t q = 0; q <= 65535; q += 7) {
            volatile float t = static_cast<float>(q) / 65535.0f;
            volatile float range = d.second - d.first;
            volatile float s = t * range;
            volatile float p = s + d.first;
            ASSERT_EQ(Bits(DequantizeComponent(static_cast<std::uint16_t>(q), d.first, d.second)), Bits(p)) << q;
            volatile float n2 = t * 2.0f;
            volatile float n = n2 - 1.0f;
            ASSERT_EQ(Bits(DequantizeNormal(static_cast<std::uint16_t>(q))), Bits(n)) << q;
        }
    }
}

TEST(SlAssetQuantization, EdgesAndClamping) {
    EXPECT_EQ(QuantizeComponent(0.3f, 0.3f, 0.3f), 0);             // zero range -> 0
    EXPECT_EQ(Bits(DequantizeComponent(0, 0.3, 0.3)), Bits(0.3f)); // Min = Max decodes to Min exactly
    EXPECT_EQ(QuantizeComponent(2.0f, -0.5f, 0.5f), 65535);
    EXPECT_EQ(QuantizeComponent(-2.0f, -0.5f, 0.5f), 0);
    EXPECT_EQ(QuantizeComponent(std::nanf(""), -0.5f, 0.5f), 0);
    EXPECT_EQ(QuantizeNormal(1.0f), 65535);
    EXPECT_EQ(QuantizeNormal(-1.0f), 0);
    EXPECT_EQ(QuantizeNormal(5.0f), 65535);
    EXPECT_EQ(QuantizeNormal(std::nanf("")), 0);
    EXPECT_EQ(Bits(FloatWidened(0.1)), 0x3FB99999A0000000ull);
    EXPECT_EQ(Bits(FloatWidened(-1.067)), 0xBFF1126EA0000000ull);
}

TEST(SlAssetQuantization, TruncationDriftIsAtMostOneStep) {
    // §4.1: decode then re-encode with the same domain gives q or q - 1.
    for (std::uint32_t q = 0; q <= 65535; ++q) {
        const float p = DequantizeComponent(static_cast<std::uint16_t>(q), -0.5, 0.5);
        const std::uint16_t again = QuantizeComponent(p, -0.5f, 0.5f);
        ASSERT_TRUE(again == q || again + 1u == q) << q;
    }
}

TEST(SlAssetWeights, ReferenceRecordsDecode) {
    const Bytes w = fx::SlWeightsExample();
    ASSERT_EQ(w.size(), 24u);
    const WeightDecodeResult r = DecodeWeights(w.data(), w.size(), 4);
    EXPECT_EQ(r.consumed, 24u);
    ASSERT_EQ(r.records.size(), 4u);
    ASSERT_EQ(r.records[0].count, 2);
    EXPECT_EQ(r.records[0].influences[0].joint, 2);
    EXPECT_EQ(r.records[0].influences[0].weight, 49151);
    EXPECT_EQ(r.records[0].influences[1].joint, 3);
    EXPECT_EQ(r.records[0].influences[1].weight, 16383);
    ASSERT_EQ(r.records[1].count, 4); // no terminator
    const int joints[] = {1, 2, 3, 5};
    const int weights[] = {26214, 19660, 13107, 6553};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(r.records[1].influences[i].joint, joints[i]);
        EXPECT_EQ(r.records[1].influences[i].weight, weights[i]);
    }
    ASSERT_EQ(r.records[2].count, 1);
    EXPECT_EQ(r.records[2].influences[0].joint, 0);
    EXPECT_EQ(r.records[2].influences[0].weight, 65535);
    EXPECT_EQ(r.records[3].count, 0);
}

TEST(SlAssetWeights, EncodeReproducesReferenceBytes) {
    const Bytes w = fx::SlWeightsExample();
    const WeightDecodeResult r = DecodeWeights(w.data(), w.size(), 4);
    Bytes out;
    EncodeWeights(r.records, out);
    EXPECT_EQ(out, w);
    // (u16)(w * 65535) of the reference's float weights gives the reference's numbers.
    EXPECT_EQ(static_cast<std::uint16_t>(0.75f * 65535.0f), 49151);
    EXPECT_EQ(static_cast<std::uint16_t>(0.25f * 65535.0f), 16383);
    EXPECT_EQ(static_cast<std::uint16_t>(0.4f * 65535.0f), 26214);
    EXPECT_EQ(static_cast<std::uint16_t>(0.3f * 65535.0f), 19660);
    EXPECT_EQ(static_cast<std::uint16_t>(0.2f * 65535.0f), 13107);
    EXPECT_EQ(static_cast<std::uint16_t>(0.1f * 65535.0f), 6553);
}

TEST(SlAssetWeights, ShortDataAndLimits) {
    const Bytes w = fx::SlWeightsExample();
    // Fewer vertices than records: stops after them.
    WeightDecodeResult r = DecodeWeights(w.data(), w.size(), 2);
    EXPECT_EQ(r.records.size(), 2u);
    EXPECT_EQ(r.consumed, 19u);
    // More vertices than records: what is there.
    r = DecodeWeights(w.data(), w.size(), 10);
    EXPECT_EQ(r.records.size(), 4u);
    EXPECT_EQ(r.consumed, 24u);
    // A record cut inside an influence is dropped.
    r = DecodeWeights(w.data(), 9, 4);
    EXPECT_EQ(r.records.size(), 1u);
    EXPECT_EQ(r.consumed, 7u);
    // A record cut before its terminator is dropped too.
    r = DecodeWeights(w.data(), 6, 4);
    EXPECT_EQ(r.records.size(), 0u);
    EXPECT_EQ(r.consumed, 0u);
    r = DecodeWeights(nullptr, 0, 4);
    EXPECT_TRUE(r.records.empty());

    WeightRecord bad;
    bad.count = 5;
    Bytes out;
    EXPECT_THROW(EncodeWeights({bad}, out), std::invalid_argument);
    WeightRecord reserved;
    reserved.count = 1;
    reserved.influences[0].joint = 255;
    EXPECT_THROW(EncodeWeights({reserved}, out), std::invalid_argument);
}

TEST(SlAssetModel, LodKeys) {
    EXPECT_STREQ(LodKey(kLowestLod), "lowest_lod");
    EXPECT_STREQ(LodKey(kLowLod), "low_lod");
    EXPECT_STREQ(LodKey(kMediumLod), "medium_lod");
    EXPECT_STREQ(LodKey(kHighLod), "high_lod");
    EXPECT_EQ(PhysicsConvex::HullPointCount(0), 256u);
    EXPECT_EQ(PhysicsConvex::HullPointCount(4), 4u);
}

// ================================================================ §11 fixtures

TEST(SlAssetFixtures, ReferenceSizesAndBytes) {
    const Bytes header = fx::SlHeaderHighLodOnly(170);
    EXPECT_EQ(header.size(), 55u);
    EXPECT_EQ(Hex(header, 48, 7), "69 00 00 00 AA 7D 7D");
    EXPECT_EQ(fx::SlTriangleLodLlsd().size(), 338u);
    EXPECT_EQ(Hex(fx::SlTriangleLodLlsd(), 0x150, 2), "7D 5D");
    EXPECT_EQ(fx::SlTriangleBlockStored().size(), 349u);
    EXPECT_EQ(fx::SlTriangleAssetStored().size(), 404u);
    EXPECT_EQ(Hex(fx::SlTriangleAssetStored(), 48, 7), "69 00 00 01 5D 7D 7D");
    // The stored block is a valid zlib stream (its Adler-32 included) holding the 338 bytes.
    EXPECT_EQ(Inflate(fx::SlTriangleBlockStored()), fx::SlTriangleLodLlsd());
}

TEST(SlAssetFixtures, Level9BlockIs170Bytes) {
    const Bytes asset = fx::SlTriangleAssetLevel9();
    ASSERT_EQ(asset.size(), 225u);
    EXPECT_EQ(Hex(asset, 55, 6), "78 DA 8B 66 60 60");
    const Bytes block(asset.begin() + 55, asset.end());
    EXPECT_EQ(Inflate(block), fx::SlTriangleLodLlsd());
}

// ================================================================ reading: §11.1 / §11.2

TEST(SlAssetRead, HeaderEndIsTheBlockBase) {
    // §11.1: H = 55, the block at H + 0.
    SLMeshAsset a = Read(fx::SlTriangleAssetStored());
    ASSERT_TRUE(a.lods[kHighLod]);
    EXPECT_TRUE(a.warnings.empty()) << AllWarnings(a);
    // A block at offset 7 is read at H + 7, not at 7.
    const Bytes block = fx::SlTriangleBlockStored();
    LLSD header = LLSD::MakeMap(
        {{"high_lod", LLSD::MakeMap({{"offset", LLSD::Integer(7)},
                                     {"size", LLSD::Integer(static_cast<std::int32_t>(block.size()))}})}});
    Bytes file = WriteBinaryLLSD(header);
    ASSERT_EQ(file.size(), 55u);
    file.insert(file.end(), 7, 0xEE);
    file.insert(file.end(), block.begin(), block.end());
    SLMeshAsset b = Read(file);
    ASSERT_TRUE(b.lods[kHighLod]);
    EXPECT_EQ(*b.lods[kHighLod], *a.lods[kHighLod]);
}

TEST(SlAssetRead, StoredAndLevel9DecodeIdenticallyAndExactly) {
    const SLMeshAsset stored = Read(fx::SlTriangleAssetStored());
    const SLMeshAsset level9 = Read(fx::SlTriangleAssetLevel9());
    ASSERT_TRUE(stored.lods[kHighLod]);
    ASSERT_TRUE(level9.lods[kHighLod]);
    EXPECT_EQ(stored, level9);
    EXPECT_FALSE(stored.lods[kLowLod]);
    const Lod &lod = *level9.lods[kHighLod];
    ASSERT_EQ(lod.faces.size(), 1u);
    const Face &f = lod.faces[0];
    ASSERT_EQ(f.vertexCount(), 3u);
    ASSERT_EQ(f.triangleCount(), 1u);
    EXPECT_EQ(f.indices, (std::vector<std::uint16_t>{0, 1, 2}));
    ASSERT_TRUE(f.positionDomain);
    const float expected[3][3] = {{-0.5f, -0.5f, -0.5f}, {0.5f, -0.5f, 0.5f}, {-0.5f, 0.5f, 0.5f}};
    for (int v = 0; v < 3; ++v)
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(
                Bits(DequantizeComponent(f.positions[v * 3 + k], f.positionDomain->min[k], f.positionDomain->max[k])),
                Bits(expected[v][k]));
    ASSERT_TRUE(f.hasTexCoords);
    ASSERT_TRUE(f.texCoordDomain);
    const float uv[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    for (int v = 0; v < 3; ++v)
        for (int k = 0; k < 2; ++k)
            EXPECT_EQ(
                Bits(DequantizeComponent(f.texCoords[v * 2 + k], f.texCoordDomain->min[k], f.texCoordDomain->max[k])),
                Bits(uv[v][k]));
    ASSERT_TRUE(f.hasNormals);
    for (int v = 0; v < 3; ++v) {
        EXPECT_EQ(f.normals[v * 3], 13849);
        EXPECT_EQ(f.normals[v * 3 + 2], 51685);
        // (−0.5773556, −0.5773556, 0.5773251) as float32 bit patterns.
        EXPECT_EQ(Bits(DequantizeNormal(f.normals[v * 3])), 0xBF13CD94u);
        EXPECT_EQ(Bits(DequantizeNormal(f.normals[v * 3 + 1])), 0xBF13CD94u);
        EXPECT_EQ(Bits(DequantizeNormal(f.normals[v * 3 + 2])), 0x3F13CB94u);
        EXPECT_FLOAT_EQ(DequantizeNormal(f.normals[v * 3]), -0.5773556f);
        EXPECT_FLOAT_EQ(DequantizeNormal(f.normals[v * 3 + 2]), 0.5773251f);
    }
    EXPECT_FALSE(f.hasWeights);
    EXPECT_FALSE(f.normalizedScale);
    EXPECT_TRUE(f.extra.empty());
    // The encoder maps ∓1/√3 to the stored q.
    EXPECT_EQ(QuantizeNormal(-0.57735026f), 13849);
    EXPECT_EQ(QuantizeNormal(0.57735026f), 51685);
}

TEST(SlAssetRead, LegacyPrefixOnAssetAndInsideBlock) {
    const std::string prefix = "<? LLSD/Binary ?>\n";
    Bytes file(prefix.begin(), prefix.end());
    const Bytes asset = fx::SlTriangleAssetLevel9();
    file.insert(file.end(), asset.begin(), asset.end());
    const SLMeshAsset a = Read(file);
    ASSERT_TRUE(a.lods[kHighLod]);
    EXPECT_EQ(a, Read(asset));

    Bytes inner(prefix.begin(), prefix.end());
    const Bytes llsd = fx::SlTriangleLodLlsd();
    inner.insert(inner.end(), llsd.begin(), llsd.end());
    const SLMeshAsset b = Read(AssetOf({{"high_lod", Deflate(inner)}}));
    ASSERT_TRUE(b.lods[kHighLod]);
    EXPECT_EQ(*b.lods[kHighLod], *a.lods[kHighLod]);

    const std::string python = "<?llsd/binary?>\n";
    Bytes file2(python.begin(), python.end());
    file2.insert(file2.end(), asset.begin(), asset.end());
    EXPECT_TRUE(Read(file2).lods[kHighLod]);
}

TEST(SlAssetRead, KeysInAnyOrderAndIntegersAsReals) {
    // A face whose keys are in reverse order and whose domain is stored as integers.
    LLSD face = TriangleFace();
    LLSD::Map reversed(face.map().rbegin(), face.map().rend());
    LLSD domain = LLSD::MakeMap({{"Min", LLSD::MakeArray({LLSD::Integer(-1), LLSD::Integer(-1), LLSD::Integer(-1)})},
                                 {"Max", LLSD::MakeArray({LLSD::Integer(1), LLSD::Integer(1), LLSD::Real(1.0)})}});
    LLSD f2 = LLSD::MakeMap(reversed);
    f2.set("PositionDomain", domain);
    Bytes llsd;
    AppendBinaryLLSD(LLSD::MakeArray({f2}), llsd, false);
    const SLMeshAsset a = Read(AssetOf({{"high_lod", Deflate(llsd)}}));
    ASSERT_TRUE(a.lods[kHighLod]);
    const Face &f = a.lods[kHighLod]->faces.at(0);
    ASSERT_TRUE(f.positionDomain);
    EXPECT_EQ(f.positionDomain->min, (Real3{-1, -1, -1}));
    EXPECT_EQ(f.positionDomain->max, (Real3{1, 1, 1}));
    EXPECT_EQ(f.vertexCount(), 3u);
    // Header offset/size as reals.
    const Bytes block = fx::SlTriangleBlockStored();
    LLSD header = LLSD::MakeMap({{"high_lod", LLSD::MakeMap({{"size", LLSD::Real(static_cast<double>(block.size()))},
                                                             {"offset", LLSD::Real(0.0)}})}});
    Bytes file = WriteBinaryLLSD(header, false);
    file.insert(file.end(), block.begin(), block.end());
    EXPECT_TRUE(Read(file).lods[kHighLod]);
}

TEST(SlAssetRead, HeaderFieldsVersionDateCreatorAnd404) {
    const Bytes block = fx::SlTriangleBlockStored();
    UUIDBytes uuid{};
    for (std::size_t i = 0; i < 16; ++i) uuid[i] = static_cast<std::uint8_t>(0x10 + i);
    const SLMeshAsset a =
        Read(AssetOf({{"high_lod", block}}, {{"version", LLSD::Integer(1)},
                                             {"creator", LLSD::Uuid(uuid)},
                                             {"date", LLSD::Date(1700000000.5)},
                                             {"submodel_id", LLSD::Integer(2)},
                                             {"material_list", LLSD::MakeArray({LLSD::String("a"), LLSD::String("b")})},
                                             {"physics_cost_data", LLSD::MakeMap({{"mesh", LLSD::Real(1)}})}}));
    EXPECT_EQ(a.version, 1);
    EXPECT_EQ(a.creator, uuid);
    ASSERT_TRUE(a.date);
    EXPECT_EQ(*a.date, 1700000000.5);
    EXPECT_EQ(a.submodelId, 2);
    EXPECT_EQ(a.materialList, (std::vector<std::string>{"a", "b"}));
    ASSERT_EQ(a.headerExtra.size(), 1u);
    EXPECT_EQ(a.headerExtra[0].first, "physics_cost_data");
    EXPECT_TRUE(a.warnings.empty()) << AllWarnings(a);

    // The date is little-endian on disk (§1): 1700000000.5 = 41D954FC40200000 -> bytes 00 00 20 40 FC 54 D9 41.
    const Bytes file = AssetOf({{"high_lod", block}}, {{"date", LLSD::Date(1700000000.5)}});
    const Bytes le = {0x64, 0x00, 0x00, 0x20, 0x40, 0xFC, 0x54, 0xD9, 0x41};
    EXPECT_NE(std::search(file.begin(), file.end(), le.begin(), le.end()), file.end());

    // Absent version: nullopt. `404`: kept, warned.
    const SLMeshAsset b = Read(AssetOf({{"high_lod", block}}, {{"404", LLSD::Boolean(true)}}));
    EXPECT_FALSE(b.version);
    ASSERT_TRUE(b.lods[kHighLod]);
    ASSERT_EQ(b.headerExtra.size(), 1u);
    EXPECT_EQ(b.headerExtra[0].first, "404");
    EXPECT_TRUE(HasWarning(b, "404")) << AllWarnings(b);

    // 999 is fine, 1000 is not.
    EXPECT_EQ(Read(AssetOf({{"high_lod", block}}, {{"version", LLSD::Integer(999)}})).version, 999);
    try {
        Read(AssetOf({{"high_lod", block}}, {{"version", LLSD::Integer(1000)}}));
        FAIL() << "version 1000 accepted";
    } catch (const FormatError &e) {
        EXPECT_NE(std::string(e.what()).find("1000"), std::string::npos) << e.what();
    }
}

TEST(SlAssetRead, NotAnAsset) {
    const Bytes empty;
    EXPECT_THROW(Read(empty), FormatError);
    const Bytes array = WriteBinaryLLSD(LLSD::MakeArray({LLSD::Integer(1)}));
    EXPECT_THROW(Read(array), FormatError);
    const Bytes text = {'h', 'e', 'l', 'l', 'o'};
    EXPECT_THROW(Read(text), FormatError);
    // A map without any LOD.
    try {
        Read(WriteBinaryLLSD(LLSD::MakeMap({{"version", LLSD::Integer(1)}})));
        FAIL();
    } catch (const FormatError &e) {
        EXPECT_NE(std::string(e.what()).find("no decodable level of detail"), std::string::npos) << e.what();
    }
    // An empty LOD array is a decode failure.
    EXPECT_THROW(Read(AssetOf({{"high_lod", Deflate(LLSD::MakeArray())}})), FormatError);
}

// ================================================================ reading: blocks, compression, bounds

TEST(SlAssetRead, BlockBeyondEndOfFile) {
    Bytes file = fx::SlHeaderHighLodOnly(170);
    const Bytes asset = fx::SlTriangleAssetLevel9();
    file.insert(file.end(), asset.begin() + 55, asset.begin() + 200);
    ASSERT_EQ(file.size(), 200u);
    try {
        Read(file);
        FAIL() << "truncated file accepted";
    } catch (const FormatError &e) {
        // The offset is where the header ends (55, §11.1): where the blocks should have started.
        EXPECT_STREQ(e.what(), "Second Life mesh: no decodable level of detail (high_lod: block at 55+170 is beyond "
                               "the end of the 200-byte file) (at byte offset 55)");
    }
    // With another LOD intact the file reads, the broken block skipped with a warning.
    const Bytes good = fx::SlTriangleBlockStored();
    LLSD header =
        LLSD::MakeMap({{"high_lod", LLSD::MakeMap({{"offset", LLSD::Integer(349)}, {"size", LLSD::Integer(500)}})},
                       {"medium_lod", LLSD::MakeMap({{"offset", LLSD::Integer(0)}, {"size", LLSD::Integer(349)}})}});
    Bytes file2 = WriteBinaryLLSD(header);
    file2.insert(file2.end(), good.begin(), good.end());
    const SLMeshAsset a = Read(file2);
    EXPECT_FALSE(a.lods[kHighLod]);
    EXPECT_TRUE(a.lods[kMediumLod]);
    EXPECT_TRUE(HasWarning(a, "beyond the end")) << AllWarnings(a);
}

TEST(SlAssetRead, NoBlockEntries) {
    // size <= 0 or offset < 0 = no block (no warning); the medium LOD then carries the file.
    const Bytes good = fx::SlTriangleBlockStored();
    LLSD header =
        LLSD::MakeMap({{"high_lod", LLSD::MakeMap({{"offset", LLSD::Integer(-1)}, {"size", LLSD::Integer(349)}})},
                       {"low_lod", LLSD::MakeMap({{"offset", LLSD::Integer(0)}, {"size", LLSD::Integer(0)}})},
                       {"medium_lod", LLSD::MakeMap({{"offset", LLSD::Integer(0)}, {"size", LLSD::Integer(349)}})}});
    Bytes file = WriteBinaryLLSD(header);
    file.insert(file.end(), good.begin(), good.end());
    const SLMeshAsset a = Read(file);
    EXPECT_FALSE(a.lods[kHighLod]);
    EXPECT_FALSE(a.lods[kLowLod]);
    EXPECT_TRUE(a.lods[kMediumLod]);
    EXPECT_TRUE(a.warnings.empty()) << AllWarnings(a);
}

TEST(SlAssetRead, TrailingJunkAccepted) {
    Bytes file = fx::SlTriangleAssetLevel9();
    file.insert(file.end(), 22, 0x5A);
    const SLMeshAsset a = Read(file);
    EXPECT_TRUE(a.lods[kHighLod]);
    EXPECT_EQ(a, Read(fx::SlTriangleAssetLevel9()));
}

TEST(SlAssetRead, TruncatedStreamAndBadAdler) {
    const Bytes good = fx::SlTriangleBlockStored();
    Bytes truncated(good.begin(), good.end() - 10);
    Bytes badAdler = good;
    badAdler.back() ^= 0x01;
    const Bytes asset9 = fx::SlTriangleAssetLevel9();
    Bytes level9(asset9.begin() + 55, asset9.end());
    Bytes level9Cut(level9.begin(), level9.end() - 5);
    for (const Bytes *broken : {&truncated, &badAdler, &level9Cut}) {
        // Only LOD: the file fails.
        try {
            Read(AssetOf({{"high_lod", *broken}}));
            FAIL() << "broken block accepted";
        } catch (const FormatError &e) {
            EXPECT_NE(std::string(e.what()).find("no decodable level of detail (high_lod: block at"), std::string::npos)
                << e.what();
        }
        // Beside a good LOD: skipped with a warning.
        const SLMeshAsset a = Read(AssetOf({{"high_lod", *broken}, {"low_lod", good}}));
        EXPECT_FALSE(a.lods[kHighLod]);
        EXPECT_TRUE(a.lods[kLowLod]);
        EXPECT_TRUE(HasWarning(a, "high_lod: block at")) << AllWarnings(a);
    }
    const SLMeshAsset a = Read(AssetOf({{"high_lod", badAdler}, {"low_lod", good}}));
    EXPECT_TRUE(HasWarning(a, "check")) << AllWarnings(a); // zlib's "incorrect data check"
}

TEST(SlAssetRead, BytesAfterTheZlibStreamInsideABlock) {
    // The viewer stops at Z_STREAM_END: padding inside the block's size is ignored, with a warning.
    Bytes padded = fx::SlTriangleBlockStored();
    padded.insert(padded.end(), {0, 0, 0});
    const SLMeshAsset a = Read(AssetOf({{"high_lod", padded}}));
    ASSERT_TRUE(a.lods[kHighLod]);
    EXPECT_EQ(*a.lods[kHighLod], *Read(fx::SlTriangleAssetStored()).lods[kHighLod]);
    EXPECT_TRUE(HasWarning(a, "high_lod: block at 55+352: 3 bytes after the zlib stream ignored")) << AllWarnings(a);
}

TEST(SlAssetRead, InflateCapEnforced) {
    // A valid LLSD array holding one 8 MiB binary of zeros: compresses to a few KiB.
    Bytes bomb = {0x5B, 0, 0, 0, 1, 0x62, 0x00, 0x80, 0x00, 0x00};
    bomb.resize(bomb.size() + (8u << 20), 0);
    bomb.push_back(0x5D);
    const Bytes compressed = Deflate(bomb);
    ASSERT_LT(compressed.size(), 64u * 1024);
    const Bytes good = fx::SlTriangleBlockStored();
    const Bytes file = AssetOf({{"high_lod", compressed}, {"low_lod", good}});

    ReadOptions capped;
    capped.maxInflatedBlock = 1u << 20;
    const SLMeshAsset a = Read(file, capped);
    EXPECT_FALSE(a.lods[kHighLod]);
    EXPECT_TRUE(a.lods[kLowLod]);
    EXPECT_TRUE(HasWarning(a, "limit")) << AllWarnings(a);
    EXPECT_THROW(Read(AssetOf({{"high_lod", compressed}}), capped), FormatError);

    // Under the default 64 MiB cap the same block inflates (it is one face that is not a map).
    const SLMeshAsset b = Read(file);
    ASSERT_TRUE(b.lods[kHighLod]);
    EXPECT_EQ(b.lods[kHighLod]->faces.size(), 1u);
    EXPECT_TRUE(HasWarning(b, "not a map")) << AllWarnings(b);
}

TEST(SlAssetRead, ManyTinyValuesInABlockAreRefusedNotAllocated) {
    // 2 MiB of '!' (undefined) in one array: 2 million LLSD values of ~140 bytes each would be ~300 MB.
    // The block is refused by the per-block value limit and the next level is used.
    Bytes many = {0x5B, 0x00, 0x20, 0x00, 0x00};
    many.resize(many.size() + (2u << 20), '!');
    many.push_back(0x5D);
    const Bytes compressed = Deflate(many);
    const SLMeshAsset a = Read(AssetOf({{"high_lod", compressed}, {"low_lod", fx::SlTriangleBlockStored()}}));
    EXPECT_FALSE(a.lods[kHighLod]);
    EXPECT_TRUE(a.lods[kLowLod]);
    EXPECT_TRUE(HasWarning(a, "limit of 65536 values")) << AllWarnings(a);
}

TEST(SlAssetRead, RequestedBlocksOnly) {
    ReadOptions options;
    options.blocks = kBlockHigh;
    const SLMeshAsset a = Read(fx::SlRiggedAsset(), options);
    EXPECT_TRUE(a.lods[kHighLod]);
    EXPECT_FALSE(a.lods[kMediumLod]);
    EXPECT_FALSE(a.lods[kLowestLod]);
    EXPECT_FALSE(a.skin);
    EXPECT_FALSE(a.physicsConvex);
    options.blocks = kBlockSkin | kBlockPhysicsConvex; // no LOD requested: no LOD required
    const SLMeshAsset b = Read(fx::SlRiggedAsset(), options);
    EXPECT_TRUE(b.skin);
    EXPECT_TRUE(b.physicsConvex);
    for (const auto &lod : b.lods) EXPECT_FALSE(lod);
    // Only lowest requested but broken while high is fine: the requested one decides.
    options.blocks = kBlockLowest;
    const Bytes good = fx::SlTriangleBlockStored();
    EXPECT_THROW(Read(AssetOf({{"high_lod", good}, {"lowest_lod", Bytes(good.begin(), good.end() - 3)}}), options),
                 FormatError);
}

TEST(SlAssetRead, OpaqueBlocksAndLegacyPhysicsShape) {
    const Bytes good = fx::SlTriangleBlockStored();
    const Bytes havok = {1, 2, 3, 4, 5};
    Bytes file = AssetOf({{"high_lod", good}, {"physics_shape", good}, {"physics_havok", havok}});
    const SLMeshAsset a = Read(file);
    ASSERT_TRUE(a.physicsMesh);
    EXPECT_TRUE(a.physicsMeshLegacyKey);
    ASSERT_EQ(a.opaqueBlocks.size(), 1u);
    EXPECT_EQ(a.opaqueBlocks[0].key, "physics_havok");
    EXPECT_EQ(a.opaqueBlocks[0].bytes, havok);
    const Bytes written = WriteAsset(a);
    const Layout l = HeaderOf(written);
    EXPECT_TRUE(l.header.find("physics_shape"));
    EXPECT_FALSE(l.header.find("physics_mesh"));
    EXPECT_EQ(BlockBytes(written, "physics_havok"), havok);
    EXPECT_EQ(Read(written), a);
}

TEST(SlAssetRead, BlockEntryExtrasSurvive) {
    const Bytes good = fx::SlTriangleBlockStored();
    LLSD header = LLSD::MakeMap({{"high_lod", LLSD::MakeMap({{"offset", LLSD::Integer(0)},
                                                             {"size", LLSD::Integer(349)},
                                                             {"mesh_triangles", LLSD::Integer(1)}})}});
    Bytes file = WriteBinaryLLSD(header);
    file.insert(file.end(), good.begin(), good.end());
    const SLMeshAsset a = Read(file);
    ASSERT_EQ(a.blockEntries.size(), 1u);
    ASSERT_EQ(a.blockEntries[0].second.extra.size(), 1u);
    const Bytes written = WriteAsset(a);
    const Layout layout = HeaderOf(written);
    const LLSD *entry = layout.header.find("high_lod");
    ASSERT_TRUE(entry);
    ASSERT_TRUE(entry->find("mesh_triangles"));
    EXPECT_EQ(entry->find("mesh_triangles")->asInteger(), 1);
}

// ================================================================ reading: faces (§4, §10)

TEST(SlAssetRead, NoGeometryKeepsTheSlot) {
    LLSD placeholderTrue = LLSD::MakeMap({{"NoGeometry", LLSD::Boolean(true)}});
    LLSD placeholderFalse = LLSD::MakeMap({{"NoGeometry", LLSD::Boolean(false)}});
    const SLMeshAsset a = Read(AssetOf({{"high_lod", LodBlock({placeholderTrue, placeholderFalse, TriangleFace()})}}));
    ASSERT_TRUE(a.lods[kHighLod]);
    const Lod &lod = *a.lods[kHighLod];
    ASSERT_EQ(lod.faces.size(), 3u);
    EXPECT_TRUE(lod.faces[0].noGeometry);
    EXPECT_TRUE(lod.faces[1].noGeometry); // presence counts, not the value
    EXPECT_EQ(lod.faces[1].noGeometryValue, LLSD::Boolean(false));
    EXPECT_FALSE(lod.faces[2].noGeometry);
    EXPECT_EQ(lod.faces[2].triangleCount(), 1u);
    // Written back as stored.
    const LLSD written = LodToLLSD(lod);
    EXPECT_EQ(*written.array()[0].find("NoGeometry"), LLSD::Boolean(true));
    EXPECT_EQ(*written.array()[1].find("NoGeometry"), LLSD::Boolean(false));
    EXPECT_EQ(written.array()[1].map().size(), 1u);
    // An undefined stored value (a model built in code) is written as true.
    Face built;
    built.noGeometry = true;
    EXPECT_EQ(*LodToLLSD(Lod{{built}}).array()[0].find("NoGeometry"), LLSD::Boolean(true));
}

TEST(SlAssetRead, MissingDomainsAndStreams) {
    LLSD face = TriangleFace();
    face.erase("PositionDomain");
    face.erase("TexCoord0Domain");
    SLMeshAsset a = ReadFace(face);
    const Face &f = a.lods[kHighLod]->faces.at(0);
    EXPECT_FALSE(f.positionDomain);
    EXPECT_FALSE(f.texCoordDomain);
    EXPECT_TRUE(HasWarning(a, "no PositionDomain")) << AllWarnings(a);
    EXPECT_TRUE(HasWarning(a, "no TexCoord0Domain")) << AllWarnings(a);

    face = TriangleFace();
    face.erase("Normal");
    face.erase("TexCoord0");
    face.erase("TexCoord0Domain");
    a = ReadFace(face);
    EXPECT_FALSE(a.lods[kHighLod]->faces[0].hasNormals);
    EXPECT_FALSE(a.lods[kHighLod]->faces[0].hasTexCoords);
    EXPECT_TRUE(a.warnings.empty()) << AllWarnings(a);

    // A malformed domain: nullopt with a warning.
    face = TriangleFace();
    face.set("PositionDomain", LLSD::MakeMap({{"Max", LLSD::MakeArray({LLSD::Real(1)})}, {"Min", LLSD::Real(0)}}));
    a = ReadFace(face);
    EXPECT_FALSE(a.lods[kHighLod]->faces[0].positionDomain);
    EXPECT_TRUE(HasWarning(a, "PositionDomain")) << AllWarnings(a);
}

TEST(SlAssetRead, ShortAndLongStreams) {
    LLSD face = TriangleFace();
    face.set("Normal", LLSD::Binary(U16Bytes({1, 2, 3, 4, 5, 6, 7, 8})));           // 2 of 3 vertices
    face.set("TexCoord0", LLSD::Binary(U16Bytes({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}))); // 5 pairs for 3 vertices
    SLMeshAsset a = ReadFace(face);
    const Face &f = a.lods[kHighLod]->faces[0];
    EXPECT_FALSE(f.hasNormals);
    EXPECT_TRUE(f.normals.empty());
    ASSERT_TRUE(f.hasTexCoords);
    EXPECT_EQ(f.texCoords, (std::vector<std::uint16_t>{1, 2, 3, 4, 5, 6}));
    EXPECT_TRUE(HasWarning(a, "face 0: Normal holds 2 of 3")) << AllWarnings(a);
    EXPECT_TRUE(HasWarning(a, "TexCoord0 is longer")) << AllWarnings(a);
}

TEST(SlAssetRead, PositionLengthNotMultipleOfSix) {
    LLSD face = TriangleFace();
    Bytes pos = face.find("Position")->binary();
    pos.push_back(0x12);
    pos.push_back(0x34);
    face.set("Position", LLSD::Binary(pos));
    const SLMeshAsset a = ReadFace(face);
    const Face &f = a.lods[kHighLod]->faces[0];
    EXPECT_EQ(f.vertexCount(), 3u);
    EXPECT_EQ(f.positions.size(), 9u);
    EXPECT_EQ(f.triangleCount(), 1u);
    EXPECT_TRUE(HasWarning(a, "Position length 20 is not a multiple of 6")) << AllWarnings(a);
}

TEST(SlAssetRead, TriangleListRepairs) {
    LLSD face = TriangleFace();
    // Index 5 >= 3 vertices: that triangle dropped, the other kept.
    face.set("TriangleList", LLSD::Binary(U16Bytes({0, 1, 5, 0, 1, 2})));
    SLMeshAsset a = ReadFace(face);
    EXPECT_EQ(a.lods[kHighLod]->faces[0].indices, (std::vector<std::uint16_t>{0, 1, 2}));
    EXPECT_TRUE(HasWarning(a, "1 triangle with an index >= 3 dropped")) << AllWarnings(a);

    // 7 indices + a stray byte: trimmed to two triangles.
    Bytes odd = U16Bytes({0, 1, 2, 2, 1, 0, 1});
    odd.push_back(0);
    face.set("TriangleList", LLSD::Binary(odd));
    a = ReadFace(face);
    EXPECT_EQ(a.lods[kHighLod]->faces[0].indices, (std::vector<std::uint16_t>{0, 1, 2, 2, 1, 0}));
    EXPECT_TRUE(HasWarning(a, "odd byte length")) << AllWarnings(a);
    EXPECT_TRUE(HasWarning(a, "not whole triangles")) << AllWarnings(a);

    // < 3 indices: no triangles, the face (slot) stays.
    face.set("TriangleList", LLSD::Binary(U16Bytes({0, 1})));
    a = ReadFace(face);
    ASSERT_EQ(a.lods[kHighLod]->faces.size(), 1u);
    EXPECT_EQ(a.lods[kHighLod]->faces[0].triangleCount(), 0u);
}

TEST(SlAssetRead, BadFacesAreSkippedButKeepTheirSlot) {
    LLSD noPosition = TriangleFace();
    noPosition.erase("Position");
    const SLMeshAsset a = Read(AssetOf({{"high_lod", LodBlock({LLSD::Integer(3), noPosition, TriangleFace()})}}));
    const Lod &lod = *a.lods[kHighLod];
    ASSERT_EQ(lod.faces.size(), 3u);
    EXPECT_EQ(lod.faces[0].vertexCount(), 0u);
    EXPECT_EQ(lod.faces[1].vertexCount(), 0u);
    EXPECT_EQ(lod.faces[2].triangleCount(), 1u);
    EXPECT_TRUE(HasWarning(a, "high_lod (block at 55) face 0 is integer, not a map")) << AllWarnings(a);
    EXPECT_TRUE(HasWarning(a, "high_lod (block at 55) face 1 has no Position")) << AllWarnings(a);
}

TEST(SlAssetRead, UnknownFaceKeysKept) {
    LLSD face = TriangleFace();
    face.set("Tangent", LLSD::Binary({1, 2}));
    face.set("NormalizedScale", LLSD::MakeArray({LLSD::Real(2), LLSD::Real(3), LLSD::Integer(4)}));
    const SLMeshAsset a = ReadFace(face);
    const Face &f = a.lods[kHighLod]->faces[0];
    ASSERT_EQ(f.extra.size(), 1u);
    EXPECT_EQ(f.extra[0].first, "Tangent");
    ASSERT_TRUE(f.normalizedScale);
    EXPECT_EQ(*f.normalizedScale, (Real3{2, 3, 4}));
    const LLSD back = LodToLLSD(*a.lods[kHighLod]);
    EXPECT_TRUE(back.array()[0].find("Tangent"));
}

// ================================================================ reading: skin and physics (§5, §6)

LLSD SkinLLSD(std::size_t joints, std::size_t matrices) {
    LLSD::Array names;
    for (std::size_t j = 0; j < joints; ++j) names.push_back(LLSD::String(j == 0 ? "mPelvis" : "mTorso"));
    LLSD::Array ibs;
    for (std::size_t m = 0; m < matrices; ++m) {
        LLSD::Array e;
        for (int i = 0; i < 16; ++i) e.push_back(LLSD::Real(i % 5 == 0 ? 1.0 : 0.0));
        ibs.push_back(LLSD::MakeArray(e));
    }
    return LLSD::MakeMap({{"joint_names", LLSD::MakeArray(names)}, {"inverse_bind_matrix", LLSD::MakeArray(ibs)}});
}

LLSD WeightedTriangle(const Bytes &weights) {
    LLSD face = TriangleFace();
    face.set("Weights", LLSD::Binary(weights));
    return face;
}

TEST(SlAssetRead, SkinValidation) {
    const Bytes weights = {0x00, 0xFF, 0xFF, 0xFF, 0x01, 0xFF, 0x7F, 0x05, 0xFF, 0x7F, 0xFF, 0xFF};
    const Bytes lod = LodBlock({WeightedTriangle(weights)});

    // Valid: 2 joints, 2 IBs; the influence on joint 5 is dropped.
    SLMeshAsset a = Read(AssetOf({{"skin", Deflate(SkinLLSD(2, 2))}, {"high_lod", lod}}));
    ASSERT_TRUE(a.skin);
    EXPECT_EQ(a.skin->jointNames.size(), 2u);
    EXPECT_FALSE(a.skin->bindShape);
    const Face &f = a.lods[kHighLod]->faces[0];
    ASSERT_TRUE(f.hasWeights);
    ASSERT_EQ(f.weights.size(), 3u);
    EXPECT_EQ(f.weights[0].count, 1);
    EXPECT_EQ(f.weights[1].count, 1);
    EXPECT_EQ(f.weights[1].influences[0].joint, 1);
    EXPECT_EQ(f.weights[2].count, 0);
    EXPECT_TRUE(HasWarning(a, "1 influence on a joint >= 2")) << AllWarnings(a);

    // IB count != joint count: unrigged.
    a = Read(AssetOf({{"skin", Deflate(SkinLLSD(2, 1))}, {"high_lod", lod}}));
    EXPECT_FALSE(a.skin);
    EXPECT_TRUE(HasWarning(a, "skin (block at ")) << AllWarnings(a);
    EXPECT_EQ(a.lods[kHighLod]->faces[0].weights[1].count, 2); // nothing to check joints against

    // A 15-number matrix: unrigged.
    LLSD skin = SkinLLSD(1, 1);
    skin.find("inverse_bind_matrix")->array()[0].array().pop_back();
    a = Read(AssetOf({{"skin", Deflate(skin)}, {"high_lod", lod}}));
    EXPECT_FALSE(a.skin);
    skin = SkinLLSD(1, 1);
    skin.set("bind_shape_matrix", LLSD::MakeArray({LLSD::Real(1)}));
    a = Read(AssetOf({{"skin", Deflate(skin)}, {"high_lod", lod}}));
    EXPECT_FALSE(a.skin);

    // Alt count mismatch: overrides ignored, skin kept.
    skin = SkinLLSD(2, 2);
    skin.set("alt_inverse_bind_matrix", *SkinLLSD(1, 1).find("inverse_bind_matrix"));
    skin.set("pelvis_offset", LLSD::Real(0.25));
    skin.set("lock_scale_if_joint_position", LLSD::Boolean(true));
    a = Read(AssetOf({{"skin", Deflate(skin)}, {"high_lod", lod}}));
    ASSERT_TRUE(a.skin);
    EXPECT_FALSE(a.skin->hasAltInverseBind);
    EXPECT_TRUE(a.skin->altInverseBind.empty());
    EXPECT_EQ(a.skin->pelvisOffset, 0.25);
    EXPECT_EQ(a.skin->lockScaleIfJointPosition, true);
    EXPECT_TRUE(HasWarning(a, "alt_inverse_bind_matrix")) << AllWarnings(a);

    // Matching alt count: kept.
    skin = SkinLLSD(2, 2);
    skin.set("alt_inverse_bind_matrix", *skin.find("inverse_bind_matrix"));
    a = Read(AssetOf({{"skin", Deflate(skin)}, {"high_lod", lod}}));
    ASSERT_TRUE(a.skin);
    EXPECT_TRUE(a.skin->hasAltInverseBind);
    EXPECT_EQ(a.skin->altInverseBind.size(), 2u);
}

TEST(SlAssetRead, WeightRecordAccounting) {
    // 3 vertices, 2 records: rest unweighted + warning. Then leftover bytes.
    SLMeshAsset a = ReadFace(WeightedTriangle({0x00, 0xFF, 0xFF, 0xFF, 0xFF}));
    EXPECT_EQ(a.lods[kHighLod]->faces[0].weights.size(), 2u);
    EXPECT_TRUE(HasWarning(a, "2 weight records for 3 vertices")) << AllWarnings(a);
    a = ReadFace(WeightedTriangle({0xFF, 0xFF, 0xFF, 0x01, 0x02}));
    EXPECT_EQ(a.lods[kHighLod]->faces[0].weights.size(), 3u);
    EXPECT_TRUE(HasWarning(a, "2 bytes after the weight records")) << AllWarnings(a);
}

TEST(SlAssetRead, MatricesOfTheRiggedFixture) {
    const SLMeshAsset a = Read(fx::SlRiggedAsset());
    ASSERT_TRUE(a.skin);
    EXPECT_EQ(a.skin->jointNames, (std::vector<std::string>{"mPelvis", "mTorso", "mChest"}));
    ASSERT_EQ(a.skin->inverseBind.size(), 3u);
    EXPECT_EQ(Bits(a.skin->inverseBind[0][14]), 0xBFF1126EA0000000ull); // −1.067 float-widened
    EXPECT_EQ(a.skin->inverseBind[1][14], FloatWidened(-1.151));
    EXPECT_EQ(a.skin->inverseBind[2][14], FloatWidened(-1.356));
    EXPECT_EQ(a.skin->inverseBind[0][0], 1.0);
    EXPECT_EQ(a.skin->inverseBind[0][15], 1.0);
    ASSERT_TRUE(a.skin->bindShape);
    const Matrix16 &bs = *a.skin->bindShape;
    EXPECT_EQ(Bits(bs[0]), 0x3FE0000000000000ull);
    EXPECT_EQ(Bits(bs[12]), 0x3FB99999A0000000ull);
    EXPECT_EQ(Bits(bs[13]), 0x3FC99999A0000000ull);
    EXPECT_EQ(Bits(bs[14]), 0x3FF0000000000000ull);
    EXPECT_EQ(Bits(bs[15]), 0x3FF0000000000000ull);
    EXPECT_EQ(bs[1], 0.0);
    EXPECT_EQ(bs[3], 0.0);

    // §11.5 bytes: 5B 00 00 00 10, 16 x (72 + 8 bytes), 5D.
    const Bytes bytes = WriteBinaryLLSD(*SkinToLLSD(*a.skin).find("bind_shape_matrix"));
    ASSERT_EQ(bytes.size(), 5u + 16 * 9 + 1);
    EXPECT_EQ(Hex(bytes, 0, 5), "5B 00 00 00 10");
    EXPECT_EQ(Hex(bytes, 5, 9), "72 3F E0 00 00 00 00 00 00");
    EXPECT_EQ(Hex(bytes, 5 + 12 * 9, 9), "72 3F B9 99 99 A0 00 00 00");
    EXPECT_EQ(Hex(bytes, 5 + 13 * 9, 9), "72 3F C9 99 99 A0 00 00 00");
    EXPECT_EQ(Hex(bytes, 5 + 14 * 9, 9), "72 3F F0 00 00 00 00 00 00");
    EXPECT_EQ(Hex(bytes, 5 + 15 * 9, 9), "72 3F F0 00 00 00 00 00 00");
    EXPECT_EQ(Hex(bytes, 5 + 1 * 9, 9), "72 00 00 00 00 00 00 00 00");
    EXPECT_EQ(bytes.back(), 0x5D);
}

LLSD ConvexLLSD(std::size_t positionPoints) {
    Bytes tetra = U16Bytes({0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF});
    LLSD half = LLSD::MakeArray({LLSD::Real(0.5), LLSD::Real(0.5), LLSD::Real(0.5)});
    LLSD minusHalf = LLSD::MakeArray({LLSD::Real(-0.5), LLSD::Real(-0.5), LLSD::Real(-0.5)});
    LLSD convex = LLSD::MakeMap({{"BoundingVerts", LLSD::Binary(tetra)}, {"Max", half}, {"Min", minusHalf}});
    convex.set("HullList", LLSD::Binary({0x04, 0x00}));
    convex.set("Positions", LLSD::Binary(Bytes(positionPoints * 6, 0x11)));
    return convex;
}

TEST(SlAssetRead, PhysicsConvexHulls) {
    const Bytes good = fx::SlTriangleBlockStored();
    SLMeshAsset a = Read(AssetOf({{"physics_convex", Deflate(ConvexLLSD(260))}, {"high_lod", good}}));
    ASSERT_TRUE(a.physicsConvex);
    const PhysicsConvex &c = *a.physicsConvex;
    ASSERT_TRUE(c.hasHullList);
    ASSERT_EQ(c.hullList.size(), 2u);
    EXPECT_EQ(PhysicsConvex::HullPointCount(c.hullList[0]), 4u);
    EXPECT_EQ(PhysicsConvex::HullPointCount(c.hullList[1]), 256u);
    EXPECT_EQ(c.positions.size(), 260u * 3); // 1560 bytes
    ASSERT_TRUE(c.hasBoundingVerts);
    EXPECT_EQ(c.boundingVerts, (std::vector<std::uint16_t>{0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF}));
    ASSERT_TRUE(c.domain);
    EXPECT_EQ(c.domain->min, (Real3{-0.5, -0.5, -0.5}));
    EXPECT_TRUE(a.warnings.empty()) << AllWarnings(a);

    // 1554 bytes are one point short: hulls dropped, bounding hull kept.
    a = Read(AssetOf({{"physics_convex", Deflate(ConvexLLSD(259))}, {"high_lod", good}}));
    ASSERT_TRUE(a.physicsConvex);
    EXPECT_FALSE(a.physicsConvex->hasHullList);
    EXPECT_TRUE(a.physicsConvex->positions.empty());
    EXPECT_TRUE(a.physicsConvex->hasBoundingVerts);
    EXPECT_TRUE(HasWarning(a, "hulls dropped")) << AllWarnings(a);

    // No Min/Max: nullopt (±0.5 by default, no warning).
    LLSD bare = ConvexLLSD(260);
    bare.erase("Min");
    bare.erase("Max");
    a = Read(AssetOf({{"physics_convex", Deflate(bare)}, {"high_lod", good}}));
    EXPECT_FALSE(a.physicsConvex->domain);
}

TEST(SlAssetRead, RiggedFixtureContent) {
    const SLMeshAsset a = Read(fx::SlRiggedAsset());
    EXPECT_TRUE(a.warnings.empty()) << AllWarnings(a);
    for (int level = 0; level < 4; ++level) {
        ASSERT_TRUE(a.lods[level]) << level;
        EXPECT_EQ(a.lods[level]->faces.size(), 2u);
    }
    EXPECT_EQ(a.lods[kHighLod]->faces[0].triangleCount(), 8u);
    EXPECT_EQ(a.lods[kHighLod]->faces[1].triangleCount(), 4u);
    EXPECT_EQ(*a.lods[kMediumLod], *a.lods[kHighLod]);
    EXPECT_EQ(a.lods[kLowLod]->faces[0].triangleCount(), 4u);
    EXPECT_EQ(a.lods[kLowLod]->faces[1].triangleCount(), 2u);
    EXPECT_EQ(a.lods[kLowestLod]->faces[0].triangleCount(), 2u);
    EXPECT_TRUE(a.lods[kLowestLod]->faces[1].noGeometry);
    // The lowest LOD lies in x = 0.5: zero range, q 0, Min = Max, decodes to 0.5.
    const Face &flat = a.lods[kLowestLod]->faces[0];
    ASSERT_TRUE(flat.positionDomain);
    EXPECT_EQ(flat.positionDomain->min[0], 0.5);
    EXPECT_EQ(flat.positionDomain->max[0], 0.5);
    EXPECT_EQ(flat.positions[0], 0);
    EXPECT_EQ(DequantizeComponent(flat.positions[0], 0.5, 0.5), 0.5f);
    // Weights with 1, 2 and 4 influences.
    bool seen[5] = {};
    for (const auto &lod : a.lods)
        for (const Face &f : lod->faces) {
            if (f.noGeometry) continue;
            ASSERT_TRUE(f.hasWeights);
            ASSERT_EQ(f.weights.size(), f.vertexCount());
            for (const WeightRecord &r : f.weights) seen[r.count] = true;
        }
    EXPECT_TRUE(seen[1]);
    EXPECT_TRUE(seen[2]);
    EXPECT_TRUE(seen[4]);
    ASSERT_TRUE(a.physicsConvex);
    EXPECT_TRUE(a.physicsConvex->hasBoundingVerts);
    EXPECT_EQ(a.physicsConvex->boundingVerts.size(), 12u);
    EXPECT_FALSE(a.container);
}

// ================================================================ .slm container (§7)

TEST(SlAssetSlm, ContainerElementIsRead) {
    const Bytes slm = fx::SlSlmContainer();
    EXPECT_TRUE(IsSlmContainer(Parse(slm)));
    EXPECT_FALSE(IsSlmContainer(Parse(fx::SlRiggedAsset())));
    const SLMeshAsset a = Read(slm);
    ASSERT_TRUE(a.container);
    EXPECT_EQ(a.container->meshCount, 1u);
    EXPECT_EQ(a.container->meshIndex, 0u);
    EXPECT_EQ(a.container->name, "rigged box");
    EXPECT_EQ(a.container->version, 3);
    ASSERT_TRUE(a.container->instances.isArray());
    EXPECT_EQ(a.container->instances.array().size(), 1u);
    EXPECT_EQ(a.materialList, (std::vector<std::string>{"red", "blue"}));
    ASSERT_TRUE(a.skin);
    SLMeshAsset plain = Read(fx::SlRiggedAsset());
    plain.materialList = a.materialList;
    EXPECT_EQ(a, plain);

    ReadOptions second;
    second.slmMeshIndex = 1;
    EXPECT_THROW(Read(slm, second), FormatError);
    // An element that is not an asset.
    const Bytes bad = WriteBinaryLLSD(LLSD::MakeMap({{"mesh", LLSD::MakeArray({LLSD::Integer(4)})}}));
    EXPECT_THROW(Read(bad), FormatError);
    const Bytes garbage = WriteBinaryLLSD(LLSD::MakeMap({{"mesh", LLSD::MakeArray({LLSD::String("xyz")})}}));
    EXPECT_THROW(Read(garbage), FormatError);
}

// ================================================================ writing (§13 steps 10-11)

TEST(SlAssetWrite, TriangleModelReproducesLevel9Asset) {
    const SLMeshAsset a = Read(fx::SlTriangleAssetStored());
    EXPECT_EQ(WriteBinaryLLSD(LodToLLSD(*a.lods[kHighLod])), fx::SlTriangleLodLlsd());
    const Bytes written = WriteAsset(a);
    EXPECT_EQ(written.size(), 225u);
    EXPECT_EQ(written, fx::SlTriangleAssetLevel9());
    EXPECT_EQ(Read(written), a);
    // A stored (level 0) write reads back the same.
    WriteOptions stored;
    stored.zlibLevel = 0;
    const Bytes level0 = WriteAsset(a, stored);
    EXPECT_EQ(Hex(level0, 55, 2), "78 01");
    EXPECT_EQ(Read(level0), a);
}

TEST(SlAssetWrite, LayoutOrderOffsetsAndSortedKeys) {
    const Bytes asset = fx::SlRiggedAsset();
    ASSERT_EQ(asset[0], 0x7B); // no prefix
    const Layout l = HeaderOf(asset);
    EXPECT_LT(l.end, 4096u);
    // Keys sorted: re-serialising sorted gives the same bytes.
    EXPECT_EQ(WriteBinaryLLSD(l.header, true),
              Bytes(asset.begin(), asset.begin() + static_cast<std::ptrdiff_t>(l.end)));
    std::int64_t expected = 0;
    for (const char *key : kAllBlockKeys) {
        const LLSD *entry = l.header.find(key);
        if (std::string(key) == "physics_mesh") {
            EXPECT_FALSE(entry);
            continue;
        }
        ASSERT_TRUE(entry) << key;
        EXPECT_EQ(entry->find("offset")->type(), LLSDType::Integer);
        EXPECT_EQ(entry->find("offset")->asInteger(), expected) << key;
        expected += entry->find("size")->asInteger();
        EXPECT_EQ(Hex(BlockBytes(asset, key), 0, 2), "78 DA") << key;
    }
    EXPECT_EQ(asset.size(), l.end + static_cast<std::size_t>(expected)); // nothing after the last block
    EXPECT_FALSE(l.header.find("version"));
    EXPECT_FALSE(l.header.find("material_list"));

    // Inside a block: sorted keys (Max before Min, Normal before Position), reals 'r'.
    const Bytes high = Inflate(BlockBytes(asset, "high_lod"));
    EXPECT_EQ(WriteBinaryLLSD(Parse(high), true), high);
    const std::string text(high.begin(), high.end());
    EXPECT_LT(text.find("Max"), text.find("Min"));
    EXPECT_LT(text.find("Normal"), text.find("Position"));
}

TEST(SlAssetWrite, RoundTripsAreStable) {
    for (const Bytes &original : {fx::SlRiggedAsset(), fx::SlSlmContainer(), fx::SlTriangleAssetStored()}) {
        const SLMeshAsset first = Read(original);
        const Bytes written = WriteAsset(first);
        const SLMeshAsset second = Read(written);
        EXPECT_EQ(first, second);
        EXPECT_EQ(WriteAsset(second), written);
        // The inflated LLSD of every block is identical to the original's (the .slm element compared).
        Bytes source = original;
        if (first.container) {
            const std::string element = Parse(original).find("mesh")->array()[0].string();
            source.assign(element.begin(), element.end());
        }
        for (const char *key : kAllBlockKeys) {
            const Bytes a = BlockBytes(source, key);
            const Bytes b = BlockBytes(written, key);
            EXPECT_EQ(a.empty(), b.empty()) << key;
            if (!a.empty()) {
                EXPECT_EQ(Inflate(a), Inflate(b)) << key;
            }
        }
    }
    EXPECT_EQ(WriteAsset(Read(fx::SlRiggedAsset())), fx::SlRiggedAsset());
}

TEST(SlAssetWrite, HeaderFieldsWritten) {
    SLMeshAsset a = Read(fx::SlTriangleAssetStored());
    a.version = 1;
    a.submodelId = 1;
    a.materialList = std::vector<std::string>{"x"};
    a.creator = UUIDBytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    a.date = 1234.5;
    a.headerExtra.emplace_back("physics_cost_data", LLSD::MakeMap({{"hull", LLSD::Real(1)}}));
    const SLMeshAsset b = Read(WriteAsset(a));
    EXPECT_EQ(a, b);
    EXPECT_EQ(b.version, 1);
    EXPECT_EQ(b.date, 1234.5);
}

TEST(SlAssetWrite, Errors) {
    SLMeshAsset empty;
    EXPECT_THROW(WriteAsset(empty), FormatError);
    SLMeshAsset big = Read(fx::SlTriangleAssetStored());
    big.materialList = std::vector<std::string>(40, std::string(100, 'm'));
    try {
        WriteAsset(big);
        FAIL() << "4 KiB header written";
    } catch (const FormatError &e) {
        EXPECT_NE(std::string(e.what()).find("4096"), std::string::npos) << e.what();
    }
    big.materialList = std::vector<std::string>(30, std::string(100, 'm'));
    EXPECT_NO_THROW(WriteAsset(big));
    // Reading a header the viewer would not fetch whole works, with a warning.
    const Bytes block = fx::SlTriangleBlockStored();
    LLSD::Array names(50, LLSD::String(std::string(100, 'n')));
    const SLMeshAsset longHeader =
        Read(AssetOf({{"high_lod", block}}, {{"material_list", LLSD::MakeArray(std::move(names))}}));
    EXPECT_TRUE(longHeader.lods[kHighLod]);
    EXPECT_TRUE(HasWarning(longHeader, "4096")) << AllWarnings(longHeader);
    SLMeshAsset badWeights = Read(fx::SlRiggedAsset());
    badWeights.lods[kHighLod]->faces[0].weights[0].count = 7;
    EXPECT_THROW(WriteAsset(badWeights), FormatError);
    EXPECT_THROW(WriteAsset(Read(fx::SlTriangleAssetStored()), WriteOptions{12}), FormatError);
}

TEST(SlAssetWrite, InconsistentFacesRejected) {
    const SLMeshAsset good = Read(fx::SlRiggedAsset());
    const auto expectError = [&](void (*breakIt)(Face &), const char *needle) {
        SLMeshAsset a = good;
        breakIt(a.lods[kHighLod]->faces[1]);
        try {
            WriteAsset(a);
            ADD_FAILURE() << needle << ": written";
        } catch (const FormatError &e) {
            EXPECT_NE(std::string(e.what()).find("high_lod face 1"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    expectError([](Face &f) { f.positions.pop_back(); }, "whole vertices");
    expectError([](Face &f) { f.normals.pop_back(); }, "normals");
    expectError([](Face &f) { f.texCoords.push_back(0); }, "texture coordinates");
    expectError([](Face &f) { f.indices.pop_back(); }, "whole triangles");
    expectError([](Face &f) { f.indices[0] = 999; }, "index 999");
    expectError([](Face &f) { f.weights.push_back(WeightRecord{}); }, "weight records");
    expectError([](Face &f) { f.weights[0].count = 5; }, "influences");
}

TEST(SlAssetWrite, ModelBuiltInCodeEqualsItsReadBack) {
    // What a builder makes (no block entries, undefined NoGeometry value) compares equal after write + read.
    SLMeshAsset a = Read(fx::SlRiggedAsset());
    a.blockEntries.clear();
    a.lods[kLowestLod]->faces[1].noGeometryValue = LLSD();
    const SLMeshAsset b = Read(WriteAsset(a));
    EXPECT_EQ(a, b);
    EXPECT_EQ(WriteAsset(a), fx::SlRiggedAsset());
    // NoGeometry false is a different face.
    SLMeshAsset c = a;
    c.lods[kLowestLod]->faces[1].noGeometryValue = LLSD::Boolean(false);
    EXPECT_FALSE(c == a);
}

TEST(SlAssetWrite, ConvexAndSkinLLSD) {
    PhysicsConvex convex;
    convex.domain = Domain3{};
    convex.hasBoundingVerts = true;
    convex.boundingVerts = {0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF};
    const Bytes bytes = WriteBinaryLLSD(PhysicsConvexToLLSD(convex));
    const LLSD back = Parse(bytes);
    EXPECT_EQ(back.find("BoundingVerts")->binary(), U16Bytes({0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF}));
    EXPECT_FALSE(back.find("HullList"));
    EXPECT_FALSE(back.find("Positions"));
    EXPECT_EQ(back.find("Max")->array()[0].real(), 0.5);
    Skin skin;
    const LLSD s = SkinToLLSD(skin);
    EXPECT_TRUE(s.find("joint_names"));
    EXPECT_TRUE(s.find("inverse_bind_matrix"));
    EXPECT_FALSE(s.find("bind_shape_matrix"));
    EXPECT_FALSE(s.find("alt_inverse_bind_matrix"));
    EXPECT_FALSE(s.find("pelvis_offset"));
}

// ================================================================ hostile input

void ReadOrFormatError(const Bytes &b, const std::string &what) {
    try {
        (void)Read(b);
    } catch (const FormatError &) {
    } catch (const std::exception &e) {
        ADD_FAILURE() << what << ": " << e.what();
    }
}

TEST(SlAssetRobustness, EveryTruncation) {
    for (const Bytes &full : {fx::SlRiggedAsset(), fx::SlSlmContainer()}) {
        for (std::size_t n = 0; n < full.size(); ++n)
            ReadOrFormatError(Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n)),
                              "truncation at " + std::to_string(n));
    }
}

TEST(SlAssetRobustness, SeededByteFlips) {
    const Bytes original = fx::SlRiggedAsset();
    std::mt19937 rng(20261122);
    std::size_t parsed = 0;
    for (int round = 0; round < 400; ++round) {
        Bytes b = original;
        const int flips = 1 + static_cast<int>(rng() % 4);
        for (int i = 0; i < flips; ++i) {
            // Half the flips hit the header, where the framing is.
            const std::size_t limit = (i % 2 == 0) ? std::min<std::size_t>(b.size(), 400) : b.size();
            b[rng() % limit] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        }
        try {
            const SLMeshAsset a = Read(b);
            ++parsed;
            (void)WriteAsset(a); // whatever was read can be written (or refused cleanly)
        } catch (const FormatError &) {
        } catch (const std::exception &e) {
            ADD_FAILURE() << "round " << round << ": " << e.what();
        }
    }
    EXPECT_GT(parsed, 0u);
}

TEST(SlAssetRobustness, HostileCountsAndDepth) {
    // A header claiming a huge map: a FormatError, no allocation.
    const Bytes huge = {0x7B, 0x7F, 0xFF, 0xFF, 0xFF, 0x6B, 0, 0, 0, 1, 'a', 0x7D};
    EXPECT_THROW(Read(huge), FormatError);
    // A block nested deeper than the limit inside a LOD.
    Bytes deep;
    for (int i = 0; i < 200; ++i) deep.insert(deep.end(), {0x5B, 0, 0, 0, 1});
    deep.push_back(0x21);
    for (int i = 0; i < 200; ++i) deep.push_back(0x5D);
    const SLMeshAsset a = Read(AssetOf({{"high_lod", Deflate(deep)}, {"low_lod", fx::SlTriangleBlockStored()}}));
    EXPECT_FALSE(a.lods[kHighLod]);
    EXPECT_TRUE(a.lods[kLowLod]);
    // At most 8 faces are read, whatever the block claims.
    std::vector<LLSD> faces(300, TriangleFace());
    const SLMeshAsset many = Read(AssetOf({{"high_lod", LodBlock(faces)}}));
    EXPECT_EQ(many.lods[kHighLod]->faces.size(), 8u);
    EXPECT_TRUE(HasWarning(many, "300 faces; only the first 8 read")) << AllWarnings(many);
    // Warnings are capped.
    LLSD face = TriangleFace();
    face.set("Normal", LLSD::Integer(1));
    face.erase("PositionDomain");
    face.set("TriangleList", LLSD::Binary(U16Bytes({0, 1, 9, 0, 1})));
    const Bytes noisyBlock = LodBlock(std::vector<LLSD>(8, face));
    std::vector<RawBlock> blocks;
    for (const char *key : {"high_lod", "medium_lod", "low_lod", "lowest_lod", "physics_mesh"})
        blocks.push_back({key, noisyBlock});
    const SLMeshAsset noisy = Read(AssetOf(blocks));
    EXPECT_EQ(noisy.warnings.size(), 101u);
    EXPECT_EQ(noisy.warnings.back(), "further warnings suppressed");
}

} // namespace
