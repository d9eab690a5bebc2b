// Tests of the Roblox XML reader and writer (docs/formats/roblox-model.md §3, §8 item 15): corpus files against their
// READMEs, synthetic XML for every legacy form, round trips and hostile input.
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"

#include "common/base64.hpp"
#include "common/error.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/xml_reader.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "support/rbx_compare.hpp"
#include "support/rbx_values.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace gamefmt::rbx {
namespace {

namespace fs = std::filesystem;
using namespace gamefmt::test;

Document Read(const std::string &xml) {
    return ReadXml(reinterpret_cast<const std::uint8_t *>(xml.data()), xml.size());
}
Document ReadFile(const fs::path &p) {
    const std::vector<std::uint8_t> bytes = gamefmt::test::ReadBytes(p);
    return ReadXml(bytes.data(), bytes.size());
}

// A document with one Item holding `props` (and `extra` after the Item, e.g. <SharedStrings>).
std::string Wrap(const std::string &props, const std::string &extra = "", const std::string &cls = "Folder") {
    return "<roblox version=\"4\"><Item class=\"" + cls + "\" referent=\"RBX0\"><Properties>" + props +
           "</Properties></Item>" + extra + "</roblox>";
}

const Value &Prop(const Document &d, std::uint32_t inst, const char *name) {
    const Property *p = d.findProperty(d.instances.at(inst), name);
    if (!p) throw std::runtime_error(std::string("no property ") + name);
    return p->value;
}

std::uint32_t FindByName(const Document &d, const std::string &name) {
    for (std::uint32_t i = 0; i < d.instances.size(); ++i)
        if (d.instances[i].name == name) return i;
    throw std::runtime_error("no instance " + name);
}

std::uint32_t Bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

std::vector<fs::path> CorpusXmlFiles(const fs::path &root) {
    std::vector<fs::path> out;
    for (const char *sub : {"models", "places", "edge-cases"}) {
        if (!fs::exists(root / sub)) continue;
        for (const auto &e : fs::directory_iterator(root / sub)) {
            for (const char *f : {"xml.rbxmx", "xml.rbxlx"})
                if (fs::exists(e.path() / f)) out.push_back(e.path() / f);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// ---------------------------------------------------------------------------------------------------
// Corpus

TEST(RbxXml, EveryCorpusFileDecodes) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const auto files = CorpusXmlFiles(*corpus_root / "rbx/rbx-test-files");
    ASSERT_GE(files.size(), 50u);
    for (const fs::path &p : files) {
        SCOPED_TRACE(p.string());
        Document d;
        ASSERT_NO_THROW(d = ReadFile(p));
        EXPECT_FALSE(d.instances.empty());
        EXPECT_FALSE(d.roots.empty());
        EXPECT_TRUE(d.sourceEncoding ==
                    Encoding::Xml); // not EXPECT_EQ: detect.hpp has another rbx::Encoding (ODR clash)
        for (const Instance &i : d.instances) EXPECT_FALSE(i.referent.empty());
    }
}

TEST(RbxXml, CorpusRoundTripXmlDomXml) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    CompareOptions strict;
    strict.ignoreXmlTags = false;
    strict.ignoreReferentStrings = false;
    for (const fs::path &p : CorpusXmlFiles(*corpus_root / "rbx/rbx-test-files")) {
        SCOPED_TRACE(p.string());
        const Document a = ReadFile(p);
        const std::string text = WriteXml(a);
        const Document b = Read(text);
        EXPECT_EQ(CompareDocuments(a, b, strict), "");
        EXPECT_EQ(a.meta, b.meta);
        EXPECT_EQ(a.xmlUnknownTopLevel, b.xmlUnknownTopLevel);
        ASSERT_EQ(a.sharedStrings.size(), b.sharedStrings.size());
        for (std::size_t i = 0; i < a.sharedStrings.size(); ++i) {
            EXPECT_EQ(a.sharedStrings[i].xmlKey, b.sharedStrings[i].xmlKey);
            EXPECT_EQ(a.sharedStrings[i].content, b.sharedStrings[i].content);
        }
        // The writer is a fixed point: writing the re-read document gives the same text.
        EXPECT_EQ(WriteXml(b), text);
    }
}

TEST(RbxXml, ThreeColor3Values) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/models/three-color3values/xml.rbxmx");
    ASSERT_EQ(d.instances.size(), 3u);
    // README: Color3.fromRGB(0, 80, 127), (255, 180, 20), (512, 260, 10).
    const float expected[3][3] = {{0, 80, 127}, {255, 180, 20}, {512, 260, 10}};
    for (std::uint32_t i = 0; i < 3; ++i) {
        const Value &v = Prop(d, i, "Value");
        ASSERT_EQ(v.type, Type::Color3);
        const Color3 &c = v.as<Color3>();
        EXPECT_NEAR(c.r, expected[i][0] / 255.0f, 2.5e-7);
        EXPECT_NEAR(c.g, expected[i][1] / 255.0f, 2.5e-7);
        EXPECT_NEAR(c.b, expected[i][2] / 255.0f, 2.5e-7);
    }
    EXPECT_EQ(Prop(d, 0, "Value").as<Color3>().g, 80.0f / 255.0f);
}

TEST(RbxXml, TwoCFrameValues) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/models/two-cframevalues/xml.rbxmx");
    ASSERT_EQ(d.instances.size(), 2u);
    std::vector<std::array<float, 12>> seen;
    for (std::uint32_t i = 0; i < 2; ++i) {
        const CFrame &cf = Prop(d, i, "Value").as<CFrame>();
        std::array<float, 12> a{cf.position.x, cf.position.y, cf.position.z};
        for (int k = 0; k < 9; ++k) a[std::size_t(3 + k)] = cf.rotation[std::size_t(k)];
        seen.push_back(a);
    }
    if (seen[0][0] != 1.0f) std::swap(seen[0], seen[1]);
    // README: 1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6 (position then rotation rows).
    const float first[12] = {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6};
    for (int k = 0; k < 12; ++k) EXPECT_EQ(seen[0][std::size_t(k)], first[k]) << k;
    // README: 0.15625, -0.15625, 0.1, -0.1, 0, 0, 1337, -1337, inf, -inf, nan, nan.
    const auto &s = seen[1];
    EXPECT_EQ(s[0], 0.15625f);
    EXPECT_EQ(s[1], -0.15625f);
    EXPECT_EQ(s[2], 0.1f);
    EXPECT_EQ(s[3], -0.1f);
    EXPECT_EQ(s[4], 0.0f);
    EXPECT_EQ(s[5], 0.0f);
    EXPECT_EQ(s[6], 1337.0f);
    EXPECT_EQ(s[7], -1337.0f);
    EXPECT_EQ(s[8], std::numeric_limits<float>::infinity());
    EXPECT_EQ(s[9], -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(s[10]));
    EXPECT_TRUE(std::isnan(s[11]));
}

