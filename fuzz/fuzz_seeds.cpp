// Writes the seed corpus of every fuzz target into OUTDIR/<target>/ from the fixture generators
// (tests/fixtures/fuzz_seed_fixtures.cpp), each file named by its content hash.
//   gamefmt_fuzz_seeds OUTDIR
#include "fixtures/fuzz_seed_fixtures.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

// FNV-1a 64 of the bytes as 16 hex digits: seed files are named by content, so two seeds never collide on a
// name and the same content is never stored twice.
std::string ContentName(const std::vector<std::uint8_t> &bytes, const std::string &originalName) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001B3ull;
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
    const std::size_t dot = originalName.find('.');
    return std::string(hex) + (dot == std::string::npos ? std::string() : originalName.substr(dot));
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: gamefmt_fuzz_seeds OUTDIR\n";
        return 2;
    }
    for (const auto &[target, files] : gamefmt::fixtures::FuzzSeedSets()) {
        const std::filesystem::path dir = std::filesystem::path(argv[1]) / target;
        std::filesystem::create_directories(dir);
        for (const gamefmt::fixtures::Fixture &f : files) {
            std::ofstream out(dir / ContentName(f.bytes, f.name), std::ios::binary);
            out.write(reinterpret_cast<const char *>(f.bytes.data()), static_cast<std::streamsize>(f.bytes.size()));
        }
    }
    return 0;
}
