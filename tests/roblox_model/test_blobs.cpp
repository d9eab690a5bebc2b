// Attribute, tag and MaterialColors blobs (docs/formats/roblox-model.md §2.6): the blobs are taken from rbx-dom's
// chunk dumps (<case>__input.snap) and the decoded values checked against the cases' README.md and
// rbx-dom's __decoded.snap; encoding must give the blob back byte for byte.
#include "common/text_number.hpp"
#include "importers/roblox_model/document/blobs.hpp"
#include "support/import_helpers.hpp"
#include "support/snap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

namespace gamefmt::rbx {
namespace {

using test::SnapNode;

std::filesystem::path ExpectedDir() {
    return *test::CorpusDir() / "rbx" / "rbx-dom-expected";
}

// The String value of the first instance's `prop` PROP chunk in `<case>__input.snap`, with rbx-dom's
// hex dump of non-UTF-8 strings undone.
std::string InputBlob(const std::string &caseName, const std::string &prop) {
    const test::Snap snap = test::LoadSnap(ExpectedDir() / (caseName + "__input.snap"));
    for (const SnapNode &chunk : snap.root.at("chunks").items) {
        const SnapNode *p = chunk.find("Prop");
        if (!p || p->at("prop_name").str() != prop) continue;
        const SnapNode &v = p->at("values").at(0);
        std::string bytes;
        if (!v.quoted && test::ParseHexDump(v.str(), bytes)) return bytes;
        return v.str();
    }
    ADD_FAILURE() << caseName << ": no " << prop << " chunk";
    return {};
}

std::map<std::string, Attribute> ByName(const std::vector<Attribute> &list) {
    std::map<std::string, Attribute> m;
    for (const Attribute &a : list) m[a.name] = a;
    return m;
}

void ExpectRoundTrip(const std::string &blob) {
    const auto decoded = DecodeAttributes(blob);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(EncodeAttributes(*decoded), blob);
}

bool SameBits(float a, float b) {
    return std::memcmp(&a, &b, 4) == 0;
}

TEST(RbxBlobs, AttributesEveryTypeOfTheAttributesCase) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("attributes", "AttributesSerialize");
    const auto decoded = DecodeAttributes(blob);
    ASSERT_TRUE(decoded.has_value());
    ASSERT_EQ(decoded->size(), 15u);
    auto a = ByName(*decoded);
    // Values: models/attributes/README.md and attributes__decoded.snap.
    EXPECT_EQ(a["Boolean"].type, 0x03);
    EXPECT_EQ(a["Boolean"].value.as<bool>(), true);
    EXPECT_EQ(a["BrickColor"].type, 0x0E);
    EXPECT_EQ(a["BrickColor"].value.as<BrickColor>().number, 1004u); // Really red
    const Color3 c = a["Color3"].value.as<Color3>();                 // rgb(162, 0, 255)
    EXPECT_FLOAT_EQ(c.r, 162.0f / 255.0f);
    EXPECT_EQ(c.g, 0.0f);
    EXPECT_EQ(c.b, 1.0f);
    const auto &cs = a["ColorSequence"].value.as<ColorSequence>().keypoints;
    ASSERT_EQ(cs.size(), 3u);
    EXPECT_EQ(cs[0].time, 0.0f);
    EXPECT_EQ(cs[0].color.r, 1.0f);
    EXPECT_EQ(cs[1].time, 0.5f);
    EXPECT_EQ(cs[1].color.g, 1.0f);
    EXPECT_EQ(cs[2].time, 1.0f);
    EXPECT_EQ(cs[2].color.b, 1.0f);
    EXPECT_EQ(a["Infinity"].type, 0x06);
    EXPECT_TRUE(std::isinf(a["Infinity"].value.as<double>()) && a["Infinity"].value.as<double>() > 0);
    EXPECT_TRUE(std::isnan(a["NaN"].value.as<double>()));
    EXPECT_EQ(a["Number"].type, 0x06); // Studio stores numbers as f64
    EXPECT_EQ(a["Number"].value.as<double>(), 12345.0);
    EXPECT_EQ(a["NumberRange"].value.as<NumberRange>().min, 5.0f);
    EXPECT_EQ(a["NumberRange"].value.as<NumberRange>().max, 10.0f);
    const auto &ns = a["NumberSequence"].value.as<NumberSequence>().keypoints;
    ASSERT_EQ(ns.size(), 3u);
    EXPECT_EQ(ns[0].time, 0.0f);
    EXPECT_EQ(ns[0].value, 1.0f);
    EXPECT_EQ(ns[1].time, 0.5f);
    EXPECT_EQ(ns[1].value, 0.0f);
    EXPECT_EQ(ns[2].time, 1.0f);
    EXPECT_EQ(ns[2].value, 1.0f);
    EXPECT_EQ(ns[2].envelope, 0.0f);
    const Rect r = a["Rect"].value.as<Rect>();
    EXPECT_EQ(r.min.x, 1.0f);
    EXPECT_EQ(r.min.y, 2.0f);
    EXPECT_EQ(r.max.x, 3.0f);
    EXPECT_EQ(r.max.y, 4.0f);
    EXPECT_EQ(a["String"].type, 0x02);
    EXPECT_EQ(a["String"].value.as<std::string>(), "Hello, world!");
    EXPECT_EQ(a["UDim"].value.as<UDim>().scale, 0.5f);
    EXPECT_EQ(a["UDim"].value.as<UDim>().offset, 100);
    const UDim2 u2 = a["UDim2"].value.as<UDim2>();
    EXPECT_EQ(u2.x.scale, 0.5f);
    EXPECT_EQ(u2.x.offset, 10);
    EXPECT_TRUE(SameBits(u2.y.scale, 0.7f));
    EXPECT_EQ(u2.y.offset, 30);
    EXPECT_EQ(a["Vector2"].value.as<Vector2>().x, 10.0f);
    EXPECT_EQ(a["Vector2"].value.as<Vector2>().y, 50.0f);
    EXPECT_EQ(a["Vector3"].value.as<Vector3>().z, 3.0f);
    // File order is kept: the blob starts with NaN (input.snap).
    EXPECT_EQ((*decoded)[0].name, "NaN");
    EXPECT_EQ(EncodeAttributes(*decoded), blob);
}

TEST(RbxBlobs, CFrameAttributesAllRotationIds) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("folder-with-cframe-attributes", "AttributesSerialize");
    const auto decoded = DecodeAttributes(blob);
    ASSERT_TRUE(decoded.has_value());
    // The 24 special rotations plus one general rotation (README.md); input.snap's count is 0x19.
    ASSERT_EQ(decoded->size(), 25u);
    // Every attribute "RotationNN" must decode to the orientation rows rbx-dom prints in
    // folder-with-cframe-attributes__decoded.snap.
    const test::Snap expected = test::LoadSnap(ExpectedDir() / "folder-with-cframe-attributes__decoded.snap");
    const SnapNode &attrs = expected.root.at(std::size_t(0)).at("properties").at("Attributes").at("Attributes");
    ASSERT_EQ(attrs.entries.size(), 25u);
    auto byName = ByName(*decoded);
    for (const auto &entry : attrs.entries) {
        SCOPED_TRACE(entry.first);
        ASSERT_EQ(byName.count(entry.first), 1u);
        const Attribute &a = byName[entry.first];
        EXPECT_EQ(a.type, 0x14);
        const CFrame cf = a.value.as<CFrame>();
        const SnapNode &snapCf = entry.second.at("CFrame");
        for (std::size_t i = 0; i < 3; ++i) {
            float p = 0;
            ASSERT_TRUE(ParseFloat(snapCf.at("position").at(i).str(), p));
            EXPECT_TRUE(SameBits((&cf.position.x)[i], p));
            for (std::size_t j = 0; j < 3; ++j) {
                float m = 0;
                ASSERT_TRUE(ParseFloat(snapCf.at("orientation").at(i).at(j).str(), m));
                EXPECT_EQ(cf.rotation[i * 3 + j], m) << "row " << i << " column " << j;
            }
        }
        if (entry.first.rfind("Rotation", 0) == 0 && entry.first.size() == 10) {
            // "Rotation0e" names its id in hex.
            EXPECT_EQ(a.cframeRotationId, std::stoi(entry.first.substr(8), nullptr, 16));
        }
    }
    EXPECT_EQ(EncodeAttributes(*decoded), blob);
}