TEST(RbxXml, FacesAndAxesMatchTheirNames) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const fs::path root = *corpus_root / "rbx/rbx-test-files/models";
    // Instance names list the set faces; bit n = NormalId n (Right 0, Top 1, Back 2, Left 3, Bottom 4, Front 5).
    const char *faceNames[6] = {"Right", "Top", "Back", "Left", "Bottom", "Front"};
    const Document f = ReadFile(root / "faces/xml.rbxmx");
    std::size_t checked = 0;
    for (std::uint32_t i = 0; i < f.instances.size(); ++i) {
        const Property *p = f.findProperty(f.instances[i], "Faces");
        if (!p) continue;
        std::uint8_t expected = 0;
        for (int n = 0; n < 6; ++n)
            if (Contains(f.instances[i].name, faceNames[n])) expected |= std::uint8_t(1u << n);
        EXPECT_EQ(p->value.as<Faces>().bits, expected) << f.instances[i].name;
        ++checked;
    }
    EXPECT_EQ(checked, 64u);
    const Document a = ReadFile(root / "axes/xml.rbxmx");
    checked = 0;
    for (std::uint32_t i = 0; i < a.instances.size(); ++i) {
        const Property *p = a.findProperty(a.instances[i], "Axes");
        if (!p) continue;
        std::uint8_t expected = 0;
        const std::string &n = a.instances[i].name;
        if (Contains(n, "X")) expected |= 1;
        if (Contains(n, "Y")) expected |= 2;
        if (Contains(n, "Z")) expected |= 4;
        EXPECT_EQ(p->value.as<Axes>().bits, expected) << n;
        ++checked;
    }
    EXPECT_EQ(checked, 8u);
}

TEST(RbxXml, TextLabelWithFont) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/models/text-label-with-font/xml.rbxmx");
    // README: a bolded, italicized RobotoMono font face.
    const Font &f = Prop(d, 0, "FontFace").as<Font>();
    EXPECT_EQ(f.family, "rbxasset://fonts/families/RobotoMono.json");
    EXPECT_EQ(f.weight, 700);
    EXPECT_EQ(f.style, 1);
    EXPECT_EQ(d.instances[0].name, "TextLabel");
}

TEST(RbxXml, EmptyFontIsDefault) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/edge-cases/empty-font/xml.rbxmx");
    const Value &v = Prop(d, 0, "FontFace");
    ASSERT_EQ(v.type, Type::Font);
    const Font &f = v.as<Font>();
    EXPECT_EQ(f.family, "");
    EXPECT_EQ(f.weight, 400);
    EXPECT_EQ(f.style, 0);
    EXPECT_EQ(f.cachedFaceId, "");
    EXPECT_EQ(d.instances[0].name, "Bold Denk");
}

TEST(RbxXml, UnknownTypeKeptRaw) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/edge-cases/xml-unknown-type/xml.rbxmx");
    ASSERT_EQ(d.instances.size(), 1u);
    EXPECT_EQ(d.instances[0].name, "A NumberValue");
    EXPECT_EQ(d.instances[0].referent, "RBXBA58581CA31545A480E20D8DD930F7EB");
    const Value &v = Prop(d, 0, "hello");
    ASSERT_EQ(v.type, Type::Unknown);
    EXPECT_EQ(v.as<UnknownValue>().xmlTag, "Baloney");
    EXPECT_TRUE(Contains(v.as<UnknownValue>().raw, "I really hope Roblox never makes a property called Baloney"));
    ASSERT_EQ(d.warnings.size(), 1u);
    EXPECT_TRUE(Contains(d.warnings[0], "Baloney"));
    ASSERT_EQ(d.meta.size(), 1u);
    EXPECT_EQ(d.meta[0].first, "ExplicitAutoJoints");
    EXPECT_EQ(d.meta[0].second, "true");
    ASSERT_EQ(d.xmlUnknownTopLevel.size(), 2u);
    EXPECT_EQ(d.xmlUnknownTopLevel[0], "<External>null</External>");
    EXPECT_EQ(d.xmlUnknownTopLevel[1], "<External>nil</External>");
    const std::string out = WriteXml(d);
    EXPECT_TRUE(Contains(out, "<Baloney name=\"hello\">"));
    EXPECT_TRUE(Contains(out, "I really hope Roblox never makes a property called Baloney"));
}

TEST(RbxXml, PhysicalPropertiesAcoustics) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/models/physical-properties-acoustics/xml.rbxmx");
    const PhysicalProperties &c =
        Prop(d, FindByName(d, "CustomProperties"), "CustomPhysicalProperties").as<PhysicalProperties>();
    EXPECT_EQ(Describe(c),
              "flags=3 density=0.25 friction=0.5 elasticity=0.125 frictionWeight=1 elasticityWeight=0.25 acoustic=0.5");
    const PhysicalProperties &n =
        Prop(d, FindByName(d, "NoCustomProperties"), "CustomPhysicalProperties").as<PhysicalProperties>();
    EXPECT_FALSE(n.custom());
}

TEST(RbxXml, ContentMixed) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const Document d = ReadFile(*corpus_root / "rbx/rbx-test-files/models/content-mixed/xml.rbxmx");
    const Value &dn = Prop(d, FindByName(d, "Decal_None"), "Texture");
    EXPECT_EQ(dn.type, Type::String);
    EXPECT_EQ(dn.as<std::string>(), "");
    EXPECT_EQ(dn.xmlTag, XmlTag::ContentNull);
    const Value &ds = Prop(d, FindByName(d, "Decal_SpawnLocation"), "Texture");
    EXPECT_EQ(ds.type, Type::String);
    EXPECT_EQ(ds.as<std::string>(), "rbxasset://textures/SpawnLocation.png");
    EXPECT_EQ(ds.xmlTag, XmlTag::ContentUrl);
    const Value &in = Prop(d, FindByName(d, "ImageLabel_None"), "ImageContent");
    ASSERT_EQ(in.type, Type::Content);
    EXPECT_EQ(in.as<Content>().source, Content::Source::None);
    const Value &is = Prop(d, FindByName(d, "ImageLabel_SpawnLocation"), "ImageContent");
    ASSERT_EQ(is.type, Type::Content);
    EXPECT_EQ(is.as<Content>().source, Content::Source::Uri);
    EXPECT_EQ(is.as<Content>().uri, "rbxasset://textures/SpawnLocation.png");
}

TEST(RbxXml, Baseplate566UniqueIdRotation) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const fs::path dir = *corpus_root / "rbx/rbx-test-files/places/baseplate-566";
    const Document x = ReadFile(dir / "xml.rbxlx");
    // XML 44b188dace632b47 02e9c68d 004815fc: random, time, index; binary random = rotl64(random, 1).
    bool found = false;
    for (const Instance &i : x.instances)
        for (const Property &p : i.properties)
            if (p.value.type == Type::UniqueId && p.value.as<UniqueId>().index == 0x004815fcu) {
                EXPECT_EQ(p.value.as<UniqueId>().time, 0x02e9c68du);
                EXPECT_EQ(p.value.as<UniqueId>().random, 0x896311B59CC6568Eull);
                found = true;
            }
    EXPECT_TRUE(found);
    EXPECT_TRUE(Contains(WriteXml(x), ">44b188dace632b4702e9c68d004815fc</UniqueId>"));
    // Against the binary save: every UniqueId index of the XML has the same (time, random) in binary.
    const std::vector<std::uint8_t> bytes = gamefmt::test::ReadBytes(dir / "binary.rbxl");
    const Document b = ReadBinary(bytes.data(), bytes.size());
    std::size_t matched = 0;
    for (const Instance &bi : b.instances)
        for (const Property &bp : bi.properties) {
            if (bp.value.type != Type::UniqueId) continue;
            const UniqueId &bu = bp.value.as<UniqueId>();
            if (bu.index == 0) continue;
            for (const Instance &xi : x.instances)
                for (const Property &xp : xi.properties)
                    if (xp.value.type == Type::UniqueId && xp.value.as<UniqueId>().index == bu.index &&
                        x.names.str(xp.name) == b.names.str(bp.name)) {
                        EXPECT_EQ(xp.value.as<UniqueId>().time, bu.time);
                        EXPECT_EQ(xp.value.as<UniqueId>().random, bu.random);
                        ++matched;
                    }
        }
    EXPECT_GT(matched, 10u);
}

