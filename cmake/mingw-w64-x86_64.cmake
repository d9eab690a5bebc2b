# Cross-compiling for 64-bit Windows with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix: the posix thread
# model, which std::thread and std::mutex need). Used for gamefmt itself and for every dependency that
# scripts/windows-deps builds from Debian's source packages, so all of them share one compiler and one runtime.
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake -DGAMEFMT_MINGW_PREFIX=<deps prefix> ...
# Programs and DLLs link the C++ runtime, libgcc and winpthread statically: gamefmt.exe and libgamefmt.dll
# need nothing beside them but Windows' own DLLs.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(GAMEFMT_MINGW_TRIPLET x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${GAMEFMT_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${GAMEFMT_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${GAMEFMT_MINGW_TRIPLET}-windres)

# The dependency prefix (scripts/windows-deps) and the MinGW sysroot (libz-mingw-w64-dev's zlib) are the only
# places libraries and packages are found; build programs come from the host.
if(NOT GAMEFMT_MINGW_PREFIX AND DEFINED ENV{GAMEFMT_MINGW_PREFIX})
    set(GAMEFMT_MINGW_PREFIX $ENV{GAMEFMT_MINGW_PREFIX})
endif()
set(GAMEFMT_MINGW_PREFIX "${GAMEFMT_MINGW_PREFIX}" CACHE PATH "Prefix holding the MinGW builds of gamefmt's dependencies")
# try_compile projects see the same settings.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES GAMEFMT_MINGW_PREFIX)
# A consumer's CMAKE_PREFIX_PATH (an unpacked gamefmt zip, say) is searched as a root too.
set(CMAKE_FIND_ROOT_PATH ${CMAKE_PREFIX_PATH} ${GAMEFMT_MINGW_PREFIX} /usr/${GAMEFMT_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config (lz4, minizip) reads only the prefix's .pc files, never the host's.
if(GAMEFMT_MINGW_PREFIX)
    set(ENV{PKG_CONFIG_LIBDIR} "${GAMEFMT_MINGW_PREFIX}/lib/pkgconfig")
    set(ENV{PKG_CONFIG_PATH} "")
endif()

# zlib: the static libz.a of libz-mingw-w64-dev, not its DLL.
set(ZLIB_USE_STATIC_LIBS ON)

# 64 MB of stack reserved (address space; pages are committed as used) for the main thread and, as winpthreads
# passes 0 ("the program's default"), every worker thread. Windows' default is 1 MB, and Assimp frees a node tree
# by recursion (aiNode::~aiNode): a 100,000-deep chain (gamefmt's depth cap raised) needs more than Linux's 8 MB
# there, as Windows' frames are larger.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -Wl,--stack,67108864")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")

# ctest and CMake run the Windows programs through Wine (scripts/wine-run).
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../scripts/wine-run)
