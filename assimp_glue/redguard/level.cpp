// Redguard levels -> aiScene (assimp_glue/redguard/level.hpp; docs/formats/redguard-world.md §1.7-§2.5).
#include "assimp_glue/redguard/level.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "gamefmt/metadata.hpp"

#include <assimp/light.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

namespace gamefmt::glue {
namespace {

using namespace rglevel;

constexpr double kPi = 3.14159265358979323846;
constexpr double kQ28 = 268435456.0;      // Q4.28 1.0
constexpr std::uint32_t kFullTurn = 2048; // MPOB angle units per turn

void Warn(const std::string &message) {
    LogWarn("Redguard RGM: " + message);
}

std::string Number3(std::size_t i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%03u", static_cast<unsigned>(i % 1000000));
    return buf;
}

std::string Upper(std::string s) {
    for (char &c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

// §1.7: the translation in Assimp's frame.
aiVector3D Translation(const redguard::RgmPosition &p, double scale) {
    return aiVector3D(static_cast<ai_real>(-double(p.x) * scale), static_cast<ai_real>(-double(p.y) * scale),
                      static_cast<ai_real>((double(p.z) - kZShift) * scale));
}

aiMatrix4x4 Compose(const double r[3][3], const aiVector3D &t) {
    aiMatrix4x4 m;
    for (unsigned i = 0; i < 3; ++i)
        for (unsigned j = 0; j < 3; ++j) m[i][j] = static_cast<ai_real>(r[i][j]);
    m.a4 = t.x;
    m.b4 = t.y;
    m.c4 = t.z;
    return m;
}

// MPSO: R = S·M·S, S = diag(−1, −1, 1).
aiMatrix4x4 StaticTransform(const redguard::RgmStatic &s, double scale) {
    static const double kSign[3] = {-1, -1, 1};
    double r[3][3];
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) r[i][j] = double(s.m[3 * i + j]) / kQ28 * kSign[i] * kSign[j];
    return Compose(r, Translation(s.position, scale));
}

void Multiply(const double a[3][3], const double b[3][3], double out[3][3]) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
}

// MPOB: R = Ry(θy)·Rx(θx)·Rz(−θz), θ = (a mod 2048)·2π/2048.
aiMatrix4x4 ScriptedTransform(const redguard::RgmScripted &o, double scale) {
    const auto angle = [](std::uint32_t a) { return double(a % kFullTurn) * 2.0 * kPi / double(kFullTurn); };
    const double ax = angle(o.angles[0]), ay = angle(o.angles[1]), az = -angle(o.angles[2]);
    const double rx[3][3] = {{1, 0, 0}, {0, std::cos(ax), -std::sin(ax)}, {0, std::sin(ax), std::cos(ax)}};
    const double ry[3][3] = {{std::cos(ay), 0, std::sin(ay)}, {0, 1, 0}, {-std::sin(ay), 0, std::cos(ay)}};
    const double rz[3][3] = {{std::cos(az), -std::sin(az), 0}, {std::sin(az), std::cos(az), 0}, {0, 0, 1}};
    double yx[3][3], r[3][3];
    Multiply(ry, rx, yx);
    Multiply(yx, rz, r);
    return Compose(r, Translation(o.position, scale));
}

aiMatrix4x4 TranslationOnly(const aiVector3D &t) {
    aiMatrix4x4 m;
    m.a4 = t.x;
    m.b4 = t.y;
    m.c4 = t.z;
    return m;
}

// ---------------------------------------------------------------- terrain (§2.3, §2.4)

constexpr unsigned kTerrainImages = 64; // image = texture byte & 0x3F

// The grid's vertices with their smooth normals, and its cells grouped by image.
struct TerrainGrid {
    std::vector<aiVector3D> position, normal;                // per grid vertex, gy-major
    std::array<std::size_t, kTerrainImages + 1> firstCell{}; // image k's cells: byImage[firstCell[k] … firstCell[k+1])
    std::vector<std::uint32_t> byImage;                      // cells by their top-left vertex index
};

TerrainGrid BuildTerrainGrid(const redguard::WldWorld &world, double scale) {
    constexpr std::size_t n = redguard::kWldGrid; // vertices per side
    constexpr std::size_t cells = n - 1;          // cells per side
    TerrainGrid grid;
    grid.position.resize(n * n);
    grid.normal.resize(n * n);
    for (std::size_t gy = 0; gy < n; ++gy)
        for (std::size_t gx = 0; gx < n; ++gx)
            grid.position[gy * n + gx] = aiVector3D(static_cast<ai_real>(-double(redguard::kWldCellSize * gx) * scale),
                                                    static_cast<ai_real>(double(world.height(gx, gy)) * scale),
                                                    static_cast<ai_real>(-double(redguard::kWldCellSize * gy) * scale));
    // Smooth normals: each grid vertex sums the unnormalised normals of the triangles around it.
    const auto addNormal = [&grid](std::size_t a, std::size_t b, std::size_t c) {
        const aiVector3D f = (grid.position[b] - grid.position[a]) ^ (grid.position[c] - grid.position[a]);
        grid.normal[a] += f;
        grid.normal[b] += f;
        grid.normal[c] += f;
    };
    std::array<std::size_t, kTerrainImages> cellsPerImage{};
    for (std::size_t gy = 0; gy < cells; ++gy)
        for (std::size_t gx = 0; gx < cells; ++gx) {
            const std::size_t tl = gy * n + gx, tr = tl + 1, bl = tl + n, br = bl + 1;
            addNormal(tl, br, tr);
            addNormal(br, tl, bl);
            ++cellsPerImage[world.textureByte(gx, gy) & 0x3F];
        }
    for (aiVector3D &v : grid.normal) v.Normalize();
    // The cells grouped by image (a counting sort), so that each mesh is filled from its own cells alone.
    for (std::size_t image = 0; image < kTerrainImages; ++image)
        grid.firstCell[image + 1] = grid.firstCell[image] + cellsPerImage[image];
    grid.byImage.resize(cells * cells);
    std::array<std::size_t, kTerrainImages> next{};
    std::copy(grid.firstCell.begin(), grid.firstCell.begin() + kTerrainImages, next.begin());
    for (std::size_t gy = 0; gy < cells; ++gy)
        for (std::size_t gx = 0; gx < cells; ++gx)
            grid.byImage[next[world.textureByte(gx, gy) & 0x3F]++] = static_cast<std::uint32_t>(gy * n + gx);
    return grid;
}

// Image `image`'s cells as one mesh "Terrain_<image>": 4 vertices per cell, UVs turned by the cell's quarter-turns.
std::unique_ptr<aiMesh> TerrainMesh(const TerrainGrid &grid, const redguard::WldWorld &world, unsigned image,
                                    unsigned material) {
    constexpr std::size_t n = redguard::kWldGrid;
    // Image corners in (s, t), t from the first stored row; Assimp's V is 1 − t.
    static const float kCornerS[4] = {0, 1, 1, 0}, kCornerT[4] = {0, 0, 1, 1};
    const std::size_t count = grid.firstCell[image + 1] - grid.firstCell[image];
    auto mesh = std::make_unique<aiMesh>();
    mesh->mName = ToAiString("Terrain_" + std::to_string(image));
    mesh->mMaterialIndex = material;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = static_cast<unsigned>(4 * count);
    mesh->mVertices = new aiVector3D[4 * count];
    mesh->mNormals = new aiVector3D[4 * count];
    mesh->mTextureCoords[0] = new aiVector3D[4 * count];
    mesh->mNumUVComponents[0] = 2;
    mesh->mNumFaces = static_cast<unsigned>(2 * count);
    mesh->mFaces = new aiFace[2 * count];
    unsigned v = 0, f = 0;
    for (std::size_t at = grid.firstCell[image]; at < grid.firstCell[image + 1]; ++at) {
        const std::size_t tl = grid.byImage[at];
        const unsigned turn = world.textures[tl] >> 6;                  // grid vertex index = map index (both 256 wide)
        const std::size_t corner[4] = {tl, tl + 1, tl + n + 1, tl + n}; // TL, TR, BR, BL
        for (unsigned c = 0; c < 4; ++c) {
            const unsigned k = (c + turn) % 4;
            mesh->mVertices[v + c] = grid.position[corner[c]];
            mesh->mNormals[v + c] = grid.normal[corner[c]];
            mesh->mTextureCoords[0][v + c] = aiVector3D(kCornerS[k], 1.0f - kCornerT[k], 0);
        }
        // (TL, BR, TR) and (BR, TL, BL).
        const unsigned tri[2][3] = {{v, v + 2, v + 1}, {v + 2, v, v + 3}};
        for (const auto &t3 : tri) {
            aiFace &face = mesh->mFaces[f++];
            face.mNumIndices = 3;
            face.mIndices = new unsigned[3]{t3[0], t3[1], t3[2]};
        }
        v += 4;
    }
    return mesh;
}

class LevelBuilder {
public:
    LevelBuilder(const RedguardLevelInput &input, const RedguardSceneOptions &options, const RedguardSideFiles &side)
        : mInput(input), mOptions(options), mParts(options, side) {}

