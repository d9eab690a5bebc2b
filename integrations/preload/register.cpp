// The registration half of libgamefmt_preload.so (hooks.cpp calls it after the real constructor ran).
#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>

extern "C" __attribute__((visibility("default"))) void GamefmtPreloadRegisterImporter(void *importer) {
    gamefmt::RegisterImporters(*static_cast<Assimp::Importer *>(importer));
}

extern "C" __attribute__((visibility("default"))) void GamefmtPreloadRegisterExporter(void *exporter) {
    gamefmt::RegisterExporters(*static_cast<Assimp::Exporter *>(exporter));
}
