// CompareDocuments on small hand-built documents: equal documents, and each kind of difference found
// and reported with the instance path, the property and both values.
#include "importers/roblox_model/document/dom.hpp"
#include "support/rbx_compare.hpp"
#include "support/rbx_values.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace gamefmt::rbx {
namespace {

Value &Get(Document &d, std::uint32_t inst, const char *name) {
    const auto id = d.names.find(name);
    for (Property &p : d.instances[inst].properties)
        if (id && p.name == *id) return p.value;
    throw std::runtime_error("no property");
}

// Model "M" { Part "P" (size, Color3uint8, Transparency, ref -> Folder), Folder "F" }; `reverseInterning`
// interns the names in another order so ids differ between the two documents.
Document Sample(bool reverseInterning = false) {
    Document d;
    if (reverseInterning) {
        d.names.intern("Transparency");
        d.names.intern("Folder");
        d.names.intern("size");
    }
    const auto model = d.addInstance("Model", "M", kNoInstance);
    const auto part = d.addInstance("Part", "P");
    const auto folder = d.addInstance("Folder", "F");
    d.setParent(part, model);
    d.setParent(folder, model);
    AddProperty(d, part, "size", Type::Vector3, Vector3{4, 1, 2});
    AddProperty(d, part, "Color3uint8", Type::Color3uint8, Color3uint8{163, 162, 165});
    AddProperty(d, part, "Transparency", Type::Float32, 0.5f);
    AddProperty(d, part, "Target", Type::Ref, RefValue{folder});
    d.sharedStrings.push_back({{}, "", "hello"});
    AddProperty(d, folder, "Blob", Type::SharedString, SharedStringRef{0});
    d.instances[part].referent = "RBX0";
    return d;
}

TEST(RbxCompare, EqualDocuments) {
    const Document a = Sample();
    const Document b = Sample(true);
    EXPECT_EQ(CompareDocuments(a, b), "");
    EXPECT_EQ(CompareDocuments(a, a), "");
}

TEST(RbxCompare, PropertyOrderDoesNotMatter) {
    Document a = Sample();
    Document b = Sample();
    auto &props = b.instances[1].properties;
    std::swap(props.front(), props.back());
    EXPECT_EQ(CompareDocuments(a, b), "");
}

TEST(RbxCompare, FloatDifferenceNamesPathPropertyAndValues) {
    Document a = Sample();
    Document b = Sample();
    Get(b, 1, "Transparency").data = 0.25f;
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Part \"P\": property Transparency: Float32 0.5 vs Float32 0.25");
}

TEST(RbxCompare, FloatsAreBitExactButNaNEqualsNaN) {
    Document a = Sample();
    Document b = Sample();
    Get(b, 1, "Transparency").data = std::nextafter(0.5f, 1.0f);
    EXPECT_NE(CompareDocuments(a, b), "");
    Get(a, 1, "Transparency").data = 0.0f;
    Get(b, 1, "Transparency").data = -0.0f;
    EXPECT_NE(CompareDocuments(a, b), "");
    Get(a, 1, "Transparency").data = std::numeric_limits<float>::quiet_NaN();
    Get(b, 1, "Transparency").data = -std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(CompareDocuments(a, b), "");
}

TEST(RbxCompare, MissingPropertyOnEitherSide) {
    Document a = Sample();
    Document b = Sample();
    b.instances[1].properties.pop_back(); // Target
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Part \"P\": property Target: Ref -> Model \"M\" > Folder \"F\" vs <missing>");
    EXPECT_EQ(CompareDocuments(b, a),
              "Model \"M\" > Part \"P\": property Target: <missing> vs Ref -> Model \"M\" > Folder \"F\"");
}

TEST(RbxCompare, TypeDifference) {
    Document a = Sample();
    Document b = Sample();
    Value &v = Get(b, 1, "Transparency");
    v.type = Type::Float64;
    v.data = 0.5;
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Part \"P\": property Transparency: Float32 0.5 vs Float64 0.5");
}