    void build(aiScene *scene) {
        auto root = std::make_unique<aiNode>();
        root->mName = ToAiString(mInput.fileName.empty() ? "Redguard level" : mInput.fileName);
        if (mInput.world != nullptr) mChildren.push_back(terrainNode(*mInput.world));
        if (mInput.scene != nullptr) placeScene(*mInput.scene);
        if (!mChildren.empty()) {
            root->mNumChildren = static_cast<unsigned>(mChildren.size());
            root->mChildren = new aiNode *[mChildren.size()];
            for (std::size_t i = 0; i < mChildren.size(); ++i) {
                root->mChildren[i] = mChildren[i].release();
                root->mChildren[i]->mParent = root.get();
            }
        }
        MetadataBuilder md;
        if (mInput.scene != nullptr && !mInput.scene->skipped.empty()) {
            std::string skipped;
            for (const std::string &tag : mInput.scene->skipped) skipped += (skipped.empty() ? "" : ",") + tag;
            md.add(kSkippedSections, std::string_view(skipped));
        }
        if (mInput.worldIndex >= 0) md.add(kWorld, static_cast<std::int32_t>(mInput.worldIndex));
        if (!mInput.palette.empty()) md.add(kPalette, std::string_view(mInput.palette));
        if (!mInput.terrainFile.empty()) md.add(kTerrain, std::string_view(mInput.terrainFile));
        reportMissing();
        mParts.finish(root.release(), scene, mInput.scene != nullptr ? kSourceFormatRgm : kSourceFormatWld,
                      mInput.scene != nullptr ? "RGM" : "WLD");
        md.mergeInto(scene->mMetaData);
    }

private:
    std::unique_ptr<aiNode> terrainNode(const redguard::WldWorld &world) {
        const TerrainGrid grid = BuildTerrainGrid(world, mOptions.scale);
        auto node = std::make_unique<aiNode>();
        node->mName = ToAiString(kTerrainNode);
        std::vector<unsigned> meshes;
        for (unsigned image = 0; image < kTerrainImages; ++image) {
            if (grid.firstCell[image] == grid.firstCell[image + 1]) continue;
            const RedguardLevelAssembler::ImageMaterial material =
                mParts.imageMaterial(redguard::kWldTerrainBank, image, true);
            meshes.push_back(mParts.addMesh(TerrainMesh(grid, world, image, material.index)));
        }
        node->mNumMeshes = static_cast<unsigned>(meshes.size());
        node->mMeshes = CopyToNewArray(meshes);
        return node;
    }

