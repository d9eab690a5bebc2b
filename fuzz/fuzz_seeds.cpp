// Writes the seed corpus of every fuzz target into OUTDIR/<target>/ from the fixture generators.
//   gamefmt_fuzz_seeds OUTDIR
#include "fixtures/fixtures.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: gamefmt_fuzz_seeds OUTDIR\n";
        return 2;
    }
    namespace fx = gamefmt::fixtures;
    const std::map<std::string, std::vector<fx::Fixture>> seeds = {
        {"roblox_mesh", {{"header_only.mesh", fx::RobloxMeshHeaderOnly()}}},
        {"roblox_model", {{"magic.rbxm", {'<', 'r', 'o', 'b', 'l', 'o', 'x', '!', 0x89, 0xFF, 0x0D, 0x0A, 0x1A, 0x0A}}}},
        {"roblox_model_xml", {{"empty.rbxmx", fx::Bytes{'<', 'r', 'o', 'b', 'l', 'o', 'x', '>', '<', '/', 'r', 'o', 'b',
                                                        'l', 'o', 'x', '>'}}}},
        {"sl_mesh", {{"map.llmesh", fx::Bytes{0x7B, 0, 0, 0, 1, 0x6B, 0, 0, 0, 8, 'h', 'i', 'g', 'h', '_', 'l', 'o',
                                              'd', 0x69, 0, 0, 0, 0, 0x7D}}}},
        {"redguard", {{"header_only.3d", fx::RedguardHeaderOnly()}}},
    };
    for (const auto &[target, files] : seeds) {
        const std::filesystem::path dir = std::filesystem::path(argv[1]) / target;
        std::filesystem::create_directories(dir);
        for (const fx::Fixture &f : files) {
            std::ofstream out(dir / f.name, std::ios::binary);
            out.write(reinterpret_cast<const char *>(f.bytes.data()), static_cast<std::streamsize>(f.bytes.size()));
        }
    }
    return 0;
}
