// Conformance of the Roblox codecs on rojo-rbx/rbx-test-files: every file decodes, binary and XML saves
// of a case decode to the same document, decoded values match rbx-dom's golden chunk dumps
// (<case>__input.snap) and trees (<case>__decoded.snap), and every write/read round trip is lossless.
#include "common/base64.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/blobs.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/xml_reader.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_compare.hpp"
#include "support/snap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

namespace gamefmt::rbx {
namespace {

using test::SnapNode;

namespace fs = std::filesystem;

struct CorpusFile {
    std::string caseName; // "models/attributes"
    fs::path path;
    bool binary = false;
};

fs::path TestFilesDir() {
    return *test::CorpusDir() / "rbx" / "rbx-test-files";
}
fs::path ExpectedDir() {
    return *test::CorpusDir() / "rbx" / "rbx-dom-expected";
}

std::vector<fs::path> CaseDirs(const char *group) {
    std::vector<fs::path> dirs;
    const fs::path root = TestFilesDir() / group;
    if (!fs::exists(root)) return dirs;
    for (const auto &e : fs::directory_iterator(root))
        if (e.is_directory()) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

std::vector<CorpusFile> AllFiles() {
    std::vector<CorpusFile> files;
    for (const char *group : {"models", "places", "edge-cases"}) {
        for (const fs::path &dir : CaseDirs(group)) {
            for (const char *name : {"binary.rbxm", "binary.rbxl", "xml.rbxmx", "xml.rbxlx"}) {
                const fs::path p = dir / name;
                if (fs::exists(p))
                    files.push_back({std::string(group) + "/" + dir.filename().string(), p, name[0] == 'b'});
            }
        }
    }
    return files;
}

Document Read(const fs::path &path, bool binary) {
    const std::vector<std::uint8_t> bytes = test::ReadBytes(path);
    return binary ? ReadBinary(bytes.data(), bytes.size()) : ReadXml(bytes.data(), bytes.size());
}

Document ReadBytesAs(const std::vector<std::uint8_t> &bytes, bool binary) {
    return binary ? ReadBinary(bytes.data(), bytes.size()) : ReadXml(bytes.data(), bytes.size());
}

Document ReadText(const std::string &xml) {
    return ReadXml(reinterpret_cast<const std::uint8_t *>(xml.data()), xml.size());
}

// ---------------------------------------------------------------------------------------------------
// The .snap reader itself

TEST(RbxSnapReader, ParsesTheSubsetTheSnapshotsUse) {
    const test::Snap snap = test::ParseSnap("---\nsource: x.rs\nexpression: text_decoded\n---\n"
                                            "num: 3\n"
                                            "chunks:\n"
                                            "  - Meta:\n"
                                            "      entries:\n"
                                            "        - - ExplicitAutoJoints\n"
                                            "          - \"true\"\n"
                                            "  - Prop:\n"
                                            "      values:\n"
                                            "        - - - 0\n"
                                            "            - 1\n"
                                            "          - - 2\n"
                                            "            - 3\n"
                                            "        - []\n"
                                            "        - {}\n"
                                            "        - ~\n"
                                            "        - \"a\\u0000\\b\\n\\\"\"\n"
                                            "        - 01 ff \n"
                                            "        - [a, \"b c\", [1]]\n"
                                            "  - End\n"
                                            "\"Infinity\":\n"
                                            "  Float64: inf\n"
                                            "list:\n"
                                            "- x\n"
                                            "- y\n");
    EXPECT_EQ(snap.header.at("expression"), "text_decoded");
    const SnapNode &r = snap.root;
    EXPECT_EQ(r.at("num").str(), "3");
    const SnapNode &chunks = r.at("chunks");
    ASSERT_EQ(chunks.items.size(), 3u);
    const SnapNode &entry = chunks.at(std::size_t(0)).at("Meta").at("entries").at(std::size_t(0));
    EXPECT_EQ(entry.at(std::size_t(0)).str(), "ExplicitAutoJoints");
    EXPECT_TRUE(entry.at(std::size_t(1)).quoted);
    EXPECT_EQ(entry.at(std::size_t(1)).str(), "true");
    const SnapNode &values = chunks.at(std::size_t(1)).at("Prop").at("values");
    ASSERT_EQ(values.items.size(), 7u);
    EXPECT_EQ(values.at(std::size_t(0)).dump(), "[[0, 1], [2, 3]]");
    EXPECT_TRUE(values.at(std::size_t(1)).isList() && values.at(std::size_t(1)).items.empty());
    EXPECT_TRUE(values.at(std::size_t(2)).isMap() && values.at(std::size_t(2)).entries.empty());
    EXPECT_TRUE(values.at(std::size_t(3)).isNull());
    EXPECT_EQ(values.at(std::size_t(4)).str(), std::string("a\0\b\n\"", 5));
    std::string bytes;
    EXPECT_TRUE(test::ParseHexDump(values.at(std::size_t(5)).str(), bytes));
    EXPECT_EQ(bytes, "\x01\xff");
    EXPECT_EQ(values.at(std::size_t(6)).dump(), "[a, \"b c\", [1]]");
    EXPECT_EQ(chunks.at(std::size_t(2)).str(), "End");
    EXPECT_EQ(r.at("Infinity").at("Float64").str(), "inf");
    EXPECT_EQ(r.at("list").dump(), "[x, y]");
    EXPECT_FALSE(test::ParseHexDump("Hello", bytes));
    EXPECT_THROW(test::ParseSnap("no header"), std::runtime_error);
    EXPECT_THROW(test::ParseSnap("---\nsource: x\n---\na: \"unterminated\n"), std::runtime_error);
}

TEST(RbxSnapReader, EveryCorpusSnapshotParses) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    int parsed = 0;
    for (const auto &e : fs::directory_iterator(ExpectedDir())) {
        if (e.path().extension() != ".snap") continue;
        SCOPED_TRACE(e.path().filename().string());
        try {
            const test::Snap snap = test::LoadSnap(e.path());
            EXPECT_FALSE(snap.header.at("expression").empty());
            EXPECT_FALSE(snap.root.isNull());
            ++parsed;
        } catch (const std::exception &ex) {
            ADD_FAILURE() << ex.what();
        }
    }
    EXPECT_EQ(parsed, 147); // 49 cases × input, decoded, encoded (LICENSE.txt is the 148th file)
}

// ---------------------------------------------------------------------------------------------------
// (a) every file decodes

TEST(RbxConformance, EveryCorpusFileDecodes) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    const auto files = AllFiles();
    ASSERT_GE(files.size(), 100u); // 50 models × 2, 4 places × 2, 2 edge cases
    for (const CorpusFile &f : files) {
        SCOPED_TRACE(f.path.string());
        try {
            const std::vector<std::uint8_t> bytes = test::ReadBytes(f.path);
            const Document d = ReadDocument(bytes.data(), bytes.size());
            EXPECT_FALSE(d.roots.empty()) << f.caseName;
            // Not EXPECT_EQ: detect.hpp declares another rbx::Encoding, and gtest's CmpHelperEQ<Encoding>
            // instantiations from the two headers collide at link time (an ODR clash reported to the lead).
            EXPECT_TRUE(d.sourceEncoding == (f.binary ? Encoding::Binary : Encoding::Xml));
            // Every instance is reachable from a root exactly once.
            std::vector<int> seen(d.instances.size(), 0);
            std::vector<std::uint32_t> stack(d.roots.begin(), d.roots.end());
            while (!stack.empty()) {
                const std::uint32_t i = stack.back();
                stack.pop_back();
                ASSERT_LT(i, d.instances.size());
                ++seen[i];
                for (std::uint32_t c : d.instances[i].children) stack.push_back(c);
            }
            for (std::size_t i = 0; i < seen.size(); ++i)
                EXPECT_EQ(seen[i], 1) << f.caseName << ": instance " << i << " (" << d.className(d.instances[i])
                                      << " \"" << d.instances[i].name << "\")";
        } catch (const std::exception &e) {
            ADD_FAILURE() << f.caseName << ": " << e.what();
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// (b) binary and XML saves of one case are the same document

// Binary places carry extra root instances of class `Instance` (FilteredSelection…) that the XML save
// lacks (§2.7): drop those roots from the binary document before comparing.
void DropExtraInstanceRoots(Document &binary, const Document &xml) {
    std::multiset<std::string> xmlRoots;
    for (std::uint32_t r : xml.roots) xmlRoots.insert(xml.className(xml.instances[r]) + "\n" + xml.instances[r].name);
    std::vector<std::uint32_t> kept;
    for (std::uint32_t r : binary.roots) {
        const Instance &i = binary.instances[r];
        const std::string key = binary.className(i) + "\n" + i.name;
        auto it = xmlRoots.find(key);
        if (binary.className(i) == "Instance" && it == xmlRoots.end()) continue;
        if (it != xmlRoots.end()) xmlRoots.erase(it);
        kept.push_back(r);
    }
    binary.roots = kept;
}

void RemoveProperty(Document &d, const std::string &className, const std::string &prop) {
    const auto id = d.names.find(prop);
    if (!id) return;
    for (Instance &i : d.instances) {
        if (d.className(i) != className) continue;
        auto &ps = i.properties;
        ps.erase(std::remove_if(ps.begin(), ps.end(), [&](const Property &p) { return p.name == *id; }), ps.end());
    }
}

// Representation differences between Studio's two saves of the same model, checked on the corpus:
//  * rotation ids (§2.5) cannot carry signed zeros, while Studio's XML writes the matrix with its -0
//    entries (`cframe-special-cases` "06", `netassetref` UnionOperation: `<R01>-0</R01>`); so -0 and +0
//    are made equal in CFrame rotations;
//  * Studio writes NumberSequence/ColorSequence XML text with 6 significant digits
//    (`two-particleemitters`: binary 0.080367394, XML "0.0803674"); so keypoints are compared at that
//    precision.
float Round6(float v) {
    if (!std::isfinite(v)) return v;
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", static_cast<double>(v));
    float out = v;
    ParseFloat(text, out);
    return out;
}

void NormaliseStudioXmlPrecision(Document &d) {
    for (Instance &inst : d.instances) {
        for (Property &p : inst.properties) {
            Value &v = p.value;
            if (v.type == Type::CFrame || v.type == Type::CFrameQuat) {
                for (float &f : v.as<CFrame>().rotation) f = f == 0.0f ? 0.0f : f;
            } else if (v.type == Type::OptionalCFrame) {
                for (float &f : v.as<OptionalCFrame>().value.rotation) f = f == 0.0f ? 0.0f : f;
            } else if (v.type == Type::NumberSequence) {
                for (NumberKeypoint &k : v.as<NumberSequence>().keypoints) {
                    k.time = Round6(k.time);
                    k.value = Round6(k.value);
                    k.envelope = Round6(k.envelope);
                }
            } else if (v.type == Type::ColorSequence) {
                for (ColorKeypoint &k : v.as<ColorSequence>().keypoints) {
                    k.time = Round6(k.time);
                    k.color = {Round6(k.color.r), Round6(k.color.g), Round6(k.color.b)};
                    k.envelope = Round6(k.envelope);
                }
            }
        }
    }
}

TEST(RbxConformance, BinaryAndXmlSavesAreEqual) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    int compared = 0;
    for (const char *group : {"models", "places"}) {
        for (const fs::path &dir : CaseDirs(group)) {
            const std::string name = dir.filename().string();
            const bool model = std::string(group) == "models";
            const fs::path bin = dir / (model ? "binary.rbxm" : "binary.rbxl");
            const fs::path xml = dir / (model ? "xml.rbxmx" : "xml.rbxlx");
            if (!fs::exists(bin) || !fs::exists(xml)) continue;
            SCOPED_TRACE(std::string(group) + "/" + name);
            try {
                Document b = Read(bin, true);
                Document x = Read(xml, false);
                if (!model) DropExtraInstanceRoots(b, x);
                NormaliseStudioXmlPrecision(b);
                NormaliseStudioXmlPrecision(x);
                if (name == "default-inserted-part") {
                    // The reference §8 item 16: the two saves place the part differently, so only the
                    // placement may differ.
                    RemoveProperty(b, "Part", "CFrame");
                    RemoveProperty(x, "Part", "CFrame");
                }
                EXPECT_EQ(CompareDocuments(b, x), "") << group << "/" << name;
                ++compared;
            } catch (const std::exception &e) {
                ADD_FAILURE() << group << "/" << name << ": " << e.what();
            }
        }
    }
    EXPECT_GE(compared, 54);
}

// ---------------------------------------------------------------------------------------------------
// (c) values against rbx-dom's golden dumps

bool SameFloatBits(float a, float b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, 4) == 0;
}

// The snap's number text: shortest round-trip floats, `inf`, `-inf`, `NaN`.
bool SnapFloat(const SnapNode &n, float &out) {
    return n.isScalar() && ParseFloat(n.scalar, out);
}

bool ExpectFloats(const SnapNode &n, std::initializer_list<float> values) {
    if (!n.isList() || n.items.size() != values.size()) return false;
    std::size_t i = 0;
    for (float v : values) {
        float s = 0;
        if (!SnapFloat(n.items[i++], s) || !SameFloatBits(s, v)) return false;
    }
    return true;
}

bool ExpectInts(const SnapNode &n, std::initializer_list<std::int64_t> values) {
    if (!n.isList() || n.items.size() != values.size()) return false;
    std::size_t i = 0;
    for (std::int64_t v : values) {
        std::int64_t s = 0;
        if (!n.items[i].isScalar() || !ParseInt64(n.items[i].scalar, s) || s != v) return false;
        ++i;
    }
    return true;
}

bool ExpectCFrame(const SnapNode &n, const CFrame &c) {
    const SnapNode *pos = n.find("position");
    const SnapNode *rot = n.find("orientation");
    if (!pos || !rot || !ExpectFloats(*pos, {c.position.x, c.position.y, c.position.z})) return false;
    if (!rot->isList() || rot->items.size() != 3) return false;
    for (std::size_t r = 0; r < 3; ++r)
        if (!ExpectFloats(rot->items[r], {c.rotation[r * 3], c.rotation[r * 3 + 1], c.rotation[r * 3 + 2]}))
            return false;
    return true;
}

bool ValidUtf8(const std::string &s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        i += n;
    }
    return true;
}

bool ExpectString(const SnapNode &n, const std::string &value) {
    if (!n.isScalar()) return false;
    if (!ValidUtf8(value)) {
        std::string bytes;
        return test::ParseHexDump(n.scalar, bytes) && bytes == value;
    }
    return n.scalar == value;
}

bool ExpectNameList(const SnapNode &n, std::uint8_t bits, std::initializer_list<const char *> names) {
    if (!n.isList()) return false;
    std::vector<std::string> expected;
    std::size_t bit = 0;
    for (const char *name : names) {
        if (bits & (1u << bit)) expected.push_back(name);
        ++bit;
    }
    if (n.items.size() != expected.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (!n.items[i].isScalar() || n.items[i].scalar != expected[i]) return false;
    return true;
}

const char *FontWeightName(std::uint16_t w) {
    switch (w) {
    case 100:
        return "Thin";
    case 200:
        return "ExtraLight";
    case 300:
        return "Light";
    case 400:
        return "Regular";
    case 500:
        return "Medium";
    case 600:
        return "SemiBold";
    case 700:
        return "Bold";
    case 800:
        return "ExtraBold";
    case 900:
        return "Heavy";
    default:
        return "?";
    }
}

std::string Hex(std::uint64_t v, int digits) {
    static const char *hex = "0123456789abcdef";
    std::string s(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = hex[v & 15];
    return s;
}

// `value` against one entry of a PROP chunk's `values` in __input.snap. Ref targets compare by the
// decimal referent the binary file stored (= the summed referent the dump prints).
bool MatchesInputSnap(const Document &d, const Value &value, const SnapNode &n) {
    switch (value.data.index()) {
    case 0:
        return ExpectString(n, value.as<std::string>());
    case 1:
        return n.isScalar() && n.scalar == (value.as<bool>() ? "true" : "false");
    case 2: {
        std::int64_t s = 0;
        return n.isScalar() && ParseInt64(n.scalar, s) && s == value.as<std::int32_t>();
    }
    case 3: {
        float s = 0;
        return SnapFloat(n, s) && SameFloatBits(s, value.as<float>());
    }
    case 4: {
        double s = 0;
        if (!n.isScalar() || !ParseDouble(n.scalar, s)) return false;
        const double v = value.as<double>();
        return (std::isnan(s) && std::isnan(v)) || std::memcmp(&s, &v, 8) == 0;
    }
    case 5: {
        const UDim u = value.as<UDim>();
        float sc = 0;
        std::int64_t off = 0;
        return n.isList() && n.items.size() == 2 && SnapFloat(n.items[0], sc) && SameFloatBits(sc, u.scale) &&
               n.items[1].isScalar() && ParseInt64(n.items[1].scalar, off) && off == u.offset;
    }
    case 6: {
        const UDim2 u = value.as<UDim2>();
        if (!n.isList() || n.items.size() != 2) return false;
        const UDim parts[2] = {u.x, u.y};
        for (std::size_t i = 0; i < 2; ++i) {
            const SnapNode &p = n.items[i];
            if (!p.isList() || p.items.size() != 2) return false;
            float s = 0;
            std::int64_t o = 0;
            if (!SnapFloat(p.items[0], s) || !SameFloatBits(s, parts[i].scale) || !ParseInt64(p.items[1].scalar, o) ||
                o != parts[i].offset)
                return false;
        }
        return true;
    }
    case 7: {
        const Ray r = value.as<Ray>();
        const SnapNode *o = n.find("origin");
        const SnapNode *dir = n.find("direction");
        return o && dir && ExpectFloats(*o, {r.origin.x, r.origin.y, r.origin.z}) &&
               ExpectFloats(*dir, {r.direction.x, r.direction.y, r.direction.z});
    }
    case 8:
        return ExpectNameList(n, value.as<Faces>().bits, {"Right", "Top", "Back", "Left", "Bottom", "Front"});
    case 9:
        return ExpectNameList(n, value.as<Axes>().bits, {"X", "Y", "Z"});
    case 10: {
        std::int64_t s = 0;
        return n.isScalar() && ParseInt64(n.scalar, s) && s == value.as<BrickColor>().number;
    }
    case 11:
        return ExpectFloats(n, {value.as<Color3>().r, value.as<Color3>().g, value.as<Color3>().b});
    case 12:
        return ExpectFloats(n, {value.as<Vector2>().x, value.as<Vector2>().y});
    case 13:
        return ExpectFloats(n, {value.as<Vector3>().x, value.as<Vector3>().y, value.as<Vector3>().z});
    case 14:
        return ExpectInts(n, {value.as<Vector2int16>().x, value.as<Vector2int16>().y});
    case 15:
        return ExpectCFrame(n, value.as<CFrame>());
    case 16: {
        std::int64_t s = 0;
        return n.isScalar() && ParseInt64(n.scalar, s) && s == value.as<EnumValue>().value;
    }
    case 17: {
        std::int64_t s = 0;
        if (!n.isScalar() || !ParseInt64(n.scalar, s)) return false;
        const std::uint32_t t = value.as<RefValue>().target;
        if (t == kNoInstance) return s == -1;
        return t < d.instances.size() && d.instances[t].referent == std::to_string(s);
    }
    case 18: {
        const auto v = value.as<Vector3int16>();
        return ExpectInts(n, {v.x, v.y, v.z});
    }
    case 19: {
        const SnapNode *k = n.find("keypoints");
        const auto &kps = value.as<NumberSequence>().keypoints;
        if (!k || !k->isList() || k->items.size() != kps.size()) return false;
        for (std::size_t i = 0; i < kps.size(); ++i) {
            float t = 0, v = 0, e = 0;
            const SnapNode &s = k->items[i];
            if (!s.find("time") || !s.find("value") || !s.find("envelope") || !SnapFloat(s.at("time"), t) ||
                !SnapFloat(s.at("value"), v) || !SnapFloat(s.at("envelope"), e) || !SameFloatBits(t, kps[i].time) ||
                !SameFloatBits(v, kps[i].value) || !SameFloatBits(e, kps[i].envelope))
                return false;
        }
        return true;
    }
    case 20: {
        const SnapNode *k = n.find("keypoints");
        const auto &kps = value.as<ColorSequence>().keypoints;
        if (!k || !k->isList() || k->items.size() != kps.size()) return false;
        for (std::size_t i = 0; i < kps.size(); ++i) {
            float t = 0;
            const SnapNode &s = k->items[i];
            if (!s.find("time") || !s.find("color") || !SnapFloat(s.at("time"), t) || !SameFloatBits(t, kps[i].time) ||
                !ExpectFloats(s.at("color"), {kps[i].color.r, kps[i].color.g, kps[i].color.b}))
                return false;
        }
        return true;
    }
    case 21:
        return ExpectFloats(n, {value.as<NumberRange>().min, value.as<NumberRange>().max});
    case 22: {
        const Rect r = value.as<Rect>();
        return n.isList() && n.items.size() == 2 && ExpectFloats(n.items[0], {r.min.x, r.min.y}) &&
               ExpectFloats(n.items[1], {r.max.x, r.max.y});
    }
    case 23: {
        const PhysicalProperties &p = value.as<PhysicalProperties>();
        if (!p.custom()) return n.isScalar() && n.scalar == "Default";
        const std::pair<const char *, float> fields[] = {{"density", p.density},
                                                         {"friction", p.friction},
                                                         {"elasticity", p.elasticity},
                                                         {"frictionWeight", p.frictionWeight},
                                                         {"elasticityWeight", p.elasticityWeight}};
        for (const auto &f : fields) {
            float s = 0;
            if (!n.find(f.first) || !SnapFloat(n.at(f.first), s) || !SameFloatBits(s, f.second)) return false;
        }
        // rbx-dom always prints acousticAbsorption for custom properties, 1 (its default) when the file
        // has the old 5-float form (flag 1).
        const SnapNode *a = n.find("acousticAbsorption");
        float s = 0;
        if (!p.hasAcoustic()) return !a || (SnapFloat(*a, s) && s == 1.0f);
        return a && SnapFloat(*a, s) && SameFloatBits(s, p.acousticAbsorption);
    }
    case 24: {
        const auto c = value.as<Color3uint8>();
        return ExpectInts(n, {c.r, c.g, c.b});
    }
    case 25: {
        std::int64_t s = 0;
        return n.isScalar() && ParseInt64(n.scalar, s) && s == value.as<Int64Value>().value;
    }
    case 26: {
        // The dump prints the SSTR index; the reader may renumber, so compare the entry the index names
        // in the file order (the reader keeps SSTR order).
        std::int64_t s = 0;
        return n.isScalar() && ParseInt64(n.scalar, s) && s == value.as<SharedStringRef>().index;
    }
    case 27:
        return ExpectString(n, value.as<Bytecode>().bytes);
    case 28: {
        const OptionalCFrame &o = value.as<OptionalCFrame>();
        if (!o.present) return n.isNull();
        return ExpectCFrame(n, o.value);
    }
    case 29: {
        const UniqueId &u = value.as<UniqueId>();
        const std::uint64_t xmlRandom = (u.random >> 1) | (u.random << 63); // rotr64(binary random, 1)
        return n.isScalar() && n.scalar == Hex(xmlRandom, 16) + Hex(u.time, 8) + Hex(u.index, 8);
    }
    case 30: {
        const Font &f = value.as<Font>();
        const SnapNode *fam = n.find("family");
        const SnapNode *w = n.find("weight");
        const SnapNode *st = n.find("style");
        const SnapNode *face = n.find("cachedFaceId");
        if (!fam || !w || !st || fam->scalar != f.family || w->scalar != FontWeightName(f.weight) ||
            st->scalar != (f.style ? "Italic" : "Normal"))
            return false;
        const std::string expectedFace = face && !face->isNull() ? face->scalar : std::string();
        return expectedFace == f.cachedFaceId;
    }
    case 31: {
        std::int64_t s = 0;
        return n.isScalar() && ParseInt64(n.scalar, s) &&
               static_cast<std::uint64_t>(s) == value.as<SecurityCapabilities>().bits;
    }
    case 32: {
        const Content &c = value.as<Content>();
        if (c.source == Content::Source::None) return n.isScalar() && n.scalar == "None";
        if (c.source == Content::Source::Uri) return n.find("Uri") && n.at("Uri").scalar == c.uri;
        const SnapNode *o = n.find("Object");
        std::int64_t s = 0;
        return o && o->isScalar() && ParseInt64(o->scalar, s) && c.object < d.instances.size() &&
               d.instances[c.object].referent == std::to_string(s);
    }
    default:
        return false;
    }
}

std::string RenderValueBrief(const Document &d, const Value &v) {
    // Reuse CompareDocuments' renderer: compare against an empty document property to get its text.
    Document a, b;
    const auto ia = a.addInstance("X", "", kNoInstance);
    b.addInstance("X", "", kNoInstance);
    Property p;
    p.name = a.names.intern("v");
    p.value = v;
    if (v.type == Type::SharedString && v.as<SharedStringRef>().index < d.sharedStrings.size()) {
        a.sharedStrings = d.sharedStrings;
    }
    if (v.type == Type::Ref || v.type == Type::Content) return TypeName(v.type); // targets: see the message
    a.instances[ia].properties.push_back(p);
    const std::string diff = CompareDocuments(a, b);
    const std::size_t at = diff.find("property v: ");
    return at == std::string::npos ? diff
                                   : diff.substr(at + 12, diff.size() - at - 12 - std::string(" vs <missing>").size());
}

std::vector<std::string> SnapCases() {
    std::vector<std::string> cases;
    if (!fs::exists(ExpectedDir())) return cases;
    for (const auto &e : fs::directory_iterator(ExpectedDir())) {
        const std::string f = e.path().filename().string();
        const std::string suffix = "__input.snap";
        if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
            cases.push_back(f.substr(0, f.size() - suffix.size()));
    }
    std::sort(cases.begin(), cases.end());
    return cases;
}

// The binary file of a snap case (models/ or places/), if the corpus has it.
std::optional<fs::path> BinaryOfCase(const std::string &c) {
    for (const char *p : {"models/%/binary.rbxm", "places/%/binary.rbxl"}) {
        std::string s = p;
        s.replace(s.find('%'), 1, c);
        if (fs::exists(TestFilesDir() / s)) return TestFilesDir() / s;
    }
    return std::nullopt;
}

// The binary document of snap case `c`: nullopt when the corpus lacks its file (skipped) or when reading it
// failed (a test failure is added).
std::optional<Document> ReadCase(const std::string &c) {
    const auto bin = BinaryOfCase(c);
    if (!bin) return std::nullopt;
    try {
        return Read(*bin, true);
    } catch (const std::exception &e) {
        ADD_FAILURE() << c << ": " << e.what();
        return std::nullopt;
    }
}

TEST(RbxConformance, ValuesMatchInputSnapshots) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    int checkedCases = 0;
    std::size_t checkedValues = 0;
    for (const std::string &c : SnapCases()) {
        SCOPED_TRACE(c);
        const std::optional<Document> read = ReadCase(c); // none for baseplate-727-with-tags, stylesheet (§7)
        if (!read) continue;
        const Document &d = *read;
        const test::Snap snap = test::LoadSnap(ExpectedDir() / (c + "__input.snap"));
        std::map<std::string, std::uint32_t> byReferent;
        for (std::uint32_t i = 0; i < d.instances.size(); ++i) byReferent[d.instances[i].referent] = i;
        EXPECT_EQ(snap.root.at("num_instances").str(), std::to_string(d.instances.size())) << c;
        std::map<std::string, std::vector<std::string>> classReferents; // type_id -> referents
        std::map<std::string, std::string> classNames;
        std::size_t sstrEntries = 0;
        bool sawSstr = false;
        for (const SnapNode &chunk : snap.root.at("chunks").items) {
            if (const SnapNode *inst = chunk.find("Inst")) {
                const std::string id = inst->at("type_id").str();
                classNames[id] = inst->at("type_name").str();
                for (const SnapNode &r : inst->at("referents").items) {
                    classReferents[id].push_back(r.str());
                    auto it = byReferent.find(r.str());
                    if (it == byReferent.end()) {
                        ADD_FAILURE() << c << ": referent " << r.str() << " of " << classNames[id] << " not read";
                        continue;
                    }
                    EXPECT_EQ(d.className(d.instances[it->second]), classNames[id]) << c << ": referent " << r.str();
                    EXPECT_EQ(d.instances[it->second].isService, inst->at("object_format").str() == "1")
                        << c << ": referent " << r.str();
                }
            } else if (const SnapNode *sstr = chunk.find("Sstr")) {
                sawSstr = true;
                const SnapNode &entries = sstr->at("entries");
                sstrEntries = entries.items.size();
                ASSERT_EQ(d.sharedStrings.size(), sstrEntries) << c;
                for (std::size_t i = 0; i < sstrEntries; ++i)
                    EXPECT_EQ(entries.items[i].at("len").str(), std::to_string(d.sharedStrings[i].content.size()))
                        << c << ": SSTR entry " << i << " (BLAKE3 hash not checked)";
            } else if (const SnapNode *prnt = chunk.find("Prnt")) {
                for (const SnapNode &link : prnt->at("links").items) {
                    const std::string &child = link.at(std::size_t(0)).str();
                    const std::string &parent = link.at(std::size_t(1)).str();
                    auto it = byReferent.find(child);
                    if (it == byReferent.end()) continue; // reported with the INST chunk
                    const std::uint32_t ours = d.instances[it->second].parent;
                    const std::string oursText = ours == kNoInstance ? "-1" : d.instances[ours].referent;
                    EXPECT_EQ(oursText, parent) << c << ": parent of referent " << child;
                }
            } else if (const SnapNode *meta = chunk.find("Meta")) {
                const SnapNode &entries = meta->at("entries");
                ASSERT_EQ(d.meta.size(), entries.items.size()) << c;
                for (std::size_t i = 0; i < d.meta.size(); ++i) {
                    EXPECT_EQ(entries.items[i].at(std::size_t(0)).str(), d.meta[i].first) << c;
                    EXPECT_EQ(entries.items[i].at(std::size_t(1)).str(), d.meta[i].second) << c;
                }
            } else if (const SnapNode *prop = chunk.find("Prop")) {
                const std::string id = prop->at("type_id").str();
                const std::string &propName = prop->at("prop_name").str();
                const std::string &propType = prop->at("prop_type").str();
                const auto &refs = classReferents[id];
                const SnapNode &values = prop->at("values");
                ASSERT_EQ(values.items.size(), refs.size()) << c << ": " << classNames[id] << "." << propName;
                for (std::size_t i = 0; i < refs.size(); ++i) {
                    auto it = byReferent.find(refs[i]);
                    if (it == byReferent.end()) continue;
                    const Instance &inst = d.instances[it->second];
                    const std::string where = c + ": " + classNames[id] + " \"" + inst.name + "\" (referent " +
                                              refs[i] + ") property " + propName + " (" + propType + ")";
                    if (propName == "Name") {
                        EXPECT_TRUE(ExpectString(values.items[i], inst.name))
                            << where << ": snap " << values.items[i].dump() << " vs read \"" << inst.name << "\"";
                        ++checkedValues;
                        continue;
                    }
                    const Property *p = d.findProperty(inst, propName);
                    if (!p) {
                        ADD_FAILURE() << where << ": not read (snap " << values.items[i].dump() << ")";
                        continue;
                    }
                    const std::string readType = TypeName(p->value.type);
                    EXPECT_EQ(readType, propType) << where;
                    EXPECT_TRUE(MatchesInputSnap(d, p->value, values.items[i]))
                        << where << ": snap " << values.items[i].dump() << " vs read " << RenderValueBrief(d, p->value);
                    ++checkedValues;
                }
            }
        }
        if (!sawSstr) {
            EXPECT_TRUE(d.sharedStrings.empty()) << c;
        }
        ++checkedCases;
    }
    EXPECT_GE(checkedCases, 40);
    EXPECT_GT(checkedValues, 1000u);
}

// The serialized names a canonical rbx-dom property name may come from (§4).
std::vector<std::string> SerializedNames(const std::string &canonical) {
    static const std::map<std::string, std::vector<std::string>> renames = {
        {"Size", {"size"}},
        {"Color", {"Color3uint8"}},
        {"Shape", {"shape"}},
        {"FormFactor", {"formFactorRaw", "formFactor"}},
        {"MaterialVariant", {"MaterialVariantSerialized"}},
        {"Attributes", {"AttributesSerialize"}},
        {"Archivable", {"archivable"}},
        {"Scale", {"ScaleFactor"}},
        // rbx-dom's reflection database aliases, seen in the corpus (the input.snap holds the left side
        // under the right-hand name).
        {"MaxPlayers", {"MaxPlayersInternal"}},
        {"PreferredPlayers", {"PreferredPlayersInternal"}},
        {"Sandboxed", {"DefinesCapabilities"}},
        {"Part0", {"Part0Internal"}},
        {"Part1", {"Part1Internal"}},
    };
    std::vector<std::string> names = {canonical};
    auto it = renames.find(canonical);
    if (it != renames.end()) names.insert(names.end(), it->second.begin(), it->second.end());
    return names;
}

struct DecodedChecker {
    const std::string caseName;
    const Document &d;
    std::map<std::string, std::uint32_t> snapReferents; // "referent-N" -> instance
    std::size_t checked = 0;
    std::vector<std::string> skipped;

    void pairTree(const SnapNode &list, const std::vector<std::uint32_t> &ours, const std::string &path) {
        ASSERT_TRUE(list.isList()) << caseName << " " << path;
        ASSERT_EQ(list.items.size(), ours.size()) << caseName << ": " << path << " child count";
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const SnapNode &n = list.items[i];
            const Instance &inst = d.instances[ours[i]];
            const std::string here = path + " > " + d.className(inst) + " \"" + inst.name + "\"";
            EXPECT_EQ(n.at("class").str(), d.className(inst)) << caseName << ": " << here;
            EXPECT_EQ(n.at("name").str(), inst.name) << caseName << ": " << here;
            snapReferents[n.at("referent").str()] = ours[i];
            pairTree(n.at("children"), inst.children, here);
        }
    }

    void checkProperties(const SnapNode &list, const std::vector<std::uint32_t> &ours) {
        for (std::size_t i = 0; i < ours.size() && i < list.items.size(); ++i) {
            const SnapNode &n = list.items[i];
            const Instance &inst = d.instances[ours[i]];
            for (const auto &entry : n.at("properties").entries) checkProperty(inst, entry.first, entry.second);
            checkProperties(n.at("children"), inst.children);
        }
    }

    const Property *find(const Instance &inst, const std::string &canonical) const {
        for (const std::string &name : SerializedNames(canonical))
            if (const Property *p = d.findProperty(inst, name)) return p;
        return nullptr;
    }

    void checkProperty(const Instance &inst, const std::string &canonical, const SnapNode &node) {
        const std::string where = caseName + ": " + d.className(inst) + " \"" + inst.name + "\" property " + canonical;
        const Property *p = find(inst, canonical);
        if (!p) {
            // rbx-dom's Content migration (release 645+, §4) renames MeshId/TextureID/Texture/ColorMap…
            // to *Content; the file has the old name, so the value is not checked here.
            // Likewise its value migrations: IgnoreGuiInset (Bool) → ScreenInsets (Enum) and the legacy
            // Font enum → FontFace (`gui-inset-and-font-migration`, `three-screengui`).
            if ((canonical.size() > 7 && canonical.compare(canonical.size() - 7, 7, "Content") == 0) ||
                canonical == "ScreenInsets" || canonical == "FontFace") {
                skipped.push_back(canonical);
                return;
            }
            ADD_FAILURE() << where << ": not read (snap " << node.dump() << ")";
            return;
        }
        const Value &v = p->value;
        // Refs are printed bare: "referent-N" or "null".
        if (node.isScalar() && v.type == Type::Ref) {
            const std::uint32_t t = v.as<RefValue>().target;
            if (node.scalar == "null") {
                EXPECT_EQ(t, kNoInstance) << where;
            } else {
                auto it = snapReferents.find(node.scalar);
                EXPECT_TRUE(it != snapReferents.end() && it->second == t) << where << ": snap " << node.scalar;
            }
            ++checked;
            return;
        }
        // SharedStrings are printed bare as {len, hash}; BLAKE3 is not checked.
        if (node.isMap() && node.find("len") && v.type == Type::SharedString) {
            const auto idx = v.as<SharedStringRef>().index;
            ASSERT_LT(idx, d.sharedStrings.size()) << where;
            EXPECT_EQ(node.at("len").str(), std::to_string(d.sharedStrings[idx].content.size())) << where;
            ++checked;
            return;
        }
        ASSERT_TRUE(node.isMap() && node.entries.size() == 1) << where << ": unexpected snap form " << node.dump();
        const std::string &type = node.entries[0].first;
        const SnapNode &value = node.entries[0].second;
        if (type == "Attributes") {
            const auto attrs = DecodeAttributes(v.as<std::string>());
            ASSERT_TRUE(attrs.has_value()) << where;
            ASSERT_EQ(attrs->size(), value.entries.size()) << where;
            for (const Attribute &a : *attrs)
                EXPECT_NE(value.find(a.name), nullptr) << where << ": attribute " << a.name;
        } else if (type == "Tags") {
            const std::string blob = v.type == Type::SharedString
                                         ? d.sharedStrings.at(v.as<SharedStringRef>().index).content
                                         : v.as<std::string>();
            const std::vector<std::string> tags = DecodeTags(blob);
            ASSERT_EQ(tags.size(), value.items.size()) << where;
            for (std::size_t i = 0; i < tags.size(); ++i) EXPECT_EQ(tags[i], value.items[i].str()) << where;
        } else if (type == "MaterialColors") {
            const auto colors = DecodeMaterialColors(v.as<std::string>());
            ASSERT_TRUE(colors.has_value()) << where;
            ASSERT_EQ(colors->size(), value.entries.size()) << where;
            for (std::size_t i = 0; i < colors->size(); ++i) {
                EXPECT_EQ((*colors)[i].material, value.entries[i].first) << where;
                const auto c = (*colors)[i].color;
                EXPECT_TRUE(ExpectInts(value.entries[i].second, {c.r, c.g, c.b}))
                    << where << " " << (*colors)[i].material;
            }
        } else if (type == "BinaryString") {
            const std::string &bytes = v.as<std::string>();
            EXPECT_EQ(value.str(), Base64Encode(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size()))
                << where;
        } else if (type == "ContentId" || type == "String") {
            EXPECT_EQ(value.str(), v.as<std::string>()) << where;
        } else if (type == "Content" && v.type == Type::Content && value.isMap() && value.find("Object")) {
            auto it = snapReferents.find(value.at("Object").str());
            EXPECT_TRUE(it != snapReferents.end() && it->second == v.as<Content>().object) << where;
        } else {
            EXPECT_EQ(std::string(TypeName(v.type)), type) << where;
            EXPECT_TRUE(MatchesInputSnap(d, v, value))
                << where << ": snap " << value.dump() << " vs read " << RenderValueBrief(d, v);
        }
        ++checked;
    }
};

TEST(RbxConformance, TreesMatchDecodedSnapshots) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-dom-expected");
    int checkedCases = 0;
    std::size_t checkedValues = 0;
    std::set<std::string> skipped;
    for (const std::string &c : SnapCases()) {
        SCOPED_TRACE(c);
        const std::optional<Document> read = ReadCase(c);
        if (!read) continue;
        const Document &d = *read;
        const test::Snap snap = test::LoadSnap(ExpectedDir() / (c + "__decoded.snap"));
        DecodedChecker checker{c, d, {}, 0, {}};
        checker.pairTree(snap.root, d.roots, "");
        if (::testing::Test::HasFatalFailure()) continue;
        checker.checkProperties(snap.root, d.roots);
        checkedValues += checker.checked;
        skipped.insert(checker.skipped.begin(), checker.skipped.end());
        ++checkedCases;
    }
    EXPECT_GE(checkedCases, 40);
    EXPECT_GT(checkedValues, 1000u);
    std::string list;
    for (const std::string &s : skipped) list += s + " ";
    std::printf("[ INFO ] properties rbx-dom migrated, not compared: %s\n", list.c_str());
}

