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
#include <thread>
#include <utility>
#include <vector>

namespace Assimp {
class LogStream;
}

namespace gamefmt::cli {

struct CommonOptions;

// Warning lines collected from the log, each kept with the thread that logged it (convert imports on
// several threads; each worker takes its own file's warnings).
class LogCollector {
public:
    void add(const char *message);
    // The lines the calling thread logged since its last Take, without the logger's "Warn: " prefix.
    std::vector<std::string> take();

private:
    std::mutex mMutex;
    std::vector<std::pair<std::thread::id, std::string>> mLines;
};

// True for a warning that means data was lost or guessed: every warning of a gamefmt importer (truncated or
// skipped blocks, lost LODs, unresolved references, clamped values, dropped meshes) and Assimp's validation
// warnings. `validate --strict` fails on these.
bool IsDataLossWarning(const std::string &line);

// The warning summary every verb prints after an import: "gamefmt: 'FILE': N warning(s)" and the first
// ten, indented, then how many more and that -l shows them all. Nothing when `warnings` is empty.
void PrintWarnings(std::ostream &err, const std::string &file, const std::vector<std::string> &warnings);

class LogSession {
public:
    // Attaches the streams `options` asks for; the log goes to `err` (and to options.logFile).
    LogSession(const CommonOptions &options, std::ostream &err);
    ~LogSession();
    LogSession(const LogSession &) = delete;
    LogSession &operator=(const LogSession &) = delete;

    // False (with Error()) when the --log-out file cannot be opened.
    bool ok() const { return mError.empty(); }
    const std::string &error() const { return mError; }
    // When not ok(): prints "gamefmt VERB: <error>" to `err` and answers true (the verb then exits with usage).
    bool failed(const char *verb, std::ostream &err) const;

    // Starts collecting every warning (the constructor does unless -q, -l or -v); idempotent.
    void collectWarnings();
    // The warnings the calling thread logged since its last call (empty when not collecting).
    std::vector<std::string> takeWarnings();
    // PrintWarnings(err, file, TakeWarnings()) unless -q, -l or -v (the log already shows them).
    void reportWarnings(const std::string &file);
    // Whether verbs print warning summaries (not -q, -l or -v).
    bool summarises() const { return mSummarise; }

    // Whether Assimp may log from several threads at once. Our logger serialises; Assimp's DefaultLogger
    // shares one message buffer between threads, so a host's logger forces one worker at a time.
    bool threadSafe() const;

private:
    void ensureLogger();
    void attach(Assimp::LogStream *stream, unsigned severity);

    std::ostream &mErr;
    bool mSummarise = false;
    LogCollector mWarnings;
    Assimp::LogStream *mWarningStream = nullptr;
    bool mCreatedLogger = false;
    bool mChangedSeverity = false;
    int mOldSeverity = 0;
    std::vector<Assimp::LogStream *> mStreams;
    std::unique_ptr<std::ofstream> mLogFile;
    std::string mError;
};

} // namespace gamefmt::cli
