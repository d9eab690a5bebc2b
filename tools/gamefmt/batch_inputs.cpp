#include "batch_inputs.hpp"

#include "common/utf8_path.hpp"

#include <fstream>
#include <iostream>
#include <system_error>

namespace gamefmt::cli {
namespace {

namespace fs = std::filesystem;

char Lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

struct Token {
    enum Kind { Literal, Any, Star, DoubleStar, DoubleStarSlash, Set } kind = Literal;
    char c = 0;
    std::string set; // Set: characters and ranges "a-z" as triples
    bool negated = false;
};

std::vector<Token> Tokenize(std::string_view p) {
    std::vector<Token> out;
    for (std::size_t i = 0; i < p.size(); ++i) {
        Token t;
        if (p[i] == '*') {
            if (i + 1 < p.size() && p[i + 1] == '*') {
                ++i;
                t.kind = Token::DoubleStar;
                if (i + 1 < p.size() && p[i + 1] == '/') {
                    ++i;
                    t.kind = Token::DoubleStarSlash; // "**/": no directory or any number of them
                }
            } else {
                t.kind = Token::Star;
            }
        } else if (p[i] == '?') {
            t.kind = Token::Any;
        } else if (p[i] == '[' && p.find(']', i + 2) != std::string_view::npos) {
            std::size_t j = i + 1;
            t.kind = Token::Set;
            if (p[j] == '!' || p[j] == '^') {
                t.negated = true;
                ++j;
            }
            const std::size_t end = p.find(']', j + 1);
            for (std::size_t k = j; k < end; ++k) {
                if (k + 2 < end && p[k + 1] == '-') {
                    t.set += {Lower(p[k]), '-', Lower(p[k + 2])};
                    k += 2;
                } else {
                    t.set += {Lower(p[k]), '-', Lower(p[k])};
                }
            }
            i = end;
        } else {
            t.c = Lower(p[i]);
        }
        out.push_back(std::move(t));
    }
    return out;
}

bool InSet(const Token &t, char c) {
    bool in = false;
    for (std::size_t k = 0; k + 3 <= t.set.size(); k += 3) // (lo, '-', hi) triples
        in = in || (c >= t.set[k] && c <= t.set[k + 2]);
    return in != t.negated;
}

bool MatchTokens(const std::vector<Token> &tokens, std::string_view s) {
    // prev[j]: the tokens so far match s[0, j).
    std::vector<char> prev(s.size() + 1, 0), cur(s.size() + 1, 0);
    prev[0] = 1;
    for (const Token &t : tokens) {
        bool seen = false; // DoubleStarSlash: some prev[k] with k < j
        for (std::size_t j = 0; j <= s.size(); ++j) {
            const char c = j > 0 ? Lower(s[j - 1]) : 0;
            bool m = false;
            switch (t.kind) {
            case Token::Literal:
                m = j > 0 && prev[j - 1] && c == t.c;
                break;
            case Token::Any:
                m = j > 0 && prev[j - 1] && c != '/';
                break;
            case Token::Set:
                m = j > 0 && prev[j - 1] && c != '/' && InSet(t, c);
                break;
            case Token::Star:
                m = prev[j] || (j > 0 && cur[j - 1] && c != '/');
                break;
            case Token::DoubleStar:
                m = prev[j] || (j > 0 && cur[j - 1]);
                break;
            case Token::DoubleStarSlash:
                m = prev[j] || (j > 0 && c == '/' && seen);
                break;
            }
            if (t.kind == Token::DoubleStarSlash && prev[j]) seen = true;
            cur[j] = m ? 1 : 0;
        }
        prev.swap(cur);
    }
    return prev[s.size()] != 0;
}

std::string Generic(std::string text) {
    for (char &c : text)
        if (c == '\\') c = '/';
    return text;
}

} // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
    const std::string p = Generic(std::string(pattern)), s = Generic(std::string(path));
    if (p.find('/') == std::string::npos) {
        const std::size_t slash = s.rfind('/');
        return MatchTokens(Tokenize(p),
                           slash == std::string::npos ? std::string_view(s) : std::string_view(s).substr(slash + 1));
    }
    return MatchTokens(Tokenize(p), s);
}

std::uint64_t ShardHash(std::string_view path) {
    std::uint64_t h = 14695981039346656037ull;
    for (char c : path) {
        h ^= static_cast<std::uint8_t>(c == '\\' ? '/' : c);
        h *= 1099511628211ull;
    }
    return h;
}

bool ParseShard(const std::string &text, std::uint32_t &index, std::uint32_t &count) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 >= text.size()) return false;
    unsigned long long k = 0, n = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i == slash) continue;
        if (text[i] < '0' || text[i] > '9') return false;
        unsigned long long &v = i < slash ? k : n;
        v = v * 10 + static_cast<unsigned>(text[i] - '0');
        if (v > 1000000) return false;
    }
    if (n == 0 || k >= n) return false;
    index = static_cast<std::uint32_t>(k);
    count = static_cast<std::uint32_t>(n);
    return true;
}

InputStream::InputStream(InputOptions options, std::istream *listStream)
    : mOptions(std::move(options)), mList(listStream) {}

InputStream::~InputStream() = default;

