// Binary Roblox model/place reader (docs/formats/roblox-model.md §2): header, chunk framing and decompression, then
// META/SSTR/INST/PROP/PRNT into the document model, lenient where §2.7 says so. The values inside PROP
// chunks are decoded by binary_columns.cpp.
//
// Decisions where the reference leaves a choice:
//  * Chunks are all decompressed first, then interpreted in the order META/SSTR, INST, PROP, PRNT (each
//    group in file order), so a PROP before its INST still finds its class. Unknown chunks and SIGN keep
//    their position in the chunk sequence.
//  * Document::instances follow INST order (chunk order, then referent order within a chunk).
//  * Decompression budget: min(ReadOptions::maxDecompressed, 256 x file size + 16 MiB). 256 is LZ4's own
//    expansion bound; the allowance lets tiny zstd files of highly repetitive data load.
//  * The signature variant without 0D (5 bytes) shifts the rest of the header one byte earlier.
//  * SharedString values stay SharedStringRef (lossless); only `Name` is dereferenced.
//  * Int32/Int64 and Float32/Float64 values are widened only when one property name is stored with
//    both types somewhere in the file; otherwise the stored type is kept.
//  * INST format 1 sets Instance::isService whatever the marker byte (Studio stores 00 for a Lighting
//    inside a model); markers above 1 warn.
//  * PRNT: roots and children follow pair order; an instance cut out of a cycle becomes a root at its
//    pair's position; instances without a link are appended to the roots afterwards, in instance order.
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/binary_column_decoder.hpp"
#include "importers/roblox_model/document/binary_primitives.hpp"
#include "importers/roblox_model/document/reader.hpp"

#include "common/base64.hpp"
#include "common/byte_reader.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace gamefmt::rbx {
namespace {

constexpr std::size_t kChunkHeaderSize = 16;
constexpr std::uint64_t kBudgetRatio = 256;
constexpr std::uint64_t kBudgetAllowance = std::uint64_t(16) << 20;

struct Chunk {
    std::string name;
    std::size_t offset = 0;     // file offset of the chunk header
    std::size_t bodyOffset = 0; // file offset of the (stored) body
    bool compressed = false;
    std::uint32_t storedSize = 0;    // cl (0 = raw)
    std::vector<std::uint8_t> owned; // decompressed body (empty when raw)
    const std::uint8_t *data = nullptr;
    std::size_t size = 0;
    std::size_t index = 0; // position in the chunk sequence
};

struct ClassInfo {
    std::uint32_t id = 0;
    std::uint32_t nameId = 0;
    std::string name;
    std::vector<std::uint32_t> instances;
    std::uint32_t propChunks = 0;
    std::unordered_map<std::uint32_t, std::uint32_t> slots; // property name id → index in properties
};

class BinaryReader {
public:
    BinaryReader(const std::uint8_t *data, std::size_t size, const ReadOptions &options)
        : mData(data), mSize(data != nullptr ? size : 0), mOptions(options) {}

