// `gamefmt assets fetch` against a server on 127.0.0.1 that answers as docs/formats/roblox-asset-delivery.md documents
// Roblox's asset delivery API and CDN (§1 the two steps, §3 the error bodies, §4 the rate-limit headers, §5 the
// indirections): every id fetched exactly once, the files byte-equal to what was served, indirections followed and
// resolved by the importer, errors reported by status, retries and the rate limit, resume, and the key kept from
// everything but the API host. Runs on Linux and, under Wine, as a Windows program.
#include "asset_fetch.hpp"
#include "cli/run_cli.hpp"

#include "assimp_glue/roblox_model/assets.hpp"
#include "common/compression.hpp"
#include "common/sha256.hpp"
#include "common/utf8_path.hpp"
#include "fixtures/rbx_fetch_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/roblox_model.hpp"
#include "support/http_test_server.hpp"
#include "support/import_helpers.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace gamefmt::test {
namespace {

namespace fs = std::filesystem;
using gamefmt::testing::HttpTestReply;
using gamefmt::testing::HttpTestRequest;
using gamefmt::testing::HttpTestServer;

const std::string kKey = "gamefmt-SENTINEL-key-7f3a9c1e";

std::string Text(const std::vector<std::uint8_t> &bytes) {
    return std::string(bytes.begin(), bytes.end());
}

std::string Sha(const std::string &bytes) {
    Sha256 sha;
    sha.update(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
    return sha.hexDigest();
}

std::string Gzip(const std::string &bytes) {
    return Text(DeflateGzip(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size(), 6));
}

// How the fake answers for one id.
struct Behaviour {
    std::string bytes; // what the CDN serves
    enum class Encoding { Plain, HeaderGzip, BodyGzip } encoding = Encoding::Plain;
    std::vector<int> before;      // API statuses answered before the success (429, 503 …), one per request
    int status = 200;             // the final API status
    std::string body;             // the final API body when status != 200 (or a 200 without location)
    int cdnFailures = 0;          // CDN 403s before it serves (an expired location)
    bool cdnTruncateOnce = false; // the first CDN answer is cut short
    bool cdnStallOnce = false;    // the first CDN answer stalls after a few bytes
    std::string location;         // a location other than our CDN
};

Behaviour Serve(std::string bytes) {
    Behaviour b;
    b.bytes = std::move(bytes);
    return b;
}
Behaviour Answer(int status, std::string body) {
    Behaviour b;
    b.status = status;
    b.body = std::move(body);
    return b;
}
Behaviour After(std::vector<int> before, std::string bytes) {
    Behaviour b = Serve(std::move(bytes));
    b.before = std::move(before);
    return b;
}

// Roblox's API and CDN as the reference describes them, on one loopback port: /asset-delivery-api/v1/assetId/N
// answers {"location": ".../cdn/N?t=…"} when the x-api-key is right; /cdn/N serves the bytes and fails any request
// that carries the key or a cookie; /api-keys/v1/introspect answers `introspection`.
class FakeRoblox {
public:
    std::map<std::string, Behaviour> assets;
    std::string introspection =
        R"({"name":"test key","authorizedUserId":1,"scopes":[{"name":"legacy-asset","operations":["manage"]}],"enabled":true,"expired":false})";
    int introspectionStatus = 200;

    FakeRoblox() : mServer([this](const HttpTestRequest &r) { return handle(r); }) {}
    std::string base() const { return mServer.base(); }
    std::vector<HttpTestRequest> requests() const { return mServer.requests(); }
    std::size_t apiCalls(const std::string &id) const { return count("/asset-delivery-api/v1/assetId/" + id); }
    std::size_t cdnCalls(const std::string &id) const { return count("/cdn/" + id + "?"); }
    std::vector<std::string> keyLeaks() const {
        std::lock_guard<std::mutex> lock(mMutex);
        return mLeaks;
    }

private:
    std::size_t count(const std::string &prefix) const {
        std::size_t n = 0;
        for (const HttpTestRequest &r : mServer.requests())
            if (r.path.rfind(prefix, 0) == 0 && (prefix.back() == '?' || r.path.size() == prefix.size())) ++n;
        return n;
    }

    HttpTestReply handle(const HttpTestRequest &r) {
        std::lock_guard<std::mutex> lock(mMutex);
        if (r.path == "/api-keys/v1/introspect") return {introspectionStatus, {}, introspection};
        const std::string api = "/asset-delivery-api/v1/assetId/";
        if (r.path.rfind(api, 0) == 0) return handleApi(r, r.path.substr(api.size()));
        if (r.path.rfind("/cdn/", 0) == 0) return handleCdn(r, r.path.substr(5, r.path.find('?') - 5));
        return {404, {}, "{}"};
    }

    HttpTestReply handleApi(const HttpTestRequest &r, const std::string &id) {
        const auto key = r.headers.find("x-api-key");
        if (key == r.headers.end() || key->second != kKey)
            return {
                401, {{"Content-Type", "application/json"}}, R"({"errors":[{"code":0,"message":"Invalid API Key"}]})"};
        const auto it = assets.find(id);
        if (it == assets.end())
            return {
                404, {}, R"({"errors":[{"code":404,"message":"Requested asset was not found","customErrorCode":13}]})"};
        Behaviour &b = it->second;
        std::size_t &calls = mApiCalls[id];
        if (calls < b.before.size()) {
            const int status = b.before[calls++];
            HttpTestReply reply{status, {}, R"({"errors":[{"code":0,"message":"Too many requests"}]})"};
            if (status == 429)
                reply.headers = {{"retry-after", "1"},
                                 {"x-ratelimit-limit", "1000, 1000;w=60"},
                                 {"x-ratelimit-remaining", "0"},
                                 {"x-ratelimit-reset", "1"}};
            return reply;
        }
        ++calls;
        if (b.status != 200 || !b.body.empty()) return {b.status, {}, b.body};
        const std::string location =
            b.location.empty() ? base() + "/cdn/" + id + "?t=" + std::to_string(calls) : b.location;
        return {200,
                {},
                R"({"location":")" + location + R"(","requestId":"r)" + id +
                    R"(","IsHashDynamic":false,"IsCopyrightProtected":false,"isArchived":false})"};
    }