TEST(RbxBlobs, EnumAttribute) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("folder-with-enum-attribute", "AttributesSerialize");
    const auto decoded = DecodeAttributes(blob);
    ASSERT_TRUE(decoded.has_value());
    ASSERT_EQ(decoded->size(), 1u);
    const Attribute &a = (*decoded)[0];
    EXPECT_EQ(a.name, "AnEnumValue"); // README: Enum.Material.Wood
    EXPECT_EQ(a.type, 0x15);
    EXPECT_EQ(a.enumItem.enumName, "Material");
    EXPECT_EQ(a.enumItem.value, 512u); // Material.Wood (§4)
    EXPECT_EQ(EncodeAttributes(*decoded), blob);
}

TEST(RbxBlobs, FontAttribute) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("folder-with-font-attribute", "AttributesSerialize");
    const auto decoded = DecodeAttributes(blob);
    ASSERT_TRUE(decoded.has_value());
    ASSERT_EQ(decoded->size(), 1u);
    const Attribute &a = (*decoded)[0];
    EXPECT_EQ(a.name, "AFontAttribute");
    EXPECT_EQ(a.type, 0x21);
    const Font &f = a.value.as<Font>(); // README: the "Creepster" font
    EXPECT_EQ(f.family, "rbxasset://fonts/families/Creepster.json");
    EXPECT_EQ(f.weight, 400);
    EXPECT_EQ(f.style, 0);
    EXPECT_EQ(f.cachedFaceId, "");
    EXPECT_EQ(EncodeAttributes(*decoded), blob);
}