TEST(RbxCompare, VectorAndColorDifferences) {
    Document a = Sample();
    Document b = Sample();
    Get(b, 1, "size").data = Vector3{4, 1, 3};
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Part \"P\": property size: Vector3 (4, 1, 2) vs Vector3 (4, 1, 3)");
    b = Sample();
    Get(b, 1, "Color3uint8").data = Color3uint8{163, 162, 166};
    EXPECT_EQ(
        CompareDocuments(a, b),
        "Model \"M\" > Part \"P\": property Color3uint8: Color3uint8 (163, 162, 165) vs Color3uint8 (163, 162, 166)");
}

TEST(RbxCompare, RefComparedByTreePositionNotIndex) {
    // Same tree, instances stored in another order: the Ref targets different indexes but the same node.
    Document a = Sample();
    Document b;
    const auto folder = b.addInstance("Folder", "F");
    const auto part = b.addInstance("Part", "P");
    const auto model = b.addInstance("Model", "M", kNoInstance);
    b.setParent(part, model);
    b.setParent(folder, model);
    AddProperty(b, part, "Target", Type::Ref, RefValue{folder});
    AddProperty(b, part, "Transparency", Type::Float32, 0.5f);
    AddProperty(b, part, "Color3uint8", Type::Color3uint8, Color3uint8{163, 162, 165});
    AddProperty(b, part, "size", Type::Vector3, Vector3{4, 1, 2});
    b.sharedStrings.push_back({{}, "", "other"});
    b.sharedStrings.push_back({{}, "", "hello"});
    AddProperty(b, folder, "Blob", Type::SharedString, SharedStringRef{1});
    EXPECT_EQ(CompareDocuments(a, b), "");

    Get(b, part, "Target").data = RefValue{model};
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Part \"P\": property Target: Ref -> Model \"M\" > Folder \"F\" vs Ref -> Model \"M\"");
    Get(b, part, "Target").data = RefValue{kNoInstance};
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Part \"P\": property Target: Ref -> Model \"M\" > Folder \"F\" vs Ref null");
}

TEST(RbxCompare, SharedStringComparedByContent) {
    Document a = Sample();
    Document b = Sample();
    b.sharedStrings[0].content = "hellO";
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Folder \"F\": property Blob: SharedString #0 \"hello\" vs SharedString #0 \"hellO\"");
    b.sharedStrings[0].content = "hello";
    b.sharedStrings[0].hash[0] = 7; // hashes and keys are never compared
    b.sharedStrings[0].xmlKey = "key";
    EXPECT_EQ(CompareDocuments(a, b), "");
}

TEST(RbxCompare, StructureDifferences) {
    Document a = Sample();
    Document b = Sample();
    b.instances[2].name = "G";
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Folder \"F\": name \"F\" vs \"G\"");
    b = Sample();
    b.instances[2].className = b.names.intern("Configuration");
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Folder \"F\": class Folder vs Configuration");
    b = Sample();
    b.addInstance("Folder", "X", 2);
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Folder \"F\": child count 0 vs 1 ([] vs [Folder \"X\"])");
    b = Sample();
    b.addInstance("Instance", "FilteredSelection", kNoInstance);
    EXPECT_EQ(CompareDocuments(a, b),
              "root instance count: 1 vs 2 ([Model \"M\"] vs [Model \"M\", Instance \"FilteredSelection\"])");
}

TEST(RbxCompare, ChildOrderMatters) {
    Document a = Sample();
    Document b = Sample();
    std::swap(b.instances[0].children[0], b.instances[0].children[1]);
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Part \"P\": class Part vs Folder");
}