// ---------------------------------------------------------------------------------------------------
// (d) round trips

CompareOptions SameFormat() {
    CompareOptions o;
    o.compareMeta = true;
    return o;
}

TEST(RbxConformance, BinaryRoundTrips) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    for (const CorpusFile &f : AllFiles()) {
        if (!f.binary) continue;
        SCOPED_TRACE(f.caseName);
        try {
            const Document d = Read(f.path, true);
            for (Compression c : {Compression::Lz4, Compression::Zstd, Compression::None}) {
                BinaryWriteOptions o;
                o.compression = c;
                const Document back = ReadBytesAs(WriteBinary(d, o), true);
                EXPECT_EQ(CompareDocuments(d, back, SameFormat()), "")
                    << f.caseName << " binary -> DOM -> binary (compression " << static_cast<int>(c) << ")";
            }
        } catch (const std::exception &e) {
            ADD_FAILURE() << f.caseName << ": " << e.what();
        }
    }
}

TEST(RbxConformance, XmlRoundTrips) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    for (const CorpusFile &f : AllFiles()) {
        if (f.binary) continue;
        SCOPED_TRACE(f.caseName);
        try {
            const Document d = Read(f.path, false);
            const Document back = ReadText(WriteXml(d));
            CompareOptions strict = SameFormat();
            strict.ignoreXmlTags = false; // XML → DOM → XML keeps the element each value was read from
            EXPECT_EQ(CompareDocuments(d, back, strict), "") << f.caseName << " XML -> DOM -> XML";
        } catch (const std::exception &e) {
            ADD_FAILURE() << f.caseName << ": " << e.what();
        }
    }
}