    // ------------------------------------------------------------ scene (§1)

    struct Shown {
        std::vector<unsigned> meshes;
        std::string source;
    };

    // The meshes of model `name`, converted once; none when it is not found.
    const Shown &model(const std::string &name) {
        const std::string key = Upper(name);
        const auto found = mModels.find(key);
        if (found != mModels.end()) return found->second;
        Shown shown;
        if (!key.empty() && mInput.models) {
            if (std::optional<RedguardFoundModel> m = mInput.models(key)) {
                shown.meshes = mParts.modelMeshes(m->model, key);
                shown.source = m->source;
            }
        }
        if (shown.source.empty() && !key.empty()) mMissing.insert(key);
        return mModels.emplace(key, std::move(shown)).first->second;
    }

    std::unique_ptr<aiNode> node(const std::string &name, const aiMatrix4x4 &transform, const std::string &modelName,
                                 MetadataBuilder &md) {
        auto out = std::make_unique<aiNode>();
        out->mName = ToAiString(name);
        out->mTransformation = transform;
        if (!modelName.empty()) {
            const Shown &shown = model(modelName);
            md.add(kModel, std::string_view(Upper(modelName)));
            md.add(kModelSource, std::string_view(shown.source));
            if (!shown.meshes.empty()) {
                out->mNumMeshes = static_cast<unsigned>(shown.meshes.size());
                out->mMeshes = CopyToNewArray(shown.meshes);
            }
        }
        out->mMetaData = md.build();
        return out;
    }

