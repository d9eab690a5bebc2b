#include "manifest.hpp"

#include "common/utf8_path.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iterator>

namespace gamefmt::cli {

namespace {

constexpr const char *kStatusTexts[] = {"ok", "error", "skipped"}; // indexed by ManifestStatus

} // namespace

const char *ManifestStatusText(ManifestStatus status) {
    const auto i = static_cast<std::size_t>(status);
    return i < std::size(kStatusTexts) ? kStatusTexts[i] : "error";
}

bool ParseManifestStatus(const std::string &text, ManifestStatus &out) {
    for (std::size_t i = 0; i < std::size(kStatusTexts); ++i)
        if (text == kStatusTexts[i]) return out = static_cast<ManifestStatus>(i), true;
    return false;
}

std::string ManifestLine(const ManifestEntry &entry) {
    nlohmann::ordered_json j;
    j["input"] = entry.input;
    j["size"] = entry.size;
    j["sha256"] = entry.sha256;
    j["status"] = ManifestStatusText(entry.status);
    j["error"] = entry.error;
    j["warnings"] = entry.warnings;
    j["outputs"] = entry.outputs;
    j["ms"] = entry.ms;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool ParseManifestLine(const std::string &line, ManifestEntry &entry) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return false;
    try {
        entry = ManifestEntry();
        entry.input = j.at("input").get<std::string>();
        entry.size = j.at("size").get<std::uint64_t>();
        entry.sha256 = j.at("sha256").get<std::string>();
        if (!ParseManifestStatus(j.at("status").get<std::string>(), entry.status)) return false;
        if (j.contains("error")) entry.error = j.at("error").get<std::string>();
        if (j.contains("warnings")) entry.warnings = j.at("warnings").get<std::uint64_t>();
        if (j.contains("outputs")) entry.outputs = j.at("outputs").get<std::vector<std::string>>();
        if (j.contains("ms")) entry.ms = j.at("ms").get<std::uint64_t>();
    } catch (const nlohmann::json::exception &) {
        return false;
    }
    return true;
}

bool ManifestWriter::open(const std::string &path, std::string &error) {
    // A last line cut by a killed run has no newline: start on a new line so the cut one does not swallow ours.
    bool endsInsideALine = false;
    {
        std::ifstream in(PathFromUtf8(path), std::ios::binary | std::ios::ate);
        if (in && in.tellg() > 0) {
            in.seekg(-1, std::ios::end);
            char last = '\n';
            endsInsideALine = in.get(last) && last != '\n';
        }
    }
    mOut.open(PathFromUtf8(path), std::ios::binary | std::ios::app);
    if (!mOut) {
        error = "cannot open the manifest '" + path + "' for appending";
        return false;
    }
    if (endsInsideALine) mOut << '\n';
    return true;
}

void ManifestWriter::write(const ManifestEntry &entry) {
    const std::string line = ManifestLine(entry) + "\n";
    std::lock_guard<std::mutex> lock(mMutex);
    mOut.write(line.data(), static_cast<std::streamsize>(line.size()));
    mOut.flush(); // one line per input as it finishes: a killed run keeps every line it wrote
}

bool ManifestIndex::load(const std::string &path, std::string &error) {
    std::error_code ec;
    if (!std::filesystem::exists(PathFromUtf8(path), ec)) return true;
    std::ifstream in(PathFromUtf8(path), std::ios::binary);
    if (!in) {
        error = "cannot read the manifest '" + path + "'";
        return false;
    }
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        ManifestEntry entry;
        if (!ParseManifestLine(line, entry)) {
            ++mBadLines;
            continue;
        }
        std::string key = entry.input;
        mEntries[std::move(key)] = std::move(entry); // the last line of an input wins
    }
    return true;
}

const ManifestEntry *ManifestIndex::find(const std::string &input) const {
    const auto it = mEntries.find(input);
    return it == mEntries.end() ? nullptr : &it->second;
}

} // namespace gamefmt::cli
