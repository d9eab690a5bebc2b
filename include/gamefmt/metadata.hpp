// gamefmt's metadata codec: how every gamefmt importer, exporter and the command line put values into
// Assimp's aiMetadata (scene and node metadata) and read them back. Include it to read our metadata from
// your own code; docs/metadata.md lists every key each format writes.
//
// Assimp 5.2.5 limits what metadata can hold, and these rules follow from the limits:
//
// * Flat. Nothing is ever a nested AI_AIMETADATA value: Assimp 5.2.5's SceneCombiner::Copy (run by every
//   Exporter::Export) does not copy nested metadata. Structured values use dotted keys instead, e.g.
//   "rbxmesh.unknownChunk.0.tag".
// * Long text. An aiString holds at most 1023 bytes. A text of at most kMetadataPartBytes (1000) bytes is
//   one AI_AISTRING entry under its key. A longer one is
//       key            AI_UINT64    the text's length in bytes
//       key#0, key#1…  AI_AISTRING  the text, in order, in parts of at most 1000 bytes (never cut inside a
//                                    UTF-8 sequence), directly after `key`
//   so a reader that asks for a string under `key` never mistakes a part for the whole value. '#' is
//   reserved in keys for these parts.
// * Binary data ("blobs") is standard padded base64 (RFC 4648) text, stored as above.
// * Text is valid UTF-8 without NUL: invalid sequences and NULs become U+FFFD (lossless carriers of raw
//   bytes are blobs).
//
// Memory: every entry costs two fixed 1,028-byte aiStrings (key and value) whatever their length, so gamefmt
// keeps per-node metadata small and carries bulk data (a Roblox file's instances) once, in scene metadata.
#pragma once

// assimp/metadata.h is not self-contained in 5.2.x: types.h (aiString, aiVector3D) and <climits> first.
#include <climits>
#include <cstring>

#include <assimp/types.h>

#include <assimp/metadata.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct aiScene;

namespace gamefmt {

// The largest text stored in one aiString part.
inline constexpr std::size_t kMetadataPartBytes = 1000;

// Animated textures on a material (Redguard's animated bank images, docs/formats/redguard-world.md §3): every frame
// an embedded texture, listed as "*a,*b,…" (frame 0, the material's own texture, first), with the count, the
// stored delay (ms, int) and the engine's time per frame (ms, float). gamefmt's glTF writer copies them into the
// material's extras ("rg.anim.frames" as glTF texture indices).
inline constexpr const char *kMatAnimFrames = "$rg.anim.frames";
inline constexpr const char *kMatAnimCount = "$rg.anim.count";
inline constexpr const char *kMatAnimDelayMs = "$rg.anim.delay_ms";
inline constexpr const char *kMatAnimFrameMs = "$rg.anim.frame_ms";

// Collects typed entries in order, then builds an aiMetadata of exactly that many entries.
class MetadataBuilder {
public:
    void add(std::string_view key, bool value);
    void add(std::string_view key, std::int32_t value);
    void add(std::string_view key, std::uint64_t value);
    void add(std::string_view key, float value);
    void add(std::string_view key, double value);
    void add(std::string_view key, const aiVector3D &value);
    // A text of any length: one AI_AISTRING entry, or the long form above.
    void add(std::string_view key, std::string_view text);
    void add(std::string_view key, const char *text) { add(key, std::string_view(text)); }
    // Bytes as base64 text (one entry up to 750 bytes, the long form beyond).
    void addBlob(std::string_view key, const std::uint8_t *data, std::size_t size);
    void addBlob(std::string_view key, const std::vector<std::uint8_t> &bytes) {
        addBlob(key, bytes.data(), bytes.size());
    }

    bool empty() const { return mEntries.empty(); }
    std::size_t size() const { return mEntries.size(); } // aiMetadata entries, parts included
    // A new aiMetadata the caller owns (Assimp does, once it is set on a scene or node); null when empty.
    aiMetadata *build() const;
    // Appends the entries to `target` (creating it when null); the existing entries keep their order.
    void mergeInto(aiMetadata *&target) const;

private:
    struct Entry {
        std::string key;
        aiMetadataType type = AI_BOOL;
        std::uint64_t bits = 0; // bool, int32, uint64, float and double values, bit for bit
        std::string text;
        aiVector3D vector;
    };
    void addEntry(std::string_view key, aiMetadataType type, std::uint64_t bits);
    static void Fill(aiMetadata &md, unsigned index, const Entry &entry);
    std::vector<Entry> mEntries;
};

// The text under `key`: a plain AI_AISTRING or the long form joined. False (and `out` untouched) when the
// key is absent, holds another type, or its parts are missing or do not add up to the stated length.
bool GetMetadataText(const aiMetadata *md, std::string_view key, std::string &out);

// The bytes of a blob under `key`. False when absent or malformed (see GetMetadataText; bad base64).
bool GetMetadataBlob(const aiMetadata *md, std::string_view key, std::vector<std::uint8_t> &out);

// An integer stored as AI_INT32 or AI_UINT64 (UINT64 above INT64_MAX saturates); nullopt when absent or of
// another type. A long text's length entry is not an integer value: nullopt.
std::optional<std::int64_t> GetMetadataInt(const aiMetadata *md, std::string_view key);

// One logical entry of an aiMetadata.
struct MetadataValue {
    std::string_view key;
    const aiMetadataEntry *entry = nullptr; // the entry itself (for a long text: its AI_UINT64 length)
    bool isText = false;                    // an AI_AISTRING or a joined long text
    std::string_view text;                  // the whole text when isText
    unsigned parts = 0;                     // how many part entries a long text had (0: a plain entry)
};

// Calls fn once per logical entry in order: long texts joined (their part entries are not visited on their
// own), every other entry as it is (nested AI_AIMETADATA from other importers included). Malformed long
// forms are passed entry by entry, as stored.
void ForEachMetadata(const aiMetadata &md, const std::function<void(const MetadataValue &)> &fn);

// Replaces every nested block (AI_AIMETADATA) in the metadata of `scene` and its nodes by flat entries with dotted
// keys: Assimp's glTF importer turns node extensions into nested blocks ({"KHR_lights_punctual": {"light": 0}}
// becomes extensions.KHR_lights_punctual.light = 0), and Assimp 5.2.5's SceneCombiner::Copy, the first thing
// Exporter::Export does, aborts on them (an assertion in Debian's build): call this on a scene before exporting
// it. Blocks deeper than 32 levels and keys longer than 1000 bytes are dropped. Returns the number of blocks
// flattened (0: the scene is left untouched).
std::size_t FlattenNestedMetadata(aiScene &scene);

} // namespace gamefmt