    void placeScene(const redguard::RgmScene &rgm) {
        placeStatics(rgm);
        placeScripted(rgm);
        for (std::size_t i = 0; i < rgm.flats.size(); ++i) placeFlat(i, rgm.flats[i]);
        placeRopes(rgm);
        placeLightsAndMarkers(rgm);
        if (!rgm.skipped.empty()) {
            std::string skipped;
            for (const std::string &tag : rgm.skipped) skipped += (skipped.empty() ? "" : ", ") + tag;
            Warn("scripts and AI data are not run (" + skipped +
                 "): objects show where the file places them, including any a script would hide or move");
        }
    }

    void placeStatics(const redguard::RgmScene &rgm) {
        const double scale = mOptions.scale;
        for (std::size_t i = 0; i < rgm.statics.size(); ++i) {
            const redguard::RgmStatic &s = rgm.statics[i];
            MetadataBuilder md;
            md.add(kRecord, "MPSO");
            md.add(kId, static_cast<std::uint64_t>(s.id));
            mChildren.push_back(node("S" + Number3(i) + "_" + s.model, StaticTransform(s, scale), s.model, md));
        }
    }

    void placeScripted(const redguard::RgmScene &rgm) {
        const double scale = mOptions.scale;
        bool overrides = false;
        for (std::size_t i = 0; i < rgm.scripted.size(); ++i) {
            const redguard::RgmScripted &o = rgm.scripted[i];
            const redguard::RgmActor *actor = redguard::FindActor(rgm, o.script);
            // §1.4: the model name, else the actor's first animation, else the script name; types 2 (sound) and
            // 3 (flat) and 6 (light) show no model.
            std::string modelName;
            if (o.type != 2 && o.type != 3 && o.type != 6) {
                modelName = o.model;
                if (modelName.empty() && actor != nullptr) modelName = actor->firstAnimationModel;
                if (modelName.empty()) modelName = o.script;
            }
            MetadataBuilder md;
            md.add(kRecord, "MPOB");
            md.add(kId, static_cast<std::uint64_t>(o.id));
            md.add(kObjectType, static_cast<std::int32_t>(o.type));
            md.add(kIsActive, static_cast<std::int32_t>(o.active));
            md.add(kIsStatic, static_cast<std::int32_t>(o.isStatic));
            md.add(kScript, std::string_view(o.script));
            md.add(kTexture, static_cast<std::int32_t>(o.texture));
            std::string values;
            for (const std::int16_t v : o.values) values += (values.empty() ? "" : ",") + std::to_string(v);
            md.add(kLightValues, std::string_view(values));
            if (actor != nullptr && actor->textureOverride > 0) {
                md.add(kTextureOverride, static_cast<std::int32_t>(actor->textureOverride));
                overrides = true;
            }
            const std::string name = "B_" + Number3(i) + "_" + o.script;
            mChildren.push_back(node(name, ScriptedTransform(o, scale), modelName, md));
            if (o.type == 4 || o.type == 6) {
                // ru: colour = (r, g, b) / 255, range = radius (kept in rg.light_values).
                auto light = std::make_unique<aiLight>();
                light->mName = ToAiString(name);
                light->mType = aiLightSource_POINT;
                const auto c = [](std::int16_t v) { return std::clamp(float(v) / 255.0f, 0.0f, 1.0f); };
                light->mColorDiffuse = light->mColorSpecular =
                    aiColor3D(c(o.values[4]), c(o.values[5]), c(o.values[6]));
                mParts.addLight(std::move(light));
            }
        }
        if (overrides)
            Warn("some actors carry a texture override (RAHD +0x9B); its meaning is not established, so the models "
                 "keep their own textures (rg.texture_override names the value)");
    }