// Binary → DOM → XML → DOM equals the binary DOM for every model and place.
TEST(RbxXml, BinaryFilesThroughXml) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const fs::path root = *corpus_root / "rbx/rbx-test-files";
    std::size_t count = 0;
    for (const char *sub : {"models", "places"}) {
        for (const auto &e : fs::directory_iterator(root / sub)) {
            for (const char *f : {"binary.rbxm", "binary.rbxl"}) {
                const fs::path p = e.path() / f;
                if (!fs::exists(p)) continue;
                SCOPED_TRACE(p.string());
                const std::vector<std::uint8_t> bytes = gamefmt::test::ReadBytes(p);
                const Document a = ReadBinary(bytes.data(), bytes.size());
                const Document b = Read(WriteXml(a));
                EXPECT_EQ(CompareDocuments(a, b), "");
                EXPECT_EQ(a.meta, b.meta);
                ++count;
            }
        }
    }
    EXPECT_GE(count, 54u);
}

// The XML save of each model decodes to the same values as its binary save (§8 item 16;
// default-inserted-part's two saves place the part differently).
TEST(RbxXml, ModelsMatchTheirBinarySave) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    std::size_t count = 0;
    for (const auto &e : fs::directory_iterator(*corpus_root / "rbx/rbx-test-files/models")) {
        if (e.path().filename() == "default-inserted-part" || !fs::exists(e.path() / "binary.rbxm")) continue;
        SCOPED_TRACE(e.path().string());
        const std::vector<std::uint8_t> bytes = gamefmt::test::ReadBytes(e.path() / "binary.rbxm");
        const Document b = ReadBinary(bytes.data(), bytes.size());
        const Document x = ReadFile(e.path() / "xml.rbxmx");
        // Genuine differences between the two saves (bit-exact comparison): Studio's XML writes -0 in
        // rotations the binary stores as an exact rotation id, and 6-digit NumberSequence floats.
        const std::string name = e.path().filename().string();
        const std::string diff = CompareDocuments(b, x);
        if (name == "netassetref")
            EXPECT_TRUE(Contains(diff, "property CFrame") && Contains(diff, "-0")) << diff;
        else if (name == "cframe-special-cases")
            EXPECT_TRUE(Contains(diff, "property Value") && Contains(diff, "-0")) << diff;
        else if (name == "two-particleemitters")
            EXPECT_TRUE(Contains(diff, "property Size: NumberSequence")) << diff;
        else
            EXPECT_EQ(diff, "");
        ++count;
    }
    EXPECT_GE(count, 45u);
}

// ---------------------------------------------------------------------------------------------------
// Synthetic XML: every tag, children in any order, legacy forms