    HttpTestReply handleCdn(const HttpTestRequest &r, const std::string &id) {
        if (r.headers.count("x-api-key") != 0 || r.headers.count("cookie") != 0 ||
            r.headers.count("authorization") != 0) {
            mLeaks.push_back(r.path);
            return {500, {}, "credentials sent to the CDN"};
        }
        const auto it = assets.find(id);
        if (it == assets.end()) return {404, {}, ""};
        Behaviour &b = it->second;
        std::size_t &calls = mCdnCalls[id];
        ++calls;
        if (static_cast<int>(calls) <= b.cdnFailures) return {403, {}, "<Error>AccessDenied</Error>"};
        HttpTestReply reply{200, {{"Content-Type", "application/octet-stream"}}, b.bytes};
        if (b.encoding == Behaviour::Encoding::BodyGzip) reply.body = Gzip(b.bytes);
        if (b.encoding == Behaviour::Encoding::HeaderGzip) {
            reply.body = Gzip(b.bytes);
            reply.headers.push_back({"Content-Encoding", "gzip"});
        }
        if (calls == 1 && b.cdnTruncateOnce) reply.cutAfter = static_cast<long long>(reply.body.size() / 2);
        if (calls == 1 && b.cdnStallOnce) reply.cutAfter = 4, reply.stallSeconds = 3;
        return reply;
    }

    mutable std::mutex mMutex;
    std::map<std::string, std::size_t> mApiCalls, mCdnCalls;
    std::vector<std::string> mLeaks;
    HttpTestServer mServer; // last: stops (and joins) before the members it reads go
};

cli::FetchOptions FastOptions(const FakeRoblox &fake, const fs::path &dir) {
    cli::FetchOptions o;
    o.into = PathToUtf8(dir);
    o.apiBase = fake.base();
    o.apiKey = kKey;
    o.ratePerMinute = 60000;
    o.backoffSeconds = 0.02;
    o.backoffCapSeconds = 0.1;
    o.stallSeconds = 1;
    return o;
}

std::vector<nlohmann::json> Manifest(const fs::path &dir) {
    std::vector<nlohmann::json> out;
    std::ifstream in(dir / ".gamefmt-fetch.jsonl", std::ios::binary);
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
}

std::string FileText(const fs::path &path) {
    return Text(ReadBytes(path));
}

// The bytes of the embedded texture a material uses for `type`, or "(none)".
std::string TextureBytes(const aiScene &scene, const aiMaterial &m, aiTextureType type) {
    aiString path;
    if (m.GetTexture(type, 0, &path) != AI_SUCCESS || path.length < 2 || path.data[0] != '*') return "(none)";
    const unsigned i = static_cast<unsigned>(std::stoul(path.C_Str() + 1));
    if (i >= scene.mNumTextures || scene.mTextures[i]->mHeight != 0) return "(none)";
    return std::string(reinterpret_cast<const char *>(scene.mTextures[i]->pcData), scene.mTextures[i]->mWidth);
}

// The x extent of the first mesh on the node `name`.
float MeshWidth(const aiScene &scene, const char *name) {
    const aiNode *node = scene.mRootNode->FindNode(name);
    if (node == nullptr || node->mNumMeshes == 0) return -1;
    const aiMesh *mesh = scene.mMeshes[node->mMeshes[0]];
    float lo = 1e30f, hi = -1e30f;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        lo = std::min(lo, mesh->mVertices[v].x);
        hi = std::max(hi, mesh->mVertices[v].x);
    }
    return hi - lo;
}

// The demo place's ids and the files testdata/rbx-assets holds for them (the oracle: what the fetch must produce).
const std::map<std::string, std::string> kDemoFiles = {
    {"1001", "1001.png"}, {"1002", "1002"}, {"555", "555.mesh"}, {"777", "777.mesh"}, {"3001", "3001.rbxm"}};

void ServeDemoAssets(FakeRoblox &fake) {
    const fs::path assets = TestDataDir() / "rbx-assets";
    for (const auto &[id, name] : kDemoFiles) fake.assets[id].bytes = FileText(assets / name);
    fake.assets["1001"].encoding = Behaviour::Encoding::HeaderGzip; // gzip the HTTP way
    fake.assets["555"].encoding = Behaviour::Encoding::BodyGzip;    // gzip inside the body, no header
}

fs::path KeyFile(const fs::path &dir) {
    const fs::path file = dir / "key.txt";
    WriteText(file, kKey + "\n");
    return file;
}

