// Assimp logging for one verb run. DefaultLogger is process-global, so a LogSession borrows the logger the
// host installed (tests, embedding programs) or installs its own, attaches streams for -l/-v/--log-out and
// for capturing validation warnings, and undoes exactly what it did when it ends.
#pragma once

#include <cstddef>
#include <fstream>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Assimp {
class LogStream;
}

namespace gamefmt::cli {

struct CommonOptions;

// Lines collected from the log, for validate.
class LogCollector {
public:
    void Add(const char *message);
    std::vector<std::string> Take();

private:
    std::mutex mMutex;
    std::vector<std::string> mLines;
};

class LogSession {
public:
    // Attaches the streams `options` asks for; the log goes to `err` (and to options.logFile).
    LogSession(const CommonOptions &options, std::ostream &err);
    ~LogSession();
    LogSession(const LogSession &) = delete;
    LogSession &operator=(const LogSession &) = delete;

    // False (with Error()) when the --log-out file cannot be opened.
    bool Ok() const { return mError.empty(); }
    const std::string &Error() const { return mError; }

    // Sends warnings whose text contains `needle` to `collector` until the session ends.
    void CollectWarnings(LogCollector &collector, const char *needle);

    // Whether Assimp may log from several threads at once. Our logger serialises; Assimp's DefaultLogger
    // shares one message buffer between threads, so a host's logger forces one worker at a time.
    bool ThreadSafe() const;

private:
    void EnsureLogger();
    void Attach(Assimp::LogStream *stream, unsigned severity);

    bool mCreatedLogger = false;
    bool mChangedSeverity = false;
    int mOldSeverity = 0;
    std::vector<Assimp::LogStream *> mStreams;
    std::unique_ptr<std::ofstream> mLogFile;
    std::string mError;
};

} // namespace gamefmt::cli
