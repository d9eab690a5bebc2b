# Finds every dependency gamefmt uses. Shared between our build and the installed package config, so a
# consumer of the static libraries finds the same targets. All of them are Debian packages
# (scripts/setup installs them).
include(CMakeFindDependencyMacro)

# Assimp: the config-version file of Debian's 5.2.5 says 5.2.4 and demands the same major version, so
# ask without a version and check it ourselves (5.x and 6.x must both work).
find_dependency(assimp CONFIG)
if(assimp_VERSION VERSION_LESS 5.2)
    message(FATAL_ERROR "gamefmt needs Assimp 5.2 or newer, found ${assimp_VERSION}")
endif()

find_dependency(ZLIB)
find_dependency(zstd CONFIG)
find_dependency(pugixml CONFIG)
find_dependency(draco CONFIG)
find_dependency(meshoptimizer CONFIG)
find_dependency(Qhull CONFIG)
find_dependency(PNG)
find_dependency(PkgConfig)
pkg_check_modules(GAMEFMT_LZ4 REQUIRED IMPORTED_TARGET GLOBAL liblz4)

if(TARGET zstd::libzstd_shared)
    set(_gamefmt_zstd zstd::libzstd_shared)
else()
    set(_gamefmt_zstd zstd::libzstd_static)
endif()
if(TARGET draco::draco)
    set(_gamefmt_draco draco::draco)
else()
    set(_gamefmt_draco draco::draco_static)
endif()

set(GAMEFMT_CODEC_LIBS PkgConfig::GAMEFMT_LZ4 ${_gamefmt_zstd} ZLIB::ZLIB pugixml::pugixml ${_gamefmt_draco}
    meshoptimizer::meshoptimizer Qhull::qhull_r PNG::PNG)