TEST(AssetsFetch, DemoPlaceEveryIdOnceThenTheImportDrawsIt) {
    FakeRoblox fake;
    ServeDemoAssets(fake);
    const fs::path scratch = ScratchDir("fetch-demo");
    const fs::path into = scratch / "assets dir \xC3\xBC"; // "assets dir ü": made by the fetch
    const std::string place = PathToUtf8(TestDataDir() / "demo-place.rbxl");
    const std::vector<std::string> args = {"assets",    "fetch",          place,
                                           "--into",    PathToUtf8(into), "--api-base",
                                           fake.base(), "--api-key-file", PathToUtf8(KeyFile(scratch))};
    const CliResult first = Cli(args);
    ASSERT_EQ(first.code, 0) << first.err;
    EXPECT_NE(first.out.find("fetched 5, already present 0, failed 0"), std::string::npos) << first.out;
    for (const auto &[id, name] : kDemoFiles) {
        EXPECT_EQ(fake.apiCalls(id), 1u) << id;
        EXPECT_EQ(fake.cdnCalls(id), 1u) << id;
    }
    // Each file is the asset's bytes (transport and in-body gzip undone), under the extension its content has.
    const std::map<std::string, std::string> stored = {
        {"1001", "1001.png"}, {"1002", "1002.png"}, {"555", "555.mesh"}, {"777", "777.mesh"}, {"3001", "3001.rbxm"}};
    for (const auto &[id, name] : stored) EXPECT_EQ(FileText(into / name), fake.assets[id].bytes) << name;
    const std::vector<nlohmann::json> manifest = Manifest(into);
    ASSERT_EQ(manifest.size(), 5u);
    for (const nlohmann::json &line : manifest) {
        const std::string id = line["id"];
        EXPECT_EQ(line["status"], "ok") << id;
        EXPECT_EQ(line["http"], 200) << id;
        EXPECT_EQ(line["sha256"], Sha(fake.assets[id].bytes)) << id;
        EXPECT_EQ(line["bytes"], fake.assets[id].bytes.size()) << id;
        EXPECT_EQ(line["file"], stored.at(id)) << id;
    }
    // The import finds everything: the same meshes and images as with the hand-made folder. rbxasset:// paths are
    // not assets by id (they come with Roblox itself: --asset-dir auto), so an install's content folder is added.
    const fs::path install = scratch / "install";
    fs::create_directories(install / "content" / "textures");
    fs::copy_file(TestDataDir() / "rbx-assets" / "content" / "textures" / "SpawnLocation.png",
                  install / "content" / "textures" / "SpawnLocation.png");
    const auto import = [&](const std::string &folders) {
        return ImportFile(TestDataDir() / "demo-place.rbxl", 0,
                          [&](Assimp::Importer &i) { i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, folders); });
    };
    const ImportResult fetched = import(PathToUtf8(into) + ";" + PathToUtf8(install));
    const ImportResult reference = import(PathToUtf8(TestDataDir() / "rbx-assets"));
    ASSERT_TRUE(fetched) << fetched.error;
    ASSERT_TRUE(reference) << reference.error;
    EXPECT_EQ(fetched.scene->mNumMeshes, reference.scene->mNumMeshes);
    ASSERT_EQ(fetched.scene->mNumTextures, reference.scene->mNumTextures);
    EXPECT_EQ(fetched.scene->mNumTextures, 3u); // the three decal images
    for (unsigned t = 0; t < fetched.scene->mNumTextures; ++t)
        EXPECT_EQ(fetched.scene->mTextures[t]->mWidth, reference.scene->mTextures[t]->mWidth) << t;
    for (const std::string &line : fetched.log) {
        EXPECT_EQ(line.find("placeholder"), std::string::npos) << line;
        EXPECT_EQ(line.find("not found"), std::string::npos) << line;
    }
    // As a user converts it: no warning at all (no placeholder, no missing image).
    const CliResult converted = Cli({"convert", place, "-o", PathToUtf8(scratch / "out"), "--asset-dir",
                                     PathToUtf8(into), "--asset-dir", PathToUtf8(install)});
    EXPECT_EQ(converted.code, 0) << converted.err;
    EXPECT_EQ(converted.err.find("warning"), std::string::npos) << converted.err;
    EXPECT_TRUE(fs::exists(scratch / "out" / "demo-place.glb"));
    // A second run asks for nothing.
    const std::size_t before = fake.requests().size();
    const CliResult second = Cli(args);
    ASSERT_EQ(second.code, 0) << second.err;
    EXPECT_NE(second.out.find("fetched 0, already present 5, failed 0"), std::string::npos) << second.out;
    EXPECT_EQ(fake.requests().size(), before + 1); // the key check only
    // The key went to the API host only, and appears in no output, file or manifest.
    EXPECT_TRUE(fake.keyLeaks().empty());
    for (const CliResult *run : {&first, &second}) {
        EXPECT_EQ(run->out.find(kKey), std::string::npos);
        EXPECT_EQ(run->err.find(kKey), std::string::npos);
    }
    EXPECT_EQ(FileText(into / ".gamefmt-fetch.jsonl").find(kKey), std::string::npos);
    for (const HttpTestRequest &r : fake.requests())
        if (r.path.rfind("/cdn/", 0) == 0) {
            for (const auto &[name, value] : r.headers) EXPECT_EQ(value.find(kKey), std::string::npos) << name;
        }
}