    Document read() {
        mDoc.sourceEncoding = Encoding::Binary;
        readHeaderAndChunks();
        for (Chunk &c : mChunks)
            if (c.name == "META" || c.name == "SSTR")
                guarded(c, [&](ByteReader &r) {
                    if (c.name == "META")
                        readMeta(r);
                    else
                        readSstr(r);
                });
        std::size_t total = 0;
        for (Chunk &c : mChunks)
            if (c.name == "INST") guarded(c, [&](ByteReader &r) { total += readInst(r); });
        createInstances(total);
        for (Chunk &c : mChunks)
            if (c.name != "META" && c.name != "SSTR" && c.name != "INST" && c.name != "PROP" && c.name != "PRNT" &&
                c.name != "END") {
                if (c.name != "SIGN")
                    warn("unknown chunk '" + QuoteText(c.name) + "' at offset " + std::to_string(c.offset) +
                         "; kept raw");
                RawChunk raw;
                raw.name = c.name;
                raw.data.assign(c.data, c.data + c.size);
                raw.position = c.index;
                mDoc.unknownChunks.push_back(std::move(raw));
            }
        for (Chunk &c : mChunks)
            if (c.name == "PROP" && c.size >= 4) {
                const std::uint32_t id =
                    static_cast<std::uint32_t>(c.data[0]) | static_cast<std::uint32_t>(c.data[1]) << 8 |
                    static_cast<std::uint32_t>(c.data[2]) << 16 | static_cast<std::uint32_t>(c.data[3]) << 24;
                auto it = mClassById.find(id);
                if (it != mClassById.end() && keeps(c)) ++mClasses[it->second].propChunks;
            }
        for (ClassInfo &cls : mClasses)
            for (std::uint32_t idx : cls.instances) mDoc.instances[idx].properties.reserve(cls.propChunks);
        for (Chunk &c : mChunks)
            if (c.name == "PROP") guarded(c, [&](ByteReader &r) { readProp(r, c); });
        widen();
        for (Chunk &c : mChunks)
            if (c.name == "PRNT") guarded(c, [&](ByteReader &r) { readPrnt(r); });
        buildTree();
        restoreLegacyContent();
        return std::move(mDoc);
    }

private:
    void warn(std::string message) { mDoc.warnings.push_back(std::move(message)); }

    // Whether a PROP chunk's property becomes an Instance property (so room is reserved for it): not Name
    // (it becomes Instance::name) and not one ReadOptions::keepProperty refuses. A body too short to name its
    // property counts (readProp reports it).
    bool keeps(const Chunk &c) const {
        if (c.size < 8) return true;
        const std::uint32_t length =
            static_cast<std::uint32_t>(c.data[4]) | static_cast<std::uint32_t>(c.data[5]) << 8 |
            static_cast<std::uint32_t>(c.data[6]) << 16 | static_cast<std::uint32_t>(c.data[7]) << 24;
        if (length > c.size - 8) return true;
        const std::string_view name(reinterpret_cast<const char *>(c.data + 8), length);
        return name != "Name" && (!mOptions.keepProperty || mOptions.keepProperty(name));
    }

    // Runs `f` over the chunk body; errors inside a decompressed body are reported at the chunk offset
    // (the decompressed position is named in the message), errors in raw bodies at their exact offset.
    template <typename F> void guarded(Chunk &c, F &&f) {
        ByteReader r(c.data, c.size, kFormatName, c.compressed ? 0 : c.bodyOffset);
        try {
            f(r);
        } catch (const FormatError &e) {
            if (!c.compressed)
                throw FormatError(kFormatName,
                                  c.name + " chunk at offset " + std::to_string(c.offset) + ": " + e.message(),
                                  e.offset());
            std::string where = e.hasOffset() ? " (decompressed byte " + std::to_string(e.offset()) + ")" : "";
            throw FormatError(kFormatName, c.name + " chunk: " + e.message() + where, c.offset);
        }
    }

