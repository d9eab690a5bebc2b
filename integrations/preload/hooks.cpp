// libgamefmt_preload.so: gamefmt's formats in every Assimp program, unmodified (docs/use-with/assimp.md;
// docs/formats/assimp-integration.md §2). With LD_PRELOAD it interposes the constructors of
// Assimp::Importer and Assimp::Exporter (complete- and base-object symbols of libassimp.so.5), calls the real
// ones and then registers gamefmt's importers / exporters (idempotent: programs that register too are fine).
// This file must not include Assimp's headers: it defines functions under the constructors' mangled names.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

extern "C" void GamefmtPreloadRegisterImporter(void *importer);
extern "C" void GamefmtPreloadRegisterExporter(void *exporter);

namespace {

using Constructor = void (*)(void *);

// The next definition of `name` (libassimp's), looked up once; a program without it cannot go on.
Constructor Next(const char *name) {
    void *found = dlsym(RTLD_NEXT, name);
    if (found == nullptr) {
        std::fprintf(stderr, "libgamefmt_preload: %s not found after this library (is libassimp.so.5 loaded?)\n", name);
        std::abort();
    }
    Constructor fn = nullptr;
    static_assert(sizeof fn == sizeof found, "function and object pointers have one size on this platform");
    __builtin_memcpy(&fn, &found, sizeof fn);
    return fn;
}

} // namespace

#define GAMEFMT_HOOK(symbol, registration)                                                                             \
    extern "C" __attribute__((visibility("default"))) void symbol(void *self) {                                        \
        static const Constructor real = Next(#symbol);                                                                 \
        real(self);                                                                                                    \
        registration(self);                                                                                            \
    }

GAMEFMT_HOOK(_ZN6Assimp8ImporterC1Ev, GamefmtPreloadRegisterImporter)
GAMEFMT_HOOK(_ZN6Assimp8ImporterC2Ev, GamefmtPreloadRegisterImporter)
GAMEFMT_HOOK(_ZN6Assimp8ExporterC1Ev, GamefmtPreloadRegisterExporter)
GAMEFMT_HOOK(_ZN6Assimp8ExporterC2Ev, GamefmtPreloadRegisterExporter)