TEST(AssetsFetch, AssetHeavyPlaceFollowsEveryIndirectionOnce) {
    const fixtures::FetchPlace place = fixtures::MakeFetchPlace(ReadBytes(TestDataDir() / "rbx-assets" / "3001.rbxm"));
    FakeRoblox fake;
    for (const auto &[id, bytes] : place.assets) fake.assets[id].bytes = Text(bytes);
    const fs::path scratch = ScratchDir("fetch-heavy");
    WriteBytes(scratch / "heavy.rbxl", place.place);
    std::vector<cli::FetchItem> items;
    for (const std::string &id : place.direct) items.push_back({id, "any"});
    cli::FetchOptions options = FastOptions(fake, scratch / "assets");
    options.jobs = 8;
    const cli::FetchReport report = cli::FetchAssets(items, options);
    // Every served id but the one 4 hops away, exactly once.
    for (const auto &[id, bytes] : place.assets) {
        const std::size_t want = id == place.chainTooDeep ? 0u : 1u;
        EXPECT_EQ(fake.apiCalls(id), want) << id;
        EXPECT_EQ(fake.cdnCalls(id), want) << id;
    }
    EXPECT_EQ(report.counts.at("ok"), place.assets.size() - 1);
    EXPECT_EQ(report.counts.at("skipped"), 1u);
    EXPECT_TRUE(report.complete());
    // Each hop is in the manifest with where it came from and where it leads.
    std::map<std::string, nlohmann::json> byId;
    for (const nlohmann::json &line : Manifest(scratch / "assets")) byId[line["id"]] = line;
    for (const auto &[id, next] : place.leadsTo) {
        ASSERT_EQ(byId.count(id), 1u) << id;
        EXPECT_EQ(byId[id]["leads_to"].get<std::vector<std::string>>(), next) << id;
        for (const std::string &n : next) EXPECT_EQ(byId[n]["from"], id) << n;
    }
    EXPECT_EQ(byId["15000"]["format"], "texturepack");
    EXPECT_EQ(byId["15000"]["file"], "15000.xml");
    EXPECT_EQ(byId["12000"]["format"], "rbxm");
    EXPECT_EQ(byId[place.chainTooDeep]["status"], "skipped");
    EXPECT_EQ(byId[place.chainTooDeep]["depth"], 4);

    // The import resolves decal ids through their models and the SurfaceAppearance through its TexturePack: every
    // image of the place is embedded, byte for byte, and no part is a placeholder.
    const ImportResult imported = ImportFile(scratch / "heavy.rbxl", 0, [&](Assimp::Importer &i) {
        i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, PathToUtf8(scratch / "assets"));
    });
    ASSERT_TRUE(imported) << imported.error;
    std::multiset<std::string> embedded, expected;
    for (unsigned t = 0; t < imported.scene->mNumTextures; ++t) {
        const aiTexture *tex = imported.scene->mTextures[t];
        if (tex->mHeight == 0 && std::string(tex->mFilename.C_Str()).rfind("metallicRoughness", 0) != 0)
            embedded.insert(std::string(reinterpret_cast<const char *>(tex->pcData), tex->mWidth));
    }
    for (const std::string &id : place.images) expected.insert(Text(place.assets.at(id)));
    EXPECT_EQ(embedded.size(), expected.size());
    EXPECT_EQ(embedded, expected);
    // Each derived material and mesh is the one its own source names: the TexturePack part's four maps are the pack's
    // 15001..15004 in their slots; the MeshPart-asset part shows 16001 (a triangle 7.5 wide), not a 1-wide 10000
    // (Mesh0: its size equals its InitialSize, so both keep the asset's own extent).
    const aiNode *packed = imported.scene->mRootNode->FindNode(place.packPart.c_str());
    ASSERT_TRUE(packed != nullptr && packed->mNumMeshes == 1);
    const aiMaterial &pm = *imported.scene->mMaterials[imported.scene->mMeshes[packed->mMeshes[0]]->mMaterialIndex];
    EXPECT_EQ(TextureBytes(*imported.scene, pm, aiTextureType_DIFFUSE), Text(place.assets.at("15001")));
    EXPECT_EQ(TextureBytes(*imported.scene, pm, aiTextureType_NORMALS), Text(place.assets.at("15002")));
    EXPECT_EQ(TextureBytes(*imported.scene, pm, aiTextureType_METALNESS), Text(place.assets.at("15003")));
    EXPECT_EQ(TextureBytes(*imported.scene, pm, aiTextureType_DIFFUSE_ROUGHNESS), Text(place.assets.at("15004")));
    EXPECT_FLOAT_EQ(MeshWidth(*imported.scene, "Mesh0"), 1.0f);
    EXPECT_FLOAT_EQ(MeshWidth(*imported.scene, "Wrapped"), 7.5f);
    std::size_t notFound = 0;
    for (const std::string &line : imported.log) {
        EXPECT_EQ(line.find("placeholder"), std::string::npos) << line;
        EXPECT_EQ(line.find("not used as"), std::string::npos) << line;
        if (line.find("not found") != std::string::npos) {
            ++notFound; // the cycle's decal: two models naming each other, no image anywhere
            EXPECT_NE(line.find(": 1 image(s) not found"), std::string::npos) << line;
        }
    }
    EXPECT_EQ(notFound, 1u);
}

TEST(AssetsFetch, TheImporterFollowsIndirectionsInAFolder) {
    const fixtures::FetchPlace place = fixtures::MakeFetchPlace(ReadBytes(TestDataDir() / "rbx-assets" / "3001.rbxm"));
    const fs::path dir = ScratchDir("fetch-resolve");
    for (const auto &[id, bytes] : place.assets) WriteBytes(dir / id, bytes); // no extensions: the bytes decide
    Assimp::DefaultIOSystem io;
    const glue::RbxAssetResolver resolve = glue::MakeAssetResolver(&io, {PathToUtf8(dir)});
    const auto found = [&](const char *uri, glue::RbxAssetKind kind) {
        const std::optional<glue::RbxAsset> a = resolve(uri, kind);
        return a ? Text(a->bytes) : std::string("(none)");
    };
    using K = glue::RbxAssetKind;
    EXPECT_EQ(found("rbxassetid://12007", K::Image), Text(place.assets.at("13007"))); // Decal asset → image
    EXPECT_EQ(found("rbxassetid://14000", K::Image), Text(place.assets.at("14001"))); // Shirt → template
    EXPECT_EQ(found("rbxassetid://15000", K::Image), Text(place.assets.at("15001"))); // TexturePack → colour map
    EXPECT_EQ(found("rbxassetid://15000", K::TexturePack), Text(place.assets.at("15000")));
    EXPECT_EQ(found("rbxassetid://16000", K::Mesh), Text(place.assets.at("16001")));      // MeshPart asset → mesh
    EXPECT_EQ(found("rbxassetid://17000", K::Animation), Text(place.assets.at("17001"))); // package → sequence
    EXPECT_EQ(found("rbxassetid://18000", K::Image), "(none)");                           // a cycle ends
    EXPECT_EQ(found("rbxassetid://19000", K::Image), "(none)");                           // 4 hops: too far
    EXPECT_EQ(found("rbxassetid://19001", K::Image), Text(place.assets.at("19004")));     // 3 hops: found
    EXPECT_EQ(found("rbxassetid://12007", K::Mesh), "(none)");                            // a Decal model names no mesh
}