    // ------------------------------------------------------------------ framing
    void readHeaderAndChunks() {
        ByteReader r(mData, mSize, kFormatName);
        if (mSize < 8 || std::memcmp(mData, "<roblox!", 8) != 0)
            throw FormatError(kFormatName, "not a binary Roblox file (magic '<roblox!' missing)", 0);
        r.skip(8);
        static const std::uint8_t kSig[6] = {0x89, 0xFF, 0x0D, 0x0A, 0x1A, 0x0A};
        static const std::uint8_t kSigShort[5] = {0x89, 0xFF, 0x0A, 0x1A, 0x0A};
        if (r.remaining() >= 6 && std::memcmp(r.current(), kSig, 6) == 0) {
            r.skip(6);
        } else if (r.remaining() >= 5 && std::memcmp(r.current(), kSigShort, 5) == 0) {
            r.skip(5);
            warn("header signature lacks the 0D byte");
        } else {
            throw FormatError(kFormatName, "bad binary signature after '<roblox!'", 8);
        }
        const std::size_t versionAt = r.offset();
        const std::uint16_t version = r.u16le();
        if (version != 0)
            throw FormatError(kFormatName, "unsupported binary version " + std::to_string(version), versionAt);
        r.i32le(); // class count: hint only
        r.i32le(); // instance count: hint only (the INST chunks' counts are checked against maxInstances)
        const std::size_t reservedAt = r.offset();
        const std::uint64_t reserved = r.u64le();
        if (reserved != 0) warn("header reserved bytes at offset " + std::to_string(reservedAt) + " are not zero");

        const std::uint64_t relative = static_cast<std::uint64_t>(mSize) * kBudgetRatio + kBudgetAllowance;
        std::uint64_t budget = std::min<std::uint64_t>(mOptions.maxDecompressed, relative);
        bool ended = false;
        while (!ended) {
            const std::size_t at = r.offset();
            if (r.remaining() < kChunkHeaderSize)
                throw FormatError(kFormatName, r.atEnd() ? "file ends before the END chunk" : "truncated chunk header",
                                  at);
            Chunk c;
            c.offset = at;
            c.index = mChunks.size();
            c.name = r.fixedString(4);
            const std::uint32_t cl = r.u32le();
            const std::uint32_t ul = r.u32le();
            const std::uint32_t reservedChunk = r.u32le();
            if (reservedChunk != 0)
                throw FormatError(kFormatName, "chunk '" + c.name + "' has non-zero reserved field", at);
            const std::uint32_t stored = cl == 0 ? ul : cl;
            if (stored > r.remaining())
                throw FormatError(kFormatName,
                                  "chunk '" + c.name + "' body of " + std::to_string(stored) + " bytes exceeds the " +
                                      std::to_string(r.remaining()) + " bytes that remain",
                                  at);
            c.bodyOffset = r.offset();
            const std::uint8_t *body = r.take(stored);
            if (ul > budget)
                throw FormatError(kFormatName,
                                  "chunk '" + c.name + "' would exceed the decompression budget (" +
                                      std::to_string(ul) + " bytes, " + std::to_string(budget) + " left)",
                                  at);
            budget -= ul;
            c.data = body;
            c.size = ul;
            c.storedSize = cl;
            c.compressed = cl != 0;
            if (c.name == "END") ended = true;
            mChunks.push_back(std::move(c));
        }
        // The framing is checked through END before anything is decompressed, so truncated or
        // mis-framed files fail without the work.
        for (Chunk &c : mChunks)
            if (c.compressed) {
                c.owned = decompress(c, c.data, c.storedSize, static_cast<std::uint32_t>(c.size));
                c.data = c.owned.data();
                c.size = c.owned.size();
            }
        // Bytes after END are ignored (§2.1).
    }

    std::vector<std::uint8_t> decompress(const Chunk &c, const std::uint8_t *body, std::uint32_t cl, std::uint32_t ul) {
        DecompressionLimits limits;
        limits.maxOutput = std::max<std::uint64_t>(ul, 1);
        limits.maxRatio = std::uint64_t(1) << 32; // the file-wide budget already bounds the total
        try {
            if (LooksLikeZstdFrame(body, cl))
                return DecompressZstdFrame(body, cl, ul, kFormatName, c.bodyOffset, limits);
            if (ul > std::uint64_t(255) * cl + 16)
                throw FormatError(kFormatName, "LZ4 size ratio impossible", c.offset);
            try {
                return DecompressLz4Block(body, cl, ul, kFormatName, c.bodyOffset, limits);
            } catch (const FormatError &) {
                if (!LooksLikeZlibStream(body, cl)) throw;
            }
            return InflateZlib(body, cl, ul, kFormatName, c.bodyOffset, limits);
        } catch (const FormatError &e) {
            throw FormatError(kFormatName,
                              "chunk '" + c.name + "' (" + std::to_string(cl) + " -> " + std::to_string(ul) +
                                  " bytes) does not decompress: " + e.message(),
                              c.offset);
        }
    }

