// The built-in importers behind ours, with one combined error when neither reads the file.
#include "assimp_glue/common/fallback_importer.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "common/error.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <stdexcept>
#include <utility>
#include <vector>

namespace gamefmt::glue {
namespace {

// Moves every part of `from` into `to` (a fresh scene from BaseImporter::ReadFile).
void MoveScene(aiScene &from, aiScene &to) {
    std::swap(from.mFlags, to.mFlags);
    std::swap(from.mRootNode, to.mRootNode);
    std::swap(from.mNumMeshes, to.mNumMeshes);
    std::swap(from.mMeshes, to.mMeshes);
    std::swap(from.mNumMaterials, to.mNumMaterials);
    std::swap(from.mMaterials, to.mMaterials);
    std::swap(from.mNumAnimations, to.mNumAnimations);
    std::swap(from.mAnimations, to.mAnimations);
    std::swap(from.mNumTextures, to.mNumTextures);
    std::swap(from.mTextures, to.mTextures);
    std::swap(from.mNumLights, to.mNumLights);
    std::swap(from.mLights, to.mLights);
    std::swap(from.mNumCameras, to.mNumCameras);
    std::swap(from.mCameras, to.mCameras);
    std::swap(from.mMetaData, to.mMetaData);
    std::swap(from.mName, to.mName);
}

} // namespace

FallbackImporter::FallbackImporter(Assimp::BaseImporter *builtin, const char *ours, Mismatch mismatch,
                                   const char *theirs)
    : mBuiltin(builtin), mOurs(ours), mMismatch(mismatch), mTheirs(theirs) {}

bool FallbackImporter::CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const {
    return mBuiltin->CanRead(file, io, checkSig);
}

const aiImporterDesc *FallbackImporter::GetInfo() const {
    return mBuiltin->GetInfo();
}

void FallbackImporter::SetupProperties(const Assimp::Importer *importer) {
    mImporter = importer;
    mBuiltin->SetupProperties(importer);
}

void FallbackImporter::InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) {
    // ReadFile is the built-in's public entry (InternReadFile is protected); it never throws. It wraps the
    // IOSystem in its own FileSystemFilter, so it gets the Importer's, not the one already filtered for us.
    auto *importer = const_cast<Assimp::Importer *>(mImporter);
    Assimp::IOSystem *own = importer != nullptr ? importer->GetIOHandler() : io;
    std::unique_ptr<aiScene> read(mBuiltin->ReadFile(importer, file, own != nullptr ? own : io));
    if (read != nullptr) {
        MoveScene(*read, *scene);
        return;
    }
    const std::vector<std::uint8_t> head = ReadHead(io, file, 64);
    std::string ourReason = mMismatch(head.data(), head.size());
    if (ourReason.empty()) ourReason = "its reader declined the file";
    const std::string theirReason = mBuiltin->GetErrorText();
    throw std::runtime_error(std::string("not ") + mOurs + ": " + ourReason + "; not " + mTheirs + ": " +
                             (theirReason.empty() ? std::string("no reason given") : QuoteText(theirReason, 200)));
}

} // namespace gamefmt::glue
