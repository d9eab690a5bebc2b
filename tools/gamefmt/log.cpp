// LogSession: Assimp's log for one verb run, plus the thread-safe logger gamefmt installs when the host has none.
#include "log.hpp"

#include "options.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/gamefmt.hpp"

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
    void OnVerboseDebug(const char *message) override { write("Debug: ", message, Debugging); }
    void OnDebug(const char *message) override {
        if (getLogSeverity() != NORMAL) write("Debug: ", message, Debugging);
    }
    void OnInfo(const char *message) override { write("Info:  ", message, Info); }
    void OnWarn(const char *message) override { write("Warn:  ", message, Warn); }
    void OnError(const char *message) override { write("Error: ", message, Err); }

private:
    void write(const char *prefix, const char *message, unsigned severity) {
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
    explicit CollectingLogStream(LogCollector &collector) : mCollector(collector) {}
    void write(const char *message) override { mCollector.add(message); }

private:
    LogCollector &mCollector;
};

// "Warn:  text" (CliLogger) or "Warn,  T0: text" (Assimp's DefaultLogger) -> "text".
std::string StripLogPrefix(std::string line) {
    if (line.rfind("Warn", 0) == 0) {
        const std::size_t colon = line.find(": ");
        if (colon != std::string::npos && colon < 16) line.erase(0, colon + 2);
    }
    const std::size_t start = line.find_first_not_of(' ');
    line.erase(0, start == std::string::npos ? line.size() : start);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return line;
}

constexpr std::size_t kWarningsShown = 10;

} // namespace

void LogCollector::add(const char *message) {
    std::string line = StripLogPrefix(message);
    // Registering gamefmt ahead of Ogre (.mesh) and Unreal (.3d) is deliberate (gamefmt.hpp), not news.
    if (line.rfind("The file extension ", 0) == 0 && line.find(" is already in use") != std::string::npos) return;
    // Assimp 5.3+ on the bones gamefmt keeps on purpose: not a warning for the user (gamefmt.hpp).
    if (IsExpectedValidationWarning(line)) return;
    std::lock_guard<std::mutex> lock(mMutex);
    mLines.emplace_back(std::this_thread::get_id(), std::move(line));
}

std::vector<std::string> LogCollector::take() {
    const std::thread::id self = std::this_thread::get_id();
    std::vector<std::string> mine;
    std::lock_guard<std::mutex> lock(mMutex);
    auto kept = mLines.begin();
    for (auto &entry : mLines) {
        if (entry.first == self) {
            mine.push_back(std::move(entry.second));
        } else {
            // Never move an entry onto itself: a self-moved std::string may come out empty, which showed as
            // blank warnings of one file when convert ran other files beside it.
            if (&*kept != &entry) *kept = std::move(entry);
            ++kept;
        }
    }
    mLines.erase(kept, mLines.end());
    return mine;
}

bool IsDataLossWarning(const std::string &line) {
    // gamefmt's importers start every warning with their format name (the kFormatName of each format).
    static const char *const kOurs[] = {"Roblox mesh", "Roblox model", "Second Life mesh", "Redguard"};
    for (const char *prefix : kOurs)
        if (line.rfind(prefix, 0) == 0) return true;
    return line.find("Validation warning") != std::string::npos && !IsExpectedValidationWarning(line);
}

void PrintWarnings(std::ostream &err, const std::string &file, const std::vector<std::string> &warnings) {
    if (warnings.empty()) return;
    err << "gamefmt: '" << file << "': " << warnings.size() << (warnings.size() == 1 ? " warning\n" : " warnings\n");
    const std::size_t shown = std::min(warnings.size(), kWarningsShown);
    for (std::size_t i = 0; i < shown; ++i) err << "  warning: " << warnings[i] << '\n';
    if (warnings.size() > shown)
        err << "  ... and " << (warnings.size() - shown) << " more (-l shows the whole log, -q none)\n";
}

LogSession::LogSession(const CommonOptions &options, std::ostream &err) : mErr(err) {
    mSummarise = !options.quiet && !options.showLog && !options.verbose;
    if (mSummarise) collectWarnings();
    if (!options.showLog && !options.verbose && options.logFile.empty()) return;
    ensureLogger();
    if (options.verbose) {
        Assimp::Logger *logger = Assimp::DefaultLogger::get();
        mOldSeverity = logger->getLogSeverity();
        logger->setLogSeverity(Assimp::Logger::VERBOSE);
        mChangedSeverity = true;
    }
    if (options.showLog || options.verbose) attach(new OstreamLogStream(err), kAllSeverities);
    if (!options.logFile.empty()) {
        mLogFile = std::make_unique<std::ofstream>(PathFromUtf8(options.logFile));
        if (!*mLogFile) {
            mError = "cannot open log file '" + options.logFile + "'";
            return;
        }
        attach(new OstreamLogStream(*mLogFile), kAllSeverities);
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

void LogSession::collectWarnings() {
    if (mWarningStream != nullptr) return;
    ensureLogger();
    mWarningStream = new CollectingLogStream(mWarnings);
    attach(mWarningStream, Assimp::Logger::Warn);
}

std::vector<std::string> LogSession::takeWarnings() {
    return mWarnings.take();
}

void LogSession::reportWarnings(const std::string &file) {
    std::vector<std::string> warnings = takeWarnings();
    if (mSummarise) PrintWarnings(mErr, file, warnings);
}

bool LogSession::threadSafe() const {
    return mCreatedLogger || Assimp::DefaultLogger::isNullLogger();
}

void LogSession::ensureLogger() {
    if (!Assimp::DefaultLogger::isNullLogger()) return;
    // DefaultLogger::set hands ownership to Assimp; kill() in the destructor deletes it.
    Assimp::DefaultLogger::set(new CliLogger(Assimp::Logger::NORMAL));
    mCreatedLogger = true;
}

void LogSession::attach(Assimp::LogStream *stream, unsigned severity) {
    Assimp::DefaultLogger::get()->attachStream(stream, severity);
    mStreams.push_back(stream);
}

bool LogSession::failed(const char *verb, std::ostream &err) const {
    if (ok()) return false;
    err << "gamefmt " << verb << ": " << mError << '\n';
    return true;
}

} // namespace gamefmt::cli