TEST(RbxXml, EveryTagChildrenInAnyOrder) {
    const Document d = Read(Wrap(R"(
        <string name="Name">Box</string>
        <STRING name="s"> a &amp; b </STRING>
        <bool name="b1">TRUE</bool><bool name="b2">False</bool><Bool name="b3">true</Bool>
        <int name="i">-42</int><int64 name="l">-9007199254740993</int64>
        <float name="f1">INF</float><float name="f2">+INF</float><float name="f3">-inf</float><float name="f4">nan</float>
        <float name="f5">0.100000001</float><double name="d">0.1</double>
        <token name="t">5</token>
        <UDim name="ud"><O>-7</O><S>0.5</S></UDim>
        <UDim2 name="ud2"><YO>4</YO><XS>1</XS><YS>3</YS><XO>2</XO></UDim2>
        <Ray name="ray"><direction><Z>6</Z><Y>5</Y><X>4</X></direction><origin><X>1</X><Y>2</Y><Z>3</Z></origin></Ray>
        <Faces name="fa"><faces>42</faces></Faces><Axes name="ax"><axes>5</axes></Axes>
        <Color3 name="c3"><B>0.75</B><R>0.25</R><G>0.5</G></Color3>
        <Vector2 name="v2"><y>2</y><x>1</x></Vector2>
        <Vector3 name="v3"><Z>3</Z><X>1</X></Vector3>
        <Vector2int16 name="v2i"><Y>-2</Y><X>1</X></Vector2int16>
        <Vector3int16 name="v3i"><Z>-3</Z><Y>2</Y><X>1</X></Vector3int16>
        <CoordinateFrame name="cf"><R22>9</R22><x>1</x><R00>2</R00><Z>3</Z></CoordinateFrame>
        <NumberSequence name="ns">0 6 3 1 4 2 </NumberSequence>
        <ColorSequence name="cs">0 1 0.5 0 0 1 0 0 1 0 </ColorSequence>
        <NumberRange name="nr">1.5 2.5 </NumberRange>
        <Rect2D name="rc"><max><Y>4</Y><X>3</X></max><min><X>1</X><Y>2</Y></min></Rect2D>
        <PhysicalProperties name="pp"><Friction>2</Friction><CustomPhysics>true</CustomPhysics><Density>1</Density>
            <ElasticityWeight>5</ElasticityWeight><Elasticity>3</Elasticity><FrictionWeight>4</FrictionWeight></PhysicalProperties>
        <Color3uint8 name="u8a">4288914085</Color3uint8><Color3uint8 name="u8b">10724005</Color3uint8>
        <SecurityCapabilities name="sc">18446744073709551615</SecurityCapabilities>
        <UniqueId name="uid">0000000000000001000000020000000A</UniqueId>
        <Font name="font"><Style>italic</Style><Weight>300</Weight><CachedFaceId><url>rbxasset://c</url></CachedFaceId><Family><url>rbxasset://f.json</url></Family></Font>
        <OptionalCoordinateFrame name="oc0"></OptionalCoordinateFrame>
        <OptionalCoordinateFrame name="oc1"><CFrame><X>1</X></CFrame></OptionalCoordinateFrame>
        <int name="BrickColor">1004</int><int name="TeamColor">37</int><int name="brickColor">194</int>
        <int name="Color">1009</int><int name="Colors">3</int>
    )"));
    ASSERT_EQ(d.instances.size(), 1u);
    EXPECT_EQ(d.instances[0].name, "Box");
    EXPECT_EQ(d.instances[0].referent, "RBX0");
    EXPECT_EQ(d.className(d.instances[0]), "Folder");
    EXPECT_EQ(Prop(d, 0, "s").as<std::string>(), " a & b ");
    EXPECT_TRUE(Prop(d, 0, "b1").as<bool>());
    EXPECT_FALSE(Prop(d, 0, "b2").as<bool>());
    EXPECT_TRUE(Prop(d, 0, "b3").as<bool>());
    EXPECT_EQ(Prop(d, 0, "i").as<std::int32_t>(), -42);
    EXPECT_EQ(Prop(d, 0, "l").as<Int64Value>().value, -9007199254740993LL);
    EXPECT_EQ(Prop(d, 0, "f1").as<float>(), std::numeric_limits<float>::infinity());
    EXPECT_EQ(Prop(d, 0, "f2").as<float>(), std::numeric_limits<float>::infinity());
    EXPECT_EQ(Prop(d, 0, "f3").as<float>(), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(Prop(d, 0, "f4").as<float>()));
    EXPECT_EQ(Prop(d, 0, "f5").as<float>(), 0.1f);
    EXPECT_EQ(Prop(d, 0, "d").type, Type::Float64);
    EXPECT_EQ(Prop(d, 0, "d").as<double>(), 0.1);
    EXPECT_EQ(Prop(d, 0, "t").as<EnumValue>().value, 5u);
    EXPECT_EQ(Prop(d, 0, "ud").as<UDim>().scale, 0.5f);
    EXPECT_EQ(Prop(d, 0, "ud").as<UDim>().offset, -7);
    const UDim2 &u2 = Prop(d, 0, "ud2").as<UDim2>();
    EXPECT_EQ(u2.x.scale, 1.0f);
    EXPECT_EQ(u2.x.offset, 2);
    EXPECT_EQ(u2.y.scale, 3.0f);
    EXPECT_EQ(u2.y.offset, 4);
    const Ray &r = Prop(d, 0, "ray").as<Ray>();
    EXPECT_EQ(r.origin.x, 1.0f);
    EXPECT_EQ(r.origin.z, 3.0f);
    EXPECT_EQ(r.direction.x, 4.0f);
    EXPECT_EQ(r.direction.z, 6.0f);
    EXPECT_EQ(Prop(d, 0, "fa").as<Faces>().bits, 42);
    EXPECT_EQ(Prop(d, 0, "ax").as<Axes>().bits, 5);
    const Color3 &c3 = Prop(d, 0, "c3").as<Color3>();
    EXPECT_EQ(c3.r, 0.25f);
    EXPECT_EQ(c3.g, 0.5f);
    EXPECT_EQ(c3.b, 0.75f);
    EXPECT_EQ(Prop(d, 0, "v2").as<Vector2>().x, 1.0f);
    EXPECT_EQ(Prop(d, 0, "v2").as<Vector2>().y, 2.0f);
    EXPECT_EQ(Prop(d, 0, "v3").as<Vector3>().x, 1.0f);
    EXPECT_EQ(Prop(d, 0, "v3").as<Vector3>().y, 0.0f); // missing → 0
    EXPECT_EQ(Prop(d, 0, "v3").as<Vector3>().z, 3.0f);
    EXPECT_EQ(Prop(d, 0, "v2i").as<Vector2int16>().y, -2);
    EXPECT_EQ(Prop(d, 0, "v3i").as<Vector3int16>().z, -3);
    const CFrame &cf = Prop(d, 0, "cf").as<CFrame>();
    EXPECT_EQ(cf.position.x, 1.0f);
    EXPECT_EQ(cf.position.y, 0.0f);
    EXPECT_EQ(cf.position.z, 3.0f);
    const std::array<float, 9> rot{2, 0, 0, 0, 1, 0, 0, 0, 9}; // missing rotation entries → identity
    EXPECT_EQ(cf.rotation, rot);
    const NumberSequence &ns = Prop(d, 0, "ns").as<NumberSequence>();
    ASSERT_EQ(ns.keypoints.size(), 2u);
    EXPECT_EQ(ns.keypoints[1].time, 1.0f);
    EXPECT_EQ(ns.keypoints[1].value, 4.0f);
    EXPECT_EQ(ns.keypoints[1].envelope, 2.0f);
    const ColorSequence &cs = Prop(d, 0, "cs").as<ColorSequence>();
    ASSERT_EQ(cs.keypoints.size(), 2u);
    EXPECT_EQ(cs.keypoints[0].color.g, 0.5f);
    EXPECT_EQ(cs.keypoints[1].time, 1.0f);
    EXPECT_EQ(cs.keypoints[1].color.b, 1.0f);
    EXPECT_EQ(Prop(d, 0, "nr").as<NumberRange>().min, 1.5f);
    EXPECT_EQ(Prop(d, 0, "nr").as<NumberRange>().max, 2.5f);
    const Rect &rc = Prop(d, 0, "rc").as<Rect>();
    EXPECT_EQ(rc.min.x, 1.0f);
    EXPECT_EQ(rc.min.y, 2.0f);
    EXPECT_EQ(rc.max.x, 3.0f);
    EXPECT_EQ(rc.max.y, 4.0f);
    const PhysicalProperties &pp = Prop(d, 0, "pp").as<PhysicalProperties>();
    EXPECT_EQ(Describe(pp), "flags=1 density=1 friction=2 elasticity=3 frictionWeight=4 elasticityWeight=5 acoustic=0");
    // (163,162,165) = 4288914085 with Studio's FF top byte, 10724005 without (rbx_xml).
    for (const char *n : {"u8a", "u8b"}) {
        const Color3uint8 &c = Prop(d, 0, n).as<Color3uint8>();
        EXPECT_EQ(c.r, 163);
        EXPECT_EQ(c.g, 162);
        EXPECT_EQ(c.b, 165);
    }
    EXPECT_EQ(Prop(d, 0, "sc").as<SecurityCapabilities>().bits, 0xFFFFFFFFFFFFFFFFull);
    const UniqueId &uid = Prop(d, 0, "uid").as<UniqueId>();
    EXPECT_EQ(uid.random, 2u); // rotl64(1, 1)
    EXPECT_EQ(uid.time, 2u);
    EXPECT_EQ(uid.index, 10u);
    const Font &font = Prop(d, 0, "font").as<Font>();
    EXPECT_EQ(font.family, "rbxasset://f.json");
    EXPECT_EQ(font.weight, 300);
    EXPECT_EQ(font.style, 1);
    EXPECT_EQ(font.cachedFaceId, "rbxasset://c");
    EXPECT_FALSE(Prop(d, 0, "oc0").as<OptionalCFrame>().present);
    EXPECT_TRUE(Prop(d, 0, "oc1").as<OptionalCFrame>().present);
    EXPECT_EQ(Prop(d, 0, "oc1").as<OptionalCFrame>().value.position.x, 1.0f);
    EXPECT_EQ(Prop(d, 0, "oc1").as<OptionalCFrame>().value.rotation[0], 1.0f);
    EXPECT_EQ(Prop(d, 0, "BrickColor").type, Type::BrickColor);
    EXPECT_EQ(Prop(d, 0, "BrickColor").as<BrickColor>().number, 1004u);
    EXPECT_EQ(Prop(d, 0, "TeamColor").as<BrickColor>().number, 37u);
    EXPECT_EQ(Prop(d, 0, "brickColor").as<BrickColor>().number, 194u);
    EXPECT_EQ(Prop(d, 0, "Color").as<BrickColor>().number, 1009u); // Constraint.Color (ball-socket-constraint)
    EXPECT_EQ(Prop(d, 0, "Colors").type, Type::Int32);
    EXPECT_TRUE(d.warnings.empty());

    // And the whole document survives XML → DOM → XML → DOM with tags and referents.
    CompareOptions strict;
    strict.ignoreXmlTags = false;
    strict.ignoreReferentStrings = false;
    EXPECT_EQ(CompareDocuments(d, Read(WriteXml(d)), strict), "");
}

TEST(RbxXml, BrickColorValueValueIsBrickColor) {
    const Document d =
        Read("<roblox version=\"4\"><Item class=\"BrickColorValue\"><Properties><int name=\"Value\">21</int>"
             "</Properties></Item><Item class=\"IntValue\"><Properties><int name=\"Value\">21</int>"
             "</Properties></Item></roblox>");
    EXPECT_EQ(Prop(d, 0, "Value").type, Type::BrickColor);
    EXPECT_EQ(Prop(d, 0, "Value").as<BrickColor>().number, 21u);
    EXPECT_EQ(Prop(d, 1, "Value").type, Type::Int32);
    EXPECT_EQ(d.instances[0].referent, ""); // tolerated when missing
}

TEST(RbxXml, PackedColor3) {
    const Document d = Read(Wrap("<Color3 name=\"a\">4278190080</Color3><Color3 name=\"b\">4294934592</Color3>"));
    const Color3 &a = Prop(d, 0, "a").as<Color3>();
    EXPECT_EQ(a.r, 0.0f);
    EXPECT_EQ(a.g, 0.0f);
    EXPECT_EQ(a.b, 0.0f);
    EXPECT_EQ(Prop(d, 0, "a").xmlTag, XmlTag::Color3Packed);
    const Color3 &b = Prop(d, 0, "b").as<Color3>(); // 0xFFFF8040
    EXPECT_EQ(b.r, 1.0f);
    EXPECT_EQ(b.g, 128.0f / 255.0f);
    EXPECT_EQ(b.b, 64.0f / 255.0f);
    const std::string out = WriteXml(d);
    EXPECT_TRUE(Contains(out, "<Color3 name=\"b\">4294934592</Color3>"));
}

TEST(RbxXml, ContentForms) {
    const Document d = Read("<roblox version=\"4\"><Item class=\"Part\" referent=\"RBX0\"><Properties>"
                            "<Content name=\"TextureID\"><url>rbxassetid://1</url></Content>"
                            "<Content name=\"MeshId\"><null></null></Content>"
                            "<Content name=\"ImageContent\"><uri>rbxassetid://2</uri></Content>"
                            "<Content name=\"Other\"><uri>rbxassetid://3</uri></Content>"
                            "<Content name=\"MeshContent\"><null></null></Content>"
                            "<Content name=\"ObjContent\"><Ref>RBX1</Ref></Content>"
                            "<Content name=\"Img\"><binary>iVBORw0K\n   GgoAAAA=</binary></Content>"
                            "<Content name=\"Hashed\"><hash>abc123</hash></Content>"
                            "<ContentId name=\"Cid\"><url>rbxasset://x</url></ContentId>"
                            "<Content name=\"Legacy\">rbxasset://old.png</Content>"
                            "</Properties></Item><Item class=\"Folder\" referent=\"RBX1\"></Item></roblox>");
    const Value &tex = Prop(d, 0, "TextureID");
    EXPECT_EQ(tex.type, Type::String);
    EXPECT_EQ(tex.as<std::string>(), "rbxassetid://1");
    EXPECT_EQ(tex.xmlTag, XmlTag::ContentUrl);
    EXPECT_EQ(Prop(d, 0, "MeshId").type, Type::String);
    EXPECT_EQ(Prop(d, 0, "MeshId").as<std::string>(), "");
    EXPECT_EQ(Prop(d, 0, "MeshId").xmlTag, XmlTag::ContentNull);
    ASSERT_EQ(Prop(d, 0, "ImageContent").type, Type::Content);
    EXPECT_EQ(Prop(d, 0, "ImageContent").as<Content>().source, Content::Source::Uri);
    EXPECT_EQ(Prop(d, 0, "ImageContent").as<Content>().uri, "rbxassetid://2");
    ASSERT_EQ(Prop(d, 0, "Other").type, Type::Content); // <uri> → Content whatever the name
    EXPECT_EQ(Prop(d, 0, "Other").as<Content>().uri, "rbxassetid://3");
    ASSERT_EQ(Prop(d, 0, "MeshContent").type, Type::Content);
    EXPECT_EQ(Prop(d, 0, "MeshContent").as<Content>().source, Content::Source::None);
    ASSERT_EQ(Prop(d, 0, "ObjContent").type, Type::Content);
    EXPECT_EQ(Prop(d, 0, "ObjContent").as<Content>().source, Content::Source::Object);
    EXPECT_EQ(Prop(d, 0, "ObjContent").as<Content>().object, 1u); // forward reference
    const Value &img = Prop(d, 0, "Img");
    EXPECT_EQ(img.xmlTag, XmlTag::ContentBinary);
    EXPECT_EQ(img.as<std::string>(), std::string("\x89PNG\r\n\x1a\n\0\0\0", 11));
    EXPECT_EQ(Prop(d, 0, "Hashed").as<std::string>(), "abc123");
    EXPECT_EQ(Prop(d, 0, "Hashed").xmlTag, XmlTag::ContentHash);
    EXPECT_EQ(Prop(d, 0, "Cid").as<std::string>(), "rbxasset://x");
    EXPECT_EQ(Prop(d, 0, "Cid").xmlTag, XmlTag::ContentId);
    EXPECT_EQ(Prop(d, 0, "Legacy").as<std::string>(), "rbxasset://old.png");

    const std::string out = WriteXml(d);
    EXPECT_TRUE(Contains(out, "<Content name=\"TextureID\"><url>rbxassetid://1</url></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"MeshId\"><null></null></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"ImageContent\"><uri>rbxassetid://2</uri></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"ObjContent\"><Ref>RBX1</Ref></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"Img\"><binary>iVBORw0KGgoAAAA=</binary></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"Hashed\"><hash>abc123</hash></Content>"));
    CompareOptions strict;
    strict.ignoreXmlTags = false;
    EXPECT_EQ(CompareDocuments(d, Read(out), strict), "");
}

// Issue #37 (2): the legacy Content forms of 2008 places — an image's file bytes embedded as <binary>, content named
// by <hash> — have no binary form. Written to binary they are empty ContentIds (not their bytes or hash read as a
// URL), kept in META for gamefmt, and read back they are what the XML held: XML -> binary -> XML is value-equal.
TEST(RbxXml, LegacyContentFormsAreNoUrlInBinaryAndComeBack) {
    const std::string jpeg("\xFF\xD8\xFF\xE0\0\x10JFIF\0\x01\x01\0 legacy image bytes", 31);
    const std::string hash = "0123456789abcdef0123456789abcdef";
    const std::string xml =
        "<roblox version=\"4\"><Item class=\"Decal\" referent=\"RBX0\"><Properties>"
        "<Content name=\"Texture\"><binary>" +
        gamefmt::Base64Encode(reinterpret_cast<const std::uint8_t *>(jpeg.data()), jpeg.size()) +
        "</binary></Content></Properties></Item>"
        "<Item class=\"Decal\" referent=\"RBX1\"><Properties><Content name=\"Texture\"><hash>" +
        hash +
        "</hash></Content></Properties></Item>"
        "<Item class=\"Decal\" referent=\"RBX2\"><Properties><Content name=\"Texture\"><url>rbxassetid://5</url>"
        "</Content></Properties></Item></roblox>";
    const Document d = Read(xml);
    std::vector<std::string> warnings;
    BinaryWriteOptions options;
    options.compression = Compression::None; // the column's bytes stay visible
    options.warnings = &warnings;
    const std::vector<std::uint8_t> binary = WriteBinary(d, options);
    const std::string bytes(binary.begin(), binary.end());
    EXPECT_EQ(bytes.find("JFIF"), std::string::npos); // not in the Texture column (META holds base64)
    const std::size_t first = bytes.find(hash);
    ASSERT_NE(first, std::string::npos);
    EXPECT_EQ(bytes.find(hash, first + 1), std::string::npos); // once: in META, not also as a URL
    EXPECT_TRUE(Contains(bytes, std::string(kLegacyContentMetaPrefix) + "1:Texture"));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(Contains(warnings[0], "2 legacy XML Content value(s)")) << warnings[0];

    const Document back = ReadDocument(binary.data(), binary.size());
    EXPECT_TRUE(back.meta.empty()); // restored, not left as entries
    EXPECT_EQ(Prop(back, 0, "Texture").xmlTag, XmlTag::ContentBinary);
    EXPECT_EQ(Prop(back, 0, "Texture").as<std::string>(), jpeg);
    EXPECT_EQ(Prop(back, 1, "Texture").xmlTag, XmlTag::ContentHash);
    EXPECT_EQ(Prop(back, 1, "Texture").as<std::string>(), hash);
    EXPECT_EQ(Prop(back, 2, "Texture").as<std::string>(), "rbxassetid://5");
    const Document again = Read(WriteXml(back));
    EXPECT_EQ(CompareDocuments(d, again), "");
    EXPECT_TRUE(Contains(WriteXml(back), "<hash>" + hash + "</hash>"));
    EXPECT_EQ(WriteBinary(back, options), binary); // and binary -> binary is a fixed point
}

// META entries under the legacy prefix that name nothing to restore stay as they are, with a warning each.
TEST(RbxXml, LegacyContentMetaThatNamesNothingIsKept) {
    Document d = Read("<roblox version=\"4\"><Item class=\"Decal\" referent=\"RBX0\"><Properties>"
                      "<Content name=\"Texture\"><url>rbxassetid://5</url></Content>"
                      "<Content name=\"Empty\"><null></null></Content></Properties></Item></roblox>");
    const std::string prefix = kLegacyContentMetaPrefix;
    d.meta = {{prefix + "7:Texture", "hash:x"},   // no instance with referent 7
              {prefix + "0:Texture", "hash:x"},   // not an empty ContentId
              {prefix + "0:Empty", "binary:!!!"}, // not base64
              {prefix + "0:Empty", "other:x"},    // neither form
              {prefix + "0", "hash:x"},           // no property
              {"Other", "kept"}};
    const std::vector<std::uint8_t> binary = WriteBinary(d);
    const Document back = ReadDocument(binary.data(), binary.size());
    EXPECT_EQ(back.meta, d.meta);
    EXPECT_EQ(Prop(back, 0, "Empty").as<std::string>(), "");
    std::size_t warned = 0;
    for (const std::string &w : back.warnings) warned += Contains(w, "names no empty ContentId") ? 1 : 0;
    EXPECT_EQ(warned, 5u);
}

TEST(RbxXml, CdataAndWrappedBase64) {
    const Document d = Read(Wrap("<ProtectedString name=\"Source\"><![CDATA[  print(\"<&>\")\n  ]]></ProtectedString>"
                                 "<ProtectedString name=\"Mixed\">a<![CDATA[<b>]]>c</ProtectedString>"
                                 "<BinaryString name=\"AttributesSerialize\"><![CDATA[AAEC\n  Aw==]]></BinaryString>"
                                 "<BinaryString name=\"Tags\">Q29v\r\n\tbABN\neQ==</BinaryString>"
                                 "<BinaryString name=\"Empty\"></BinaryString>"
                                 "<string name=\"Spaces\">   </string>"));
    EXPECT_EQ(Prop(d, 0, "Source").as<std::string>(), "  print(\"<&>\")\n  ");
    EXPECT_EQ(Prop(d, 0, "Source").xmlTag, XmlTag::ProtectedString);
    EXPECT_EQ(Prop(d, 0, "Mixed").as<std::string>(), "a<b>c");
    EXPECT_EQ(Prop(d, 0, "AttributesSerialize").as<std::string>(), std::string("\0\1\2\3", 4));
    EXPECT_EQ(Prop(d, 0, "Tags").as<std::string>(), std::string("Cool\0My", 7));
    EXPECT_EQ(Prop(d, 0, "Empty").as<std::string>(), "");
    EXPECT_EQ(Prop(d, 0, "Spaces").as<std::string>(), "   ");
}

TEST(RbxXml, ForwardRefsAndSharedStrings) {
    const Document d =
        Read("<roblox version=\"4\">"
             "<Item class=\"ObjectValue\" referent=\"A\"><Properties><Ref name=\"Value\">C</Ref>"
             "<Ref name=\"Nothing\">null</Ref><Ref name=\"Dangling\">RBXNOPE</Ref>"
             "<SharedString name=\"Data\">k2</SharedString><NetAssetRef name=\"Net\">k1</NetAssetRef>"
             "<SharedString name=\"Missing\">nokey</SharedString></Properties>"
             "<Item class=\"Folder\" referent=\"B\"><Item class=\"Folder\" referent=\"C\"/></Item></Item>"
             "<SharedStrings><SharedString md5=\"k1\">aGVs\n bG8=</SharedString>"
             "<SharedString md5=\"k2\"><![CDATA[d29y bGQ=]]></SharedString></SharedStrings></roblox>");
    ASSERT_EQ(d.instances.size(), 3u);
    EXPECT_EQ(d.instances[2].parent, 1u);
    EXPECT_EQ(d.instances[1].parent, 0u);
    EXPECT_EQ(Prop(d, 0, "Value").as<RefValue>().target, 2u);
    EXPECT_EQ(Prop(d, 0, "Nothing").as<RefValue>().target, kNoInstance);
    EXPECT_EQ(Prop(d, 0, "Dangling").as<RefValue>().target, kNoInstance);
    const auto content = [&](const char *n) {
        return d.sharedStrings.at(Prop(d, 0, n).as<SharedStringRef>().index).content;
    };
    EXPECT_EQ(content("Data"), "world");
    EXPECT_EQ(content("Net"), "hello");
    EXPECT_EQ(Prop(d, 0, "Net").xmlTag, XmlTag::NetAssetRef);
    EXPECT_EQ(content("Missing"), "");
    EXPECT_EQ(d.sharedStrings.at(0).xmlKey, "k1");
    ASSERT_EQ(d.warnings.size(), 2u);
    EXPECT_TRUE(Contains(d.warnings[0], "RBXNOPE") || Contains(d.warnings[1], "RBXNOPE"));
    EXPECT_TRUE(Contains(d.warnings[0], "nokey") || Contains(d.warnings[1], "nokey"));

    const std::string out = WriteXml(d);
    EXPECT_TRUE(Contains(out, "<Ref name=\"Value\">C</Ref>"));
    EXPECT_TRUE(Contains(out, "<NetAssetRef name=\"Net\">k1</NetAssetRef>"));
    EXPECT_TRUE(Contains(out, "<SharedString md5=\"k2\">d29ybGQ=</SharedString>"));
    EXPECT_EQ(CompareDocuments(d, Read(out)), "");
}

TEST(RbxXml, PropertiesAfterChildrenAndRepeatedProperty) {
    const Document d =
        Read("<roblox version=\"4\"><Item class=\"Model\" referent=\"a\">"
             "<Item class=\"Part\" referent=\"b\"><Properties><string name=\"Name\">P</string></Properties></Item>"
             "<Properties><string name=\"Name\">M</string><int name=\"x\">1</int><int name=\"x\">2</int>"
             "</Properties></Item></roblox>");
    ASSERT_EQ(d.instances.size(), 2u);
    EXPECT_EQ(d.instances[0].name, "M");
    EXPECT_EQ(d.instances[1].name, "P");
    EXPECT_EQ(d.instances[0].children, std::vector<std::uint32_t>{1});
    EXPECT_EQ(d.instances[0].properties.size(), 1u);
    EXPECT_EQ(Prop(d, 0, "x").as<std::int32_t>(), 2);
    EXPECT_EQ(d.warnings.size(), 1u);
}

// ---------------------------------------------------------------------------------------------------
// Writer specifics

Document OnePart() {
    Document d;
    const std::uint32_t m = d.addInstance("Model", "M", kNoInstance);
    const std::uint32_t p = d.addInstance("Part", "P", m);
    d.instances[p].referent = "7";
    const std::uint32_t q = d.addInstance("Part", "Q", m);
    d.instances[q].referent = "7"; // duplicate: must be replaced
    return d;
}

TEST(RbxXml, WriterLayout) {
    Document d = OnePart();
    d.meta.emplace_back("ExplicitAutoJoints", "true");
    AddProperty(d, 1, "Color3uint8", Type::Color3uint8, Color3uint8{163, 162, 165});
    AddProperty(d, 1, "Source", Type::String, std::string("a]]>b"));
    AddProperty(d, 1, "AttributesSerialize", Type::String, std::string("x"));
    AddProperty(d, 1, "Weird", Type::String,
                std::string("bad\x01"
                            "char"));
    AddProperty(d, 1, "Latin1", Type::String, std::string("caf\xe9"));
    AddProperty(d, 1, "TextureID", Type::String, std::string("rbxassetid://5"));
    AddProperty(d, 1, "Image", Type::String, std::string());
    AddProperty(d, 1, "Transparency", Type::Float32, 0.1f);
    AddProperty(d, 1, "Inf", Type::Float32, -std::numeric_limits<float>::infinity());
    AddProperty(d, 1, "Nan", Type::Float32, std::numeric_limits<float>::quiet_NaN());
    AddProperty(d, 1, "Link", Type::Ref, RefValue{2});
    AddProperty(d, 1, "Blob", Type::SharedString, SharedStringRef{0});
    AddProperty(d, 1, "CR", Type::String, std::string("a\r\nb"));
    SharedStringEntry e;
    e.content = std::string(100, 'z');
    d.sharedStrings.push_back(e);
    const std::string out = WriteXml(d);
    EXPECT_EQ(out.rfind("<roblox xmlns:xmime=\"http://www.w3.org/2005/05/xmlmime\" "
                        "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                        "xsi:noNamespaceSchemaLocation=\"http://www.roblox.com/roblox.xsd\" version=\"4\">",
                        0),
              0u);
    EXPECT_TRUE(Contains(out, "<Meta name=\"ExplicitAutoJoints\">true</Meta>"));
    EXPECT_TRUE(Contains(out, "<Color3uint8 name=\"Color3uint8\">4288914085</Color3uint8>"));
    EXPECT_TRUE(Contains(out, "<ProtectedString name=\"Source\"><![CDATA[a]]]]><![CDATA[>b]]></ProtectedString>"));
    EXPECT_TRUE(Contains(out, "<BinaryString name=\"AttributesSerialize\">eA==</BinaryString>"));
    EXPECT_TRUE(Contains(out, "<BinaryString name=\"Weird\">YmFkAWNoYXI=</BinaryString>"));
    EXPECT_TRUE(Contains(out, "<BinaryString name=\"Latin1\">Y2Fm6Q==</BinaryString>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"TextureID\"><url>rbxassetid://5</url></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"Image\"><null></null></Content>"));
    EXPECT_TRUE(Contains(out, "<float name=\"Transparency\">0.1</float>"));
    EXPECT_TRUE(Contains(out, "<float name=\"Inf\">-INF</float>"));
    EXPECT_TRUE(Contains(out, "<float name=\"Nan\">NAN</float>"));
    EXPECT_TRUE(Contains(out, "<string name=\"CR\">a&#13;\nb</string>"));
    // Referents: "7" kept once; the duplicate and the missing one become RBX + 32 uppercase hex.
    EXPECT_TRUE(Contains(out, "<Item class=\"Part\" referent=\"7\">"));
    EXPECT_TRUE(Contains(out, "<Item class=\"Model\" referent=\"RBX00000000000000000000000000000000\">"));
    EXPECT_TRUE(Contains(out, "<Item class=\"Part\" referent=\"RBX00000000000000000000000000000002\">"));
    EXPECT_TRUE(Contains(out, "<Ref name=\"Link\">RBX00000000000000000000000000000002</Ref>"));
    // SharedStrings at the end, base64 wrapped at 72 columns.
    const std::size_t ss = out.find("<SharedStrings>");
    ASSERT_NE(ss, std::string::npos);
    EXPECT_GT(ss, out.rfind("</Item>"));
    const std::size_t open = out.find("\">", out.find("<SharedString md5=")) + 2;
    const std::size_t nl = out.find('\n', open);
    EXPECT_EQ(nl - open, 72u);

    const Document back = Read(out);
    EXPECT_EQ(CompareDocuments(d, back), "");
    EXPECT_EQ(Prop(back, 1, "CR").as<std::string>(), "a\r\nb");
    EXPECT_EQ(Prop(back, 1, "Source").as<std::string>(), "a]]>b");
    EXPECT_EQ(Prop(back, 1, "Latin1").as<std::string>(), "caf\xe9");
    EXPECT_EQ(Bits(Prop(back, 1, "Transparency").as<float>()), Bits(0.1f));
}

TEST(RbxXml, WriterSharedStringKeysUnique) {
    Document d = OnePart();
    for (int i = 0; i < 3; ++i) {
        SharedStringEntry e;
        e.content = "same";
        if (i == 2) e.hash[0] = 0xAB; // a binary SSTR hash becomes the key
        d.sharedStrings.push_back(e);
        AddProperty(d, 1, ("S" + std::to_string(i)).c_str(), Type::SharedString, SharedStringRef{std::uint32_t(i)});
    }
    const Document back = Read(WriteXml(d));
    ASSERT_EQ(back.sharedStrings.size(), 3u);
    EXPECT_NE(back.sharedStrings[0].xmlKey, back.sharedStrings[1].xmlKey);
    EXPECT_EQ(back.sharedStrings[2].xmlKey, "qwAAAAAAAAAAAAAAAAAAAA==");
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(Prop(back, 1, ("S" + std::to_string(i)).c_str()).as<SharedStringRef>().index, std::uint32_t(i));
    EXPECT_TRUE(back.warnings.empty());
}

TEST(RbxXml, StreamedTextEqualsTheWholeText) {
    // 20,000 parts with a 100-byte string each (about 3 MB of XML) and shared strings: the sink gets the same
    // bytes in pieces of about 1 MiB, never the whole text at once.
    Document d;
    const std::uint32_t m = d.addInstance("Model", "M", kNoInstance);
    for (int i = 0; i < 20000; ++i) {
        const std::uint32_t p = d.addInstance("Part", "P" + std::to_string(i), m);
        AddProperty(d, p, "Note", Type::String, std::string(100, static_cast<char>('a' + i % 26)));
    }
    for (int i = 0; i < 3; ++i) {
        SharedStringEntry e;
        e.content = std::string(200000, static_cast<char>('x' + i));
        d.sharedStrings.push_back(e);
        AddProperty(d, 1 + std::uint32_t(i), "Blob", Type::SharedString, SharedStringRef{std::uint32_t(i)});
    }
    const std::string whole = WriteXml(d);
    ASSERT_GT(whole.size(), 3000000u);
    std::string streamed;
    std::vector<std::size_t> pieces;
    WriteXml(d, [&](const char *data, std::size_t size) {
        streamed.append(data, size);
        pieces.push_back(size);
    });
    EXPECT_EQ(streamed, whole);
    ASSERT_GE(pieces.size(), 3u);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        EXPECT_GT(pieces[i], 0u) << i;
        EXPECT_LT(pieces[i], (std::size_t(1) << 20) + 300000) << i; // a piece ends after the item that fills it
    }
}

