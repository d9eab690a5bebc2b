// The binary (.rbxm/.rbxl) writer: the exact inverse of the binary reader (docs/formats/roblox-model.md §2), laid out
// the way Studio saves files (classes by name, properties by name, pre-order referents, post-order PRNT).
//
// Decisions where the reference leaves a choice (also documented in the engineer report):
//  * Compression::Lz4 compresses every chunk but END, even when LZ4 grows it, exactly like Studio
//    (§2.1 "even when it grows them"), so written files look like Studio's to every consumer.
//    Compression::Zstd writes one zstd frame per chunk; Compression::None stores bodies raw (cl = 0).
//    Empty bodies (only possible for kept unknown chunks) are always stored raw.
//  * Referents: the document's referent strings are kept when every one is a unique decimal int32
//    (other than -1, the null referent); otherwise all instances get 0..N-1 in depth-first pre-order.
//  * A property that only some instances of a class carry is written for all of them: the others get the class
//    default (class_defaults.hpp), which is what Studio gives them when it reads a file without it (§2.7). Where
//    the default is unknown (or of another type) the property is omitted for the whole class, with a warning
//    that names the instances whose values are lost; so is one whose values disagree on the type. CFrame and
//    CFrameQuat values may share a column (written as CFrame unless every value is a CFrameQuat).
//  * Values of unknown type are not written from the instances: binary ones come back verbatim from
//    Document::rawProperties, XML ones cannot be encoded (warning).
//  * Unknown chunks are re-inserted at their original chunk index when it is still before END,
//    else just before END.
#include "importers/roblox_model/document/binary_writer.hpp"

#include "common/base64.hpp"
#include "common/byte_writer.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"
#include "importers/roblox_model/document/binary_column_encoder.hpp"
#include "importers/roblox_model/document/binary_primitives.hpp"
#include "importers/roblox_model/document/class_defaults.hpp"
#include "importers/roblox_model/document/tree_walk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace gamefmt::rbx {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kMaxInstances = 0x7FFFFFFFu;

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(kFormatName, message);
}

class Writer {
public:
    Writer(const Document &doc, const BinaryWriteOptions &options) : mDoc(doc), mOptions(options) {}

    Bytes run();

private:
    struct ClassInfo {
        std::string name;
        std::uint32_t nameId = 0;
        std::vector<std::uint32_t> members; // instance indices in document order
        bool service = false;
    };

    void warn(const std::string &message) {
        if (mOptions.warnings) mOptions.warnings->push_back(message);
    }
    std::int32_t referentOf(std::uint32_t index) const { return index < mReferents.size() ? mReferents[index] : -1; }

    void assignReferents();
    void collectClasses();
    void collectLegacyContent();
    void emitChunk(const char *name, const Bytes &body, bool raw = false);
    void emitUnknownChunksUpTo(std::size_t index);
    void writeMeta();
    void writeSharedStrings();
    void writeInst(std::uint32_t classId, const ClassInfo &info);
    // A PROP chunk to write: a column of the class, its Name (column -1) or a kept raw body (column -2).
    struct PropEntry {
        const std::string *name;
        std::int64_t column;
        const RawProperty *raw;
        Type type;
    };
    void collectColumns(const ClassInfo &info, std::vector<std::uint32_t> &slotName,
                        std::vector<std::vector<const Value *>> &columns) const;
    std::vector<PropEntry> chooseEntries(const ClassInfo &info, const std::vector<std::uint32_t> &slotName,
                                         std::vector<std::vector<const Value *>> &columns);
    bool fillDefaults(const ClassInfo &info, const std::string &property, Type type,
                      std::vector<const Value *> &column);
    void writeRawProp(std::uint32_t classId, const RawProperty &raw);
    void writeProps(std::uint32_t classId, const ClassInfo &info);
    void writeParents();

