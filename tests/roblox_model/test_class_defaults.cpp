// Class defaults (docs/formats/roblox-model.md §2.7): the generated table, one property of every value type checked
// against rbx-dom's reflection database (Roblox 0.728, DefaultProperties; the values typed in from it by hand), and
// the binary writer filling a property only some instances carry.
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/class_defaults.hpp"
#include "importers/roblox_model/document/class_defaults_data.hpp"
#include "importers/roblox_model/document/value_text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace gamefmt::rbx;

namespace {

std::string Text(const char *cls, const char *prop) {
    const char *t = ClassDefaultText(cls, prop);
    return t ? t : "<none>";
}

} // namespace

TEST(RbxClassDefaults, OnePropertyOfEveryTypeAsTheDatabaseStatesIt) {
    EXPECT_EQ(ClassDefaultsVersion(), std::string("0.728.0"));
    // Keyed by the serialized name: Part.Size is "size", Part.Color "Color3uint8", Part.Shape "shape".
    EXPECT_EQ(Text("Part", "size"), "Vector3:4 1.2 2");
    EXPECT_EQ(Text("Part", "Size"), "<none>");
    EXPECT_EQ(Text("Part", "Color3uint8"), "Color3uint8:163 162 165");
    EXPECT_EQ(Text("Part", "shape"), "Enum:1");
    EXPECT_EQ(Text("Part", "TopSurface"), "Enum:3");
    EXPECT_EQ(Text("Part", "BottomSurface"), "Enum:4");
    EXPECT_EQ(Text("Part", "Material"), "Enum:256");
    EXPECT_EQ(Text("Part", "Anchored"), "Bool:false");
    EXPECT_EQ(Text("Part", "CanCollide"), "Bool:true");
    EXPECT_EQ(Text("Part", "BackParamA"), "Float32:-0.5");
    EXPECT_EQ(Text("Part", "CollisionGroup"), "String:Default");
    EXPECT_EQ(Text("Part", "CollisionGroupId"), "Int32:0");
    EXPECT_EQ(Text("Part", "CFrame"), "CFrame:0 0 0 1 0 0 0 1 0 0 0 1");
    EXPECT_EQ(Text("Part", "CustomPhysicalProperties"), "PhysicalProperties:default");
    // Instance's own serialize under other names: Attributes as AttributesSerialize, Sandboxed as
    // DefinesCapabilities.
    EXPECT_EQ(Text("Folder", "SourceAssetId"), "Int64:-1");
    EXPECT_EQ(Text("Folder", "Tags"), "String:");
    EXPECT_EQ(Text("Folder", "AttributesSerialize"), "String:");
    EXPECT_EQ(Text("Folder", "Attributes"), "<none>");
    EXPECT_EQ(Text("Folder", "DefinesCapabilities"), "Bool:false");
    EXPECT_EQ(Text("Folder", "Capabilities"), "SecurityCapabilities:0");
    EXPECT_EQ(Text("Folder", "UniqueId"), "UniqueId:00000000000000000000000000000000");
    EXPECT_EQ(Text("AlignOrientation", "Color"), "BrickColor:23");
    EXPECT_EQ(Text("ArcHandles", "Axes"), "Axes:7");
    EXPECT_EQ(Text("Handles", "Faces"), "Faces:63");
    EXPECT_EQ(Text("ArcHandles", "Color3"), "Color3:0.050980393 0.4117647 0.6745098");
    EXPECT_EQ(Text("AudioEqualizer", "MidRange"), "NumberRange:400 4000");
    EXPECT_EQ(Text("AudioPlayer", "PlaybackSpeed"), "Float64:1");
    EXPECT_EQ(Text("Beam", "Transparency"), "NumberSequence:0 0.5 0 1 0.5 0");
    EXPECT_EQ(Text("Beam", "Color"), "ColorSequence:0 1 1 1 0 1 1 1 1 0");
    EXPECT_EQ(Text("BillboardGui", "SizeOffset"), "Vector2:0 0");
    EXPECT_EQ(Text("ImageButton", "SliceCenter"), "Rect:0 0 0 0");
    EXPECT_EQ(Text("RayValue", "Value"), "Ray:0 0 0 0 0 0");
    EXPECT_EQ(Text("TerrainRegion", "ExtentsMax"), "Vector3int16:0 0 0");
    EXPECT_EQ(Text("Actor", "WorldPivotData"), "OptionalCFrame:");
    EXPECT_EQ(Text("Animation", "AnimationContent"), "Content:none");
    EXPECT_EQ(Text("Decal", "TexturePack"), "String:");
    EXPECT_EQ(Text("AnimationGraphDefinition", "GuidBinaryString"), "BinaryString:AAAAAAAAAAAAAAAAAAAAAA==");
    EXPECT_EQ(Text("BubbleChatConfiguration", "FontFace"),
              "Font:500 Normal rbxasset://fonts/families/GothamSSm.json rbxasset://fonts/Montserrat-Medium.ttf");
    // Not in the table: an unknown class, an unknown property, a shared string (not stated here).
    EXPECT_EQ(Text("NoSuchClass", "size"), "<none>");
    EXPECT_EQ(Text("Part", "NoSuchProperty"), "<none>");
    EXPECT_EQ(Text("Actor", "ModelMeshData"), "<none>");
}

