// The text form of one property value, "<Type>:<text>" (docs/formats/roblox-model.md §5.1), used for the rbx.props
// metadata bag, `gamefmt dump` and the exporter's way back from metadata to the document model.
//
// Format and parse are exact inverses for every value (NaN payloads aside: every NaN prints as NAN):
//   String           raw UTF-8; text with a NUL byte or invalid UTF-8 is written as type BinaryString
//   BinaryString     base64 (parses to a String value)
//   Bool             true | false
//   Int32 Int64 Enum BrickColor SecurityCapabilities Faces Axes   decimal (Faces/Axes: the bit mask)
//   Float32 Float64  shortest round-trip, INF -INF NAN
//   UDim             S O            UDim2   XS XO YS YO          Ray   ox oy oz dx dy dz
//   Color3 Vector3   3 numbers      Vector2 2 numbers            Vector2int16 / Vector3int16  integers
//   Color3uint8      r g b (0-255)  NumberRange  min max         Rect  minX minY maxX maxY
//   CFrame           X Y Z R00 R01 R02 R10 R11 R12 R20 R21 R22 (CFrameQuat: the same, its own type name)
//   OptionalCFrame   empty, or the 12 CFrame numbers
//   NumberSequence   t v e per keypoint, space-separated (empty text: no keypoints)
//   ColorSequence    t r g b e per keypoint
//   PhysicalProperties  "default" (flag 0), "default acoustic" (flag 2, new Studio's default),
//                    5 floats (flag 1) or 6 floats (flag 3: with AcousticAbsorption)
//   Ref              the target's referent text (ReferentText), or null
//   Content          none | uri <u> | object <referent or null>
//   SharedString Bytecode   base64 of the bytes
//   UniqueId         the XML form: 32 hex digits random(16) time(8) index(8), random = rotr64(binary, 1)
//   Font             weight style family [cachedFaceId]; style Normal | Italic (else its number); the
//                    two strings are percent-encoded (%XX for bytes <= 0x20, '%' and 0x7F) so they hold no
//                    space, and an empty family is written "-" (a family that is exactly "-" is "%2D");
//                    cachedFaceId is omitted when empty
//   Unknown          <binary type id, decimal> <XML tag or nothing> <base64 raw>
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gamefmt::rbx {

// The referent text Ref values print for instance `index`: its referent string, or "@<index>" when it
// has none (XML items may lack one), so every instance can be named.
std::string ReferentText(const Document &document, std::uint32_t index);

// "<Type>:<text>" for `value`, which belongs to `document` (shared strings and Ref targets resolve there).
std::string FormatValue(const Document &document, const Value &value);

// Maps a referent text to an instance index (kNoInstance when unknown).
using ReferentResolver = std::function<std::uint32_t(std::string_view)>;

// Parses texts made by FormatValue into values of a document being rebuilt: SharedString contents are
// added to document.sharedStrings once each. Throws FormatError ("Roblox model") on malformed text.
class ValueParser {
public:
    // Without a resolver, referents are looked up among document.instances by ReferentText (the
    // table is built on the first Ref, so add the instances first).
    explicit ValueParser(Document &document, ReferentResolver resolver = {});
    Value parse(std::string_view text);

private:
    std::uint32_t resolve(std::string_view referent);
    std::uint32_t addSharedString(std::string content);
    // Ref, SharedString, Content (the referent and shared-string tables), UniqueId, Font.
    void parseReference(Type type, std::string_view body, Value &value);

    Document &mDocument;
    ReferentResolver mResolver;
    std::unordered_map<std::string, std::uint32_t> mReferents;
    bool mReferentsBuilt = false;
    std::unordered_map<std::string, std::uint32_t> mShared;
};

// One-off parse (a fresh ValueParser).
Value ParseValue(std::string_view text, Document &document, ReferentResolver resolver = {});

// True when `bytes` is valid UTF-8 without NUL bytes (what String may hold as raw text).
bool IsPlainUtf8(std::string_view bytes) noexcept;

} // namespace gamefmt::rbx
