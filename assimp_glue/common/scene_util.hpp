// Helpers every importer and exporter uses to build or read an aiScene by the scene contract
// (docs/formats/assimp-integration.md §7): safe aiStrings, unique node names, materials with both base and diffuse
// colour, exact-size arrays, metadata, logging, matrix conversion.
#pragma once

#include "common/math.hpp"
#include "gamefmt/metadata.hpp"

#include <assimp/material.h>
#include <assimp/matrix4x4.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace gamefmt::glue {

// aiString holds at most 1023 bytes and fails validation on embedded NULs: NULs become U+FFFD, invalid
// UTF-8 becomes U+FFFD, and the text is cut at a UTF-8 boundary to fit `maxBytes` (never silently dropped).
inline constexpr std::size_t kMaxAiStringBytes = 1023;
std::string SanitizeForAiString(std::string_view text, std::size_t maxBytes = kMaxAiStringBytes);
aiString ToAiString(std::string_view text);

// Scene-wide unique node names: the first "Name" stays, later ones become "Name.1", "Name.2", ...
// (skipping any name already taken). One open-addressing table over an arena of name bytes: a place of
// 100,000 parts makes that many names, and a node-based map of std::string spent more time than the parts.
class UniqueNames {
public:
    UniqueNames() = default;
    UniqueNames(const UniqueNames &) = delete;
    UniqueNames &operator=(const UniqueNames &) = delete;

    std::string make(std::string_view wanted);
    // Room for `count` names without growing the table.
    void reserve(std::size_t count);
    bool taken(std::string_view name) const;

private:
    struct Slot {
        const char *data = nullptr; // null: empty
        std::uint32_t size = 0;
        std::uint32_t next = 1; // the next suffix to try after this name
        std::size_t hash = 0;
    };
    std::size_t find(std::string_view name, std::size_t hash) const; // the slot holding `name`, or an empty one
    std::size_t insert(std::string_view name, std::size_t hash);     // `name` must be absent
    void grow(std::size_t slots);

    std::vector<Slot> mSlots;
    std::size_t mCount = 0;
    std::vector<std::unique_ptr<char[]>> mBlocks; // the names' bytes
    char *mCursor = nullptr;
    std::size_t mLeft = 0;
};

// A new[]-allocated copy Assimp will own (null for an empty vector, as validation demands).
template <typename T> T *CopyToNewArray(const std::vector<T> &v) {
    if (v.empty()) return nullptr;
    T *out = new T[v.size()];
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i];
    return out;
}

// A material named `name` with `color` in both AI_MATKEY_BASE_COLOR and AI_MATKEY_COLOR_DIFFUSE.
aiMaterial *MakeMaterial(std::string_view name, const aiColor4D &color);

// Roblox studs per unit of `scene`, for the Roblox writers: the scene's UnitScaleFactor (centimetres per unit,
// Assimp's FBX meaning; our Roblox importers say 28) divided by 28; a scene Assimp read from glTF (metres, as
// gamefmt's glTF writer makes them) 100 / 28; 1 for a scene that states no unit.
double StudsPerSceneUnit(const aiScene &scene);

// True for a scene Assimp's glTF importer made (SourceAsset_Format starts with "glTF"): metres, linear colours.
bool IsGltfSource(const aiScene &scene);

// 0..1 → 0..255, rounded; NaN and negatives 0, 1 and more 255.
std::uint8_t UnitToByte(float v);

// Sets SourceAsset_Format and SourceAsset_FormatVersion on the scene (creating its metadata).
void SetSourceAsset(aiScene *scene, std::string_view format, std::string_view version);

// Metadata: gamefmt::MetadataBuilder, GetMetadataText/Blob/Int and ForEachMetadata (include/gamefmt/metadata.hpp).
using gamefmt::GetMetadataBlob;
using gamefmt::GetMetadataInt;
using gamefmt::GetMetadataText;
using gamefmt::MetadataBuilder;