// ---------------------------------------------------------------------------------------------------
// Errors and hostile input

TEST(RbxXml, RejectsWrongVersionAndRoot) {
    EXPECT_TRUE(Contains(Thrown([] { Read("<roblox version=\"3\"></roblox>"); }).message(), "version"));
    EXPECT_TRUE(Contains(Thrown([] { Read("<roblox></roblox>"); }).message(), "version"));
    EXPECT_TRUE(Contains(Thrown([] { Read("<model version=\"4\"></model>"); }).message(), "roblox"));
    EXPECT_TRUE(Thrown([] { Read("<roblox version=\"4\"><Item"); }).hasOffset());
    EXPECT_TRUE(Contains(Thrown([] { Read(""); }).message(), "XML"));
}

TEST(RbxXml, BadValueReportsElementOffset) {
    const std::string xml = Wrap("<float name=\"a\">1</float><float name=\"b\">1.2.3</float>");
    const FormatError e = Thrown([&] { Read(xml); });
    EXPECT_EQ(e.offset(), xml.find("<float name=\"b\""));
    EXPECT_TRUE(Contains(e.message(), "1.2.3"));
    const std::string bad = Wrap("<Color3 name=\"c\"><R>x</R></Color3>");
    EXPECT_EQ(Thrown([&] { Read(bad); }).offset(), bad.find("<R>"));
    for (const char *p :
         {"<bool name=\"b\">yes</bool>", "<UniqueId name=\"u\">12</UniqueId>",
          "<Faces name=\"f\"><faces>64</faces></Faces>", "<Axes name=\"f\"><axes>8</axes></Axes>",
          "<BinaryString name=\"b\">!!!!</BinaryString>", "<NumberSequence name=\"n\">1 2</NumberSequence>",
          "<Vector3int16 name=\"v\"><X>40000</X></Vector3int16>", "<int name=\"i\">99999999999</int>",
          "<float name=\"f\">1e39</float>"}) {
        SCOPED_TRACE(p);
        EXPECT_TRUE(Thrown([&] { Read(Wrap(p)); }).hasOffset());
    }
}

