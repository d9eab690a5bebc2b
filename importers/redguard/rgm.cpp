// RGM scene files (docs/formats/redguard-world.md §1). Every section length is checked against the bytes that
// remain before its payload is touched; record lists are bounded by their payload, never by their count.
#include "importers/redguard/rgm.hpp"

#include "common/ascii.hpp"
#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cstring>
#include <set>

namespace gamefmt::redguard {
namespace {

constexpr std::size_t kSectionHeader = 8; // tag + u32 BE length
constexpr std::uint32_t kRahdPrefix = 8;  // count + 4 bytes (1B 80 37 00)
constexpr std::size_t kRaanEntryHeader = 6;
constexpr std::size_t kMaxPath = 260;

// The section tags of §1.1 (RAVC included); anything else is skipped with a warning.
constexpr const char *kKnownTags[] = {"RAHD", "RAFS", "RAST", "RASB", "RAVA", "RASC", "RAHK", "RALC",
                                      "RAEX", "RAAT", "RAAN", "RAGR", "RANM", "MPOB", "MPRP", "MPSO",
                                      "MPSL", "MPSF", "MPMK", "MPSZ", "WDNM", "FLAT", "RAVC"};

bool KnownTag(const std::uint8_t *tag) {
    for (const char *t : kKnownTags)
        if (std::memcmp(tag, t, 4) == 0) return true;
    return false;
}

std::string Printable(const std::uint8_t *p, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += (p[i] >= 0x20 && p[i] < 0x7F) ? static_cast<char>(p[i]) : '?';
    return out;
}

std::string Upper(std::string s) {
    for (char &c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

// A 3-byte little-endian value, sign-extended when `isSigned`.
std::int32_t Int24(ByteReader &in, bool isSigned) {
    const std::uint32_t b0 = in.u8(), b1 = in.u8(), b2 = in.u8();
    const std::uint32_t v = b0 | b1 << 8 | b2 << 16;
    if (isSigned && (v & 0x800000u) != 0) return static_cast<std::int32_t>(v) - 0x1000000;
    return static_cast<std::int32_t>(v);
}

// X, Y (i24 + pad) and Z (u24, + pad when `zPad`) (§1.2).
RgmPosition Position(ByteReader &in, bool zPad) {
    RgmPosition p;
    p.x = Int24(in, true);
    in.skip(1);
    p.y = Int24(in, true);
    in.skip(1);
    p.z = Int24(in, false);
    if (zPad) in.skip(1);
    return p;
}

// A NUL-padded name field, cut at the first '.' (an extension is possible, §1.3).
std::string ModelName(ByteReader &in, std::size_t n) {
    std::string s = in.fixedString(n);
    const std::size_t dot = s.find('.');
    if (dot != std::string::npos) s.resize(dot);
    return s;
}

class Reader {
public:
    Reader(const std::uint8_t *data, std::size_t size) : mData(data), mSize(size) {}

    RgmScene read() {
        ByteReader in(mData, mSize, kRgmFormatName);
        std::set<std::string> skipped;
        while (!in.atEnd()) {
            const std::size_t at = in.tell();
            if (in.remaining() < 4)
                in.fail(std::to_string(in.remaining()) + " stray bytes where a section tag should be");
            const std::uint8_t *tag = in.current();
            if (std::memcmp(tag, "END ", 4) == 0) {
                mScene.hasEnd = true;
                mScene.sections.emplace_back("END ");
                break; // "END " with or without a length: nothing after it is read
            }
            if (in.remaining() < kSectionHeader)
                in.fail("section \"" + Printable(tag, 4) + "\": " + std::to_string(in.remaining()) +
                        " bytes where its 8-byte header should be");
            in.skip(4);
            const std::uint32_t length = in.u32be();
            if (length > in.remaining())
                in.failAt(at, "section \"" + Printable(tag, 4) + "\" of " + std::to_string(length) +
                                  " bytes runs past the end of the file (" + std::to_string(in.remaining()) +
                                  " bytes remain)");
            const std::string name = Printable(tag, 4);
            mScene.sections.push_back(name);
            ByteReader payload = in.sub(length);
            if (name == "MPSO")
                readRecords(payload, name, kMpsoRecord, [this](ByteReader &r, std::size_t off) { mpso(r, off); });
            else if (name == "MPOB")
                readRecords(payload, name, kMpobRecord, [this](ByteReader &r, std::size_t off) { mpob(r, off); });
            else if (name == "MPSF")
                readRecords(payload, name, kMpsfRecord, [this](ByteReader &r, std::size_t off) { mpsf(r, off); });
            else if (name == "MPRP")
                readRecords(payload, name, kMprpRecord, [this](ByteReader &r, std::size_t off) { mprp(r, off); });
            else if (name == "MPSL")
                readRecords(payload, name, kMpslRecord, [this](ByteReader &r, std::size_t off) { mpsl(r, off); });
            else if (name == "MPMK")
                readRecords(payload, name, kMpmkRecord, [this](ByteReader &r, std::size_t) { mpmk(r); });
            else if (name == "RAHD")
                rahd(payload);
            else if (name == "RAAN")
                mRaan = payload;
            else if (!KnownTag(tag))
                mScene.warnings.push_back("unknown section \"" + name + "\" (" + std::to_string(length) +
                                          " bytes) at byte offset " + std::to_string(at) + " skipped");
            else if (skipped.insert(name).second)
                mScene.skipped.push_back(name);
        }
        if (!mScene.hasEnd) mScene.warnings.push_back("no END section: the file ends after its last section");
        resolveAnimations();
        return std::move(mScene);
    }

private:
    template <typename F> void readRecords(ByteReader &payload, const std::string &name, std::size_t record, F each) {
        if (payload.remaining() < 4) {
            if (payload.remaining() != 0)
                payload.fail("section " + name + ": " + std::to_string(payload.remaining()) +
                             " bytes where the record count (4 bytes) should be");
            return;
        }
        const std::size_t countAt = payload.offset();
        const std::uint32_t count = payload.u32le();
        const std::size_t fit = payload.remaining() / record;
        if (count > fit)
            mScene.warnings.push_back("section " + name + " at byte offset " + std::to_string(countAt) + " counts " +
                                      std::to_string(count) + " records of " + std::to_string(record) +
                                      " bytes but holds " + std::to_string(fit) + "; the whole ones are read");
        const std::size_t n = std::min<std::size_t>(count, fit);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t off = payload.offset();
            ByteReader r = payload.sub(record);
            each(r, off);
        }
    }

    void mpso(ByteReader &r, std::size_t off) {
        RgmStatic s;
        s.offset = off;
        s.id = r.u32le();
        s.model = ModelName(r, 12);
        s.position = Position(r, true);
        for (std::int32_t &v : s.m) v = r.i32le();
        mScene.statics.push_back(std::move(s));
    }

    void mpob(ByteReader &r, std::size_t off) {
        RgmScripted o;
        o.offset = off;
        o.id = r.u32le();
        o.type = r.u8();
        o.active = r.u8();
        o.script = ModelName(r, 9);
        o.model = ModelName(r, 9);
        o.isStatic = r.u8();
        r.skip(2);
        o.position = Position(r, false);
        for (std::uint32_t &a : o.angles) a = r.u32le();
        o.texture = r.u16le();
        for (std::int16_t &v : o.values) v = r.i16le();
        mScene.scripted.push_back(std::move(o));
    }

    void mpsf(ByteReader &r, std::size_t off) {
        RgmFlat f;
        f.offset = off;
        f.id = r.u32le();
        r.skip(4);
        f.position = Position(r, true);
        f.texture = r.u16le();
        mScene.flats.push_back(f);
    }

    void mprp(ByteReader &r, std::size_t off) {
        RgmRope rope;
        rope.offset = off;
        rope.id = r.u32le();
        r.skip(1);
        rope.position = Position(r, false);
        for (std::int32_t &v : rope.fields) v = r.i32le();
        rope.links = r.i16le();
        rope.endModel = ModelName(r, 9);
        rope.linkModel = ModelName(r, 9);
        mScene.ropes.push_back(std::move(rope));
    }

    void mpsl(ByteReader &r, std::size_t off) {
        RgmLight l;
        l.offset = off;
        r.copyTo(l.raw.data(), l.raw.size());
        ByteReader at(l.raw.data(), l.raw.size(), kRgmFormatName, off);
        at.skip(8);
        l.position = Position(at, true);
        mScene.lights.push_back(l);
    }

    void mpmk(ByteReader &r) {
        RgmMarker m;
        m.position = Position(r, true);
        m.flag = r.u8();
        mScene.markers.push_back(m);
    }

    // RAHD: count, 4 bytes, count × 165-byte actor records (§1.6). Only the fields a static import uses.
    void rahd(ByteReader &payload) {
        if (payload.remaining() < kRahdPrefix) return;
        const std::size_t countAt = payload.offset();
        const std::uint32_t count = payload.u32le();
        payload.skip(4);
        const std::size_t fit = payload.remaining() / kRahdRecord;
        if (count > fit)
            mScene.warnings.push_back("section RAHD at byte offset " + std::to_string(countAt) + " counts " +
                                      std::to_string(count) + " actors but holds " + std::to_string(fit) +
                                      "; the whole ones are read");
        const std::size_t n = std::min<std::size_t>(count, fit);
        mActorAnimations.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            ByteReader r = payload.sub(kRahdRecord);
            RgmActor actor;
            r.seek(0x04);
            actor.script = r.fixedString(9);
            actor.instances = r.u16le();
            r.seek(0x21);
            const std::int32_t animCount = r.i32le();
            r.seek(0x29);
            const std::int32_t animOffset = r.i32le();
            r.seek(0x9B);
            actor.textureOverride = r.i16le();
            mScene.actors.push_back(std::move(actor));
            mActorAnimations.emplace_back(animCount, animOffset);
        }
    }

    // The first RAAN entry of each actor that has one: u32, u8 frames, u8 type, a NUL-terminated path (§1.6).
    void resolveAnimations() {
        for (std::size_t i = 0; i < mScene.actors.size(); ++i) {
            const auto [count, offset] = mActorAnimations[i];
            if (count <= 0) continue;
            RgmActor &actor = mScene.actors[i];
            if (offset < 0 || static_cast<std::size_t>(offset) + kRaanEntryHeader > mRaan.size()) {
                mScene.warnings.push_back("actor \"" + actor.script + "\": its RAAN entry at " +
                                          std::to_string(offset) + " lies outside the " + std::to_string(mRaan.size()) +
                                          "-byte RAAN section; not used");
                continue;
            }
            const std::uint8_t *p = mRaan.data() + offset + kRaanEntryHeader;
            const std::size_t avail =
                std::min(mRaan.size() - static_cast<std::size_t>(offset) - kRaanEntryHeader, kMaxPath);
            const void *nul = std::memchr(p, 0, avail);
            const std::size_t len =
                nul != nullptr ? static_cast<std::size_t>(static_cast<const std::uint8_t *>(nul) - p) : avail;
            std::string path(reinterpret_cast<const char *>(p), len);
            const std::size_t slash = path.find_last_of("\\/");
            if (slash != std::string::npos) path = path.substr(slash + 1);
            const std::size_t dot = path.find('.');
            if (dot != std::string::npos) path.resize(dot);
            actor.firstAnimationModel = Upper(path);
        }
    }

    const std::uint8_t *mData;
    std::size_t mSize;
    RgmScene mScene;
    ByteReader mRaan{nullptr, 0, kRgmFormatName};
    std::vector<std::pair<std::int32_t, std::int32_t>> mActorAnimations;
};

} // namespace

RgmScene ReadRgm(const std::uint8_t *data, std::size_t size) {
    if (data == nullptr) size = 0;
    return Reader(data, size).read();
}

bool LooksLikeRgm(const std::uint8_t *data, std::size_t size, bool whole) noexcept {
    if (data == nullptr || size < 4) return false;
    if (std::memcmp(data, "END ", 4) == 0) return whole && (size == 4 || size == 8);
    if (size < kSectionHeader || !KnownTag(data)) return false;
    if (!whole) return true;
    const std::uint32_t length = std::uint32_t{data[4]} << 24 | std::uint32_t{data[5]} << 16 |
                                 std::uint32_t{data[6]} << 8 | std::uint32_t{data[7]};
    return length <= size - kSectionHeader;
}

const RgmActor *FindActor(const RgmScene &scene, const std::string &script) {
    const std::string key = Upper(script);
    for (const RgmActor &actor : scene.actors)
        if (Upper(actor.script) == key) return &actor;
    return nullptr;
}

} // namespace gamefmt::redguard
