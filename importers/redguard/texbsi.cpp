// TEXBSI banks and COL palettes (docs/formats/redguard-3d.md §10, §11). A bank is a run of image records, each a list
// of tagged subrecords (tag + big-endian size); the record and subrecord sizes are checked against the bytes that
// remain before anything is read or allocated.
#include "importers/redguard/texbsi.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"
#include "importers/redguard/model.hpp"

#include <cstdio>
#include <cstring>

namespace gamefmt::redguard {

namespace {

constexpr std::size_t kNameSize = 9;
constexpr std::size_t kBhdrSize = 26;
constexpr std::size_t kCmapSize = 768;
constexpr int kMaxSide = 4096;
constexpr int kMaxFrames = 64;

std::string Printable(const std::string &s) {
    std::string out;
    for (const char c : s) out += (c >= 0x20 && c < 0x7F) ? c : '?';
    return out;
}

std::string PrintableTag(const std::uint8_t *tag) {
    return Printable(std::string(reinterpret_cast<const char *>(tag), 4));
}

void ReadBhdr(ByteReader in, TexImage &image) {
    image.xOffset = in.i16le();
    image.yOffset = in.i16le();
    image.width = in.i16le();
    image.height = in.i16le();
    image.hasCmap = in.u8();
    image.exportFlags = in.u8();
    in.skip(4);
    image.frameCount = in.i16le();
    image.delayMs = in.i16le();
    in.skip(4);
    image.texScale = in.u16le();
    image.encoding = in.i16le();
}

// The frames of the DATA payload `data` (absolute offset `dataOffset`): w*h indices for static images, a row
// table of h*frames u32 LE offsets (from the payload start) for animated ones.
void DecodeData(const std::uint8_t *data, std::size_t size, std::size_t dataOffset, TexImage &image,
                std::vector<std::string> &warnings) {
    const std::size_t w = static_cast<std::size_t>(image.width);
    const std::size_t h = static_cast<std::size_t>(image.height);
    ByteReader in(data, size, kFormatName, dataOffset);
    if (!image.animated) {
        if (size < w * h)
            in.fail("TEXBSI image \"" + Printable(image.name) + "\": DATA holds " + std::to_string(size) + " bytes, " +
                    std::to_string(w) + "x" + std::to_string(h) + " pixels need " + std::to_string(w * h));
        image.pixels.assign(data, data + w * h);
        return;
    }
    const std::size_t entries = h * static_cast<std::size_t>(image.frameCount);
    in.requireArray(entries, 4, "TEXBSI row table");
    image.pixels.resize(w * h);
    const std::size_t frames = static_cast<std::size_t>(image.frameCount);
    const bool keepFrames = frames > 1 && w * h <= kMaxFramePixels / frames;
    if (frames > 1 && !keepFrames)
        warnings.push_back("TEXBSI image \"" + Printable(image.name) + "\": " + std::to_string(frames) + " frames of " +
                           std::to_string(w) + "x" + std::to_string(h) + " exceed " + std::to_string(kMaxFramePixels) +
                           " pixels; only frame 0 is kept");
    if (keepFrames) image.laterFrames.assign(frames - 1, std::vector<std::uint8_t>(w * h));
    for (std::size_t i = 0; i < entries; ++i) {
        const std::size_t at = in.tell();
        const std::uint32_t offset = in.u32le();
        if (offset > size || w > size - offset)
            in.failAt(at, "TEXBSI image \"" + Printable(image.name) + "\": row " + std::to_string(i % h) +
                              " of frame " + std::to_string(i / h) + " at offset " + std::to_string(offset) +
                              " runs past the " + std::to_string(size) + "-byte DATA block");
        if (i < h)
            std::memcpy(image.pixels.data() + i * w, data + offset, w);
        else if (keepFrames)
            std::memcpy(image.laterFrames[i / h - 1].data() + (i % h) * w, data + offset, w);
    }
}

// One record's subrecords in `in` (the record payload). Throws for anything out of bounds.
TexImage ReadRecord(ByteReader in, std::string name, std::size_t recordOffset, std::vector<std::string> &warnings,
                    bool &haveEnd) {
    TexImage image;
    image.name = std::move(name);
    bool haveBhdr = false, haveIfhd = false;
    haveEnd = false;
    const std::uint8_t *dataPtr = nullptr;
    std::size_t dataSize = 0, dataOffset = 0;
    while (!in.atEnd()) {
        const std::size_t at = in.tell();
        if (in.remaining() < 8)
            in.fail("TEXBSI image \"" + Printable(image.name) + "\": " + std::to_string(in.remaining()) +
                    " stray bytes where a subrecord header (8 bytes) should be");
        const std::uint8_t *tag = in.take(4);
        const std::uint32_t size = in.u32be();
        if (size > in.remaining())
            in.failAt(at, "TEXBSI image \"" + Printable(image.name) + "\": subrecord " + PrintableTag(tag) + " of " +
                              std::to_string(size) + " bytes runs past the record (" + std::to_string(in.remaining()) +
                              " bytes remain)");
        const std::size_t payloadOffset = in.offset();
        ByteReader payload = in.sub(size);
        if (std::memcmp(tag, "END ", 4) == 0) {
            haveEnd = true;
            break;
        } else if (std::memcmp(tag, "BSIF", 4) == 0) {
            // static marker, no payload of interest
        } else if (std::memcmp(tag, "IFHD", 4) == 0) {
            haveIfhd = true;
        } else if (std::memcmp(tag, "BHDR", 4) == 0) {
            if (size < kBhdrSize)
                in.failAt(at, "TEXBSI image \"" + Printable(image.name) + "\": BHDR of " + std::to_string(size) +
                                  " bytes, 26 expected");
            ReadBhdr(payload, image);
            haveBhdr = true;
        } else if (std::memcmp(tag, "CMAP", 4) == 0) {
            if (size < kCmapSize) {
                warnings.push_back("TEXBSI image \"" + Printable(image.name) + "\": CMAP of " + std::to_string(size) +
                                   " bytes (768 expected) ignored");
            } else {
                std::array<std::uint8_t, 768> cmap{};
                payload.copyTo(cmap.data(), cmap.size());
                image.cmap = cmap;
            }
        } else if (std::memcmp(tag, "DATA", 4) == 0) {
            dataPtr = payload.data();
            dataSize = size;
            dataOffset = payloadOffset;
        } else {
            warnings.push_back("TEXBSI image \"" + Printable(image.name) + "\": unknown subrecord \"" +
                               PrintableTag(tag) + "\" (" + std::to_string(size) + " bytes) skipped");
        }
    }
    if (!haveBhdr)
        throw FormatError(kFormatName, "TEXBSI image \"" + Printable(image.name) + "\" has no BHDR", recordOffset);
    if (dataPtr == nullptr)
        throw FormatError(kFormatName, "TEXBSI image \"" + Printable(image.name) + "\" has no DATA", recordOffset);
    if (image.width < 1 || image.width > kMaxSide || image.height < 1 || image.height > kMaxSide)
        throw FormatError(kFormatName,
                          "TEXBSI image \"" + Printable(image.name) + "\": size " + std::to_string(image.width) + "x" +
                              std::to_string(image.height) + " outside 1-4096",
                          recordOffset);
    if (image.frameCount < 1 || image.frameCount > kMaxFrames)
        throw FormatError(kFormatName,
                          "TEXBSI image \"" + Printable(image.name) + "\": frame count " +
                              std::to_string(image.frameCount) + " outside 1-64",
                          recordOffset);
    image.animated = haveIfhd || image.frameCount > 1;
    DecodeData(dataPtr, dataSize, dataOffset, image, warnings);
    return image;
}

} // namespace

TexBank ReadTexBsi(const std::uint8_t *data, std::size_t size) {
    TexBank bank;
    ByteReader in(data, size, kFormatName);
    while (!in.atEnd()) {
        const std::size_t at = in.tell();
        if (in.current()[0] == 0) break; // terminator record (9 zero bytes in real banks)
        if (in.remaining() < kNameSize + 4)
            in.fail("TEXBSI: " + std::to_string(in.remaining()) +
                    " bytes where an image record header (13 bytes) should be");
        std::string name = in.fixedString(kNameSize);
        const std::uint32_t recordSize = in.u32le();
        if (recordSize > in.remaining())
            in.failAt(at, "TEXBSI image \"" + Printable(name) + "\": record of " + std::to_string(recordSize) +
                              " bytes runs past the end of the bank (" + std::to_string(in.remaining()) +
                              " bytes remain)");
        bool haveEnd = false;
        bank.images.push_back(ReadRecord(in.sub(recordSize), std::move(name), at, bank.warnings, haveEnd));
        if (haveEnd) continue;
        const std::string &imageName = bank.images.back().name;
        // A writer whose record size leaves out the END subrecord (§10 infers that it is included): step over
        // it rather than reading "END " as the next record's name.
        if (in.remaining() >= 8 && std::memcmp(in.current(), "END \0\0\0\0", 8) == 0) {
            bank.warnings.push_back("TEXBSI image \"" + Printable(imageName) +
                                    "\": END subrecord outside the record size");
            in.skip(8);
        } else {
            bank.warnings.push_back("TEXBSI image \"" + Printable(imageName) + "\": no END subrecord");
        }
    }
    return bank;
}

const TexImage *FindTexImage(const TexBank &bank, unsigned imageIndex, bool *byOrdinal) {
    if (byOrdinal != nullptr) *byOrdinal = false;
    if (imageIndex <= 999) {
        char digits[4];
        std::snprintf(digits, sizeof digits, "%03u", imageIndex);
        for (const TexImage &image : bank.images)
            if (image.name.size() >= 3 && image.name.compare(image.name.size() - 3, 3, digits) == 0) return &image;
    }
    if (imageIndex < bank.images.size()) {
        if (byOrdinal != nullptr) *byOrdinal = true;
        return &bank.images[imageIndex];
    }
    return nullptr;
}

Palette ReadPalette(const std::uint8_t *data, std::size_t size, std::vector<std::string> *warnings) {
    Palette palette;
    if (data == nullptr) size = 0;
    if (size == 768) {
        std::memcpy(palette.rgb.data(), data, 768);
        return palette;
    }
    if (size < 776)
        throw FormatError(
            kFormatName, "COL palette of " + std::to_string(size) + " bytes: 776 (or a headerless 768) expected", size);
    ByteReader in(data, size, kFormatName);
    const std::uint32_t declared = in.u32le();
    const std::uint32_t magic = in.u32le();
    if ((declared != 776 || magic != 0xB123) && warnings != nullptr)
        warnings->push_back("COL palette header (size " + std::to_string(declared) + ", magic " +
                            std::to_string(magic) + ") is not 776 / 0xB123; colours read from bytes 8-775");
    if (size > 776 && warnings != nullptr)
        warnings->push_back("COL palette: " + std::to_string(size - 776) + " bytes after the 776 ignored");
    in.copyTo(palette.rgb.data(), 768);
    return palette;
}

Palette GreyRampPalette() {
    Palette palette;
    for (int i = 0; i < 256; ++i)
        for (int c = 0; c < 3; ++c)
            palette.rgb[static_cast<std::size_t>(i) * 3 + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(i);
    return palette;
}

std::vector<std::uint8_t> ImageToRgba(const TexImage &image, const Palette &palette, std::size_t frame) {
    if (image.width <= 0 || image.height <= 0) return {};
    const std::size_t count = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
    std::vector<std::uint8_t> rgba(count * 4, 0);
    const std::vector<std::uint8_t> &pixels =
        frame != 0 && frame <= image.laterFrames.size() ? image.laterFrames[frame - 1] : image.pixels;
    const std::size_t have = pixels.size() < count ? pixels.size() : count;
    for (std::size_t i = 0; i < have; ++i) {
        const std::uint8_t index = pixels[i];
        if (index == 0) continue; // transparent: (0, 0, 0, 0)
        std::uint8_t *px = rgba.data() + 4 * i;
        const std::size_t at = std::size_t{index} * 3;
        px[0] = palette.rgb[at];
        px[1] = palette.rgb[at + 1];
        px[2] = palette.rgb[at + 2];
        px[3] = 255;
    }
    return rgba;
}

} // namespace gamefmt::redguard