TEST(RbxCompare, Options) {
    Document a = Sample();
    Document b = Sample();
    b.instances[1].referent = "7";
    Get(b, 1, "Transparency").xmlTag = XmlTag::Double;
    EXPECT_EQ(CompareDocuments(a, b), "");
    CompareOptions strictRefs;
    strictRefs.ignoreReferentStrings = false;
    EXPECT_EQ(CompareDocuments(a, b, strictRefs), "Model \"M\" > Part \"P\": referent \"RBX0\" vs \"7\"");
    CompareOptions strictTags;
    strictTags.ignoreXmlTags = false;
    EXPECT_EQ(CompareDocuments(a, b, strictTags),
              "Model \"M\" > Part \"P\": property Transparency: Float32 0.5 [xmlTag 0] vs Float32 0.5 [xmlTag 9]");

    Document c = Sample();
    Document u = Sample();
    UnknownValue raw;
    raw.xmlTag = "Mystery";
    raw.raw = "<x/>";
    AddProperty(u, 1, "Odd", Type::Unknown, raw);
    EXPECT_NE(CompareDocuments(c, u), "");
    CompareOptions loose;
    loose.ignoreUnknown = true;
    EXPECT_EQ(CompareDocuments(c, u, loose), "");

    u = Sample();
    u.unknownChunks.push_back({"SIGN", {1, 2}, 4});
    EXPECT_EQ(CompareDocuments(c, u), "unknown chunk count: 0 vs 1");
    EXPECT_EQ(CompareDocuments(c, u, loose), "");
    u.sourceEncoding = Encoding::Xml; // raw chunks cannot cross encodings
    EXPECT_EQ(CompareDocuments(c, u), "");

    Document m = Sample();
    m.meta.emplace_back("ExplicitAutoJoints", "true");
    EXPECT_EQ(CompareDocuments(c, m), "");
    CompareOptions meta;
    meta.compareMeta = true;
    EXPECT_EQ(CompareDocuments(c, m, meta), "META entries differ: {} vs {ExplicitAutoJoints=true}");
}

TEST(RbxCompare, OtherValueKinds) {
    Document a = Sample();
    Document b = Sample();
    AddProperty(a, 2, "Cf", Type::CFrame, CFrame{});
    AddProperty(b, 2, "Cf", Type::CFrameQuat, CFrame{}); // CFrameQuat is a storage choice of CFrame
    EXPECT_EQ(CompareDocuments(a, b), "");
    CFrame turned;
    turned.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    Get(b, 2, "Cf").data = turned;
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Folder \"F\": property Cf: CFrame pos (0, 0, 0) rot (1 0 0 | 0 1 0 | 0 0 1) vs "
              "CFrameQuat pos (0, 0, 0) rot (0 0 1 | 0 1 0 | -1 0 0)");

    a = Sample();
    b = Sample();
    PhysicalProperties oldDefault; // flag 0 (old Studio) and 2 (new Studio) both mean default
    PhysicalProperties newDefault;
    newDefault.flags = 2;
    AddProperty(a, 2, "Phys", Type::PhysicalProperties, oldDefault);
    AddProperty(b, 2, "Phys", Type::PhysicalProperties, newDefault);
    EXPECT_EQ(CompareDocuments(a, b), "");

    Content uri;
    uri.source = Content::Source::Uri;
    uri.uri = "rbxassetid://1";
    Content object;
    object.source = Content::Source::Object;
    object.object = 1;
    AddProperty(a, 2, "Image", Type::Content, uri);
    AddProperty(b, 2, "Image", Type::Content, object);
    EXPECT_EQ(CompareDocuments(a, b), "Model \"M\" > Folder \"F\": property Image: Content Uri \"rbxassetid://1\" vs "
                                      "Content Object -> Model \"M\" > Part \"P\"");

    a = Sample();
    b = Sample();
    AddProperty(a, 2, "Str", Type::String, std::string("a\0b", 3));
    AddProperty(b, 2, "Str", Type::String, std::string("a\0c", 3));
    EXPECT_EQ(CompareDocuments(a, b),
              "Model \"M\" > Folder \"F\": property Str: String \"a\\x00b\" vs String \"a\\x00c\"");
}

} // namespace
} // namespace gamefmt::rbx