TEST(RbxClassDefaults, EveryTableValueParsesAndFormatsBackToItsText) {
    // Every default is valid value text of its type (the writer parses them): format(parse(t)) == t up to the
    // spelling of numbers, so compare parse(format(parse(t))) with parse(t) through the text once more.
    std::size_t n = 0;
    for (std::size_t i = 0; i < class_defaults::kPairCount; ++i) {
        SCOPED_TRACE(class_defaults::kPairs[i].name + std::string(" = ") + class_defaults::kPairs[i].text);
        Document scratch;
        const Value v = ParseValue(class_defaults::kPairs[i].text, scratch);
        const std::string once = FormatValue(scratch, v);
        Document scratch2;
        EXPECT_EQ(FormatValue(scratch2, ParseValue(once, scratch2)), once);
        EXPECT_TRUE(scratch.sharedStrings.empty());
        ++n;
    }
    EXPECT_GT(n, 1000u);
}

TEST(RbxClassDefaults, DefaultOfTheColumnsType) {
    const auto size = ClassDefault("Part", "size", Type::Vector3);
    ASSERT_TRUE(size.has_value());
    EXPECT_EQ(size->as<Vector3>().y, 1.2f);
    EXPECT_FALSE(ClassDefault("Part", "size", Type::Vector2).has_value()); // another type: no default
    const auto frame = ClassDefault("Part", "CFrame", Type::CFrameQuat);   // CFrame and CFrameQuat are one
    ASSERT_TRUE(frame.has_value());
    EXPECT_EQ(frame->type, Type::CFrameQuat);
    const auto speed = ClassDefault("AudioPlayer", "PlaybackSpeed", Type::Float32); // exact in float
    ASSERT_TRUE(speed.has_value());
    EXPECT_EQ(speed->as<float>(), 1.0f);
    const auto reflectance = ClassDefault("Part", "Reflectance", Type::Float64);
    ASSERT_TRUE(reflectance.has_value());
    EXPECT_EQ(reflectance->as<double>(), 0.0);
}

// The case: 3 of several Folders carry AttributesSerialize, SourceAssetId and Tags (real XML files omit
// properties). Written as binary, every Folder has them: the three their own values, the others the defaults.
TEST(RbxClassDefaults, BinaryWriteFillsWhatOnlySomeInstancesCarryWithTheDefault) {
    Document doc;
    const std::uint32_t tags = doc.names.intern("Tags");
    const std::uint32_t asset = doc.names.intern("SourceAssetId");
    const std::uint32_t attrs = doc.names.intern("AttributesSerialize");
    std::vector<std::uint32_t> folders;
    for (int i = 0; i < 6; ++i) folders.push_back(doc.addInstance("Folder", "F" + std::to_string(i), kNoInstance));
    for (int i : {1, 4}) {
        Instance &f = doc.instances[folders[static_cast<std::size_t>(i)]];
        f.properties.push_back({tags, Value{Type::String, std::string("Tagged")}});
        f.properties.push_back({asset, Value{Type::Int64, Int64Value{1000 + i}}});
        f.properties.push_back({attrs, Value{Type::String, std::string("\x01\x00\x00\x00", 4)}});
    }
    std::vector<std::string> warnings;
    BinaryWriteOptions options;
    options.warnings = &warnings;
    const auto bytes = WriteBinary(doc, options);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    const Document back = ReadBinary(bytes.data(), bytes.size());
    ASSERT_EQ(back.instances.size(), 6u);
    for (std::size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE(back.instances[i].name);
        const bool has = i == 1 || i == 4;
        const Property *t = back.findProperty(back.instances[i], "Tags");
        const Property *s = back.findProperty(back.instances[i], "SourceAssetId");
        const Property *a = back.findProperty(back.instances[i], "AttributesSerialize");
        ASSERT_TRUE(t && s && a);
        EXPECT_EQ(t->value.as<std::string>(), has ? "Tagged" : "");
        EXPECT_EQ(s->value.as<Int64Value>().value, has ? 1000 + static_cast<std::int64_t>(i) : -1);
        EXPECT_EQ(a->value.as<std::string>(), has ? std::string("\x01\x00\x00\x00", 4) : "");
    }
}

TEST(RbxClassDefaults, WithoutADefaultTheWarningNamesWhoLosesWhat) {
    Document doc;
    const std::uint32_t p = doc.names.intern("MadeUpProperty");
    for (int i = 0; i < 8; ++i) {
        const std::uint32_t f = doc.addInstance("Folder", "F" + std::to_string(i), kNoInstance);
        if (i < 7) doc.instances[f].properties.push_back({p, Value{Type::Int32, std::int32_t{i}}});
    }
    std::vector<std::string> warnings;
    BinaryWriteOptions options;
    options.warnings = &warnings;
    const auto bytes = WriteBinary(doc, options);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "class Folder: property MadeUpProperty (Int32) is missing on 1 of 8 instances and its "
                           "class default is unknown; omitted for the whole class, so 7 instances lose their values: "
                           "'F0', 'F1', 'F2', 'F3', 'F4', ...");
    const Document back = ReadBinary(bytes.data(), bytes.size());
    for (const Instance &i : back.instances) EXPECT_EQ(back.findProperty(i, "MadeUpProperty"), nullptr);
}
