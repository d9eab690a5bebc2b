// A streamed glTF 2.0 writer for node-only scenes.
#include "assimp_glue/gltf/nodes.hpp"

#include "common/json_text.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/scene.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace gamefmt::glue {
namespace {

constexpr std::size_t kPieceBytes = std::size_t(1) << 20;

// Collects text and hands it to the sink in pieces; counts every byte.
class Output {
public:
    explicit Output(const ByteSink *sink) : mSink(sink) {
        if (mSink != nullptr) mText.reserve(kPieceBytes + 4096);
    }
    void add(const char *text) { mText += text; }
    void add(const std::string &text) { mText += text; }
    void add(char c) { mText += c; }
    void flush(bool always) {
        if (!always && mText.size() < kPieceBytes) return;
        mTotal += mText.size();
        if (mSink != nullptr && !mText.empty()) (*mSink)(mText.data(), mText.size());
        mText.clear();
    }
    std::size_t total() const { return mTotal + mText.size(); }

private:
    const ByteSink *mSink;
    std::string mText;
    std::size_t mTotal = 0;
};

bool IsIdentity(const aiMatrix4x4 &m) {
    return m.a1 == 1 && m.a2 == 0 && m.a3 == 0 && m.a4 == 0 && m.b1 == 0 && m.b2 == 1 && m.b3 == 0 && m.b4 == 0 &&
           m.c1 == 0 && m.c2 == 0 && m.c3 == 1 && m.c4 == 0 && m.d1 == 0 && m.d2 == 0 && m.d3 == 0 && m.d4 == 1;
}

// The 16 values in glTF's column-major order; false when one is not finite (JSON cannot hold it).
bool ColumnMajor(const aiMatrix4x4 &m, ai_real (&out)[16]) {
    const ai_real values[16] = {m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2,
                                m.a3, m.b3, m.c3, m.d3, m.a4, m.b4, m.c4, m.d4};
    for (int i = 0; i < 16; ++i) {
        if (!std::isfinite(values[i])) return false;
        out[i] = values[i];
    }
    return true;
}

std::size_t WriteJson(const aiScene &scene, Output &out) {
    // Breadth-first: the children of a node get consecutive indices, so each node needs only its first.
    // A node listed twice (or a cycle, in a scene built by hand) is written once, under its first parent.
    std::vector<const aiNode *> order{scene.mRootNode};
    std::vector<std::size_t> firstChild, childCount;
    std::unordered_set<const aiNode *> seen{scene.mRootNode};
    for (std::size_t i = 0; i < order.size(); ++i) {
        firstChild.push_back(order.size());
        for (unsigned c = 0; c < order[i]->mNumChildren; ++c)
            if (const aiNode *child = order[i]->mChildren[c]; child != nullptr && seen.insert(child).second)
                order.push_back(child);
        childCount.push_back(order.size() - firstChild.back());
    }

    out.add("{\"asset\":{\"version\":\"2.0\",\"generator\":\"gamefmt ");
    out.add(Version());
    out.add("\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    std::size_t lostMatrices = 0;
    char number[32];
    for (std::size_t i = 0; i < order.size(); ++i) {
        const aiNode &node = *order[i];
        out.add(i == 0 ? "{" : ",{");
        bool first = true;
        if (node.mName.length != 0) {
            out.add("\"name\":");
            out.add(JsonQuote(std::string_view(node.mName.data, node.mName.length)));
            first = false;
        }
        const std::size_t children = childCount[i];
        if (children != 0) {
            out.add(first ? "\"children\":[" : ",\"children\":[");
            for (std::size_t c = 0; c < children; ++c) {
                std::snprintf(number, sizeof number, c == 0 ? "%zu" : ",%zu", firstChild[i] + c);
                out.add(number);
            }
            out.add(']');
            first = false;
        }
        ai_real values[16];
        if (!IsIdentity(node.mTransformation)) {
            if (ColumnMajor(node.mTransformation, values)) {
                out.add(first ? "\"matrix\":[" : ",\"matrix\":[");
                for (int k = 0; k < 16; ++k) {
                    std::snprintf(number, sizeof number, k == 0 ? "%.9g" : ",%.9g", static_cast<double>(values[k]));
                    out.add(number);
                }
                out.add(']');
            } else {
                ++lostMatrices;
            }
        }
        out.add('}');
        out.flush(false);
    }
    out.add("]}");
    return lostMatrices;
}

void PutU32(std::string &out, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

} // namespace

bool IsNodeOnlyScene(const aiScene &scene) {
    return scene.mRootNode != nullptr && scene.mNumMeshes == 0 && scene.mNumAnimations == 0 && scene.mNumCameras == 0 &&
           scene.mNumLights == 0 && scene.mNumTextures == 0;
}

std::size_t WriteNodeOnlyGltf(const aiScene &scene, bool binary, const ByteSink &sink) {
    if (!binary) {
        Output out(&sink);
        const std::size_t lost = WriteJson(scene, out);
        out.flush(true);
        return lost;
    }
    Output measure(nullptr);
    WriteJson(scene, measure);
    const std::size_t json = measure.total();
    const std::size_t padded = (json + 3) / 4 * 4;
    if (12 + 8 + padded > 0xFFFFFFFFu) throw std::runtime_error("the glTF JSON is over 4 GiB, more than glb can hold");
    std::string header = "glTF";
    PutU32(header, 2);
    PutU32(header, static_cast<std::uint32_t>(12 + 8 + padded));
    PutU32(header, static_cast<std::uint32_t>(padded));
    header += "JSON";
    sink(header.data(), header.size());
    Output out(&sink);
    const std::size_t lost = WriteJson(scene, out);
    out.add(std::string(padded - json, ' '));
    out.flush(true);
    return lost;
}

} // namespace gamefmt::glue
