// Downstream use of an installed gamefmt: register, then check that our formats are known.
#include <gamefmt/gamefmt.hpp>

#include <assimp/Importer.hpp>

#include <cstdio>

int main() {
    Assimp::Importer importer;
    const std::size_t added = gamefmt::RegisterImporters(importer);
    const bool known = importer.IsExtensionSupported(".rbxm") && importer.IsExtensionSupported(".llmesh");
    std::printf("gamefmt %s: %zu importers registered, rbxm/llmesh known: %s\n", gamefmt::Version(), added,
                known ? "yes" : "no");
    return added > 0 && known ? 0 : 1;
}