    const Document &mDoc;
    const BinaryWriteOptions &mOptions;
    ByteWriter mOut{kFormatName};
    std::vector<std::int32_t> mReferents;
    std::vector<ClassInfo> mClasses;
    std::vector<std::uint32_t> mPreOrder;
    std::size_t mChunkIndex = 0;
    std::vector<const RawChunk *> mUnknown; // sorted by position
    std::size_t mNextUnknown = 0;
    Bytes mBody;
    std::deque<Value> mDefaults;               // class defaults filled into columns (stable addresses)
    std::unordered_set<const Value *> mLegacy; // legacy XML Content values: written as empty ContentIds
    std::vector<std::pair<std::string, std::string>> mLegacyMeta; // ... and kept in META (collectLegacyContent)
    binary::ColumnEncoder mEncoder{mDoc, mReferents};             // after mDoc and mReferents
};

// Depth-first pre-order over roots then children; instances unreachable from the roots (a damaged
// tree) follow in document order so every instance is still written exactly once.
void Writer::assignReferents() {
    const std::size_t n = mDoc.instances.size();
    std::vector<bool> seen(n, false);
    mPreOrder.reserve(n);
    const auto visit = [&](const TreeStep &step) { mPreOrder.push_back(step.index); };
    WalkTree(mDoc, mDoc.roots, kNoInstance, seen, visit);
    for (std::uint32_t i = 0; i < n; ++i)
        if (!seen[i]) WalkTree(mDoc, {i}, mDoc.instances[i].parent, seen, visit);

    // Keep the document's referents when they are all unique decimal int32s.
    mReferents.assign(n, -1);
    bool keep = true;
    std::vector<std::int32_t> sorted;
    sorted.reserve(n);
    for (std::uint32_t i = 0; i < n && keep; ++i) {
        const std::string &s = mDoc.instances[i].referent;
        std::size_t pos = 0;
        bool negative = false;
        if (!s.empty() && s[0] == '-') {
            negative = true;
            pos = 1;
        }
        if (pos >= s.size() || s.size() - pos > 10) {
            keep = false;
            break;
        }
        std::int64_t v = 0;
        for (; pos < s.size(); ++pos) {
            if (s[pos] < '0' || s[pos] > '9') {
                keep = false;
                break;
            }
            v = v * 10 + (s[pos] - '0');
        }
        if (negative) v = -v;
        if (!keep || v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max() ||
            v == -1) {
            keep = false;
            break;
        }
        mReferents[i] = static_cast<std::int32_t>(v);
        sorted.push_back(mReferents[i]);
    }
    if (keep) {
        std::sort(sorted.begin(), sorted.end());
        keep = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    }
    if (!keep)
        for (std::size_t k = 0; k < mPreOrder.size(); ++k) mReferents[mPreOrder[k]] = static_cast<std::int32_t>(k);
}

// Classes that have instances, sorted by name (Studio), ids 0..K-1.
void Writer::collectClasses() {
    std::vector<std::int64_t> slot(mDoc.names.size(), -1);
    for (std::uint32_t i = 0; i < mDoc.instances.size(); ++i) {
        const Instance &inst = mDoc.instances[i];
        if (inst.className >= slot.size()) Fail("instance " + std::to_string(i) + " has an invalid class name id");
        if (slot[inst.className] < 0) {
            slot[inst.className] = static_cast<std::int64_t>(mClasses.size());
            ClassInfo info;
            info.name = mDoc.names.str(inst.className);
            info.nameId = inst.className;
            mClasses.push_back(std::move(info));
        }
        ClassInfo &info = mClasses[static_cast<std::size_t>(slot[inst.className])];
        info.members.push_back(i);
        info.service = info.service || inst.isService;
    }
    std::sort(mClasses.begin(), mClasses.end(), [](const ClassInfo &a, const ClassInfo &b) { return a.name < b.name; });
}

void Writer::emitUnknownChunksUpTo(std::size_t index) {
    while (mNextUnknown < mUnknown.size() && mUnknown[mNextUnknown]->position <= index) {
        const RawChunk *chunk = mUnknown[mNextUnknown++];
        emitChunk(chunk->name.c_str(), chunk->data);
    }
}

