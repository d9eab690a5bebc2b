// The inputs of `gamefmt convert`, streamed (docs/batch.md): files named on the command line, directories walked
// recursively, and `--from-list FILE` (one path per line, `-` for standard input), filtered by --include/--exclude
// globs and by --shard K/N. Nothing is read ahead: a list of a million paths is held one line at a time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::cli {

// A glob over '/'-separated paths, ASCII case-insensitive: `*` any run of characters but '/', `**` any run including
// '/', `?` one character but '/', `[abc]` / `[a-z]` / `[!a-z]` one of a set. A pattern without '/' is matched
// against the file name alone, one with '/' against the whole path (relative to the walked directory).
bool GlobMatch(std::string_view pattern, std::string_view path);

// The shard of a path: FNV-1a (64-bit) of its bytes with '\' read as '/', so every machine and every run agrees.
std::uint64_t ShardHash(std::string_view path);

// "K/N" with 0 <= K < N <= 1,000,000.
bool ParseShard(const std::string &text, std::uint32_t &index, std::uint32_t &count);

struct BatchInput {
    std::string path;     // as given or found (UTF-8), what the manifest and the messages name
    std::string relative; // for a file found by walking a directory: its path below that directory ('/'), else ""
};

struct InputOptions {
    std::vector<std::string> arguments; // files and directories
    std::string fromList;               // "" none, "-" standard input, else a file of paths
    std::vector<std::string> include, exclude;
    std::uint32_t shardIndex = 0, shardCount = 1;
    // Whether a walked file is wanted when no --include is given (gamefmt: an extension some importer claims).
    std::function<bool(const std::string &extension)> defaultFilter;
};

class InputStream {
public:
    // `listStream` replaces the file --from-list names (tests; "-" reads std::cin otherwise).
    explicit InputStream(InputOptions options, std::istream *listStream = nullptr);
    ~InputStream();
    InputStream(const InputStream &) = delete;
    InputStream &operator=(const InputStream &) = delete;

    // Opens the list file; false with `error` when it cannot be read.
    bool open(std::string &error);
    // What next() found: an input of this shard; a problem to report (a directory that cannot be walked any further,
    // with its path; a file that is not there), after which the caller asks again; or the end.
    struct Next {
        enum class Kind : std::uint8_t { Input, Problem, End };
        Kind kind = Kind::End;
        BatchInput input;
        std::string problem;
    };
    // Thread-safe.
    Next next();
    // Whether every input is a file argument (then count() is the number of inputs before sharding and filtering).
    bool countKnown() const;
    std::size_t count() const { return mOptions.arguments.size(); }

private:
    std::optional<BatchInput> pull(std::string &problem); // nullopt: a problem when `problem` is set, else the end
    bool wanted(const BatchInput &input) const;
    bool fromDirectory(std::string &problem, BatchInput &out);
    std::optional<BatchInput> fromPath(const std::string &path, std::string &problem);

    InputOptions mOptions;
    std::mutex mMutex;
    std::size_t mNextArgument = 0;
    bool mListDone = false;
    bool mListStarted = false; // its first line was read (a UTF-8 byte order mark is dropped there)
    std::istream *mList = nullptr;
    std::unique_ptr<std::istream> mOwnedList;
    // The directory being walked.
    std::optional<std::filesystem::recursive_directory_iterator> mWalk;
    std::filesystem::path mWalkRoot;
    std::string mWalkRootText;
};

} // namespace gamefmt::cli