TEST(RbxXml, TruncatedCorpusFilesNeverCrash) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const std::vector<std::uint8_t> bytes =
        gamefmt::test::ReadBytes(*corpus_root / "rbx/rbx-test-files/models/sharedstring/xml.rbxmx");
    std::size_t errors = 0;
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 97) {
        try {
            ReadXml(bytes.data(), cut);
        } catch (const FormatError &) {
            ++errors;
        }
    }
    EXPECT_GT(errors, 90u);
}

TEST(RbxXml, FlippedBytesOnlyThrowFormatError) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const std::vector<std::uint8_t> original =
        gamefmt::test::ReadBytes(*corpus_root / "rbx/rbx-test-files/models/netassetref/xml.rbxmx");
    std::uint32_t seed = 12345;
    const auto next = [&] { return seed = seed * 1103515245u + 12345u; };
    const char pool[] = "<>/=\"&;!0123456789abcXYZ-+.eE \n\t";
    for (int round = 0; round < 300; ++round) {
        std::vector<std::uint8_t> bytes = original;
        for (int k = 0; k < 4; ++k) bytes[next() % bytes.size()] = std::uint8_t(pool[next() % (sizeof(pool) - 1)]);
        try {
            const Document d = ReadXml(bytes.data(), bytes.size());
            const Document again = Read(WriteXml(d)); // whatever was read can be written and read back
            EXPECT_EQ(again.instances.size(), d.instances.size());
        } catch (const FormatError &) {
        }
    }
}