// One id per documented answer (§3), through the engine with quick backoff.
TEST(AssetsFetch, EachAnswerHasItsStatus) {
    FakeRoblox fake;
    const std::string png = Text(ReadBytes(TestDataDir() / "rbx-assets" / "1001.png"));
    const auto error403 = [](int code, const char *message) {
        return Answer(403, std::string(R"({"errors":[{"code":403,"message":")") + message + R"(","customErrorCode":)" +
                               std::to_string(code) + "}]}");
    };
    fake.assets["1"] = error403(1, "User is not authorized to access Asset.");
    fake.assets["8"] = error403(8, "Asset type does not match requested type");
    fake.assets["12"] = error403(12, "Asset is blocked");
    fake.assets["22"] = error403(22, "Requested asset is archived");
    fake.assets["409"] = Answer(409, R"({"code":"CONFLICT","message":"conflict"})");
    fake.assets["200"] = Answer(200, R"({"requestId":"x"})"); // no location
    fake.assets["500"] = After(std::vector<int>(20, 500), png);
    fake.assets["503"] = After({503, 503}, png);
    fake.assets["429"] = After({429}, png);
    fake.assets["cdn"] = Serve(png);
    fake.assets["cdn"].cdnFailures = 1;
    fake.assets["cut"] = Serve(png);
    fake.assets["cut"].cdnTruncateOnce = true;
    fake.assets["stall"] = Serve(png);
    fake.assets["stall"].cdnStallOnce = true;
    fake.assets["big"] = Serve(std::string(70 << 20, 'x'));
    fake.assets["evil"] = Serve(png);
    fake.assets["evil"].location = "https://cdn.example.com/file";
    std::vector<cli::FetchItem> items;
    for (const char *id :
         {"1", "8", "12", "22", "13", "409", "200", "500", "503", "429", "cdn", "cut", "stall", "big", "evil"})
        items.push_back({id, "any"});
    // Ids are digits in real use; the fake takes any name, which keeps this table readable.
    const fs::path dir = ScratchDir("fetch-statuses");
    const auto started = std::chrono::steady_clock::now();
    const cli::FetchReport report = cli::FetchAssets(items, FastOptions(fake, dir));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::map<std::string, cli::FetchRecord> by;
    for (const cli::FetchRecord &r : report.records) by[r.id] = r;
    const std::map<std::string, std::string> want = {
        {"1", "private"}, {"8", "wrong-type"}, {"12", "moderated"}, {"22", "archived"},   {"13", "missing"},
        {"409", "error"}, {"200", "error"},    {"500", "network"},  {"503", "ok"},        {"429", "ok"},
        {"cdn", "ok"},    {"cut", "ok"},       {"stall", "ok"},     {"big", "too-large"}, {"evil", "error"}};
    for (const auto &[id, status] : want) EXPECT_EQ(by[id].status, status) << id << ": " << by[id].error;
    EXPECT_EQ(by["1"].http, 403);
    EXPECT_NE(by["1"].error.find("User is not authorized"), std::string::npos);
    EXPECT_EQ(fake.apiCalls("1"), 1u); // final answers are not retried
    EXPECT_EQ(fake.apiCalls("22"), 1u);
    EXPECT_EQ(fake.apiCalls("500"), 6u); // the try limit
    EXPECT_EQ(fake.apiCalls("503"), 3u);
    EXPECT_EQ(fake.apiCalls("429"), 2u);
    EXPECT_GE(seconds, 1.0);             // the 429's retry-after: 1 was honoured
    EXPECT_EQ(fake.apiCalls("cdn"), 2u); // the CDN's 403 asked the API for a new location
    EXPECT_EQ(fake.cdnCalls("cdn"), 2u);
    EXPECT_EQ(fake.cdnCalls("evil"), 0u); // and nothing went to a foreign host
    EXPECT_NE(by["evil"].error.find("cdn.example.com"), std::string::npos);
    for (const char *id : {"503", "429", "cdn", "cut", "stall"})
        EXPECT_EQ(FileText(dir / (std::string(id) + ".png")), png) << id;
    EXPECT_FALSE(report.complete());
    // Only complete files are on disk: no partial file, nothing for the failures.
    for (const auto &entry : fs::directory_iterator(dir)) {
        const std::string name = PathToUtf8(entry.path().filename());
        EXPECT_EQ(name.find("partial"), std::string::npos) << name;
        EXPECT_TRUE(name == ".gamefmt-fetch.jsonl" || name.find(".png") != std::string::npos) << name;
    }
}

TEST(AssetsFetch, ABadKeyStopsTheRun) {
    FakeRoblox fake;
    for (int i = 0; i < 20; ++i) fake.assets[std::to_string(100 + i)].bytes = "version 2.00\n";
    std::vector<cli::FetchItem> items;
    for (int i = 0; i < 20; ++i) items.push_back({std::to_string(100 + i), "mesh"});
    cli::FetchOptions options = FastOptions(fake, ScratchDir("fetch-badkey"));
    options.apiKey = "not-the-key";
    options.jobs = 1;
    const cli::FetchReport report = cli::FetchAssets(items, options);
    EXPECT_TRUE(report.badKey);
    EXPECT_EQ(report.counts.at("bad-key"), 20u);
    EXPECT_EQ(report.apiRequests, 1u); // 401 is never retried, and nothing more is asked
}

TEST(AssetsFetch, TheRateLimitHoldsUnderABurst) {
    FakeRoblox fake;
    std::vector<cli::FetchItem> items;
    for (int i = 0; i < 40; ++i) {
        fake.assets[std::to_string(500 + i)].bytes = "version 2.00\n" + std::to_string(i);
        items.push_back({std::to_string(500 + i), "mesh"});
    }
    cli::FetchOptions options = FastOptions(fake, ScratchDir("fetch-rate"));
    options.ratePerMinute = 600; // a bucket of 6, refilled at 9.9 a second
    options.jobs = 16;
    const cli::FetchReport report = cli::FetchAssets(items, options);
    EXPECT_EQ(report.counts.at("ok"), 40u);
    std::vector<double> times;
    for (const HttpTestRequest &r : fake.requests())
        if (r.path.rfind("/asset-delivery-api/", 0) == 0) times.push_back(r.at);
    ASSERT_EQ(times.size(), 40u);
    std::sort(times.begin(), times.end());
    EXPECT_GE(times.back() - times.front(), (40 - 6) / 9.9 - 0.2);
    // No second holds more than the bucket plus a second's refill (one request of slack for timing).
    for (std::size_t i = 0; i < times.size(); ++i) {
        const auto end = std::upper_bound(times.begin(), times.end(), times[i] + 1.0);
        EXPECT_LE(end - (times.begin() + static_cast<long>(i)), 6 + 10 + 1) << "at " << times[i];
    }
}

TEST(AssetsFetch, AKilledRunResumes) {
    FakeRoblox fake;
    std::vector<cli::FetchItem> items;
    for (int i = 0; i < 12; ++i) {
        fake.assets[std::to_string(700 + i)].bytes = "version 2.00\nmesh " + std::to_string(i);
        items.push_back({std::to_string(700 + i), "mesh"});
    }
    const fs::path dir = ScratchDir("fetch-resume");
    std::atomic<bool> cancel{false};
    cli::FetchOptions options = FastOptions(fake, dir);
    options.jobs = 1;
    options.cancel = &cancel;
    options.progress = [&](std::size_t done, std::size_t, const std::map<std::string, std::size_t> &) {
        if (done == 5) cancel = true; // the kill
    };
    cli::FetchAssets(items, options);
    WriteText(dir / "711.mesh.gamefmt-partial", "version 2.00\nhalf"); // what a kill mid-write leaves
    std::size_t done = 0;
    for (int i = 0; i < 12; ++i) done += fs::exists(dir / (std::to_string(700 + i) + ".mesh")) ? 1 : 0;
    EXPECT_EQ(done, 5u);
    options.cancel = nullptr;
    options.progress = nullptr;
    const cli::FetchReport again = cli::FetchAssets(items, options);
    EXPECT_EQ(again.counts.at("present"), 5u);
    EXPECT_EQ(again.counts.at("ok"), 7u);
    for (int i = 0; i < 12; ++i) {
        const std::string id = std::to_string(700 + i);
        EXPECT_EQ(fake.apiCalls(id), 1u) << id;
        EXPECT_EQ(FileText(dir / (id + ".mesh")), fake.assets[id].bytes) << id;
    }
    EXPECT_FALSE(fs::exists(dir / "711.mesh.gamefmt-partial"));
}

TEST(AssetsFetch, RefreshFetchesAgain) {
    FakeRoblox fake;
    fake.assets["42"].bytes = Text(ReadBytes(TestDataDir() / "rbx-assets" / "1001.png"));
    const fs::path dir = ScratchDir("fetch-refresh");
    WriteText(dir / "42", "stale bytes"); // an older download under another name
    cli::FetchOptions options = FastOptions(fake, dir);
    options.refresh = true;
    const cli::FetchReport report = cli::FetchAssets({{"42", "decal"}}, options);
    EXPECT_EQ(report.counts.at("ok"), 1u);
    EXPECT_EQ(FileText(dir / "42.png"), fake.assets["42"].bytes);
    EXPECT_FALSE(fs::exists(dir / "42")); // replaced, not kept beside
}

TEST(AssetsFetch, TheKeyNeverComesFromTheCommandLineAndIsChecked) {
    FakeRoblox fake;
    const fs::path dir = ScratchDir("fetch-key");
    const CliResult argv = Cli({"assets", "fetch", "--id", "1", "--into", PathToUtf8(dir), "--api-key", kKey});
    EXPECT_EQ(argv.code, 2);
    EXPECT_NE(argv.err.find("process lists"), std::string::npos) << argv.err;
    EXPECT_EQ(argv.err.find(kKey), std::string::npos);
    EXPECT_TRUE(fake.requests().empty());

    const std::vector<std::string> check = {"assets",    "fetch",          "--check-key",           "--api-base",
                                            fake.base(), "--api-key-file", PathToUtf8(KeyFile(dir))};
    const CliResult fine = Cli(check);
    EXPECT_EQ(fine.code, 0) << fine.err;
    ASSERT_FALSE(fake.requests().empty());
    EXPECT_EQ(nlohmann::json::parse(fake.requests().back().body)["apiKey"], kKey); // the key in the body, to the API

    const std::pair<const char *, const char *> answers[] = {
        {R"({"name":"k","scopes":[{"name":"universe-places","operations":["write"]}],"enabled":true,"expired":false})",
         "legacy-asset:manage"},
        {R"({"name":"k","scopes":["legacy-asset:manage"],"enabled":false,"expired":false})", "is disabled"},
        {R"({"name":"k","scopes":["legacy-asset:manage"],"enabled":true,"expired":true,"expirationTimeUtc":"2026-01-01T00:00:00Z"})",
         "has expired"}};
    for (const auto &[answer, words] : answers) {
        fake.introspection = answer;
        const CliResult refused = Cli(check);
        EXPECT_EQ(refused.code, 1) << answer;
        EXPECT_NE(refused.err.find(words), std::string::npos) << refused.err;
        EXPECT_EQ(refused.err.find(kKey), std::string::npos);
    }
    fake.introspectionStatus = 401;
    fake.introspection = R"({"errors":[{"code":0,"message":"Invalid API Key"}]})";
    const CliResult invalid = Cli(check);
    EXPECT_EQ(invalid.code, 1);
    EXPECT_NE(invalid.err.find("IP allow-list"), std::string::npos) << invalid.err;
}

TEST(AssetsFetch, CommandLineChecks) {
    const fs::path dir = ScratchDir("fetch-usage");
    const std::string key = PathToUtf8(KeyFile(dir));
    const auto code = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"assets", "fetch", "--api-key-file", key};
        args.insert(args.end(), extra.begin(), extra.end());
        return Cli(args).code;
    };
    EXPECT_EQ(code({"--id", "1"}), 2);                              // no --into
    EXPECT_EQ(code({"--into", PathToUtf8(dir)}), 2);                // nothing to fetch
    EXPECT_EQ(code({"--into", PathToUtf8(dir), "--id", "12x"}), 2); // not an id
    EXPECT_EQ(code({"--into", PathToUtf8(dir), "--id", "1", "--rate", "1001"}), 2);
    EXPECT_EQ(code({"--into", PathToUtf8(dir), "--id", "1", "--jobs", "0"}), 2);
    EXPECT_EQ(code({"--into", PathToUtf8(dir), "--id", "1", "--api-base", "http://example.com"}), 2); // plain http
    const CliResult none = Cli(
        {"assets", "fetch", "--id", "1", "--into", PathToUtf8(dir), "--api-key-file", PathToUtf8(dir / "no-such-key")});
    EXPECT_EQ(none.code, 2);
}

