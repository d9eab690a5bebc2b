// FormatImporter: the Assimp overrides every gamefmt importer shares.
#include "assimp_glue/common/format_importer.hpp"

#include "assimp_glue/common/io_util.hpp"

#include <assimp/Importer.hpp>

#include <limits>
#include <vector>

namespace gamefmt::glue {

bool FormatImporter::CanRead(const std::string &file, Assimp::IOSystem *io, bool /*checkSig*/) const {
    // ReadHead never throws and returns nothing for a missing file or a null IOSystem.
    const std::vector<std::uint8_t> head = ReadHead(io, file, mHeadBytes);
    return detect(head.data(), head.size());
}

void FormatImporter::SetupProperties(const Assimp::Importer *importer) {
    mLimits = ReadImportLimits(importer);
    readOptions(importer);
}

float NumberProperty(const Assimp::Importer *importer, const char *name, float fallback) {
    constexpr int kUnset = std::numeric_limits<int>::min();
    const int integer = importer->GetPropertyInteger(name, kUnset);
    if (integer != kUnset) return static_cast<float>(integer);
    return importer->GetPropertyFloat(name, fallback);
}

} // namespace gamefmt::glue