    void placeLightsAndMarkers(const redguard::RgmScene &rgm) {
        const double scale = mOptions.scale;
        for (std::size_t i = 0; i < rgm.lights.size(); ++i) {
            const redguard::RgmLight &l = rgm.lights[i];
            MetadataBuilder md;
            md.add(kRecord, "MPSL");
            md.addBlob(kLightRecord, l.raw.data(), l.raw.size());
            const std::string name = "L" + Number3(i);
            mChildren.push_back(node(name, TranslationOnly(Translation(l.position, scale)), "", md));
            auto light = std::make_unique<aiLight>();
            light->mName = ToAiString(name);
            light->mType = aiLightSource_POINT;
            light->mColorDiffuse = light->mColorSpecular = aiColor3D(1, 1, 1);
            mParts.addLight(std::move(light));
        }
        if (!rgm.lights.empty())
            Warn(std::to_string(rgm.lights.size()) +
                 " MPSL lights placed as white point lights: their colour and range fields are not established "
                 "(rg.light_record keeps each record)");
        if (mInput.markers)
            for (std::size_t i = 0; i < rgm.markers.size(); ++i) {
                MetadataBuilder md;
                md.add(kRecord, "MPMK");
                md.add(kMarkerFlag, static_cast<std::int32_t>(rgm.markers[i].flag));
                mChildren.push_back(
                    node("MARKER_" + Number3(i), TranslationOnly(Translation(rgm.markers[i].position, scale)), "", md));
            }
    }

