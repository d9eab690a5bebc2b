// The "<Type>:<text>" property text (docs/formats/roblox-model.md §5.1): the spelling of every type and exact
// Format → Parse → Format round trips.
#include "importers/roblox_model/document/value_text.hpp"

#include "common/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace gamefmt::rbx {
namespace {

Value Make(Type type, ValueData data) {
    Value v;
    v.type = type;
    v.data = std::move(data);
    return v;
}

std::uint32_t Bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// Formats, parses back into a fresh copy of the document, and checks the text is stable and the type kept.
Value RoundTrip(Document &doc, const Value &value, const std::string &expected) {
    const std::string text = FormatValue(doc, value);
    EXPECT_EQ(text, expected);
    Value back = ParseValue(text, doc);
    EXPECT_EQ(static_cast<int>(back.type), static_cast<int>(value.type));
    EXPECT_EQ(back.data.index(), value.data.index()) << text;
    EXPECT_EQ(FormatValue(doc, back), text);
    return back;
}

TEST(RbxValueText, Scalars) {
    Document doc;
    RoundTrip(doc, Make(Type::String, std::string("Hello, wörld")), "String:Hello, wörld");
    RoundTrip(doc, Make(Type::String, std::string()), "String:");
    RoundTrip(doc, Make(Type::Bool, true), "Bool:true");
    RoundTrip(doc, Make(Type::Bool, false), "Bool:false");
    RoundTrip(doc, Make(Type::Int32, std::int32_t(-2147483647 - 1)), "Int32:-2147483648");
    RoundTrip(doc, Make(Type::Float32, 0.1f), "Float32:0.1");
    RoundTrip(doc, Make(Type::Float32, -0.0f), "Float32:-0");
    RoundTrip(doc, Make(Type::Float32, std::numeric_limits<float>::infinity()), "Float32:INF");
    RoundTrip(doc, Make(Type::Float32, -std::numeric_limits<float>::infinity()), "Float32:-INF");
    const Value nan = RoundTrip(doc, Make(Type::Float32, std::numeric_limits<float>::quiet_NaN()), "Float32:NAN");
    EXPECT_TRUE(std::isnan(nan.as<float>()));
    RoundTrip(doc, Make(Type::Float64, 0.1), "Float64:0.1");
    RoundTrip(doc, Make(Type::Int64, Int64Value{-7654321}), "Int64:-7654321");
    RoundTrip(doc, Make(Type::Int64, Int64Value{std::numeric_limits<std::int64_t>::min()}),
              "Int64:-9223372036854775808");
    RoundTrip(doc, Make(Type::Enum, EnumValue{4294967295u}), "Enum:4294967295");
    RoundTrip(doc, Make(Type::BrickColor, BrickColor{1004}), "BrickColor:1004");
    RoundTrip(doc, Make(Type::Faces, Faces{42}), "Faces:42");
    RoundTrip(doc, Make(Type::Axes, Axes{7}), "Axes:7");
    RoundTrip(doc, Make(Type::SecurityCapabilities, SecurityCapabilities{18446744073709551615ull}),
              "SecurityCapabilities:18446744073709551615");
}

TEST(RbxValueText, BinaryStrings) {
    Document doc;
    // NUL and invalid UTF-8 switch to BinaryString + base64; both parse back to a String value.
    const Value nul =
        RoundTrip(doc, Make(Type::String, std::string("Cool\0My\0Tags", 12)), "BinaryString:Q29vbABNeQBUYWdz");
    EXPECT_EQ(nul.as<std::string>(), std::string("Cool\0My\0Tags", 12));
    RoundTrip(doc, Make(Type::String, std::string("\xFF\xFE", 2)), "BinaryString://4=");
    RoundTrip(doc, Make(Type::String, std::string("\xC0\xAF", 2)), "BinaryString:wK8=");     // overlong '/'
    RoundTrip(doc, Make(Type::String, std::string("\xED\xA0\x80", 3)), "BinaryString:7aCA"); // surrogate
    RoundTrip(doc, Make(Type::Bytecode, Bytecode{std::string("\x1b\x4c\x75\x61", 4)}), "Bytecode:G0x1YQ==");
    EXPECT_TRUE(IsPlainUtf8("\xF0\x9F\x98\x80"));
    EXPECT_FALSE(IsPlainUtf8("\xF4\x90\x80\x80")); // past U+10FFFF
}

TEST(RbxValueText, Compounds) {
    Document doc;
    RoundTrip(doc, Make(Type::UDim, UDim{1, 2}), "UDim:1 2");
    RoundTrip(doc, Make(Type::UDim2, UDim2{{0.75f, -30}, {-1.5f, 60}}), "UDim2:0.75 -30 -1.5 60");
    RoundTrip(doc, Make(Type::Ray, Ray{{1, 2, 3}, {-1, -2, -3}}), "Ray:1 2 3 -1 -2 -3");
    RoundTrip(doc, Make(Type::Color3, Color3{1, 0.5f, 0}), "Color3:1 0.5 0");
    RoundTrip(doc, Make(Type::Vector2, Vector2{-1.5f, 2}), "Vector2:-1.5 2");
    RoundTrip(doc, Make(Type::Vector3, Vector3{1, 2, 3}), "Vector3:1 2 3");
    RoundTrip(doc, Make(Type::Vector2int16, Vector2int16{-32768, 32767}), "Vector2int16:-32768 32767");
    RoundTrip(doc, Make(Type::Vector3int16, Vector3int16{1, -2, 3}), "Vector3int16:1 -2 3");
    RoundTrip(doc, Make(Type::Color3uint8, Color3uint8{0, 255, 127}), "Color3uint8:0 255 127");
    RoundTrip(doc, Make(Type::NumberRange, NumberRange{-1, 2.5f}), "NumberRange:-1 2.5");
    RoundTrip(doc, Make(Type::Rect, Rect{{1, 2}, {3, 4}}), "Rect:1 2 3 4");
    CFrame cf;
    cf.position = {4, 5, 6};
    cf.rotation = {0, 0, -1, 0, 1, 0, 1, 0, 0};
    RoundTrip(doc, Make(Type::CFrame, cf), "CFrame:4 5 6 0 0 -1 0 1 0 1 0 0");
    RoundTrip(doc, Make(Type::CFrameQuat, cf), "CFrameQuat:4 5 6 0 0 -1 0 1 0 1 0 0");
    cf.rotation[0] = std::numeric_limits<float>::infinity();
    RoundTrip(doc, Make(Type::CFrame, cf), "CFrame:4 5 6 INF 0 -1 0 1 0 1 0 0");
    RoundTrip(doc, Make(Type::OptionalCFrame, OptionalCFrame{}), "OptionalCFrame:");
    OptionalCFrame ocf;
    ocf.present = true;
    ocf.value.position = {1, 2, 3};
    RoundTrip(doc, Make(Type::OptionalCFrame, ocf), "OptionalCFrame:1 2 3 1 0 0 0 1 0 0 0 1");
}

TEST(RbxValueText, Sequences) {
    Document doc;
    NumberSequence ns;
    ns.keypoints = {{0, 6, 3}, {1, 4, 2}};
    RoundTrip(doc, Make(Type::NumberSequence, ns), "NumberSequence:0 6 3 1 4 2");
    RoundTrip(doc, Make(Type::NumberSequence, NumberSequence{}), "NumberSequence:");
    ColorSequence cs;
    cs.keypoints = {{0, {1, 0, 0}, 0}, {1, {0, 0.5f, 1}, 0}};
    RoundTrip(doc, Make(Type::ColorSequence, cs), "ColorSequence:0 1 0 0 0 1 0 0.5 1 0");
    EXPECT_THROW(ParseValue("NumberSequence:0 1", doc), FormatError);
}

TEST(RbxValueText, PhysicalPropertiesKeepTheirFlag) {
    Document doc;
    PhysicalProperties p;
    p.flags = 0;
    EXPECT_EQ(
        RoundTrip(doc, Make(Type::PhysicalProperties, p), "PhysicalProperties:default").as<PhysicalProperties>().flags,
        0);
    p.flags = 2;
    EXPECT_EQ(RoundTrip(doc, Make(Type::PhysicalProperties, p), "PhysicalProperties:default acoustic")
                  .as<PhysicalProperties>()
                  .flags,
              2);
    p = PhysicalProperties{1, 0.7f, 0.3f, 0.5f, 1, 1, 0};
    EXPECT_EQ(RoundTrip(doc, Make(Type::PhysicalProperties, p), "PhysicalProperties:0.7 0.3 0.5 1 1")
                  .as<PhysicalProperties>()
                  .flags,
              1);
    p = PhysicalProperties{3, 0.7f, 0.3f, 0.5f, 1, 1, 0.25f};
    const Value back = RoundTrip(doc, Make(Type::PhysicalProperties, p), "PhysicalProperties:0.7 0.3 0.5 1 1 0.25");
    EXPECT_EQ(back.as<PhysicalProperties>().flags, 3);
    EXPECT_EQ(Bits(back.as<PhysicalProperties>().acousticAbsorption), Bits(0.25f));
}

TEST(RbxValueText, RefsAndContent) {
    Document doc;
    const std::uint32_t a = doc.addInstance("Part", "A");
    const std::uint32_t b = doc.addInstance("Folder", "B");
    doc.instances[a].referent = "RBX0123";
    // b has no referent: it is named by its index.
    RoundTrip(doc, Make(Type::Ref, RefValue{a}), "Ref:RBX0123");
    EXPECT_EQ(RoundTrip(doc, Make(Type::Ref, RefValue{b}), "Ref:@1").as<RefValue>().target, b);
    EXPECT_EQ(RoundTrip(doc, Make(Type::Ref, RefValue{}), "Ref:null").as<RefValue>().target, kNoInstance);
    RoundTrip(doc, Make(Type::Content, Content{}), "Content:none");
    Content uri;
    uri.source = Content::Source::Uri;
    uri.uri = "rbxasset://textures/face with space.png";
    RoundTrip(doc, Make(Type::Content, uri), "Content:uri rbxasset://textures/face with space.png");
    Content obj;
    obj.source = Content::Source::Object;
    obj.object = a;
    EXPECT_EQ(RoundTrip(doc, Make(Type::Content, obj), "Content:object RBX0123").as<Content>().object, a);
    obj.object = kNoInstance;
    RoundTrip(doc, Make(Type::Content, obj), "Content:object null");
    // A caller-supplied resolver wins.
    const Value r = ParseValue("Ref:anything", doc, [&](std::string_view) { return b; });
    EXPECT_EQ(r.as<RefValue>().target, b);
}

TEST(RbxValueText, SharedStringsAreAddedOnce) {
    Document source;
    source.sharedStrings.push_back({{}, "key", std::string("abc\0def", 7)});
    const Value v = Make(Type::SharedString, SharedStringRef{0});
    const std::string text = FormatValue(source, v);
    EXPECT_EQ(text, "SharedString:YWJjAGRlZg==");
    Document rebuilt;
    ValueParser parser(rebuilt);
    EXPECT_EQ(parser.parse(text).as<SharedStringRef>().index, 0u);
    EXPECT_EQ(parser.parse("SharedString:eHl6").as<SharedStringRef>().index, 1u);
    EXPECT_EQ(parser.parse(text).as<SharedStringRef>().index, 0u);
    ASSERT_EQ(rebuilt.sharedStrings.size(), 2u);
    EXPECT_EQ(rebuilt.sharedStrings[0].content, std::string("abc\0def", 7));
    EXPECT_EQ(rebuilt.sharedStrings[1].content, "xyz");
}

TEST(RbxValueText, UniqueIdUsesTheXmlForm) {
    Document doc;
    UniqueId u;
    u.index = 0x00001234;
    u.time = 0x0ABCDEF0;
    u.random = 0x0000000000000003ull; // xml random = rotr64(3, 1) = 0x8000000000000001
    const Value back = RoundTrip(doc, Make(Type::UniqueId, u), "UniqueId:80000000000000010ABCDEF000001234");
    EXPECT_EQ(back.as<UniqueId>().random, 3u);
    EXPECT_EQ(back.as<UniqueId>().time, 0x0ABCDEF0u);
    EXPECT_EQ(back.as<UniqueId>().index, 0x1234u);
}

TEST(RbxValueText, FontEncodesSpacesUnambiguously) {
    Document doc;
    Font f;
    f.family = "rbxasset://fonts/families/Source Sans Pro.json";
    f.weight = 700;
    f.style = 1;
    Value back =
        RoundTrip(doc, Make(Type::Font, f), "Font:700 Italic rbxasset://fonts/families/Source%20Sans%20Pro.json");
    EXPECT_EQ(back.as<Font>().family, f.family);
    EXPECT_EQ(back.as<Font>().cachedFaceId, "");
    f.cachedFaceId = "rbxasset://fonts/a%b.ttf";
    f.style = 0;
    back = RoundTrip(doc, Make(Type::Font, f),
                     "Font:700 Normal rbxasset://fonts/families/Source%20Sans%20Pro.json rbxasset://fonts/a%25b.ttf");
    EXPECT_EQ(back.as<Font>().cachedFaceId, f.cachedFaceId);
    Font empty; // edge-cases/empty-font: no family
    RoundTrip(doc, Make(Type::Font, empty), "Font:400 Normal -");
    Font dash;
    dash.family = "-";
    dash.style = 7;
    EXPECT_EQ(RoundTrip(doc, Make(Type::Font, dash), "Font:400 7 %2D").as<Font>().family, "-");
}

TEST(RbxValueText, UnknownKeepsItsBytes) {
    Document doc;
    UnknownValue u;
    u.binaryType = 0xFF;
    u.xmlTag = "SomethingNew";
    u.raw = "<X>1</X>";
    Value back = RoundTrip(doc, Make(Type::Unknown, u), "Unknown:255 SomethingNew PFg+MTwvWD4=");
    EXPECT_EQ(back.as<UnknownValue>().raw, u.raw);
    u.binaryType = 0x30;
    u.xmlTag.clear();
    back = RoundTrip(doc, Make(Type::Unknown, u), "Unknown:48  PFg+MTwvWD4=");
    EXPECT_EQ(back.as<UnknownValue>().xmlTag, "");
}

TEST(RbxValueText, MalformedTextThrows) {
    Document doc;
    EXPECT_THROW(ParseValue("no colon", doc), FormatError);
    EXPECT_THROW(ParseValue("Nonsense:1", doc), FormatError);
    EXPECT_THROW(ParseValue("Bool:yes", doc), FormatError);
    EXPECT_THROW(ParseValue("Int32:2147483648", doc), FormatError);
    EXPECT_THROW(ParseValue("Vector3:1 2", doc), FormatError);
    EXPECT_THROW(ParseValue("Color3uint8:0 256 0", doc), FormatError);
    EXPECT_THROW(ParseValue("BinaryString:@@@", doc), FormatError);
    EXPECT_THROW(ParseValue("PhysicalProperties:1 2 3", doc), FormatError);
    EXPECT_THROW(ParseValue("UniqueId:123", doc), FormatError);
    EXPECT_THROW(ParseValue("Font:400 Normal a%2", doc), FormatError);
    EXPECT_THROW(ParseValue("Content:url x", doc), FormatError);
}

} // namespace
} // namespace gamefmt::rbx