    // ------------------------------------------------------------------ META, SSTR, INST
    void readMeta(ByteReader &r) {
        const std::uint32_t count = r.u32le();
        r.requireArray(count, 8, "META entries");
        for (std::uint32_t i = 0; i < count; ++i) {
            std::string key = r.stringU32le();
            std::string value = r.stringU32le();
            mDoc.meta.emplace_back(std::move(key), std::move(value));
        }
        if (!r.atEnd()) warn("META chunk has " + std::to_string(r.remaining()) + " extra bytes");
    }

    // The legacy XML Content values the binary writer kept in META (kLegacyContentMetaPrefix) go back on their
    // empty ContentIds; an entry that names no such value, or whose value does not decode, stays in META, warned.
    void restoreLegacyContent() {
        const std::string_view prefix = kLegacyContentMetaPrefix;
        const auto isLegacy = [&](const std::pair<std::string, std::string> &kv) {
            return kv.first.compare(0, prefix.size(), prefix) == 0;
        };
        if (std::none_of(mDoc.meta.begin(), mDoc.meta.end(), isLegacy)) return;
        std::unordered_map<std::string_view, std::uint32_t> byReferent;
        for (std::uint32_t i = 0; i < mDoc.instances.size(); ++i) byReferent.emplace(mDoc.instances[i].referent, i);
        const auto restore = [&](const std::pair<std::string, std::string> &kv) {
            if (!isLegacy(kv)) return false;
            const std::string_view rest = std::string_view(kv.first).substr(prefix.size());
            const std::size_t colon = rest.find(':');
            const auto inst =
                colon == std::string_view::npos ? byReferent.end() : byReferent.find(rest.substr(0, colon));
            Value *target = nullptr;
            if (inst != byReferent.end())
                for (Property &p : mDoc.instances[inst->second].properties)
                    if (mDoc.names.str(p.name) == rest.substr(colon + 1) && p.value.type == Type::String &&
                        p.value.xmlTag == XmlTag::Default && std::get_if<std::string>(&p.value.data) != nullptr &&
                        std::get<std::string>(p.value.data).empty())
                        target = &p.value;
            const std::string_view value = kv.second;
            std::optional<std::vector<std::uint8_t>> bytes;
            if (target != nullptr && value.compare(0, 7, "binary:") == 0) bytes = Base64Decode(value.substr(7));
            if (target != nullptr && bytes) {
                target->data = std::string(bytes->begin(), bytes->end());
                target->xmlTag = XmlTag::ContentBinary;
                return true;
            }
            if (target != nullptr && value.compare(0, 5, "hash:") == 0) {
                target->data = std::string(value.substr(5));
                target->xmlTag = XmlTag::ContentHash;
                return true;
            }
            warn("META entry '" + QuoteText(kv.first.substr(0, 200)) +
                 "' names no empty ContentId of this file or holds no legacy Content value; kept as it is");
            return false;
        };
        mDoc.meta.erase(std::remove_if(mDoc.meta.begin(), mDoc.meta.end(), restore), mDoc.meta.end());
    }

    void readSstr(ByteReader &r) {
        const std::uint32_t version = r.u32le();
        if (version != 0) r.fail("unsupported SSTR version " + std::to_string(version));
        const std::uint32_t count = r.u32le();
        r.requireArray(count, 20, "SSTR entries");
        mDoc.sharedStrings.reserve(mDoc.sharedStrings.size() + count);
        for (std::uint32_t i = 0; i < count; ++i) {
            SharedStringEntry e;
            r.copyTo(e.hash.data(), 16);
            e.content = r.stringU32le();
            mDoc.sharedStrings.push_back(std::move(e));
        }
        if (!r.atEnd()) warn("SSTR chunk has " + std::to_string(r.remaining()) + " extra bytes");
    }

    struct PendingInst {
        std::size_t classIndex;
        std::vector<std::int32_t> referents;
        bool service;
        std::vector<std::uint8_t> markers; // format 1: one marker byte per instance
    };