// Forwards to Assimp's DefaultLogger (a no-op NullLogger when the application installed none).
void LogWarn(const std::string &message);
void LogInfo(const std::string &message);
void LogDebug(const std::string &message);

// Collects an exporter's warnings for its caller and sends each distinct one to Assimp's logger once,
// prefixed with `logPrefix` (e.g. "Roblox mesh export: ").
class WarningSink {
public:
    WarningSink(std::vector<std::string> &sink, std::string logPrefix) : mSink(sink), mPrefix(std::move(logPrefix)) {}
    void add(const std::string &text) {
        if (!mSeen.insert(text).second) return;
        mSink.push_back(text);
        LogWarn(mPrefix + text);
    }

private:
    std::vector<std::string> &mSink;
    std::string mPrefix;
    std::unordered_set<std::string> mSeen;
};

inline aiMatrix4x4 ToAi(const Mat4 &m) {
    return aiMatrix4x4(m.m[0][0], m.m[0][1], m.m[0][2], m.m[0][3], m.m[1][0], m.m[1][1], m.m[1][2], m.m[1][3],
                       m.m[2][0], m.m[2][1], m.m[2][2], m.m[2][3], m.m[3][0], m.m[3][1], m.m[3][2], m.m[3][3]);
}
inline Mat4 FromAi(const aiMatrix4x4 &a) {
    Mat4 m;
    const float v[16] = {a.a1, a.a2, a.a3, a.a4, a.b1, a.b2, a.b3, a.b4,
                         a.c1, a.c2, a.c3, a.c4, a.d1, a.d2, a.d3, a.d4};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) m.m[r][c] = v[r * 4 + c];
    return m;
}

// The rigid transforms of common/math.hpp and Assimp's matrices: the rotation rows and the position as they are.
inline aiMatrix4x4 ToAi(const Rigid &t) {
    const auto &r = t.r;
    return aiMatrix4x4(static_cast<ai_real>(r[0]), static_cast<ai_real>(r[1]), static_cast<ai_real>(r[2]),
                       static_cast<ai_real>(t.p[0]), static_cast<ai_real>(r[3]), static_cast<ai_real>(r[4]),
                       static_cast<ai_real>(r[5]), static_cast<ai_real>(t.p[1]), static_cast<ai_real>(r[6]),
                       static_cast<ai_real>(r[7]), static_cast<ai_real>(r[8]), static_cast<ai_real>(t.p[2]), 0, 0, 0,
                       1);
}
// A node transform as a rigid one: columns normalised (a scale in the scene does not skew joint math), a zero column
// the identity's.
Rigid RigidFromAi(const aiMatrix4x4 &m);

// Visits every node under `root` once (a node listed twice is skipped), depth-first in pre-order, without
// recursion: a hostile or generated scene may be very deep. `visit(node, parentGlobal, parentState)` returns
// the node's own (global, state), which its children receive; the walk starts from (rootGlobal, rootState).
template <typename Matrix, typename State, typename Visit>
void WalkNodes(const aiNode *root, const Matrix &rootGlobal, const State &rootState, Visit &&visit) {
    struct Item {
        const aiNode *node;
        Matrix parentGlobal;
        State parentState;
    };
    std::unordered_set<const aiNode *> seen;
    std::vector<Item> stack{{root, rootGlobal, rootState}};
    while (!stack.empty()) {
        const Item item = std::move(stack.back());
        stack.pop_back();
        if (item.node == nullptr || !seen.insert(item.node).second) continue;
        const std::pair<Matrix, State> own = visit(*item.node, item.parentGlobal, item.parentState);
        // Children pushed in reverse so that they are visited in order.
        for (unsigned i = item.node->mNumChildren; i-- > 0;)
            stack.push_back({item.node->mChildren[i], own.first, own.second});
    }
}

} // namespace gamefmt::glue
