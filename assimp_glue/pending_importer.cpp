// An importer for a recognised but not yet readable format.
#include "pending_importer.hpp"

#include "common/error.hpp"
#include "io_util.hpp"

namespace gamefmt::glue {

bool PendingImporter::CanRead(const std::string &file, Assimp::IOSystem *io, bool /*checkSig*/) const {
    const std::vector<std::uint8_t> head = ReadHead(io, file, mHeadBytes);
    return mDetect(head.data(), head.size());
}

void PendingImporter::InternReadFile(const std::string &file, aiScene * /*scene*/, Assimp::IOSystem *io) {
    // Assimp skips CanRead when only one importer claims the extension, so check the signature again.
    const std::vector<std::uint8_t> head = ReadHead(io, file, mHeadBytes);
    if (!mDetect(head.data(), head.size()))
        throw FormatError(mFormatName, std::string("not a ") + mFormatName + " file: expected " + mExpected, 0);
    throw FormatError(mFormatName, std::string("reading ") + mFormatName +
                                       " files is not implemented yet in this gamefmt build "
                                       "(the README's format table shows what each version reads)");
}

} // namespace gamefmt::glue