    std::string instanceLimitMessage(std::uint64_t count) const {
        return std::to_string(count) + " instances exceed the limit of " + std::to_string(mOptions.maxInstances) +
               " (GAMEFMT_RBX_MAX_INSTANCES, --rbx-max-instances)";
    }

    std::uint64_t mInstanceTotal = 0;

    std::size_t readInst(ByteReader &r) {
        const std::size_t idAt = r.offset();
        const std::uint32_t id = r.u32le();
        if (mClassById.count(id) != 0) r.failAt(idAt - r.baseOffset(), "duplicate class id " + std::to_string(id));
        ClassInfo cls;
        cls.id = id;
        cls.name = r.stringU32le();
        cls.nameId = mDoc.names.intern(cls.name);
        const std::uint8_t format = r.u8();
        if (format > 1) r.fail("unknown INST format " + std::to_string(format));
        const std::uint32_t count = r.u32le();
        r.requireArray(count, format == 1 ? 5 : 4, "INST referents");
        mInstanceTotal += count;
        if (mInstanceTotal > mOptions.maxInstances)
            r.failAt(idAt - r.baseOffset(), instanceLimitMessage(mInstanceTotal));
        PendingInst p;
        p.classIndex = mClasses.size();
        p.service = format == 1;
        mColumns.readReferents(r, count, p.referents);
        for (std::int32_t ref : p.referents)
            if (!mReferents.indices.emplace(ref, static_cast<std::uint32_t>(mReferents.indices.size())).second)
                r.fail("duplicate referent " + std::to_string(ref) + " (class " + cls.name + ")");
        if (format == 1) {
            const std::uint8_t *markers = r.take(count);
            // Studio writes 01; a model holding a Lighting service stores 00 (corpus
            // lighting-with-int32-attribute): kept per instance so the writer repeats it.
            p.markers.assign(markers, markers + count);
            for (std::uint32_t i = 0; i < count; ++i)
                if (markers[i] > 1) {
                    warn("class " + cls.name + ": service marker " + std::to_string(markers[i]) +
                         " is neither 0 nor 1");
                    break;
                }
        }
        if (!r.atEnd()) warn("INST chunk of " + cls.name + " has " + std::to_string(r.remaining()) + " extra bytes");
        mClassById.emplace(id, mClasses.size());
        mClasses.push_back(std::move(cls));
        mPending.push_back(std::move(p));
        return count;
    }

    void createInstances(std::size_t total) {
        mDoc.instances.reserve(total);
        for (PendingInst &p : mPending) {
            ClassInfo &cls = mClasses[p.classIndex];
            cls.instances.reserve(p.referents.size());
            for (std::size_t k = 0; k < p.referents.size(); ++k) {
                const std::int32_t ref = p.referents[k];
                const auto idx = static_cast<std::uint32_t>(mDoc.instances.size());
                Instance inst;
                inst.className = cls.nameId;
                inst.referent = std::to_string(ref);
                inst.isService = p.service;
                if (p.service) inst.serviceMarker = p.markers[k];
                mDoc.instances.push_back(std::move(inst));
                cls.instances.push_back(idx);
            }
        }
        mPending.clear();
    }

    std::uint32_t lookup(std::int32_t ref) const { return mReferents.lookup(ref); }

    // ------------------------------------------------------------------ PROP
    void warnTypeOnce(std::uint8_t type, const std::string &cls, const std::string &prop) {
        if (mWarnedTypes.insert(type).second)
            warn("unknown property type 0x" + Hex(type) + " (first seen on " + cls + "." + prop + "); kept raw");
    }
    static std::string Hex(std::uint8_t v) {
        static const char kDigits[] = "0123456789ABCDEF";
        return std::string{kDigits[v >> 4], kDigits[v & 15]};
    }

