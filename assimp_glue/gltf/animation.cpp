// The glTF writer's skins weights, morph targets and animations (layout.hpp): the data computed during the
// layout and held as blobs.
#include "assimp_glue/gltf/layout.hpp"

#include "assimp_glue/gltf/extras.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gamefmt::glue::gltf {
namespace {

struct Influence {
    unsigned joint;
    double weight;
};

// ≤ `limit` influences, heaviest first, normalised so that their float32 sum in slot order is 1 within the
// validator's tolerance: the others rounded, the heaviest 1 − their float sum.
void Normalise(std::vector<Influence> &in, std::size_t limit, float (&out)[8], unsigned (&joints)[8]) {
    std::sort(in.begin(), in.end(), [](const Influence &a, const Influence &b) {
        return a.weight != b.weight ? a.weight > b.weight : a.joint < b.joint;
    });
    if (in.size() > limit) in.resize(limit);
    double total = 0;
    for (const Influence &i : in) total += i.weight;
    std::fill(std::begin(out), std::end(out), 0.0f);
    std::fill(std::begin(joints), std::end(joints), 0u);
    float rest = 0;
    for (std::size_t k = 1; k < in.size(); ++k) {
        out[k] = static_cast<float>(in[k].weight / total);
        rest += out[k];
        joints[k] = in[k].joint;
    }
    out[0] = 1.0f - rest;
    joints[0] = in[0].joint;
}

} // namespace

void Writer::layoutSkinWeights(Prim &p) {
    const aiMesh &mesh = *mScene.mMeshes[p.mesh];
    const Skin &skin = mSkins[static_cast<std::size_t>(p.skin)];
    std::unordered_map<std::size_t, unsigned> slotOfNode;
    for (std::size_t j = 0; j < skin.joints.size(); ++j) slotOfNode.emplace(skin.joints[j], static_cast<unsigned>(j));
    const std::size_t n = mesh.mNumVertices;
    // Influences per vertex, bucketed in one array (counts first).
    std::vector<std::size_t> start(n + 1, 0);
    for (unsigned b = 0; b < mesh.mNumBones; ++b)
        if (const aiBone *bone = mesh.mBones[b]; bone != nullptr && bone->mWeights != nullptr)
            for (unsigned w = 0; w < bone->mNumWeights; ++w)
                if (bone->mWeights[w].mVertexId < n) ++start[bone->mWeights[w].mVertexId + 1];
    for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
    std::vector<Influence> all(start[n]);
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone *bone = mesh.mBones[b];
        if (bone == nullptr || bone->mWeights == nullptr) continue;
        const auto node = mByName.find(Str(bone->mName));
        const unsigned slot =
            node != mByName.end() && slotOfNode.count(node->second) != 0 ? slotOfNode[node->second] : 0;
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight &vw = bone->mWeights[w];
            if (vw.mVertexId < n) all[fill[vw.mVertexId]++] = Influence{slot, vw.mWeight};
        }
    }
    const std::size_t limit = mOptions.maxInfluences > 4 ? 8 : 4;
    std::vector<float> weights(n * 8);
    std::vector<unsigned> joints(n * 8);
    std::size_t used = 1;
    std::vector<Influence> in;
    for (std::size_t v = 0; v < n; ++v) {
        in.clear();
        for (std::size_t k = start[v]; k < start[v + 1]; ++k) {
            const Influence &i = all[k];
            if (!(i.weight > 0) || !std::isfinite(i.weight)) continue;
            auto same = std::find_if(in.begin(), in.end(), [&](const Influence &o) { return o.joint == i.joint; });
            if (same != in.end())
                same->weight += i.weight;
            else
                in.push_back(i);
        }
        if (in.empty()) {
            ++mReport.unweightedVertices;
            in.push_back(Influence{0, 1.0});
        }
        if (in.size() > limit) ++mReport.trimmedVertices;
        float w[8];
        unsigned j[8];
        Normalise(in, limit, w, j);
        used = std::max(used, in.size());
        std::copy(std::begin(w), std::end(w), weights.begin() + static_cast<long>(v * 8));
        std::copy(std::begin(j), std::end(j), joints.begin() + static_cast<long>(v * 8));
    }
    const bool wide = skin.joints.size() > 256;
    for (std::size_t set = 0; set * 4 < used; ++set) {
        std::string jb, wb;
        jb.reserve(n * (wide ? 8 : 4));
        wb.reserve(n * 16);
        for (std::size_t v = 0; v < n; ++v)
            for (std::size_t k = set * 4; k < set * 4 + 4; ++k) {
                const unsigned joint = joints[v * 8 + k];
                if (wide) {
                    jb += static_cast<char>(joint & 0xFF);
                    jb += static_cast<char>(joint >> 8);
                } else {
                    jb += static_cast<char>(joint);
                }
                PutFloat(wb, weights[v * 8 + k]);
            }
        const unsigned jv = addDataView(std::move(jb), kArrayBuffer, wide ? 8 : 4);
        p.joints.push_back(static_cast<int>(addAccessor("{\"bufferView\":" + std::to_string(jv) +
                                                        ",\"componentType\":" + (wide ? "5123" : "5121") +
                                                        ",\"count\":" + std::to_string(n) + ",\"type\":\"VEC4\"}")));
        p.weights.push_back(
            static_cast<int>(addAccessor(FloatAccessor(addDataView(std::move(wb), kArrayBuffer, 16), n, "VEC4"))));
    }
}