void Writer::emitChunk(const char *name, const Bytes &body, bool raw) {
    emitUnknownChunksUpTo(mChunkIndex);
    if (body.size() > 0xFFFFFFFFull) Fail(std::string("chunk ") + name + " body exceeds 4 GiB");
    mOut.fixedString(name, 4);
    const bool store = raw || body.empty() || mOptions.compression == Compression::None;
    if (store) {
        mOut.u32le(0);
        mOut.u32le(static_cast<std::uint32_t>(body.size()));
        mOut.u32le(0);
        mOut.bytes(body);
    } else {
        const Bytes packed = mOptions.compression == Compression::Zstd
                                 ? CompressZstdFrame(body.data(), body.size(), 0, kFormatName)
                                 : CompressLz4Block(body.data(), body.size(), kFormatName);
        if (packed.size() > 0xFFFFFFFFull) Fail(std::string("chunk ") + name + " compresses beyond 4 GiB");
        mOut.u32le(static_cast<std::uint32_t>(packed.size()));
        mOut.u32le(static_cast<std::uint32_t>(body.size()));
        mOut.u32le(0);
        mOut.bytes(packed);
    }
    ++mChunkIndex;
}

void Writer::writeMeta() {
    if (mDoc.meta.empty() && mLegacyMeta.empty()) return;
    mBody.clear();
    bin::PutCount(mBody, mDoc.meta.size() + mLegacyMeta.size(), "META entries");
    using Entries = std::vector<std::pair<std::string, std::string>>;
    for (const Entries *list : {&mDoc.meta, static_cast<const Entries *>(&mLegacyMeta)})
        for (const auto &kv : *list) {
            bin::PutString(mBody, kv.first);
            bin::PutString(mBody, kv.second);
        }
    emitChunk("META", mBody);
}

// The legacy XML Content forms (§4: `<binary>` file bytes, `<hash>` text) have no binary form: the binary String is
// read as a URL, so they are written as empty ContentIds (what Roblox makes of them is unverified) and kept, for
// gamefmt's reader to put back, as META entries "gamefmt:LegacyContent:<referent>:<property>" = "binary:" + base64
// or "hash:" + text.
void Writer::collectLegacyContent() {
    for (std::uint32_t i = 0; i < mDoc.instances.size(); ++i)
        for (const Property &p : mDoc.instances[i].properties) {
            const XmlTag tag = p.value.xmlTag;
            const auto *text = std::get_if<std::string>(&p.value.data);
            if ((tag != XmlTag::ContentBinary && tag != XmlTag::ContentHash) || text == nullptr) continue;
            mLegacy.insert(&p.value);
            const std::string key =
                std::string(kLegacyContentMetaPrefix) + std::to_string(referentOf(i)) + ":" + mDoc.names.str(p.name);
            mLegacyMeta.emplace_back(
                key, tag == XmlTag::ContentBinary
                         ? "binary:" + Base64Encode(reinterpret_cast<const std::uint8_t *>(text->data()), text->size())
                         : "hash:" + *text);
        }
    if (!mLegacy.empty())
        warn(std::to_string(mLegacy.size()) +
             " legacy XML Content value(s) (<binary> file bytes or <hash>) have no binary form: written as empty "
             "ContentIds, kept in META " +
             std::string(kLegacyContentMetaPrefix) + "* (gamefmt reads them back)");
}

void Writer::writeSharedStrings() {
    if (mDoc.sharedStrings.empty()) return;
    mBody.clear();
    bin::PutU32LE(mBody, 0); // version
    bin::PutCount(mBody, mDoc.sharedStrings.size(), "shared strings");
    for (const SharedStringEntry &e : mDoc.sharedStrings) {
        mBody.insert(mBody.end(), e.hash.begin(), e.hash.end());
        bin::PutString(mBody, e.content);
    }
    emitChunk("SSTR", mBody);
}