    void readProp(ByteReader &r, const Chunk &chunk) {
        const std::uint32_t classId = r.u32le();
        const std::string propName = r.stringU32le();
        if (mOptions.keepProperty && propName != "Name" && !mOptions.keepProperty(propName)) return;
        auto it = mClassById.find(classId);
        if (it == mClassById.end()) {
            RawProperty raw;
            raw.propertyName = propName;
            raw.type = r.atEnd() ? 0 : r.u8();
            raw.body.assign(chunk.data, chunk.data + chunk.size);
            warn("PROP " + propName + " for undeclared class id " + std::to_string(classId) + "; kept raw");
            mDoc.rawProperties.push_back(std::move(raw));
            return;
        }
        ClassInfo &cls = mClasses[it->second];
        if (r.atEnd()) {
            warn("PROP " + cls.name + "." + propName + " has no type byte; ignored");
            return;
        }
        const std::uint8_t typeByte = r.u8();
        if (typeByte < 0x01 || typeByte > 0x22) {
            warnTypeOnce(typeByte, cls.name, propName);
            RawProperty raw;
            raw.className = cls.name;
            raw.propertyName = propName;
            raw.type = typeByte;
            raw.body.assign(chunk.data, chunk.data + chunk.size);
            mDoc.rawProperties.push_back(std::move(raw));
            return;
        }
        const Type type = static_cast<Type>(typeByte);
        const std::size_t n = cls.instances.size();
        const bool isName = propName == "Name" && (type == Type::String || type == Type::SharedString);

        std::uint32_t slot = 0;
        if (!isName) {
            const std::uint32_t nameId = mDoc.names.intern(propName);
            auto [sit, fresh] = cls.slots.emplace(nameId, 0);
            if (fresh) {
                sit->second =
                    n == 0 ? 0 : static_cast<std::uint32_t>(mDoc.instances[cls.instances[0]].properties.size());
                for (std::uint32_t idx : cls.instances) {
                    Property p;
                    p.name = nameId;
                    p.value.type = type;
                    mDoc.instances[idx].properties.push_back(std::move(p));
                }
            } else {
                warn("property " + cls.name + "." + propName + " appears twice; the last one wins");
            }
            slot = sit->second;
            auto &types = mTypesByName[nameId];
            types |= TypeBit(type);
        } else if (mNamed.count(cls.id) != 0) {
            warn("property " + cls.name + ".Name appears twice; the last one wins");
        } else {
            mNamed.insert(cls.id);
        }

        mColumns.decode(r, binary::Column{mDoc, cls.instances, slot, type, isName}, n);
        if (!r.atEnd())
            warn("PROP " + cls.name + "." + propName + " has " + std::to_string(r.remaining()) + " extra bytes");
    }

    static std::uint64_t TypeBit(Type t) { return std::uint64_t(1) << static_cast<unsigned>(t); }

    // Int32→Int64 and Float32→Float64 for property names stored with both widths.
    void widen() {
        std::unordered_set<std::uint32_t> ints, floats;
        for (const auto &[name, bits] : mTypesByName) {
            if ((bits & TypeBit(Type::Int32)) && (bits & TypeBit(Type::Int64))) ints.insert(name);
            if ((bits & TypeBit(Type::Float32)) && (bits & TypeBit(Type::Float64))) floats.insert(name);
        }
        if (ints.empty() && floats.empty()) return;
        for (Instance &inst : mDoc.instances)
            for (Property &p : inst.properties) {
                if (p.value.type == Type::Int32 && ints.count(p.name)) {
                    p.value.type = Type::Int64;
                    p.value.data = Int64Value{p.value.as<std::int32_t>()};
                } else if (p.value.type == Type::Float32 && floats.count(p.name)) {
                    p.value.type = Type::Float64;
                    p.value.data = static_cast<double>(p.value.as<float>());
                }
            }
    }

    // ------------------------------------------------------------------ PRNT and the tree
    void readPrnt(ByteReader &r) {
        const std::uint8_t version = r.u8();
        if (version != 0) r.fail("unsupported PRNT version " + std::to_string(version));
        const std::uint32_t count = r.u32le();
        r.requireArray(count, 8, "PRNT links");
        std::vector<std::int32_t> children, parents;
        mColumns.readReferents(r, count, children);
        mColumns.readReferents(r, count, parents);
        if (!r.atEnd()) warn("PRNT chunk has " + std::to_string(r.remaining()) + " extra bytes");
        mLinks.reserve(mLinks.size() + count);
        for (std::uint32_t i = 0; i < count; ++i) mLinks.emplace_back(children[i], parents[i]);
    }