    // §1.5: a 20 × 20-unit quad in the XY plane, from the position up and toward −X, facing −Z; UV 0…1.
    unsigned flatMesh(unsigned bank, unsigned image) {
        const unsigned key = bank << 8 | image;
        const auto found = mFlatMeshes.find(key);
        if (found != mFlatMeshes.end()) return found->second;
        const RedguardLevelAssembler::ImageMaterial material = mParts.imageMaterial(bank, image, false);
        const auto size = static_cast<ai_real>(kFlatSize * mOptions.scale);
        auto mesh = std::make_unique<aiMesh>();
        mesh->mName = ToAiString("Flat_" + std::to_string(bank) + "_" + std::to_string(image));
        mesh->mMaterialIndex = material.index;
        mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
        mesh->mNumVertices = 4;
        mesh->mVertices = new aiVector3D[4]{{0, 0, 0}, {-size, 0, 0}, {-size, size, 0}, {0, size, 0}};
        mesh->mNormals = new aiVector3D[4]{{0, 0, -1}, {0, 0, -1}, {0, 0, -1}, {0, 0, -1}};
        mesh->mTextureCoords[0] = new aiVector3D[4]{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        mesh->mNumUVComponents[0] = 2;
        mesh->mNumFaces = 2;
        mesh->mFaces = new aiFace[2];
        mesh->mFaces[0].mNumIndices = mesh->mFaces[1].mNumIndices = 3;
        mesh->mFaces[0].mIndices = new unsigned[3]{0, 1, 2};
        mesh->mFaces[1].mIndices = new unsigned[3]{0, 2, 3};
        const unsigned index = mParts.addMesh(std::move(mesh));
        mFlatMeshes.emplace(key, index);
        return index;
    }

    void placeFlat(std::size_t i, const redguard::RgmFlat &flat) {
        const unsigned bank = flat.texture >> 7, image = flat.texture & 0x7F;
        MetadataBuilder md;
        md.add(kRecord, "MPSF");
        md.add(kId, static_cast<std::uint64_t>(flat.id));
        md.add(kTexture, static_cast<std::int32_t>(flat.texture));
        auto out = node("F" + Number3(i) + "_" + std::to_string(bank) + "/" + std::to_string(image),
                        TranslationOnly(Translation(flat.position, mOptions.scale)), "", md);
        out->mNumMeshes = 1;
        out->mMeshes = new unsigned[1]{flatMesh(bank, image)};
        mChildren.push_back(std::move(out));
    }

    // §1.5: link j (0-based) 16·(j + 1) units below the base, unrotated; the end model one step further.
    void placeRopes(const redguard::RgmScene &rgm) {
        std::size_t total = 0;
        bool capped = false;
        for (std::size_t i = 0; i < rgm.ropes.size(); ++i) {
            const redguard::RgmRope &rope = rgm.ropes[i];
            int links = std::max<int>(0, rope.links);
            if (links > kMaxLinksPerRope || total + std::size_t(links) + 1 > kMaxLinks) {
                capped = true;
                links = static_cast<int>(std::min<std::size_t>(std::size_t(std::min(links, kMaxLinksPerRope)),
                                                               kMaxLinks > total + 1 ? kMaxLinks - total - 1 : 0));
            }
            const aiVector3D base = Translation(rope.position, mOptions.scale);
            std::string fields;
            for (const std::int32_t v : rope.fields) fields += (fields.empty() ? "" : ",") + std::to_string(v);
            for (int j = 0; j <= links; ++j) {
                const bool end = j == links;
                const std::string &modelName = end ? rope.endModel : rope.linkModel;
                MetadataBuilder md;
                md.add(kRecord, "MPRP");
                md.add(kId, static_cast<std::uint64_t>(rope.id));
                md.add(kRopeFields, std::string_view(fields));
                const aiVector3D at =
                    base - aiVector3D(0, static_cast<ai_real>(kRopeStep * (j + 1) * mOptions.scale), 0);
                mChildren.push_back(
                    node("R" + Number3(i) + "_" + Number3(static_cast<std::size_t>(j)) + "_" + modelName,
                         TranslationOnly(at), modelName, md));
            }
            total += std::size_t(links) + 1;
        }
        if (capped)
            Warn("rope link counts over " + std::to_string(kMaxLinksPerRope) + " per rope or " +
                 std::to_string(kMaxLinks) + " in all were cut there");
    }

    void reportMissing() {
        if (mMissing.empty()) return;
        std::string names;
        std::size_t shown = 0;
        for (const std::string &n : mMissing) {
            if (shown++ == 20) {
                names += ", …";
                break;
            }
            names += (names.empty() ? "" : ", ") + n;
        }
        Warn(std::to_string(mMissing.size()) + " models not found (" + names +
             "): their nodes stay empty; point GAMEFMT_RG_ASSET_DIR (--rg-assets) at the game's fxart folder");
    }

    const RedguardLevelInput &mInput;
    const RedguardSceneOptions &mOptions;
    RedguardLevelAssembler mParts;
    std::vector<std::unique_ptr<aiNode>> mChildren;
    std::map<std::string, Shown> mModels;
    std::map<unsigned, unsigned> mFlatMeshes;
    std::set<std::string> mMissing;
};

} // namespace

void BuildRedguardLevelScene(const RedguardLevelInput &input, const RedguardSceneOptions &options,
                             const RedguardSideFiles &side, aiScene *scene) {
    LevelBuilder(input, options, side).build(scene);
}

} // namespace gamefmt::glue
