// Signature tests of every format family (the codec-level functions behind CanRead).
#include "importers/redguard/detect.hpp"
#include "importers/roblox_mesh/detect.hpp"
#include "importers/roblox_model/document/detect.hpp"
#include "importers/sl_mesh/detect.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::uint8_t> B(const std::string &s) {
    return std::vector<std::uint8_t>(s.begin(), s.end());
}

std::string MeshVersion(const std::string &s) {
    const auto b = B(s);
    return gamefmt::rbxmesh::Detect(b.data(), b.size());
}

TEST(DetectRobloxMesh, EveryKnownVersion) {
    for (const char *v : {"1.00", "1.01", "2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"}) {
        EXPECT_EQ(MeshVersion(std::string("version ") + v + "\n"), v);
        EXPECT_EQ(MeshVersion(std::string("version ") + v + "\r\n"), v); // 1.xx text files use CRLF
        EXPECT_EQ(MeshVersion(std::string("version ") + v), v);
    }
}

TEST(DetectRobloxMesh, RejectsUnknownAndMalformed) {
    EXPECT_EQ(MeshVersion("version 8.00\n"), "");
    EXPECT_EQ(MeshVersion("version 2.01\n"), "");
    EXPECT_EQ(MeshVersion("version 2.0"), "");     // truncated
    EXPECT_EQ(MeshVersion("version 2.000\n"), ""); // the version must end the token
    EXPECT_EQ(MeshVersion("Version 2.00\n"), "");
    EXPECT_EQ(MeshVersion(" version 2.00\n"), "");
    EXPECT_EQ(MeshVersion(""), "");
    EXPECT_EQ(gamefmt::rbxmesh::Detect(nullptr, 100), "");
}

gamefmt::rbx::Encoding Rbx(const std::string &s) {
    const auto b = B(s);
    return gamefmt::rbx::Detect(b.data(), b.size());
}

TEST(DetectRobloxModel, BinaryAndXml) {
    using gamefmt::rbx::Encoding;
    EXPECT_EQ(Rbx(std::string("<roblox!\x89\xff\r\n\x1a\n", 14)), Encoding::Binary);
    EXPECT_EQ(Rbx("<roblox xmlns:xmime=\"x\" version=\"4\">"), Encoding::Xml);
    EXPECT_EQ(Rbx("<roblox>"), Encoding::Xml);
    EXPECT_EQ(Rbx("\xEF\xBB\xBF  \r\n\t<roblox version=\"4\">"), Encoding::Xml); // BOM and whitespace
    EXPECT_EQ(Rbx("  <roblox!"), Encoding::None);                                // binary starts at byte 0
    EXPECT_EQ(Rbx("<robloxian>"), Encoding::None);
    EXPECT_EQ(Rbx("<roblox"), Encoding::None); // cannot tell which
    EXPECT_EQ(Rbx("<?xml version=\"1.0\"?><roblox>"), Encoding::None);
    EXPECT_EQ(Rbx(""), Encoding::None);
}

std::string Llsd(const std::string &key, std::uint32_t count = 3) {
    std::string s = "{";
    s += std::string{char(count >> 24), char(count >> 16), char(count >> 8), char(count)};
    s += "k";
    const auto n = static_cast<std::uint32_t>(key.size());
    s += std::string{char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
    return s + key;
}

bool Sl(const std::string &s) {
    const auto b = B(s);
    return gamefmt::slmesh::Detect(b.data(), b.size());
}

TEST(DetectSlMesh, HeaderMapWithLodKeys) {
    EXPECT_TRUE(Sl(Llsd("high_lod") + "{"));
    EXPECT_TRUE(Sl("<? LLSD/Binary ?>\n" + Llsd("high_lod")));
    EXPECT_TRUE(Sl("<?llsd/binary?>\n" + Llsd("physics_mesh")));
    EXPECT_TRUE(Sl(Llsd("instance") + "...mesh...")); // .slm container
    EXPECT_FALSE(Sl(Llsd("creator")));                // no _lod / mesh anywhere
    EXPECT_FALSE(Sl(Llsd("high_lod", 0)));            // empty map
    EXPECT_FALSE(Sl(Llsd("high_lod", 65)));           // implausible count
    EXPECT_FALSE(Sl(Llsd("high\x01lod_lod")));        // control byte in the key
    EXPECT_FALSE(Sl(Llsd("high_lod").substr(0, 12))); // key cut short
    EXPECT_FALSE(Sl("<? LLSD/Binary " + std::string(80, ' ') + "?>\n" + Llsd("high_lod")));
    EXPECT_FALSE(Sl("[high_lod]"));
    EXPECT_FALSE(Sl(""));
}

gamefmt::redguard::FileKind Rg(const std::string &s) {
    const auto b = B(s);
    return gamefmt::redguard::Detect(b.data(), b.size());
}

TEST(DetectRedguard, ExactlyFourVersionsAndOarc) {
    using gamefmt::redguard::FileKind;
    for (const char *v : {"v2.6", "v2.7", "v4.0", "v5.0"}) EXPECT_EQ(Rg(v), FileKind::Model) << v;
    EXPECT_EQ(Rg("v4.02"), FileKind::Model); // the fifth byte is num_vertices' low byte, never read
    EXPECT_EQ(Rg("OARC\0\0\0\x04"), FileKind::Archive);
    EXPECT_EQ(Rg("v3.0"), FileKind::None);
    EXPECT_EQ(Rg("v5."), FileKind::None);
    EXPECT_EQ(Rg("V5.0"), FileKind::None);
    EXPECT_EQ(Rg(""), FileKind::None);
}

} // namespace