TEST(RbxBlobs, Int32Attribute) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("lighting-with-int32-attribute", "AttributesSerialize");
    const auto decoded = DecodeAttributes(blob);
    ASSERT_TRUE(decoded.has_value());
    ASSERT_EQ(decoded->size(), 1u);
    EXPECT_EQ((*decoded)[0].name, "RBX_OriginalTechnologyOnFileLoad");
    EXPECT_EQ((*decoded)[0].type, 0x04);
    EXPECT_EQ((*decoded)[0].value.type, Type::Int32);
    EXPECT_EQ((*decoded)[0].value.as<std::int32_t>(), 3); // decoded.snap: Int32: 3
    EXPECT_EQ(EncodeAttributes(*decoded), blob);
}

TEST(RbxBlobs, Tags) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("tags", "Tags");
    EXPECT_EQ(blob, std::string("Cool\0My\0Tags", 12));
    const std::vector<std::string> tags = DecodeTags(blob);
    EXPECT_EQ(tags, (std::vector<std::string>{"Cool", "My", "Tags"}));
    EXPECT_EQ(EncodeTags(tags), blob);
    EXPECT_TRUE(DecodeTags("").empty());
    EXPECT_EQ(EncodeTags({}), "");
    EXPECT_EQ(DecodeTags(std::string("a\0\0b", 4)), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_EQ(EncodeTags({"a", "", "b"}), std::string("a\0\0b", 4));
}

TEST(RbxBlobs, MaterialColorsAgainstDecodedSnap) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    const std::string blob = InputBlob("baseplate-566", "MaterialColors");
    ASSERT_EQ(blob.size(), 69u);
    const auto decoded = DecodeMaterialColors(blob);
    ASSERT_TRUE(decoded.has_value());
    ASSERT_EQ(decoded->size(), 21u);
    // rbx-dom prints the 21 materials with their colours; find them in the tree.
    const test::Snap expected = test::LoadSnap(ExpectedDir() / "baseplate-566__decoded.snap");
    const SnapNode *colors = nullptr;
    std::vector<const SnapNode *> stack;
    for (const SnapNode &n : expected.root.items) stack.push_back(&n);
    while (!stack.empty() && !colors) {
        const SnapNode *n = stack.back();
        stack.pop_back();
        if (const SnapNode *props = n->find("properties"))
            if (const SnapNode *mc = props->find("MaterialColors")) colors = &mc->at("MaterialColors");
        if (const SnapNode *kids = n->find("children"))
            for (const SnapNode &k : kids->items) stack.push_back(&k);
    }
    ASSERT_NE(colors, nullptr);
    ASSERT_EQ(colors->entries.size(), 21u);
    for (std::size_t i = 0; i < 21; ++i) {
        const auto &e = colors->entries[i];
        EXPECT_EQ((*decoded)[i].material, e.first);
        EXPECT_EQ((*decoded)[i].color.r, std::stoi(e.second.at(std::size_t(0)).str())) << e.first;
        EXPECT_EQ((*decoded)[i].color.g, std::stoi(e.second.at(std::size_t(1)).str())) << e.first;
        EXPECT_EQ((*decoded)[i].color.b, std::stoi(e.second.at(std::size_t(2)).str())) << e.first;
    }
    EXPECT_EQ((*decoded)[0].material, "Grass");
    EXPECT_EQ((*decoded)[0].color.r, 111);
    EXPECT_EQ(EncodeMaterialColors(*decoded), blob);
    EXPECT_FALSE(DecodeMaterialColors(blob.substr(0, 68)).has_value());
    EXPECT_FALSE(DecodeMaterialColors("").has_value());
}

