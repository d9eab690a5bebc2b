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

# A static Assimp (the MinGW prefix of scripts/windows-deps) names its minizip by its bare name: give that name
# a target so it is found wherever the prefix is (an unpacked gamefmt zip too).
if(WIN32 AND NOT TARGET minizip)
    find_library(GAMEFMT_MINIZIP_LIBRARY NAMES minizip)
    if(GAMEFMT_MINIZIP_LIBRARY)
        add_library(minizip STATIC IMPORTED GLOBAL)
        set_target_properties(minizip PROPERTIES IMPORTED_LOCATION ${GAMEFMT_MINIZIP_LIBRARY})
    endif()
endif()

find_dependency(ZLIB)
# ... and zlib by its bare name "z" too.
if(WIN32 AND NOT TARGET z AND TARGET ZLIB::ZLIB)
    add_library(z INTERFACE IMPORTED GLOBAL)
    set_target_properties(z PROPERTIES INTERFACE_LINK_LIBRARIES ZLIB::ZLIB)
endif()
find_dependency(pugixml CONFIG)
# The static Windows Assimp uses the prefix's pugixml instead of its inline copy (scripts/windows-deps): it links it.
if(WIN32 AND TARGET pugixml::pugixml)
    get_target_property(_gamefmt_assimp_type assimp::assimp TYPE)
    if(_gamefmt_assimp_type STREQUAL "STATIC_LIBRARY")
        set_property(TARGET assimp::assimp APPEND PROPERTY INTERFACE_LINK_LIBRARIES pugixml::pugixml)
    endif()
endif()
find_dependency(zstd CONFIG)
find_dependency(draco CONFIG)
find_dependency(meshoptimizer CONFIG)
find_dependency(Qhull CONFIG)
find_dependency(PNG)
# lz4: Debian builds it with make (pkg-config only); its CMake build (the MinGW prefix) installs a package.
find_package(lz4 CONFIG QUIET)
if(TARGET LZ4::lz4_static)
    set(_gamefmt_lz4 LZ4::lz4_static)
elseif(TARGET LZ4::lz4_shared)
    set(_gamefmt_lz4 LZ4::lz4_shared)
else()
    find_dependency(PkgConfig)
    pkg_check_modules(GAMEFMT_LZ4 REQUIRED IMPORTED_TARGET GLOBAL liblz4)
    set(_gamefmt_lz4 PkgConfig::GAMEFMT_LZ4)
endif()

if(TARGET zstd::libzstd_shared)
    set(_gamefmt_zstd zstd::libzstd_shared)
else()
    set(_gamefmt_zstd zstd::libzstd_static)
endif()
# Debian ships Qhull shared; the MinGW prefix (scripts/windows-deps) has only the static library.
if(TARGET Qhull::qhull_r)
    set(_gamefmt_qhull Qhull::qhull_r)
else()
    set(_gamefmt_qhull Qhull::qhullstatic_r)
endif()
if(TARGET draco::draco)
    set(_gamefmt_draco draco::draco)
else()
    set(_gamefmt_draco draco::draco_static)
endif()

set(GAMEFMT_CODEC_LIBS ${_gamefmt_lz4} ${_gamefmt_zstd} ZLIB::ZLIB pugixml::pugixml ${_gamefmt_draco}
    meshoptimizer::meshoptimizer ${_gamefmt_qhull} PNG::PNG)
