// An importer for a format gamefmt recognises but cannot read yet: it claims the format's extensions,
// accepts files by signature only, and fails with a clear "not implemented" error. Each format issue
// replaces its PendingImporter with the real one.
#pragma once

#include <assimp/BaseImporter.h>
#include <assimp/importerdesc.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::glue {

class PendingImporter : public Assimp::BaseImporter {
public:
    using Detector = bool (*)(const std::uint8_t *data, std::size_t size);

    PendingImporter(const aiImporterDesc *desc, const char *formatName, const char *expected, Detector detect,
                    std::size_t headBytes)
        : mDesc(desc), mFormatName(formatName), mExpected(expected), mDetect(detect), mHeadBytes(headBytes) {}

    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const override;
    const aiImporterDesc *GetInfo() const override { return mDesc; }

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;

private:
    const aiImporterDesc *mDesc;
    const char *mFormatName;
    const char *mExpected;
    Detector mDetect;
    std::size_t mHeadBytes;
};

} // namespace gamefmt::glue
