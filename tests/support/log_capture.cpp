// Captures Assimp's log for tests.
#include "support/log_capture.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/LogStream.hpp>

#include <mutex>

namespace gamefmt::test {
namespace {

std::mutex gMutex;
std::vector<std::string> gLines;

class CollectingStream : public Assimp::LogStream {
public:
    void write(const char *message) override {
        std::lock_guard<std::mutex> lock(gMutex);
        std::string line(message);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        gLines.push_back(std::move(line));
    }
};

} // namespace

void InstallTestLogger() {
    if (Assimp::DefaultLogger::isNullLogger()) {
        Assimp::DefaultLogger::create("", Assimp::Logger::VERBOSE, 0);
        Assimp::DefaultLogger::get()->attachStream(new CollectingStream(),
                                                   Assimp::Logger::Debugging | Assimp::Logger::Info |
                                                       Assimp::Logger::Warn | Assimp::Logger::Err);
    }
}

LogCapture::LogCapture() {
    std::lock_guard<std::mutex> lock(gMutex);
    mStart = gLines.size();
}

LogCapture::~LogCapture() {
    std::lock_guard<std::mutex> lock(gMutex);
    gLines.resize(mStart);
}

std::vector<std::string> LogCapture::lines() const {
    std::lock_guard<std::mutex> lock(gMutex);
    return std::vector<std::string>(gLines.begin() + static_cast<std::ptrdiff_t>(mStart), gLines.end());
}

} // namespace gamefmt::test