TEST(RbxConformance, CrossFormatRoundTrips) {
    GAMEFMT_REQUIRE_CORPUS(corpus, "rbx/rbx-test-files");
    for (const CorpusFile &f : AllFiles()) {
        SCOPED_TRACE(f.caseName);
        try {
            const Document d = Read(f.path, f.binary);
            if (f.binary) {
                const Document viaXml = ReadText(WriteXml(d));
                EXPECT_EQ(CompareDocuments(d, viaXml), "") << f.caseName << " binary -> DOM -> XML -> DOM";
                const Document again = ReadBytesAs(WriteBinary(viaXml), true);
                EXPECT_EQ(CompareDocuments(d, again), "") << f.caseName << " binary -> XML -> binary";
            } else {
                const Document viaBinary = ReadBytesAs(WriteBinary(d), true);
                // A value of an unknown XML tag (`edge-cases/xml-unknown-type`) has no binary type id, so
                // the binary writer cannot keep it.
                CompareOptions o;
                o.ignoreUnknown = true;
                EXPECT_EQ(CompareDocuments(d, viaBinary, o), "") << f.caseName << " XML -> DOM -> binary -> DOM";
            }
        } catch (const std::exception &e) {
            ADD_FAILURE() << f.caseName << ": " << e.what();
        }
    }
}

} // namespace
} // namespace gamefmt::rbx
