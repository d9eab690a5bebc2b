// LogSession: Assimp's log for one verb run, plus the thread-safe logger gamefmt installs when the host has none.
#include "log.hpp"

#include "options.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/LogStream.hpp>
#include <assimp/Logger.hpp>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <utility>

namespace gamefmt::cli {
namespace {

constexpr unsigned kAllSeverities =
    Assimp::Logger::Debugging | Assimp::Logger::Info | Assimp::Logger::Warn | Assimp::Logger::Err;

// Assimp's DefaultLogger formats every message into one shared buffer, which races when convert imports on
// several threads. This logger formats on the caller's stack and writes to its streams under a lock.
class CliLogger : public Assimp::Logger {
public:
    explicit CliLogger(LogSeverity severity) : Assimp::Logger(severity) {}
    ~CliLogger() override {
        for (auto &entry : mStreams) delete entry.first;
    }

    bool attachStream(Assimp::LogStream *stream, unsigned int severity) override {
        if (stream == nullptr) return false;
        if (severity == 0) severity = kAllSeverities;
        std::lock_guard<std::mutex> lock(mMutex);
        for (auto &entry : mStreams) {
            if (entry.first == stream) {
                entry.second |= severity;
                return true;
            }
        }
        mStreams.emplace_back(stream, severity);
        return true;
    }

    // As in DefaultLogger: once no severity is left the caller owns the stream again.
    bool detachStream(Assimp::LogStream *stream, unsigned int severity) override {
        if (stream == nullptr) return false;
        if (severity == 0) severity = kAllSeverities;
        std::lock_guard<std::mutex> lock(mMutex);
        for (auto it = mStreams.begin(); it != mStreams.end(); ++it) {
            if (it->first != stream) continue;
            it->second &= ~severity;
            if (it->second == 0) mStreams.erase(it);
            return true;
        }
        return false;
    }

protected:
    void OnVerboseDebug(const char *message) override { Write("Debug: ", message, Debugging); }
    void OnDebug(const char *message) override {
        if (getLogSeverity() != NORMAL) Write("Debug: ", message, Debugging);
    }
    void OnInfo(const char *message) override { Write("Info:  ", message, Info); }
    void OnWarn(const char *message) override { Write("Warn:  ", message, Warn); }
    void OnError(const char *message) override { Write("Error: ", message, Err); }

private:
    void Write(const char *prefix, const char *message, unsigned severity) {
        std::string line = prefix;
        line += message;
        if (line.empty() || line.back() != '\n') line += '\n';
        std::lock_guard<std::mutex> lock(mMutex);
        for (auto &entry : mStreams)
            if ((entry.second & severity) != 0) entry.first->write(line.c_str());
    }

    std::mutex mMutex;
    std::vector<std::pair<Assimp::LogStream *, unsigned>> mStreams;
};

class OstreamLogStream : public Assimp::LogStream {
public:
    explicit OstreamLogStream(std::ostream &out) : mOut(out) {}
    void write(const char *message) override {
        std::lock_guard<std::mutex> lock(mMutex);
        mOut << message;
        const std::size_t n = std::strlen(message);
        if (n == 0 || message[n - 1] != '\n') mOut << '\n';
        mOut.flush();
    }

private:
    std::ostream &mOut;
    std::mutex mMutex;
};

class CollectingLogStream : public Assimp::LogStream {
public:
    CollectingLogStream(LogCollector &collector, const char *needle) : mCollector(collector), mNeedle(needle) {}
    void write(const char *message) override {
        if (std::strstr(message, mNeedle) != nullptr) mCollector.Add(message);
    }

private:
    LogCollector &mCollector;
    const char *mNeedle;
};

} // namespace

void LogCollector::Add(const char *message) {
    std::string line(message);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    std::lock_guard<std::mutex> lock(mMutex);
    mLines.push_back(std::move(line));
}

std::vector<std::string> LogCollector::Take() {
    std::lock_guard<std::mutex> lock(mMutex);
    return std::exchange(mLines, {});
}

LogSession::LogSession(const CommonOptions &options, std::ostream &err) {
    if (!options.showLog && !options.verbose && options.logFile.empty()) return;
    EnsureLogger();
    if (options.verbose) {
        Assimp::Logger *logger = Assimp::DefaultLogger::get();
        mOldSeverity = logger->getLogSeverity();
        logger->setLogSeverity(Assimp::Logger::VERBOSE);
        mChangedSeverity = true;
    }
    if (options.showLog || options.verbose) Attach(new OstreamLogStream(err), kAllSeverities);
    if (!options.logFile.empty()) {
        mLogFile = std::make_unique<std::ofstream>(options.logFile);
        if (!*mLogFile) {
            mError = "cannot open log file '" + options.logFile + "'";
            return;
        }
        Attach(new OstreamLogStream(*mLogFile), kAllSeverities);
    }
}

LogSession::~LogSession() {
    Assimp::Logger *logger = Assimp::DefaultLogger::get();
    for (Assimp::LogStream *stream : mStreams) {
        logger->detachStream(stream, kAllSeverities); // hands ownership back
        delete stream;
    }
    if (mChangedSeverity) logger->setLogSeverity(static_cast<Assimp::Logger::LogSeverity>(mOldSeverity));
    if (mCreatedLogger) Assimp::DefaultLogger::kill();
}

void LogSession::CollectWarnings(LogCollector &collector, const char *needle) {
    EnsureLogger();
    Attach(new CollectingLogStream(collector, needle), Assimp::Logger::Warn);
}

bool LogSession::ThreadSafe() const {
    return mCreatedLogger || Assimp::DefaultLogger::isNullLogger();
}

void LogSession::EnsureLogger() {
    if (!Assimp::DefaultLogger::isNullLogger()) return;
    // DefaultLogger::set hands ownership to Assimp; kill() in the destructor deletes it.
    Assimp::DefaultLogger::set(new CliLogger(Assimp::Logger::NORMAL));
    mCreatedLogger = true;
}

void LogSession::Attach(Assimp::LogStream *stream, unsigned severity) {
    Assimp::DefaultLogger::get()->attachStream(stream, severity);
    mStreams.push_back(stream);
}

} // namespace gamefmt::cli
