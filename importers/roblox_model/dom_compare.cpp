// Placeholder until the implementation lands.
#include "importers/roblox_model/dom.hpp"

namespace gamefmt::rbx {
std::string CompareDocuments(const Document &, const Document &, const CompareOptions &) {
    return "CompareDocuments is not implemented yet";
}
} // namespace gamefmt::rbx