void Writer::writeInst(std::uint32_t classId, const ClassInfo &info) {
    mBody.clear();
    bin::PutU32LE(mBody, classId);
    bin::PutString(mBody, info.name);
    mBody.push_back(info.service ? 1 : 0);
    bin::PutCount(mBody, info.members.size(), "instances");
    std::vector<std::int32_t> refs;
    refs.reserve(info.members.size());
    for (std::uint32_t i : info.members) refs.push_back(mReferents[i]);
    bin::PutReferentArray(mBody, std::move(refs));
    if (info.service)
        for (std::uint32_t i : info.members)
            mBody.push_back(mDoc.instances[i].isService ? mDoc.instances[i].serviceMarker : 0);
    emitChunk("INST", mBody);
}

// One pass over the class's properties: property name id -> column of values (null = missing).
void Writer::collectColumns(const ClassInfo &info, std::vector<std::uint32_t> &slotName,
                            std::vector<std::vector<const Value *>> &columns) const {
    const std::size_t n = info.members.size();
    std::vector<std::int64_t> slotOf(mDoc.names.size(), -1);
    const std::optional<std::uint32_t> nameProp = mDoc.names.find("Name");
    for (std::size_t k = 0; k < n; ++k) {
        for (const Property &p : mDoc.instances[info.members[k]].properties) {
            if (p.name >= slotOf.size()) Fail("a property of a " + info.name + " has an invalid name id");
            if (nameProp && p.name == *nameProp) continue; // Name lives in Instance::name
            std::int64_t &slot = slotOf[p.name];
            if (slot < 0) {
                slot = static_cast<std::int64_t>(columns.size());
                slotName.push_back(p.name);
                columns.emplace_back(n, nullptr);
            }
            columns[static_cast<std::size_t>(slot)][k] = &p.value;
        }
    }
}

// Fills the missing values of a column with the class default; false (with a warning naming what is lost) when
// there is none of that type.
bool Writer::fillDefaults(const ClassInfo &info, const std::string &property, Type type,
                          std::vector<const Value *> &column) {
    std::optional<Value> def = ClassDefault(info.name, property, type);
    if (def) {
        mDefaults.push_back(std::move(*def));
        for (const Value *&v : column)
            if (!v) v = &mDefaults.back();
        return true;
    }
    std::size_t missing = 0;
    std::string kept;
    constexpr std::size_t kNamed = 5;
    std::size_t named = 0;
    for (std::size_t k = 0; k < column.size(); ++k) {
        if (!column[k]) {
            ++missing;
        } else if (named++ < kNamed) {
            kept += (kept.empty() ? "" : ", ") + ("'" + mDoc.instances[info.members[k]].name + "'");
        }
    }
    const std::size_t lost = column.size() - missing;
    if (lost > kNamed) kept += ", ...";
    warn("class " + info.name + ": property " + property + " (" + TypeName(type) + ") is missing on " +
         std::to_string(missing) + " of " + std::to_string(column.size()) +
         " instances and its class default is unknown; omitted for the whole class, so " + std::to_string(lost) +
         (lost == 1 ? " instance loses its value: " : " instances lose their values: ") + kept);
    return false;
}

