// The batch manifest of `gamefmt convert --manifest FILE.jsonl` (docs/batch.md): one JSON object per line and input,
// appended and flushed as each input finishes, so a killed run keeps every line it finished; `--resume` reads it back.
#pragma once

#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gamefmt::cli {

// What became of one input: "ok", "error", or "skipped" (the output existed: no --force).
enum class ManifestStatus : std::uint8_t { Ok, Error, Skipped };
const char *ManifestStatusText(ManifestStatus status);
// false for a text that is none of the three (a line from another program).
bool ParseManifestStatus(const std::string &text, ManifestStatus &out);

struct ManifestEntry {
    std::string input;
    std::uint64_t size = 0;
    std::string sha256; // 64 lowercase hex digits
    ManifestStatus status = ManifestStatus::Ok;
    std::string error; // the reason, for "error" and "skipped"
    std::uint64_t warnings = 0;
    std::vector<std::string> outputs; // every file written (sidecars too), final names
    std::uint64_t ms = 0;             // wall-clock milliseconds for this input
};

// One line of JSON (no newline):
// {"input":…,"size":…,"sha256":…,"status":…,"error":…,"warnings":…,"outputs":[…],"ms":…}. Bytes that are not UTF-8
// become U+FFFD.
std::string ManifestLine(const ManifestEntry &entry);
// False for a line that is not such an object (a line cut short by a kill, a foreign line).
bool ParseManifestLine(const std::string &line, ManifestEntry &entry);

// Appends lines to the manifest file, one flush per line. Thread-safe.
class ManifestWriter {
public:
    bool open(const std::string &path, std::string &error);
    bool isOpen() const { return mOut.is_open(); }
    void write(const ManifestEntry &entry);

private:
    std::mutex mMutex;
    std::ofstream mOut;
};

// The last line of each input in a manifest (what --resume trusts). Unparsable lines are counted, not fatal.
class ManifestIndex {
public:
    // False with `error` when the file exists but cannot be read; a missing file is an empty index.
    bool load(const std::string &path, std::string &error);
    const ManifestEntry *find(const std::string &input) const;
    std::size_t size() const { return mEntries.size(); }
    std::size_t badLines() const { return mBadLines; }

private:
    std::unordered_map<std::string, ManifestEntry> mEntries;
    std::size_t mBadLines = 0;
};

} // namespace gamefmt::cli
