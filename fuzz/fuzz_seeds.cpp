// Writes the seed corpus of every fuzz target into OUTDIR/<target>/ from the fixture generators
// (tests/fixtures/fuzz_seed_fixtures.cpp), each file named by its content hash.
//   gamefmt_fuzz_seeds OUTDIR [CORPUS]   (CORPUS: ../shared/corpus, for roblox_place's real places)
#include "fixtures/fuzz_seed_fixtures.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
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

void WriteSeed(const std::filesystem::path &dir, const gamefmt::fixtures::Fixture &f) {
    std::ofstream out(dir / ContentName(f.bytes, f.name), std::ios::binary);
    out.write(reinterpret_cast<const char *>(f.bytes.data()), static_cast<std::streamsize>(f.bytes.size()));
}

// roblox_place from the real corpus: every binary place and model under CORPUS/rbx re-written with raw chunks, so
// that mutations reach property values (the compressed originals only give the fuzzer LZ4 streams to break); those
// that are over the target's 1 MiB inputs once raw go in as they are, when they fit.
void CorpusPlaceSeeds(const std::filesystem::path &corpus, const std::filesystem::path &dir) {
    namespace fs = std::filesystem;
    constexpr std::size_t kMaxSeed = std::size_t(1) << 20;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(corpus / "rbx", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string ext = it->path().extension().string();
        if (!it->is_regular_file() || (ext != ".rbxl" && ext != ".rbxm")) continue;
        std::ifstream in(it->path(), std::ios::binary);
        const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        try {
            const gamefmt::rbx::Document doc = gamefmt::rbx::ReadBinary(bytes.data(), bytes.size());
            std::vector<std::uint8_t> raw = gamefmt::rbx::WriteBinary(doc, {gamefmt::rbx::Compression::None, nullptr});
            if (raw.size() <= kMaxSeed)
                WriteSeed(dir, {"raw" + ext, std::move(raw)});
            else if (bytes.size() <= kMaxSeed)
                WriteSeed(dir, {"packed" + ext, bytes});
        } catch (const std::exception &) {
            // not a binary file the reader takes (XML, hostile test cases): not a seed for this target
        }
    }
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        std::cerr << "usage: gamefmt_fuzz_seeds OUTDIR [CORPUS]\n";
        return 2;
    }
    for (const auto &[target, files] : gamefmt::fixtures::FuzzSeedSets()) {
        const std::filesystem::path dir = std::filesystem::path(argv[1]) / target;
        std::filesystem::create_directories(dir);
        for (const gamefmt::fixtures::Fixture &f : files) WriteSeed(dir, f);
    }
    if (argc == 3) CorpusPlaceSeeds(argv[2], std::filesystem::path(argv[1]) / "roblox_place");
    return 0;
}