TEST(AssetsFetch, IdsFromAListAndTheCommandLine) {
    FakeRoblox fake;
    for (const char *id : {"301", "302", "303", "304"}) fake.assets[id].bytes = std::string("version 2.00\n") + id;
    const fs::path dir = ScratchDir("fetch-list");
    WriteText(dir / "ids.txt", "# from gamefmt assets --missing\n\n301\nrbxassetid://302\r\n"
                               "https://www.roblox.com/asset/?id=303\nnot-an-id\n301\n");
    const CliResult run =
        Cli({"assets", "fetch", "--from-list", PathToUtf8(dir / "ids.txt"), "--id", "304", "--into",
             PathToUtf8(dir / "out"), "--api-base", fake.base(), "--api-key-file", PathToUtf8(KeyFile(dir))});
    EXPECT_EQ(run.code, 0) << run.err;
    EXPECT_NE(run.out.find("fetched 4,"), std::string::npos) << run.out;
    EXPECT_NE(run.err.find("not an asset id: not-an-id"), std::string::npos) << run.err;
    for (const char *id : {"301", "302", "303", "304"}) {
        EXPECT_EQ(fake.apiCalls(id), 1u) << id; // 301 twice in the list: once
        EXPECT_EQ(FileText(dir / "out" / (std::string(id) + ".mesh")), fake.assets[id].bytes);
    }
}