TEST(RbxXml, RepeatedPropertyOfAnotherTypeAfterRef) {
    const Document d =
        Read(Wrap("<Ref name=\"x\">RBX0</Ref><int name=\"x\">3</int>"
                  "<SharedString name=\"y\">k</SharedString><bool name=\"y\">true</bool>"
                  "<Content name=\"zContent\"><Ref>RBX0</Ref></Content><Ref name=\"zContent\">RBX0</Ref>"));
    EXPECT_EQ(Prop(d, 0, "x").as<std::int32_t>(), 3);
    EXPECT_TRUE(Prop(d, 0, "y").as<bool>());
    EXPECT_EQ(Prop(d, 0, "zContent").as<RefValue>().target, 0u);
}

TEST(RbxXml, ContentNoneUnderAnyNameRoundTrips) {
    Document d = OnePart();
    AddProperty(d, 1, "Asset", Type::Content, Content{});
    AddProperty(d, 1, "AssetContent", Type::Content, Content{});
    const std::string out = WriteXml(d);
    EXPECT_TRUE(Contains(out, "<Content name=\"Asset\"><Ref>null</Ref></Content>"));
    EXPECT_TRUE(Contains(out, "<Content name=\"AssetContent\"><null></null></Content>"));
    const Document back = Read(out);
    EXPECT_EQ(Prop(back, 1, "Asset").type, Type::Content);
    EXPECT_EQ(CompareDocuments(d, back), "");
}

