// The shape every gamefmt importer has, written once: Assimp's CanRead by content (the first bytes of the file
// through the IOSystem, handed to the format's detect()), GetInfo from the format's descriptor, and
// SetupProperties reading the limits every importer enforces (import_guard.hpp) before the format's own
// options. A format supplies its descriptor, detect(), readOptions() and InternReadFile.
#pragma once

#include "assimp_glue/common/import_guard.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/importerdesc.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::glue {

// A format's descriptor: author and maintainer "gamefmt", the file versions it reads (0 = any), the
// space-separated extensions. The strings must outlive the importer (literals).
inline aiImporterDesc DescribeFormat(const char *name, const char *comments, unsigned flags, const char *extensions,
                                     unsigned minMajor = 0, unsigned minMinor = 0, unsigned maxMajor = 0,
                                     unsigned maxMinor = 0) {
    return {name, "gamefmt", "gamefmt", comments, flags, minMajor, minMinor, maxMajor, maxMinor, extensions};
}

// A numeric option given either way: the CLI and `-o NAME=2` set an integer property for "2" and a float one for
// "2.5"; Assimp keeps the two kinds apart, so read the integer first, then the float, else `fallback`.
float NumberProperty(const Assimp::Importer *importer, const char *name, float fallback);

class FormatImporter : public Assimp::BaseImporter {
public:
    // `description` must outlive the importer (the formats' are static); `headBytes` is how much of the file
    // detect() needs to see.
    FormatImporter(const aiImporterDesc &description, std::size_t headBytes)
        : mDescription(description), mHeadBytes(headBytes) {}

    // By content only: the extension is not looked at and checkSig is ignored. Never throws (a missing file
    // or a null IOSystem reads as no bytes).
    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const final;
    const aiImporterDesc *GetInfo() const final { return &mDescription; }
    // The shared limits (GAMEFMT_MAX_NODE_DEPTH), then readOptions().
    void SetupProperties(const Assimp::Importer *importer) final;

protected:
    // Whether data[0..size) (at most headBytes, fewer for a short file) starts a file of this format.
    virtual bool detect(const std::uint8_t *data, std::size_t size) const = 0;
    // The format's own GAMEFMT_* import options (include/gamefmt/config.hpp).
    virtual void readOptions(const Assimp::Importer *importer) = 0;
    const ImportLimits &limits() const { return mLimits; }

private:
    const aiImporterDesc &mDescription;
    std::size_t mHeadBytes;
    ImportLimits mLimits;
};

} // namespace gamefmt::glue
