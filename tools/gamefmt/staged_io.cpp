#include "staged_io.hpp"

#include "common/utf8_path.hpp"

#include <assimp/IOStream.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>
#include <thread>

namespace gamefmt::cli {
namespace {

namespace fs = std::filesystem;

// The test hook GAMEFMT_TEST_HOLD_OUTPUT=N (tests/cli: a run killed in the middle of a file): the N-th file this
// process stages stops after its first write for two minutes, long enough to be killed there.
std::atomic<long> gStagedCount{0};

long HoldAt() {
    static const long at = [] {
        const char *v = std::getenv("GAMEFMT_TEST_HOLD_OUTPUT");
        return v != nullptr ? std::strtol(v, nullptr, 10) : 0L;
    }();
    return at;
}

class HoldingStream : public Assimp::IOStream {
public:
    explicit HoldingStream(Assimp::IOStream *inner) : mInner(inner) {}
    ~HoldingStream() override { delete mInner; }
    size_t Read(void *buffer, size_t size, size_t count) override { return mInner->Read(buffer, size, count); }
    size_t Write(const void *buffer, size_t size, size_t count) override {
        const size_t written = mInner->Write(buffer, size, count);
        mInner->Flush();
        std::this_thread::sleep_for(std::chrono::seconds(120));
        return written;
    }
    aiReturn Seek(size_t offset, aiOrigin origin) override { return mInner->Seek(offset, origin); }
    size_t Tell() const override { return mInner->Tell(); }
    size_t FileSize() const override { return mInner->FileSize(); }
    void Flush() override { mInner->Flush(); }

private:
    Assimp::IOStream *mInner;
};

bool Writes(const char *mode) {
    return mode != nullptr && (std::strchr(mode, 'w') != nullptr || std::strchr(mode, 'a') != nullptr);
}

} // namespace

Assimp::IOStream *StagedIOSystem::Open(const char *file, const char *mode) {
    if (file == nullptr || !Writes(mode)) return mDisk.Open(file, mode);
    const std::string target = file;
    std::string temporary = target + kPartialSuffix;
    bool known = false;
    for (const auto &[tmp, final] : mStaged) known = known || final == target;
    Assimp::IOStream *stream = mDisk.Open(temporary.c_str(), mode);
    if (stream == nullptr) return nullptr;
    if (!known) mStaged.emplace_back(std::move(temporary), target);
    if (HoldAt() > 0 && gStagedCount.fetch_add(1) + 1 == HoldAt()) return new HoldingStream(stream);
    return stream;
}

std::string ReplaceFile(const std::string &from, const std::string &to) {
    std::error_code ec;
    fs::rename(PathFromUtf8(from), PathFromUtf8(to), ec);
    if (ec && fs::exists(PathFromUtf8(to))) { // a rename that does not replace (Windows' MoveFile semantics)
        std::error_code removed;
        fs::remove(PathFromUtf8(to), removed);
        ec.clear();
        fs::rename(PathFromUtf8(from), PathFromUtf8(to), ec);
    }
    return ec ? "cannot rename '" + from + "' to '" + to + "': " + ec.message() : std::string();
}

std::string StagedIOSystem::commit() {
    std::string error;
    for (const auto &[tmp, final] : mStaged) {
        if (error.empty()) {
            error = ReplaceFile(tmp, final);
            if (error.empty()) continue;
        }
        std::error_code ec;
        fs::remove(PathFromUtf8(tmp), ec);
    }
    mStaged.clear();
    return error;
}

void StagedIOSystem::discard() {
    for (const auto &[tmp, final] : mStaged) {
        std::error_code ec;
        fs::remove(PathFromUtf8(tmp), ec);
    }
    mStaged.clear();
}

std::vector<std::string> StagedIOSystem::outputs() const {
    std::vector<std::string> out;
    for (const auto &[tmp, final] : mStaged) out.push_back(final);
    return out;
}

} // namespace gamefmt::cli