TEST(RbxXml, DeepItemNestingIsAnError) {
    std::string xml = "<roblox version=\"4\">";
    const int depth = 100000;
    for (int i = 0; i < depth; ++i) xml += "<Item class=\"Folder\">";
    for (int i = 0; i < depth; ++i) xml += "</Item>";
    xml += "</roblox>";
    EXPECT_TRUE(Contains(Thrown([&] { Read(xml); }).message(), "nesting"));
    // 4096 levels are fine, and written back without recursion.
    std::string ok = "<roblox version=\"4\">";
    for (int i = 0; i < 4096; ++i) ok += "<Item class=\"Folder\">";
    for (int i = 0; i < 4096; ++i) ok += "</Item>";
    ok += "</roblox>";
    const Document d = Read(ok);
    EXPECT_EQ(d.instances.size(), 4096u);
    EXPECT_EQ(Read(WriteXml(d)).instances.size(), 4096u);
}

TEST(RbxXml, DeepUnknownValueAndHugeBase64) {
    std::string inner;
    for (int i = 0; i < 100000; ++i) inner += "<a>";
    for (int i = 0; i < 100000; ++i) inner += "</a>";
    const Document d = Read(Wrap("<Mystery name=\"m\">" + inner + "</Mystery>"));
    const std::string &raw = Prop(d, 0, "m").as<UnknownValue>().raw;
    EXPECT_EQ(raw.rfind("<a><a><a>", 0), 0u); // pugixml's serialisation (innermost written as <a />)
    EXPECT_TRUE(raw == Prop(Read(WriteXml(d)), 0, "m").as<UnknownValue>().raw);
    const std::string big(8 << 20, 'A');
    const Document b = Read(Wrap("<BinaryString name=\"b\">" + big + "</BinaryString>"));
    EXPECT_EQ(Prop(b, 0, "b").as<std::string>().size(), std::size_t(6 << 20));
}

} // namespace
} // namespace gamefmt::rbx