bool InputStream::open(std::string &error) {
    if (mOptions.fromList.empty() || mList != nullptr) return true;
    if (mOptions.fromList == "-") {
        mList = &std::cin;
        return true;
    }
    auto file = std::make_unique<std::ifstream>(PathFromUtf8(mOptions.fromList), std::ios::binary);
    if (!*file) {
        error = "cannot read the list '" + mOptions.fromList + "'";
        return false;
    }
    mOwnedList = std::move(file);
    mList = mOwnedList.get();
    return true;
}

bool InputStream::countKnown() const {
    if (!mOptions.fromList.empty()) return false;
    for (const std::string &a : mOptions.arguments) {
        std::error_code ec;
        if (fs::is_directory(PathFromUtf8(a), ec)) return false;
    }
    return true;
}

bool InputStream::wanted(const BatchInput &input) const {
    const std::string &matched = input.relative.empty() ? input.path : input.relative;
    if (!mOptions.include.empty()) {
        bool any = false;
        for (const std::string &p : mOptions.include) any = any || GlobMatch(p, matched);
        if (!any) return false;
    } else if (!input.relative.empty() && mOptions.defaultFilter) {
        const fs::path ext = PathFromUtf8(input.relative).extension();
        const std::string e = ext.empty() ? std::string() : PathToUtf8(ext).substr(1);
        if (!mOptions.defaultFilter(e)) return false;
    }
    for (const std::string &p : mOptions.exclude)
        if (GlobMatch(p, matched)) return false;
    return true;
}

// The next wanted file of the directory being walked; false when the walk is over.
bool InputStream::fromDirectory(std::string &problem, BatchInput &out) {
    auto &walk = *mWalk;
    std::error_code ec;
    for (; walk != fs::recursive_directory_iterator(); walk.increment(ec)) {
        if (ec) break;
        std::error_code typeError;
        if (!walk->is_regular_file(typeError)) continue;
        BatchInput input;
        input.path = PathToUtf8(walk->path());
        input.relative = Generic(PathToUtf8(walk->path().lexically_relative(mWalkRoot)));
        if (mOptions.shardCount > 1 &&
            ShardHash(mWalkRootText + "/" + input.relative) % mOptions.shardCount != mOptions.shardIndex)
            continue;
        if (!wanted(input)) continue;
        out = std::move(input);
        walk.increment(ec);
        if (ec) {
            problem = "cannot walk '" + mWalkRootText + "' any further: " + ec.message();
            mWalk.reset();
        }
        return true;
    }
    if (ec) problem = "cannot walk '" + mWalkRootText + "' any further: " + ec.message();
    mWalk.reset();
    return false;
}

std::optional<BatchInput> InputStream::fromPath(const std::string &path, std::string &problem) {
    const fs::path p = PathFromUtf8(path);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        mWalk.emplace(p, fs::directory_options::skip_permission_denied, ec);
        if (ec) {
            problem = "cannot walk '" + path + "': " + ec.message();
            mWalk.reset();
            return std::nullopt;
        }
        mWalkRoot = p;
        mWalkRootText = Generic(path);
        while (!mWalkRootText.empty() && mWalkRootText.back() == '/') mWalkRootText.pop_back();
        return std::nullopt;
    }
    BatchInput input;
    input.path = path;
    if (mOptions.shardCount > 1 && ShardHash(path) % mOptions.shardCount != mOptions.shardIndex) return std::nullopt;
    return input;
}

InputStream::Next InputStream::next() {
    Next out;
    if (std::optional<BatchInput> input = pull(out.problem)) {
        out.kind = Next::Kind::Input;
        out.input = std::move(*input);
    } else {
        out.kind = out.problem.empty() ? Next::Kind::End : Next::Kind::Problem;
    }
    return out;
}

std::optional<BatchInput> InputStream::pull(std::string &problem) {
    std::lock_guard<std::mutex> lock(mMutex);
    while (true) {
        if (mWalk) {
            BatchInput input;
            if (fromDirectory(problem, input)) return input;
            if (!problem.empty()) return std::nullopt; // reported; the caller asks again
            continue;
        }
        if (mNextArgument < mOptions.arguments.size()) {
            // Files named on the command line are converted whatever the globs say.
            if (std::optional<BatchInput> input = fromPath(mOptions.arguments[mNextArgument++], problem)) return input;
            if (!problem.empty()) return std::nullopt;
            continue;
        }
        if (mList == nullptr || mListDone) return std::nullopt;
        std::string line;
        if (!std::getline(*mList, line)) {
            mListDone = true;
            return std::nullopt;
        }
        if (!mListStarted) {
            mListStarted = true;
            // Windows editors start UTF-8 text with a byte order mark; Windows PowerShell 5 writes `>` and Out-File
            // as UTF-16, which is not a list of UTF-8 paths: say so once and read no further.
            if (line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
            if (line.compare(0, 2, "\xFF\xFE") == 0 || line.compare(0, 2, "\xFE\xFF") == 0) {
                mListDone = true;
                problem = "the list '" + mOptions.fromList +
                          "' is UTF-16 text; write it as UTF-8, one path per line (PowerShell: "
                          "Out-File -Encoding utf8)";
                return std::nullopt;
            }
        }
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
        if (line.empty()) continue;
        if (std::optional<BatchInput> input = fromPath(line, problem)) {
            if (wanted(*input)) return input;
            continue;
        }
        if (!problem.empty()) return std::nullopt;
    }
}

} // namespace gamefmt::cli