TEST(AssetsFetch, DownloadHostsAreRobloxOrLoopback) {
    const std::string roblox = "https://apis.roblox.com";
    EXPECT_TRUE(cli::AllowedDownloadUrl("https://c3.rbxcdn.com/abc", roblox));
    EXPECT_TRUE(cli::AllowedDownloadUrl("https://fts.rbxcdn.com/x?y", roblox));
    EXPECT_TRUE(cli::AllowedDownloadUrl("https://contentdelivery.roblox.com/x", roblox));
    EXPECT_FALSE(cli::AllowedDownloadUrl("http://c3.rbxcdn.com/abc", roblox)); // https only
    EXPECT_FALSE(cli::AllowedDownloadUrl("https://rbxcdn.com.evil.net/abc", roblox));
    EXPECT_FALSE(cli::AllowedDownloadUrl("https://evilrbxcdn.com/abc", roblox));
    EXPECT_FALSE(cli::AllowedDownloadUrl("https://user@c3.rbxcdn.com/abc", roblox));
    EXPECT_FALSE(cli::AllowedDownloadUrl("http://127.0.0.1:8/cdn", roblox)); // loopback only for a loopback API
    EXPECT_TRUE(cli::AllowedDownloadUrl("http://127.0.0.1:8/cdn", "http://127.0.0.1:9"));
    EXPECT_FALSE(cli::AllowedDownloadUrl("http://10.0.0.1/cdn", "http://127.0.0.1:9"));
}

