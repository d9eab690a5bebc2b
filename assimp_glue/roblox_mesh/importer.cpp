// The Roblox mesh importer: bytes through the IOSystem -> format model -> aiScene.
#include "assimp_glue/roblox_mesh/importer.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/roblox_mesh_scene.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_mesh/detect.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <assimp/Importer.hpp>

namespace gamefmt::glue {

const aiImporterDesc &RobloxMeshImporter::Description() {
    static const aiImporterDesc desc = DescribeFormat(
        "gamefmt Roblox mesh", "Roblox FileMesh .mesh 1.00-7.00: LODs, skinning, FACS (baked into morph targets)",
        aiImporterFlags_SupportTextFlavour | aiImporterFlags_SupportBinaryFlavour, "mesh", 1, 0, 7, 0);
    return desc;
}

RobloxMeshImporter::RobloxMeshImporter() : FormatImporter(Description(), rbxmesh::kSignatureBytes + 1) {}

bool RobloxMeshImporter::detect(const std::uint8_t *data, std::size_t size) const {
    return !rbxmesh::Detect(data, size).empty();
}

void RobloxMeshImporter::readOptions(const Assimp::Importer *importer) {
    mAllLods = importer->GetPropertyBool(GAMEFMT_RBXMESH_IMPORT_ALL_LODS, false);
    mBakeFacs = importer->GetPropertyBool(GAMEFMT_RBXMESH_BAKE_FACS, true);
}

void RobloxMeshImporter::InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) {
    // Assimp skips CanRead when ours is the only loader claiming the extension, so check again.
    const std::vector<std::uint8_t> bytes = ReadAll(io, file, rbxmesh::kFormatName);
    if (rbxmesh::Detect(bytes.data(), bytes.size()).empty())
        throw FormatError(rbxmesh::kFormatName, "not a Roblox mesh file: expected \"version X.YY\" (1.00 to 7.00)", 0);
    const rbxmesh::RobloxMesh mesh = rbxmesh::ReadRobloxMesh(bytes.data(), bytes.size());
    RobloxMeshSceneOptions options;
    options.allLods = mAllLods;
    options.bakeFacs = mBakeFacs;
    BuildRobloxMeshScene(mesh, options, scene);
    FinishImportedScene(scene, rbxmesh::kFormatName, limits());
}

} // namespace gamefmt::glue