// What gets written, sorted by serialized name: columns of one type (missing values filled with the class
// default), Name, and kept raw PROP bodies; mixed and unknown-typed columns, and partial ones without a class
// default, are omitted with a warning.
std::vector<Writer::PropEntry> Writer::chooseEntries(const ClassInfo &info, const std::vector<std::uint32_t> &slotName,
                                                     std::vector<std::vector<const Value *>> &columns) {
    // What gets written, sorted by serialized name: regular columns, Name, kept raw PROP bodies.
    std::vector<PropEntry> entries;
    static const std::string kName = "Name";
    entries.push_back({&kName, -1, nullptr, Type::String});
    for (std::size_t s = 0; s < columns.size(); ++s) {
        const std::string &pname = mDoc.names.str(slotName[s]);
        auto &col = columns[s];
        const auto firstPresent = std::find_if(col.begin(), col.end(), [](const Value *v) { return v != nullptr; });
        if (firstPresent == col.end()) continue; // not possible: a slot exists because an instance has it
        Type type = (*firstPresent)->type;
        bool mixed = false, unknown = false, complete = true;
        for (const Value *v : col) {
            if (!v) {
                complete = false;
                continue;
            }
            if (v->type == Type::Unknown) unknown = true;
            if (v->type == type) continue;
            const bool cframes = (v->type == Type::CFrame || v->type == Type::CFrameQuat) &&
                                 (type == Type::CFrame || type == Type::CFrameQuat);
            if (cframes)
                type = Type::CFrame;
            else
                mixed = true;
        }
        if (unknown) {
            // Binary unknown types come back from rawProperties; XML ones have no binary form.
            const bool hasRaw =
                std::any_of(mDoc.rawProperties.begin(), mDoc.rawProperties.end(),
                            [&](const RawProperty &r) { return r.className == info.name && r.propertyName == pname; });
            if (!hasRaw) warn("class " + info.name + ": property " + pname + " has an unknown type; omitted");
            continue;
        }
        if (mixed) {
            warn("class " + info.name + ": property " + pname + " has values of different types; omitted");
            continue;
        }
        if (!complete && !fillDefaults(info, pname, type, col)) continue;
        entries.push_back({&pname, static_cast<std::int64_t>(s), nullptr, type});
    }
    for (const RawProperty &r : mDoc.rawProperties) {
        if (r.className != info.name) continue;
        const bool duplicate =
            std::any_of(entries.begin(), entries.end(), [&](const PropEntry &e) { return *e.name == r.propertyName; });
        if (duplicate) continue; // a decoded value of the same name wins (reader: last wins)
        entries.push_back({&r.propertyName, -2, &r, static_cast<Type>(r.type)});
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const PropEntry &a, const PropEntry &b) { return *a.name < *b.name; });
    return entries;
}

// A kept PROP body: it begins with the header (class id, name, type) when the reader stored the whole PROP
// body (the class id is renumbered); otherwise it is the values alone.
void Writer::writeRawProp(std::uint32_t classId, const RawProperty &raw) {
    mBody.clear();
    const auto &b = raw.body;
    const std::string &pn = raw.propertyName;
    bool hasHeader = b.size() >= 9 + pn.size();
    if (hasHeader) {
        const std::uint32_t len = static_cast<std::uint32_t>(b[4]) | (static_cast<std::uint32_t>(b[5]) << 8) |
                                  (static_cast<std::uint32_t>(b[6]) << 16) | (static_cast<std::uint32_t>(b[7]) << 24);
        hasHeader =
            len == pn.size() && std::memcmp(b.data() + 8, pn.data(), pn.size()) == 0 && b[8 + pn.size()] == raw.type;
    }
    if (hasHeader) {
        mBody = b;
        for (int k = 0; k < 4; ++k) mBody[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(classId >> (8 * k));
    } else {
        bin::PutU32LE(mBody, classId);
        bin::PutString(mBody, pn);
        mBody.push_back(raw.type);
        mBody.insert(mBody.end(), b.begin(), b.end());
    }
    emitChunk("PROP", mBody);
}

void Writer::writeProps(std::uint32_t classId, const ClassInfo &info) {
    std::vector<std::uint32_t> slotName;
    std::vector<std::vector<const Value *>> columns;
    collectColumns(info, slotName, columns);
    if (!mLegacy.empty()) {
        static const Value kEmptyContentId{Type::String, std::string(), XmlTag::ContentId};
        for (auto &column : columns)
            for (const Value *&v : column)
                if (v != nullptr && mLegacy.count(v) != 0) v = &kEmptyContentId;
    }
    const std::vector<PropEntry> entries = chooseEntries(info, slotName, columns);
    for (const PropEntry &e : entries) {
        mBody.clear();
        if (e.column == -2) {
            writeRawProp(classId, *e.raw);
            continue;
        }
        bin::PutU32LE(mBody, classId);
        bin::PutString(mBody, *e.name);
        mBody.push_back(static_cast<std::uint8_t>(e.type));
        if (e.column == -1) {
            for (std::uint32_t i : info.members) bin::PutString(mBody, mDoc.instances[i].name);
        } else {
            mEncoder.encode(mBody, e.type, columns[static_cast<std::size_t>(e.column)], info.name + "." + *e.name);
        }
        emitChunk("PROP", mBody);
    }
}

// PRNT: (child, parent) pairs in depth-first post-order (Studio), parent -1 for roots.
void Writer::writeParents() {
    const std::size_t n = mDoc.instances.size();
    std::vector<std::int32_t> childRefs, parentRefs;
    childRefs.reserve(n);
    parentRefs.reserve(n);
    std::vector<bool> seen(n, false);
    struct Frame {
        std::uint32_t index, parent;
        std::size_t next;
    };
    std::vector<Frame> stack;
    auto walk = [&](std::uint32_t root, std::uint32_t parent) {
        if (root >= n || seen[root]) return;
        seen[root] = true;
        stack.push_back({root, parent, 0});
        while (!stack.empty()) {
            Frame &f = stack.back();
            const auto &children = mDoc.instances[f.index].children;
            if (f.next < children.size()) {
                const std::uint32_t c = children[f.next++];
                if (c < n && !seen[c]) {
                    seen[c] = true;
                    stack.push_back({c, f.index, 0});
                }
                continue;
            }
            childRefs.push_back(mReferents[f.index]);
            parentRefs.push_back(f.parent == kNoInstance ? -1 : referentOf(f.parent));
            stack.pop_back();
        }
    };
    for (std::uint32_t r : mDoc.roots) walk(r, kNoInstance);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t p = mDoc.instances[i].parent;
        walk(i, p < n ? p : kNoInstance);
    }
    mBody.clear();
    mBody.push_back(0); // version
    bin::PutCount(mBody, childRefs.size(), "parent pairs");
    bin::PutReferentArray(mBody, std::move(childRefs));
    bin::PutReferentArray(mBody, std::move(parentRefs));
    emitChunk("PRNT", mBody);
}