TEST(AssetsFetch, SniffsWhatRobloxServes) {
    const auto sniff = [](const std::string &bytes) {
        return cli::SniffFetched(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
    };
    EXPECT_EQ(sniff("version 4.00\n..."), "mesh");
    EXPECT_EQ(sniff(Text(ReadBytes(TestDataDir() / "rbx-assets" / "1001.png"))), "png");
    EXPECT_EQ(sniff("\xFF\xD8\xFF\xE0"), "jpg");
    EXPECT_EQ(sniff("GIF89a"), "gif");
    EXPECT_EQ(sniff(std::string("RIFF\x10\0\0\0WEBPVP8 ", 16)), "webp");
    EXPECT_EQ(sniff(std::string("\xABKTX 11\xBB\r\n\x1A\n", 12)), "ktx");
    EXPECT_EQ(sniff(std::string("\xABKTX 20\xBB\r\n\x1A\n", 12)), "ktx2");
    EXPECT_EQ(sniff("OggS"), "ogg");
    EXPECT_EQ(sniff("ID3\x03"), "mp3");
    EXPECT_EQ(sniff("#EXTM3U\n"), "hls");
    EXPECT_EQ(sniff(std::string("<roblox!\x89\xff\r\n\x1a\n", 14)), "rbxm");
    EXPECT_EQ(sniff("<roblox version=\"4\"><Item class=\"Part\"></Item></roblox>"), "rbxmx");
    EXPECT_EQ(sniff("<roblox><color>1</color><normal>0</normal></roblox>"), "texturepack");
    EXPECT_EQ(sniff("<html>"), "unknown");
    EXPECT_EQ(cli::ExtensionFor("texturepack"), ".xml");
    EXPECT_EQ(cli::ExtensionFor("unknown"), ".bin");
    EXPECT_EQ(cli::ExtensionFor("mesh"), ".mesh");
}

// Sets (or with nullptr, removes) an environment variable for the rest of a test, and puts it back afterwards.
class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value) : mName(name) {
        if (const char *old = std::getenv(name)) mOld = old, mHad = true;
        Set(name, value);
    }
    ~ScopedEnv() { Set(mName.c_str(), mHad ? mOld.c_str() : nullptr); }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    static void Set(const char *name, const char *value) {
#ifdef _WIN32
        const std::wstring wide = PathFromUtf8(name).wstring();
        _wputenv_s(wide.c_str(), value != nullptr ? PathFromUtf8(value).wstring().c_str() : L"");
#else
        if (value != nullptr)
            setenv(name, value, 1);
        else
            unsetenv(name);
#endif
    }
    std::string mName, mOld;
    bool mHad = false;
};

TEST(AssetsFetch, TheKeyFromTheEnvironment) {
    FakeRoblox fake;
    const ScopedEnv key("ROBLOX_API_KEY", kKey.c_str());
    const CliResult run = Cli({"assets", "fetch", "--check-key", "--api-base", fake.base()});
    EXPECT_EQ(run.code, 0) << run.err;
    EXPECT_NE(run.out.find("may fetch assets"), std::string::npos) << run.out;
    const ScopedEnv none("ROBLOX_API_KEY", nullptr);
    const CliResult missing = Cli({"assets", "fetch", "--check-key", "--api-base", fake.base()});
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("legacy-assets"), std::string::npos) << missing.err; // how to make one
}

TEST(AssetsWhere, MadeUpInstallsResolveRbxassetPaths) {
    const fs::path root = ScratchDir("assets-where");
    const fs::path sober = root / "home" / ".var" / "app" / "org.vinegarhq.Sober" / "data" / "sober" / "assets";
    const fs::path windows = root / "local" / "Roblox" / "Versions" / "version-1";
    fs::create_directories(sober / "content" / "fonts");
    fs::create_directories(windows / "content" / "textures");
    fs::copy_file(TestDataDir() / "rbx-assets" / "content" / "fonts" / "hat.mesh",
                  sober / "content" / "fonts" / "hat.mesh");
    const ScopedEnv home("HOME", PathToUtf8(root / "home").c_str());
    const ScopedEnv profile("USERPROFILE", PathToUtf8(root / "home").c_str());
    const ScopedEnv xdg("XDG_DATA_HOME", nullptr);
    const ScopedEnv local("LOCALAPPDATA", PathToUtf8(root / "local").c_str());
    const CliResult where = Cli({"assets", "--where"});
    ASSERT_EQ(where.code, 0) << where.err;
    const std::size_t cut = where.out.find('\n');
    ASSERT_NE(cut, std::string::npos);
    EXPECT_EQ(PathFromUtf8(where.out.substr(0, cut)), windows);
    const std::string second = where.out.substr(cut + 1);
    ASSERT_FALSE(second.empty());
    EXPECT_EQ(second.back(), '\n');
    EXPECT_EQ(PathFromUtf8(second.substr(0, second.size() - 1)), sober);
    EXPECT_EQ(std::count(where.out.begin(), where.out.end(), '\n'), 2);
    const CliResult assets =
        Cli({"assets", PathToUtf8(TestDataDir() / "asset-place.rbxl"), "--asset-dir", "auto", "--json"});
    ASSERT_EQ(assets.code, 0) << assets.err;
    const nlohmann::json report = nlohmann::json::parse(assets.out);
    bool hat = false;
    for (const nlohmann::json &a : report["assets"])
        if (a["uri"] == "rbxasset://fonts/hat.mesh") {
            hat = true;
            EXPECT_EQ(a["status"], "found");
            EXPECT_EQ(PathFromUtf8(a["path"].get<std::string>()), sober / "content" / "fonts" / "hat.mesh");
        }
    EXPECT_TRUE(hat);
    const ScopedEnv nowhere("LOCALAPPDATA", PathToUtf8(root / "nothing").c_str());
    const ScopedEnv nohome("HOME", PathToUtf8(root / "nothing").c_str());
    const ScopedEnv noprofile("USERPROFILE", PathToUtf8(root / "nothing").c_str());
    const CliResult empty = Cli({"assets", "--where"});
    EXPECT_EQ(empty.code, 1);
    EXPECT_TRUE(empty.out.empty());
}

} // namespace
} // namespace gamefmt::test