TEST(RbxBlobs, AttributesRejectBadBlobs) {
    EXPECT_TRUE(DecodeAttributes("").has_value());
    EXPECT_TRUE(DecodeAttributes("")->empty());
    EXPECT_EQ(EncodeAttributes({}), "");
    const std::string one = std::string("\x01\x00\x00\x00\x01\x00\x00\x00"
                                        "A\x03\x01",
                                        11); // A = true
    ASSERT_TRUE(DecodeAttributes(one).has_value());
    EXPECT_EQ((*DecodeAttributes(one))[0].value.as<bool>(), true);
    ExpectRoundTrip(one);
    EXPECT_FALSE(DecodeAttributes(one.substr(0, 10)).has_value()); // truncated value
    EXPECT_FALSE(DecodeAttributes(one + "x").has_value());         // trailing bytes
    std::string unknownType = one;
    unknownType[9] = '\x7F';
    EXPECT_FALSE(DecodeAttributes(unknownType).has_value());                        // a newer id stays raw
    EXPECT_FALSE(DecodeAttributes(std::string("\xFF\xFF\xFF\xFF", 4)).has_value()); // huge count
    std::string hugeSeq = std::string("\x01\x00\x00\x00\x01\x00\x00\x00"
                                      "S\x17\xFF\xFF\xFF\x0F",
                                      14);
    EXPECT_FALSE(DecodeAttributes(hugeSeq).has_value());
    std::string badRotation = std::string("\x01\x00\x00\x00\x01\x00\x00\x00"
                                          "C\x14",
                                          10) +
                              std::string(12, '\0') + "\x04";
    EXPECT_FALSE(DecodeAttributes(badRotation).has_value()); // id 04: +X, -X columns
}

TEST(RbxBlobs, AttributesEncodeDecodeEveryType) {
    std::vector<Attribute> list;
    auto add = [&](const char *name, std::uint8_t type, Type vt, ValueData data) {
        Attribute a;
        a.name = name;
        a.type = type;
        a.value.type = vt;
        a.value.data = std::move(data);
        list.push_back(std::move(a));
    };
    add("s", 0x02, Type::String, std::string("x\0y", 3));
    add("b", 0x03, Type::Bool, false);
    add("i", 0x04, Type::Int32, std::int32_t(-7));
    add("f", 0x05, Type::Float32, -0.0f);
    add("d", 0x06, Type::Float64, 1e300);
    add("u", 0x09, Type::UDim, UDim{0.25f, -3});
    add("u2", 0x0A, Type::UDim2, UDim2{{1, 2}, {3, 4}});
    add("bc", 0x0E, Type::BrickColor, BrickColor{194});
    add("c3", 0x0F, Type::Color3, Color3{0.1f, 0.2f, 0.3f});
    add("v2", 0x10, Type::Vector2, Vector2{1, -1});
    add("v3", 0x11, Type::Vector3, Vector3{1, 2, 3});
    CFrame general;
    general.position = {1, 2, 3};
    general.rotation = {0.5f, 0, 0, 0, 1, 0, 0, 0, 1};
    add("cf", 0x14, Type::CFrame, general);
    add("cfIdentity", 0x14, Type::CFrame, CFrame{}); // no id remembered: written as nine floats
    Attribute e;
    e.name = "e";
    e.type = 0x15;
    e.enumItem = {"Material", 256};
    e.value.type = Type::Enum;
    e.value.data = EnumValue{256};
    list.push_back(e);
    add("ns", 0x17, Type::NumberSequence, NumberSequence{{{0, 1, 0.5f}, {1, 2, 0}}});
    add("cs", 0x19, Type::ColorSequence, ColorSequence{{{0, {1, 0, 0}, 0}, {1, {0, 0, 1}, 0}}});
    add("nr", 0x1B, Type::NumberRange, NumberRange{1, 2});
    add("r", 0x1C, Type::Rect, Rect{{1, 2}, {3, 4}});
    add("font", 0x21, Type::Font, Font{"rbxasset://fonts/families/Arial.json", 700, 1, "face"});
    const std::string blob = EncodeAttributes(list);
    const auto back = DecodeAttributes(blob);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(back->size(), list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        EXPECT_EQ((*back)[i].name, list[i].name);
        EXPECT_EQ((*back)[i].type, list[i].type);
        EXPECT_EQ((*back)[i].value.type, list[i].value.type) << list[i].name;
    }
    EXPECT_EQ((*back)[0].value.as<std::string>(), std::string("x\0y", 3));
    EXPECT_TRUE(std::signbit((*back)[3].value.as<float>()));
    EXPECT_EQ((*back)[11].value.as<CFrame>().rotation[0], 0.5f);
    EXPECT_EQ((*back)[13].enumItem.enumName, "Material");
    EXPECT_EQ((*back)[14].value.as<NumberSequence>().keypoints[0].envelope, 0.5f);
    EXPECT_EQ((*back)[18].value.as<Font>().weight, 700);
    EXPECT_EQ((*back)[18].value.as<Font>().cachedFaceId, "face");
    EXPECT_EQ(EncodeAttributes(*back), blob);

    // An id read from a blob is repeated only while it still describes the matrix.
    std::vector<Attribute> withId = {list[12]};
    withId[0].cframeRotationId = 0x02;
    const std::string idBlob = EncodeAttributes(withId);
    EXPECT_EQ(idBlob.size(), 4u + 4 + 10 + 1 + 12 + 1);
    withId[0].value.as<CFrame>().rotation[0] = -1;
    EXPECT_EQ(EncodeAttributes(withId).size(), idBlob.size() + 36);
}

} // namespace
} // namespace gamefmt::rbx