Bytes Writer::run() {
    if (mDoc.instances.size() > kMaxInstances)
        Fail("a binary file holds at most 2^31-1 instances; the document has " + std::to_string(mDoc.instances.size()));
    assignReferents();
    collectClasses();
    collectLegacyContent();
    for (const RawChunk &c : mDoc.unknownChunks) mUnknown.push_back(&c);
    std::stable_sort(mUnknown.begin(), mUnknown.end(),
                     [](const RawChunk *a, const RawChunk *b) { return a->position < b->position; });

    mOut.string("<roblox!");
    const std::uint8_t signature[6] = {0x89, 0xFF, 0x0D, 0x0A, 0x1A, 0x0A};
    mOut.bytes(signature, 6);
    mOut.u16le(0);
    mOut.i32le(static_cast<std::int32_t>(mClasses.size()));
    mOut.i32le(static_cast<std::int32_t>(mDoc.instances.size()));
    mOut.zeros(8);

    writeMeta();
    writeSharedStrings();
    for (std::size_t c = 0; c < mClasses.size(); ++c) writeInst(static_cast<std::uint32_t>(c), mClasses[c]);
    for (std::size_t c = 0; c < mClasses.size(); ++c) writeProps(static_cast<std::uint32_t>(c), mClasses[c]);
    for (const RawProperty &r : mDoc.rawProperties) {
        const bool placed =
            std::any_of(mClasses.begin(), mClasses.end(), [&](const ClassInfo &c) { return c.name == r.className; });
        if (!placed)
            warn("raw property " + r.propertyName + " of class '" + r.className +
                 "' has no instances in the document; dropped");
    }
    writeParents();
    emitUnknownChunksUpTo(std::numeric_limits<std::size_t>::max());
    static const std::string kEnd = "</roblox>";
    emitChunk("END", Bytes(kEnd.begin(), kEnd.end()), true);
    return mOut.take();
}

} // namespace

std::vector<std::uint8_t> WriteBinary(const Document &document, const BinaryWriteOptions &options) {
    return Writer(document, options).run();
}

} // namespace gamefmt::rbx
