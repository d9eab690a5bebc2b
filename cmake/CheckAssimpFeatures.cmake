# Configure checks against the Assimp we build with (docs/formats/assimp-integration.md §1):
#  - Debian's libassimp hides DeadlyErrorBase's constructor, so constructing DeadlyImportError or
#    DeadlyExportError fails to link. When the link test fails we compile a one-function shim.
#  - AI_INT64 metadata (5.3+) and aiTextureType_GLTF_METALLIC_ROUGHNESS (6.0+).
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES assimp::assimp)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles([[
#include <assimp/Exceptional.h>
int main(int argc, char **) {
    try { if (argc > 5) throw DeadlyExportError("x"); throw DeadlyImportError("y"); }
    catch (const std::exception &e) { return e.what()[0] == 'y' ? 0 : 1; }
}]] GAMEFMT_ASSIMP_LINKS_DEADLY_ERROR)
check_cxx_source_compiles([[
#include <assimp/metadata.h>
int main() { return static_cast<int>(AI_INT64); }]] GAMEFMT_ASSIMP_HAS_INT64_METADATA)
check_cxx_source_compiles([[
#include <assimp/material.h>
int main() { return static_cast<int>(aiTextureType_GLTF_METALLIC_ROUGHNESS); }]] GAMEFMT_ASSIMP_HAS_GLTF_MR_TEXTURE)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)

if(GAMEFMT_ASSIMP_LINKS_DEADLY_ERROR)
    set(GAMEFMT_NEED_DEADLY_ERROR_SHIM OFF)
else()
    set(GAMEFMT_NEED_DEADLY_ERROR_SHIM ON)
endif()
message(STATUS "gamefmt: Assimp ${assimp_VERSION}; DeadlyError shim: ${GAMEFMT_NEED_DEADLY_ERROR_SHIM}; "
    "AI_INT64: ${GAMEFMT_ASSIMP_HAS_INT64_METADATA}")