    void buildTree() {
        const std::size_t n = mDoc.instances.size();
        std::vector<std::uint32_t> parentOf(n, kNoInstance);
        std::vector<std::uint8_t> linked(n, 0);
        std::vector<std::uint32_t> order; // children in pair order
        order.reserve(std::min(n, mLinks.size()));
        std::size_t undeclaredChildren = 0, undeclaredParents = 0, duplicates = 0;
        for (const auto &[childRef, parentRef] : mLinks) {
            const std::uint32_t child = lookup(childRef);
            if (child == kNoInstance) {
                ++undeclaredChildren;
                continue;
            }
            if (linked[child]) {
                ++duplicates;
                continue;
            }
            std::uint32_t parent = lookup(parentRef);
            if (parent == kNoInstance && parentRef != -1) ++undeclaredParents;
            linked[child] = 1;
            parentOf[child] = parent;
            order.push_back(child);
        }
        if (undeclaredChildren)
            warn("PRNT: " + std::to_string(undeclaredChildren) + " links with an undeclared child skipped");
        if (undeclaredParents)
            warn("PRNT: " + std::to_string(undeclaredParents) + " instances with an undeclared parent made roots");
        if (duplicates) warn("PRNT: " + std::to_string(duplicates) + " children listed twice; the first link wins");

        // Break cycles: walk each chain iteratively; a node whose parent chain returns into the current
        // walk becomes a root.
        std::vector<std::uint8_t> state(n, 0); // 0 new, 1 on the current walk, 2 done
        std::vector<std::uint32_t> walk;
        std::size_t cycles = 0;
        for (std::uint32_t start = 0; start < n; ++start) {
            if (state[start] != 0) continue;
            walk.clear();
            std::uint32_t cur = start;
            while (cur != kNoInstance && state[cur] == 0) {
                state[cur] = 1;
                walk.push_back(cur);
                const std::uint32_t p = parentOf[cur];
                if (p != kNoInstance && state[p] == 1) {
                    parentOf[cur] = kNoInstance;
                    ++cycles;
                    break;
                }
                cur = p;
            }
            for (std::uint32_t w : walk) state[w] = 2;
        }
        if (cycles) warn("PRNT: " + std::to_string(cycles) + " parent cycles broken; attached to the root");

        for (std::uint32_t child : order) mDoc.setParent(child, parentOf[child]);
        std::size_t orphans = 0;
        for (std::uint32_t i = 0; i < n; ++i)
            if (!linked[i]) {
                mDoc.setParent(i, kNoInstance);
                ++orphans;
            }
        if (orphans) warn("PRNT: " + std::to_string(orphans) + " instances without a parent link attached to the root");
    }

    const std::uint8_t *mData;
    std::size_t mSize;
    ReadOptions mOptions;
    Document mDoc;
    std::vector<Chunk> mChunks;
    std::vector<ClassInfo> mClasses;
    std::vector<PendingInst> mPending;
    std::unordered_map<std::uint32_t, std::size_t> mClassById;
    binary::ReferentTable mReferents;
    std::unordered_map<std::uint32_t, std::uint64_t> mTypesByName;
    std::unordered_set<std::uint32_t> mNamed;
    std::unordered_set<std::uint8_t> mWarnedTypes;
    std::vector<std::pair<std::int32_t, std::int32_t>> mLinks;
    binary::ColumnDecoder mColumns{mDoc, mReferents}; // after mDoc and mReferents, which it refers to
};

} // namespace

Document ReadBinary(const std::uint8_t *data, std::size_t size, const ReadOptions &options) {
    return BinaryReader(data, size, options).read();
}

} // namespace gamefmt::rbx
