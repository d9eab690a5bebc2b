// A test oracle: structural comparison of two Roblox documents, for the round-trip and conformance tests.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <string>

namespace gamefmt::rbx {

// Structural equality of two documents: same tree (by position, not referent strings), same class
// names, instance names and property values (floats bit-exact, NaN = NaN), shared strings compared by
// content. Properties are compared as sets by name. Returns an empty string when equal, else the
// first difference ("<path>: property X: A vs B").
struct CompareOptions {
    bool ignoreXmlTags = true;         // the XML spelling of a value
    bool ignoreReferentStrings = true; // referent text ("RBX…" vs decimal)
    bool ignoreUnknown = false;        // unknown-typed values and raw chunks/properties
    bool compareMeta = false;          // META / <Meta> entries (added by D; off: not part of the tree)
};
std::string CompareDocuments(const Document &a, const Document &b, const CompareOptions &options = {});

} // namespace gamefmt::rbx
