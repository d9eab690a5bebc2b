// ROB archive framing (docs/formats/redguard-3d.md §9): a 20-byte "OARC"/"OARD" header, 80-byte segment headers each
// followed by its payload, and "END " at EOF. The segment size is stored twice (total at 0x00, payload at
// 0x4C); when they disagree the reader trusts whichever lands on a plausible boundary.
#include "importers/redguard/rob.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"
#include "importers/redguard/detect.hpp"
#include "importers/redguard/model.hpp"

#include <cstring>

namespace gamefmt::redguard {

namespace {

constexpr std::size_t kHeaderSize = 20;
constexpr std::size_t kSegmentHeaderSize = 80;

std::uint32_t LoadU32le(const std::uint8_t *p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

std::string Printable(const std::string &s) {
    std::string out;
    for (const char c : s) out += (c >= 0x20 && c < 0x7F) ? c : '?';
    return out;
}

// How well a payload of `payload` bytes starting at `start` fits the archive: 0 = past EOF, 1 = fits,
// 2 = followed by a consistent segment header, 3 = followed by "END " or EOF.
int Fit(const std::uint8_t *data, std::size_t size, std::size_t start, std::uint64_t payload) {
    if (payload > size - start) return 0;
    const std::size_t end = start + static_cast<std::size_t>(payload);
    const std::size_t rest = size - end;
    if (rest == 0 || (rest >= 4 && std::memcmp(data + end, "END ", 4) == 0)) return 3;
    if (rest >= kSegmentHeaderSize) {
        const std::uint64_t total = LoadU32le(data + end);
        const std::uint64_t nextPayload = LoadU32le(data + end + 0x4C);
        if (total == kSegmentHeaderSize + nextPayload) return 2;
    }
    return 1;
}

} // namespace

RobArchive ReadRob(const std::uint8_t *data, std::size_t size) {
    RobArchive archive;
    if (data == nullptr) size = 0;
    ByteReader in(data, size, kFormatName);
    if (size < 4 || std::memcmp(data, "OARC", 4) != 0) in.failAt(0, "ROB: no \"OARC\" signature");
    if (size < kHeaderSize)
        in.failAt(0, "ROB: " + std::to_string(size) + " bytes, shorter than the 20-byte archive header");
    in.copyTo(archive.header.data(), kHeaderSize);
    const std::uint32_t declaredCount = LoadU32le(data + 8);
    if (std::memcmp(data + 12, "OARD", 4) != 0) archive.warnings.push_back("ROB: no \"OARD\" tag at byte 12");

    while (true) {
        if (in.atEnd()) {
            archive.warnings.push_back("ROB: no \"END \" marker at the end of the archive");
            break;
        }
        if (in.remaining() >= 4 && std::memcmp(in.current(), "END ", 4) == 0) {
            archive.hasEndMarker = true;
            if (in.remaining() > 4)
                archive.warnings.push_back("ROB: " + std::to_string(in.remaining() - 4) +
                                           " bytes after the \"END \" marker ignored");
            break;
        }
        const std::size_t at = in.tell();
        if (in.remaining() < kSegmentHeaderSize)
            in.fail("ROB: segment " + std::to_string(archive.segments.size()) +
                    " header (80 bytes) runs past the end (" + std::to_string(in.remaining()) + " bytes remain)");
        RobSegment segment;
        in.copyTo(segment.header.data(), kSegmentHeaderSize);
        const std::uint8_t *h = segment.header.data();
        const std::uint64_t total = LoadU32le(h);
        const std::uint64_t payloadField = LoadU32le(h + 0x4C);
        const void *nul = std::memchr(h + 4, 0, 8);
        const std::size_t nameLength =
            nul != nullptr ? static_cast<std::size_t>(static_cast<const std::uint8_t *>(nul) - (h + 4)) : 8;
        segment.name.assign(reinterpret_cast<const char *>(h + 4), nameLength);
        segment.type = static_cast<std::uint16_t>(h[0x0C] | h[0x0D] << 8);
        segment.flags = static_cast<std::uint16_t>(h[0x0E] | h[0x0F] << 8);
        segment.payloadOffset = in.tell();

        std::uint64_t payload = payloadField;
        if (total != kSegmentHeaderSize + payloadField) {
            const int fitField = Fit(data, size, in.tell(), payloadField);
            const int fitTotal =
                total >= kSegmentHeaderSize ? Fit(data, size, in.tell(), total - kSegmentHeaderSize) : 0;
            if (fitTotal > fitField) payload = total - kSegmentHeaderSize;
            archive.warnings.push_back("ROB: segment \"" + Printable(segment.name) + "\" at byte " +
                                       std::to_string(at) + ": total size " + std::to_string(total) +
                                       " != 80 + payload size " + std::to_string(payloadField) + "; using payload " +
                                       std::to_string(payload));
        }
        if (payload > in.remaining())
            in.failAt(at, "ROB: segment \"" + Printable(segment.name) + "\" payload of " + std::to_string(payload) +
                              " bytes runs past the end of the archive (" + std::to_string(in.remaining()) +
                              " bytes remain)");
        segment.payloadSize = static_cast<std::size_t>(payload);
        in.skip(segment.payloadSize);
        if (segment.type != 0 && segment.type != 256 && segment.type != 512)
            archive.warnings.push_back("ROB: segment \"" + Printable(segment.name) + "\" has unknown type " +
                                       std::to_string(segment.type));
        archive.segments.push_back(std::move(segment));
    }
    if (declaredCount != archive.segments.size())
        archive.warnings.push_back("ROB: header declares " + std::to_string(declaredCount) + " segments, " +
                                   std::to_string(archive.segments.size()) + " found");
    return archive;
}

void ForEachRobEntry(const RobArchive &rob, const std::uint8_t *data, std::size_t size,
                     const ExternalModelLookup &lookup, const std::function<void(RobEntry &)> &visit) {
    for (const RobSegment &segment : rob.segments) {
        RobEntry entry;
        entry.segment = &segment;
        if (segment.embedded()) {
            if (segment.payloadOffset > size || segment.payloadSize > size - segment.payloadOffset)
                throw FormatError(kFormatName, "ROB segment \"" + segment.name + "\" runs past the end",
                                  segment.payloadOffset);
            entry.source = RobEntry::Source::Embedded;
            entry.model = ReadModel(data + segment.payloadOffset, segment.payloadSize, segment.payloadOffset);
        } else if (segment.type == 512) {
            std::optional<std::pair<std::string, std::vector<std::uint8_t>>> external;
            if (lookup) external = lookup(segment.name);
            if (!external) {
                entry.source = RobEntry::Source::MissingExternal;
                entry.warning = "ROB segment \"" + segment.name + "\" refers to " + segment.name +
                                ".3DC, which was not found; the node stays empty";
            } else {
                const std::vector<std::uint8_t> &bytes = external->second;
                entry.externalPath = external->first;
                try {
                    if (Detect(bytes.data(), bytes.size()) != FileKind::Model)
                        throw FormatError(kFormatName, "not a Redguard model (no v2.6/v2.7/v4.0/v5.0 signature)", 0);
                    entry.model = ReadModel(bytes.data(), bytes.size());
                    entry.source = RobEntry::Source::External;
                } catch (const std::exception &e) {
                    entry.source = RobEntry::Source::UnreadableExternal;
                    entry.warning = external->first + " (ROB segment \"" + segment.name +
                                    "\") cannot be read: " + e.what() + "; the node stays empty";
                }
            }
        } else {
            entry.warning =
                "ROB segment \"" + segment.name + "\" has unknown type " + std::to_string(segment.type) + "; skipped";
        }
        visit(entry);
    }
}

} // namespace gamefmt::redguard