void Writer::layoutTargets(Prim &p) {
    const aiMesh &mesh = *mScene.mMeshes[p.mesh];
    if (mesh.mNumAnimMeshes == 0 || mesh.mAnimMeshes == nullptr) return;
    const Xform &x = mXforms[static_cast<std::size_t>(p.xform)];
    const std::size_t n = mesh.mNumVertices;
    for (unsigned k = 0; k < mesh.mNumAnimMeshes; ++k) {
        const aiAnimMesh *a = mesh.mAnimMeshes[k];
        const bool positions = a != nullptr && a->mVertices != nullptr && a->mNumVertices == n;
        const bool normals = a != nullptr && a->mNormals != nullptr && a->mNumVertices == n && mesh.mNormals != nullptr;
        std::string pb, nb;
        pb.reserve(n * 12);
        aiVector3D lo(0, 0, 0), hi(0, 0, 0);
        for (std::size_t v = 0; v < n; ++v) {
            aiVector3D d(0, 0, 0);
            if (positions) {
                d = x.linear * (a->mVertices[v] - mesh.mVertices[v]);
                if (!Finite(d)) d = aiVector3D(0, 0, 0);
            }
            if (v == 0) lo = hi = d;
            lo = aiVector3D(std::min(lo.x, d.x), std::min(lo.y, d.y), std::min(lo.z, d.z));
            hi = aiVector3D(std::max(hi.x, d.x), std::max(hi.y, d.y), std::max(hi.z, d.z));
            PutFloat(pb, d.x);
            PutFloat(pb, d.y);
            PutFloat(pb, d.z);
            if (normals) {
                aiVector3D base = x.normal * mesh.mNormals[v], moved = x.normal * a->mNormals[v];
                const float bl = base.Length(), ml = moved.Length();
                aiVector3D nd = (ml > 0 && std::isfinite(ml) ? moved / ml : moved) -
                                (bl > 0 && std::isfinite(bl) ? base / bl : base);
                if (!Finite(nd)) nd = aiVector3D(0, 0, 0);
                PutFloat(nb, nd.x);
                PutFloat(nb, nd.y);
                PutFloat(nb, nd.z);
            }
        }
        Prim::Target t;
        t.position = static_cast<int>(
            addAccessor(FloatAccessor(addDataView(std::move(pb), kArrayBuffer, 12), n, "VEC3", &lo, &hi)));
        if (normals)
            t.normal =
                static_cast<int>(addAccessor(FloatAccessor(addDataView(std::move(nb), kArrayBuffer, 12), n, "VEC3")));
        p.targets.push_back(t);
        const std::string name = a != nullptr && a->mName.length != 0 ? Str(a->mName) : "target_" + std::to_string(k);
        p.targetNames.push_back(name);
        p.defaultWeights.push_back(a != nullptr && std::isfinite(a->mWeight) ? a->mWeight : 0.0f);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Animations

int Writer::timeAccessor(std::string times, float lo, float hi, std::size_t count) {
    const auto found = mTimeAccessors.find(times);
    if (found != mTimeAccessors.end()) return found->second;
    const unsigned view = addDataView(times, 0, 4);
    const int accessor = static_cast<int>(addAccessor(
        "{\"bufferView\":" + std::to_string(view) + ",\"componentType\":5126,\"count\":" + std::to_string(count) +
        ",\"type\":\"SCALAR\",\"min\":[" + Num(lo) + "],\"max\":[" + Num(hi) + "]}"));
    mTimeAccessors.emplace(std::move(times), accessor);
    return accessor;
}

namespace {

// Keys whose times (seconds) are finite, not negative and strictly increasing, with finite values.
template <typename Key, typename Valid>
std::vector<const Key *> UsableKeys(const Key *keys, unsigned count, double tps, std::size_t &dropped, Valid valid) {
    std::vector<const Key *> out;
    if (keys == nullptr) return out;
    double last = -1;
    for (unsigned k = 0; k < count; ++k) {
        const double t = keys[k].mTime / tps;
        if (!std::isfinite(t) || t < 0 || static_cast<float>(t) <= static_cast<float>(last) || !valid(keys[k])) {
            ++dropped;
            continue;
        }
        last = t;
        out.push_back(&keys[k]);
    }
    return out;
}

} // namespace

void Writer::addNodeChannels(const aiAnimation &anim, double tps, OutAnimation &out,
                             std::map<std::pair<std::size_t, std::string>, bool> &used) {
    const auto add = [&](std::size_t node, const char *path, const std::vector<double> &times, std::string values,
                         const char *type) {
        if (times.empty() || !used.emplace(std::make_pair(node, std::string(path)), true).second) return;
        std::string tb;
        for (double t : times) PutFloat(tb, static_cast<float>(t));
        Sampler s;
        s.input = timeAccessor(std::move(tb), static_cast<float>(times.front()), static_cast<float>(times.back()),
                               times.size());
        s.output = static_cast<int>(addAccessor(FloatAccessor(
            addDataView(std::move(values), 0, std::strcmp(type, "VEC4") == 0 ? 16 : 12), times.size(), type)));
        out.samplers.push_back(s);
        out.channels.push_back(Channel{static_cast<unsigned>(out.samplers.size() - 1), node, path});
    };
    for (unsigned c = 0; c < anim.mNumChannels; ++c) {
        const aiNodeAnim *ch = anim.mChannels[c];
        if (ch == nullptr) continue;
        const auto it = mByName.find(Str(ch->mNodeName));
        if (it == mByName.end() || mNodes[it->second].moved || mNodes[it->second].src == nullptr) {
            ++mReport.droppedChannels;
            continue;
        }
        std::vector<double> times;
        std::string values;
        const auto finite3 = [](const aiVectorKey &k) { return Finite(k.mValue); };
        for (const aiVectorKey *k :
             UsableKeys(ch->mPositionKeys, ch->mNumPositionKeys, tps, mReport.droppedKeys, finite3)) {
            times.push_back(k->mTime / tps);
            const aiVector3D v = k->mValue * static_cast<ai_real>(mScale);
            PutFloat(values, v.x), PutFloat(values, v.y), PutFloat(values, v.z);
        }
        add(it->second, "translation", times, std::move(values), "VEC3");
        times.clear();
        values.clear();
        const auto finiteQ = [](const aiQuatKey &k) {
            const aiQuaternion &q = k.mValue;
            const double l = double(q.w) * q.w + double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z;
            return std::isfinite(l) && l > 0;
        };
        for (const aiQuatKey *k :
             UsableKeys(ch->mRotationKeys, ch->mNumRotationKeys, tps, mReport.droppedKeys, finiteQ)) {
            times.push_back(k->mTime / tps);
            aiQuaternion q = k->mValue;
            q.Normalize();
            PutFloat(values, q.x), PutFloat(values, q.y), PutFloat(values, q.z), PutFloat(values, q.w);
        }
        add(it->second, "rotation", times, std::move(values), "VEC4");
        times.clear();
        values.clear();
        for (const aiVectorKey *k :
             UsableKeys(ch->mScalingKeys, ch->mNumScalingKeys, tps, mReport.droppedKeys, finite3)) {
            times.push_back(k->mTime / tps);
            PutFloat(values, k->mValue.x), PutFloat(values, k->mValue.y), PutFloat(values, k->mValue.z);
        }
        add(it->second, "scale", times, std::move(values), "VEC3");
    }
}

void Writer::addMorphChannels(const aiAnimation &anim, double tps, OutAnimation &out,
                              std::map<std::pair<std::size_t, std::string>, bool> &used) {
    for (unsigned c = 0; c < anim.mNumMorphMeshChannels; ++c) {
        const aiMeshMorphAnim *ch = anim.mMorphMeshChannels[c];
        if (ch == nullptr) continue;
        // The channel names a node (Assimp's glTF importer) or a mesh (its documentation; our Redguard importer).
        const std::string name = Str(ch->mName);
        std::vector<std::size_t> sources;
        if (const auto it = mByName.find(name); it != mByName.end() && mNodes[it->second].src != nullptr) {
            sources.push_back(it->second);
        } else {
            for (std::size_t i = 0; i < mSourceNodes; ++i) {
                const aiNode &node = *mNodes[i].src;
                for (unsigned k = 0; k < node.mNumMeshes; ++k)
                    if (node.mMeshes[k] < mScene.mNumMeshes && Str(mScene.mMeshes[node.mMeshes[k]]->mName) == name) {
                        sources.push_back(i);
                        break;
                    }
            }
        }
        std::vector<std::size_t> targets;
        for (std::size_t s : sources) {
            if (!mNodes[s].moved) targets.push_back(s);
            if (const auto sk = mSkinnedNodesOf.find(s); sk != mSkinnedNodesOf.end())
                targets.insert(targets.end(), sk->second.begin(), sk->second.end());
        }
        bool any = false;
        for (std::size_t node : targets) {
            const int mesh = mNodes[node].mesh;
            if (mesh < 0 || mMeshes[static_cast<std::size_t>(mesh)].targets == 0) continue;
            any = true;
            if (!used.emplace(std::make_pair(node, std::string("weights")), true).second) continue;
            const std::size_t count = mMeshes[static_cast<std::size_t>(mesh)].targets;
            std::string tb, wb;
            std::size_t keys = 0;
            float first = 0, last = 0;
            for (const aiMeshMorphKey *k : UsableKeys(ch->mKeys, ch->mNumKeys, tps, mReport.droppedKeys,
                                                      [](const aiMeshMorphKey &) { return true; })) {
                const auto t = static_cast<float>(k->mTime / tps);
                if (keys == 0) first = t;
                last = t;
                ++keys;
                PutFloat(tb, t);
                std::vector<float> w(count, 0.0f);
                for (unsigned j = 0; j < k->mNumValuesAndWeights && k->mValues != nullptr && k->mWeights != nullptr;
                     ++j)
                    if (k->mValues[j] < count && std::isfinite(k->mWeights[j]))
                        w[k->mValues[j]] = static_cast<float>(k->mWeights[j]);
                for (float f : w) PutFloat(wb, f);
            }
            if (keys == 0) continue;
            Sampler s;
            s.input = timeAccessor(std::move(tb), first, last, keys);
            s.output =
                static_cast<int>(addAccessor(FloatAccessor(addDataView(std::move(wb), 0, 4), keys * count, "SCALAR")));
            out.samplers.push_back(s);
            out.channels.push_back(Channel{static_cast<unsigned>(out.samplers.size() - 1), node, "weights"});
        }
        if (!any) ++mReport.droppedChannels;
    }
}

void Writer::layoutAnimations() {
    for (unsigned a = 0; a < mScene.mNumAnimations; ++a) {
        const aiAnimation *anim = mScene.mAnimations[a];
        if (anim == nullptr) continue;
        // Assimp: 0 ticks per second means "not given"; 25 is what its viewers assume.
        const double tps =
            anim->mTicksPerSecond > 0 && std::isfinite(anim->mTicksPerSecond) ? anim->mTicksPerSecond : 25.0;
        OutAnimation out;
        out.name = Str(anim->mName);
        if (mScene.mMetaData != nullptr) out.extras = AnimationExtrasJson(*mScene.mMetaData, a);
        std::map<std::pair<std::size_t, std::string>, bool> used;
        addNodeChannels(*anim, tps, out, used);
        addMorphChannels(*anim, tps, out, used);
        if (!out.channels.empty()) mAnimations.push_back(std::move(out)); // an empty animation is invalid glTF
    }
}

} // namespace gamefmt::glue::gltf
