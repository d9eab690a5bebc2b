// libFuzzer target for the binary LLSD codec alone (docs/formats/sl-mesh.md §1): whatever parses must write back and
// parse again to an equal value (reals compare by bits, so NaN payloads must survive too).
#include "common/error.hpp"
#include "importers/sl_mesh/llsd.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace gamefmt::slmesh;
    LLSDParseResult first;
    try {
        first = ParseBinaryLLSD(data, size);
    } catch (const gamefmt::FormatError &) {
        return 0;
    }
    if (first.end > size) __builtin_trap();
    // Entry order is kept (sortKeys=false) so the bytes of a sorted input come back unchanged.
    const std::vector<std::uint8_t> written = WriteBinaryLLSD(first.value, false);
    LLSDParseResult second;
    try {
        second = ParseBinaryLLSD(written.data(), written.size());
    } catch (const gamefmt::FormatError &) {
        __builtin_trap(); // the writer produced something the reader rejects
    }
    if (second.end != written.size()) __builtin_trap();
    if (!(second.value == first.value)) __builtin_trap();
    // Re-writing the re-parsed value is byte-identical (the writer is deterministic).
    if (WriteBinaryLLSD(second.value, false) != written) __builtin_trap();
    // Sorted output is the same value too (map equality ignores entry order).
    const std::vector<std::uint8_t> sorted = WriteBinaryLLSD(first.value, true);
    if (sorted.size() != written.size()) __builtin_trap();
    try {
        if (!(ParseBinaryLLSD(sorted.data(), sorted.size()).value == first.value)) __builtin_trap();
    } catch (const gamefmt::FormatError &) {
        __builtin_trap();
    }
    (void)DescribeLLSD(first.value, 256);
    return 0;
}
