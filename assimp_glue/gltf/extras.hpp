// Assimp metadata as glTF `extras` JSON: what Blender shows as custom properties and Godot 4 keeps as node
// metadata. gamefmt's metadata codec is decoded (long texts joined, Roblox `rbx.props.<name>` values typed);
// blobs (binary data our exporters keep for byte-exact round trips, e.g. `rbx.source`) are left out.
#pragma once

#include <string>

struct aiMetadata;

namespace gamefmt::glue {

// The JSON object of `md` ("{...}"), or "" when it has no entry worth writing. Keys appear once (the first
// entry of a key wins), in the metadata's order; non-finite numbers become null; nested metadata (other
// importers') becomes nested objects, at most 16 levels deep.
// Scene entries "anim.<a>.<key>" (docs/metadata.md) belong to aiAnimation a: left out of this, written by
// AnimationExtrasJson.
std::string MetadataExtrasJson(const aiMetadata &md);

// The extras of aiAnimation `animation`: the scene's "anim.<animation>.<key>" entries as {"<key>": value}; the
// importer's JSON lists (rbx.markers, rbx.unboundTracks) as JSON. "" when there are none.
std::string AnimationExtrasJson(const aiMetadata &sceneMetadata, unsigned animation);

// A Roblox property as `rbx.props.<name>` stores it ("<Type>:<text>") turned into JSON: Bool → true/false;
// numbers, enums and BrickColor → a number; vectors, colours, CFrames, UDims, ranges and rects → an array of
// numbers; everything else (strings, content, references, NaN/INF values) → the text after the type.
std::string RobloxPropertyJson(const std::string &stored);

// True for the keys whose values are blobs in gamefmt's metadata codec (left out of extras).
bool IsBlobMetadataKey(const std::string &key);

} // namespace gamefmt::glue
