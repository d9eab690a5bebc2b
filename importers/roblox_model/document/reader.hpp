// Reading Roblox model and place files (binary or XML, sniffed by content) into the document model.
// Errors are FormatError ("Roblox model", problem, byte offset; for XML the offset of the element).
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace gamefmt::rbx {

struct ReadOptions {
    // Ceiling on the total decompressed bytes of one file, nested models included
    // (GAMEFMT_RBX_MAX_DECOMPRESSED, in bytes here).
    std::uint64_t maxDecompressed = std::uint64_t(1024) << 20;
    // Ceiling on the number of instances (GAMEFMT_RBX_MAX_INSTANCES): a file whose INST chunks (binary) or
    // <Item> elements (XML) add up to more is rejected before the instances are allocated. The binary
    // header's own count is only a hint and is not checked.
    std::size_t maxInstances = kDefaultMaxInstances;
    static constexpr std::size_t kDefaultMaxInstances = 1000000;
    // When set, only the properties whose serialized name it accepts are decoded (and Name, always); the
    // others are skipped without a trace, as if the file had none. For readers that need a few properties of
    // a big place (the scene builder keeps the file itself for everything else): a Studio part has ~50.
    std::function<bool(std::string_view)> keepProperty;
};

// Sniffs the encoding (detect.hpp) and reads either (binary_reader.hpp, xml_reader.hpp); throws for anything else.
Document ReadDocument(const std::uint8_t *data, std::size_t size, const ReadOptions &options = {});

} // namespace gamefmt::rbx
