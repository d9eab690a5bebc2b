// The asset fetcher (asset_fetch.hpp). Status names, error codes and retry rules follow
// docs/formats/roblox-asset-delivery.md §3–§4; indirections §5; sniffing §6.
#include "asset_fetch.hpp"

#include "asset_refs.hpp"
#include "http_client.hpp"
#include "staged_io.hpp"

#include "assimp_glue/roblox_model/assets.hpp"
#include "common/ascii.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"
#include "common/sha256.hpp"
#include "common/utf8_path.hpp"
#include "importers/roblox_model/appearance/texture_pack.hpp"
#include "importers/roblox_model/document/reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>

namespace gamefmt::cli {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char *kManifestName = ".gamefmt-fetch.jsonl";
constexpr std::uint64_t kMaxApiAnswer = std::uint64_t(1) << 20;
constexpr unsigned kMaxRedirects = 5;
constexpr double kMaxWaitSeconds = 120.0; // longest pause a Retry-After may ask for

// ---------------------------------------------------------------- URLs

struct UrlParts {
    std::string scheme, host; // lower case; host without port or brackets
};

std::optional<UrlParts> SplitUrl(const std::string &url) {
    const std::size_t colon = url.find("://");
    if (colon == std::string::npos) return std::nullopt;
    UrlParts u;
    u.scheme = AsciiLower(url.substr(0, colon));
    std::string rest = url.substr(colon + 3);
    rest = rest.substr(0, rest.find_first_of("/?#"));
    if (rest.find('@') != std::string::npos) return std::nullopt; // credentials in a URL: never
    if (!rest.empty() && rest.front() == '[') {
        const std::size_t close = rest.find(']');
        if (close == std::string::npos) return std::nullopt;
        u.host = rest.substr(1, close - 1);
    } else {
        u.host = rest.substr(0, rest.find(':'));
    }
    u.host = AsciiLower(u.host);
    if (u.host.empty()) return std::nullopt;
    return u;
}

bool IsLoopback(const std::string &host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

bool HostIs(const std::string &host, const std::string &domain) {
    return host == domain || (host.size() > domain.size() &&
                              host.compare(host.size() - domain.size() - 1, std::string::npos, "." + domain) == 0);
}

// ---------------------------------------------------------------- JSON answers

// A member by name, any case (Roblox's answers mix camelCase and PascalCase); null when absent.
const nlohmann::json *Member(const nlohmann::json &object, const char *name) {
    if (!object.is_object()) return nullptr;
    for (auto it = object.begin(); it != object.end(); ++it)
        if (AsciiLower(it.key()) == AsciiLower(std::string(name))) return &it.value();
    return nullptr;
}

std::string StringMember(const nlohmann::json &object, const char *name) {
    const nlohmann::json *m = Member(object, name);
    return m != nullptr && m->is_string() ? m->get<std::string>() : std::string();
}

struct ApiError {
    long code = -1;      // customErrorCode, -1 when absent
    std::string gateway; // a string code ("INSUFFICIENT_SCOPE") when the body has one
    std::string message;
};

ApiError FirstError(const nlohmann::json &body) {
    ApiError e;
    const nlohmann::json *errors = Member(body, "errors");
    const nlohmann::json *first = errors != nullptr && errors->is_array() && !errors->empty() ? &(*errors)[0] : &body;
    if (const nlohmann::json *c = Member(*first, "customErrorCode"); c != nullptr && c->is_number_integer())
        e.code = c->get<long>();
    if (const nlohmann::json *c = Member(*first, "code"); c != nullptr && c->is_string())
        e.gateway = c->get<std::string>();
    if (const nlohmann::json *c = Member(*first, "error"); c != nullptr && c->is_string() && e.gateway.empty())
        e.gateway = c->get<std::string>();
    e.message = StringMember(*first, "message");
    return e;
}

// §3's table: CustomErrorCode → report; "" when the code is transient or unknown.
std::string StatusOfCode(long code) {
    switch (code) {
    case 1:
    case 10:
    case 23:
        return "private";
    case 11:
        return "bad-key";
    case 22:
        return "archived";
    case 12:
    case 18:
    case 19:
    case 20:
        return "moderated";
    case 13:
    case 14:
    case 15:
        return "missing";
    case 8:
    case 9:
        return "wrong-type";
    case 3:
    case 4:
    case 16:
        return "restricted";
    default:
        return {};
    }
}

// Server text made fit to print: the key (should a server echo it) replaced by "<key>", control characters by
// spaces, at most 300 bytes.
std::string ScrubKey(std::string text, const std::string &key) {
    if (!key.empty())
        for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at))
            text.replace(at, key.size(), "<key>");
    for (char &c : text)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    if (text.size() > 300) text = text.substr(0, 300) + "...";
    return text;
}

// ---------------------------------------------------------------- the shared request budget

// A token bucket shared by every worker: `capacity` requests at once, refilled so that no 60 s window holds more than
// `perMinute`. A 429 pauses it for everyone.
class RateLimiter {
public:
    explicit RateLimiter(unsigned perMinute) {
        perMinute = std::max(1u, perMinute);
        mCapacity = std::max(1.0, std::min(10.0, perMinute / 100.0));
        mPerSecond = std::max(perMinute - mCapacity, 0.5) / 60.0;
        mTokens = mCapacity;
        mLast = Clock::now();
    }

    // False when `stop` was set while waiting.
    bool acquire(const std::function<bool()> &stop) {
        while (true) {
            double wait = 0;
            {
                std::lock_guard<std::mutex> lock(mMutex);
                const Clock::time_point now = Clock::now();
                mTokens =
                    std::min(mCapacity, mTokens + std::chrono::duration<double>(now - mLast).count() * mPerSecond);
                mLast = now;
                if (now < mPausedUntil) {
                    wait = std::chrono::duration<double>(mPausedUntil - now).count();
                } else if (mTokens >= 1.0) {
                    mTokens -= 1.0;
                    return true;
                } else {
                    wait = (1.0 - mTokens) / mPerSecond;
                }
            }
            if (stop()) return false;
            std::this_thread::sleep_for(std::chrono::duration<double>(std::min(wait, 0.05)));
        }
    }

    void pause(double seconds) {
        std::lock_guard<std::mutex> lock(mMutex);
        const Clock::time_point until =
            Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
        mPausedUntil = std::max(mPausedUntil, until);
        mTokens = 0;
    }

private:
    std::mutex mMutex;
    double mCapacity = 1, mPerSecond = 1, mTokens = 0;
    Clock::time_point mLast, mPausedUntil;
};

// ---------------------------------------------------------------- the fetcher

struct Job {
    std::string id, kind, from;
    unsigned depth = 0;
};

enum class Step { Ok, Final, Retry, BadKey, Expired };

class Fetcher {
public:
    Fetcher(const FetchOptions &options) : mOptions(options), mLimiter(options.ratePerMinute) {}

    FetchReport run(const std::vector<FetchItem> &items);

private:
    struct Worker {
        HttpClient http;
        std::mt19937 random{std::random_device{}()};
    };

    void scanFolder();
    void enqueue(Job job);
    void work();
    FetchRecord process(Worker &w, const Job &job, std::vector<Job> &children);
    bool download(Worker &w, const Job &job, FetchRecord &r, std::vector<std::uint8_t> &bytes);
    Step askApi(Worker &w, const Job &job, FetchRecord &r, std::string &location, double &wait);
    Step askCdn(Worker &w, std::string &url, FetchRecord &r, std::vector<std::uint8_t> &bytes, double &wait);
    bool decode(std::vector<std::uint8_t> &bytes, FetchRecord &r) const;
    bool store(const std::vector<std::uint8_t> &bytes, FetchRecord &r);
    void follow(const std::vector<std::uint8_t> &bytes, const Job &job, FetchRecord &r,
                std::vector<Job> &children) const;
    void finish(FetchRecord record, std::vector<Job> children);
    bool sleepFor(double seconds) const;
    double backoff(Worker &w, unsigned attempt) const;
    bool stopped() const;
    bool abandon(FetchRecord &r) const;
    std::string scrub(std::string text) const;

    const FetchOptions &mOptions;
    RateLimiter mLimiter;
    std::mutex mMutex;
    std::condition_variable mChanged;
    std::deque<Job> mQueue;
    std::set<std::string> mSeen;                 // ids queued or done (each id once per run)
    std::map<std::string, std::string> mPresent; // id → file name already in the folder
    std::size_t mActive = 0;
    std::atomic<bool> mBadKey{false};
    std::atomic<std::size_t> mApiRequests{0}, mCdnRequests{0};
    FetchReport mReport;
    std::ofstream mManifest;
};

bool Fetcher::stopped() const {
    return mBadKey.load() || (mOptions.cancel != nullptr && mOptions.cancel->load());
}

// A transfer given up because the run stops: a bad key is reported per id; a cancelled one leaves no record.
bool Fetcher::abandon(FetchRecord &r) const {
    r = FetchRecord{r.id,    r.kind, mBadKey ? "bad-key" : "",
                    r.http,  0,      {},
                    {},      {},     r.from,
                    r.depth, {},     mBadKey ? "not tried: the API refused the key" : ""};
    return false;
}

std::string Fetcher::scrub(std::string text) const {
    return ScrubKey(std::move(text), mOptions.apiKey);
}

bool Fetcher::sleepFor(double seconds) const {
    const Clock::time_point until =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (Clock::now() < until) {
        if (stopped()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return !stopped();
}

double Fetcher::backoff(Worker &w, unsigned attempt) const {
    const double ceiling =
        std::min(mOptions.backoffCapSeconds, mOptions.backoffSeconds * double(1u << std::min(attempt, 20u)));
    return std::uniform_real_distribution<double>(0.0, ceiling)(w.random);
}

// The ids already in the folder (a name of digits, with or without an extension); leftovers of a killed run
// (*.gamefmt-partial) are removed.
void Fetcher::scanFolder() {
    std::error_code ec;
    const fs::path dir = PathFromUtf8(mOptions.into);
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = PathToUtf8(it->path().filename());
        if (name.size() > std::strlen(kPartialSuffix) &&
            name.compare(name.size() - std::strlen(kPartialSuffix), std::string::npos, kPartialSuffix) == 0) {
            std::error_code removed;
            fs::remove(it->path(), removed);
            continue;
        }
        const std::string id = name.substr(0, name.find('.'));
        if (id.empty() || id.size() > 20 ||
            !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        if (!it->is_regular_file(ec)) continue;
        auto [at, added] = mPresent.emplace(id, name);
        if (!added && name < at->second) at->second = name; // a stable choice when several exist
    }
}

void Fetcher::enqueue(Job job) {
    if (!mSeen.insert(job.id).second) return;
    mQueue.push_back(std::move(job));
}

FetchReport Fetcher::run(const std::vector<FetchItem> &items) {
    std::error_code ec;
    fs::create_directories(PathFromUtf8(mOptions.into), ec);
    scanFolder();
    mManifest.open(PathFromUtf8(mOptions.into + "/" + kManifestName), std::ios::binary | std::ios::app);
    if (!mManifest) mReport.manifestError = "cannot append to " + mOptions.into + "/" + kManifestName;
    for (const FetchItem &item : items) enqueue({item.id, item.kind, "", 0});
    std::vector<std::thread> threads;
    const unsigned jobs = std::max(1u, std::min(mOptions.jobs, 16u));
    for (unsigned i = 0; i < jobs; ++i) threads.emplace_back([this] { work(); });
    for (std::thread &t : threads) t.join();
    mReport.apiRequests = mApiRequests.load();
    mReport.cdnRequests = mCdnRequests.load();
    mReport.badKey = mBadKey.load();
    return std::move(mReport);
}

void Fetcher::work() {
    Worker w;
    while (true) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mMutex);
            mChanged.wait(lock, [&] { return !mQueue.empty() || mActive == 0; });
            if (mQueue.empty()) return;
            job = std::move(mQueue.front());
            mQueue.pop_front();
            ++mActive;
        }
        std::vector<Job> children;
        FetchRecord record = process(w, job, children);
        finish(std::move(record), std::move(children));
    }
}

void Fetcher::finish(FetchRecord record, std::vector<Job> children) {
    std::lock_guard<std::mutex> lock(mMutex);
    if (record.status.empty()) { // cancelled before it started
        --mActive;
        mChanged.notify_all();
        return;
    }
    for (Job &child : children) {
        if (mSeen.count(child.id) != 0) continue;
        if (child.depth > mOptions.maxDepth) {
            mSeen.insert(child.id);
            FetchRecord skipped;
            skipped.id = child.id;
            skipped.kind = child.kind;
            skipped.from = child.from;
            skipped.depth = child.depth;
            skipped.status = "skipped";
            skipped.error =
                "more than " + std::to_string(mOptions.maxDepth) + " hops from what was asked for (--max-depth)";
            mReport.counts[skipped.status]++;
            if (mManifest) mManifest << FetchRecordLine(skipped) << '\n';
            mReport.records.push_back(std::move(skipped));
            continue;
        }
        enqueue(std::move(child));
    }
    mReport.counts[record.status]++;
    if (mManifest) mManifest << FetchRecordLine(record) << '\n' << std::flush;
    mReport.records.push_back(std::move(record));
    --mActive;
    if (mOptions.progress) mOptions.progress(mReport.records.size(), mSeen.size(), mReport.counts);
    mChanged.notify_all();
}

FetchRecord Fetcher::process(Worker &w, const Job &job, std::vector<Job> &children) {
    FetchRecord r;
    r.id = job.id;
    r.kind = job.kind;
    r.from = job.from;
    r.depth = job.depth;
    std::vector<std::uint8_t> bytes;
    const auto present = mPresent.find(job.id);
    if (present != mPresent.end() && !mOptions.refresh) {
        r.status = "present";
        r.file = present->second;
        std::ifstream in(PathFromUtf8(mOptions.into + "/" + r.file), std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        r.bytes = bytes.size();
        Sha256 sha;
        sha.update(bytes.data(), bytes.size());
        r.sha256 = sha.hexDigest();
        FetchRecord scratch; // a present file that does not decode is still present; it leads nowhere
        if (bytes.size() <= mOptions.maxBytes && decode(bytes, scratch)) {
            r.format = SniffFetched(bytes.data(), bytes.size());
            follow(bytes, job, r, children);
        }
        return r;
    }
    if (mBadKey) {
        r.status = "bad-key";
        r.error = "not tried: the API refused the key";
        return r;
    }
    if (stopped()) return FetchRecord(); // cancelled: no record, no file

    if (!download(w, job, r, bytes) || !decode(bytes, r)) return r;
    r.format = SniffFetched(bytes.data(), bytes.size());
    if (!store(bytes, r)) return r;
    r.status = "ok";
    if (r.format == "ktx" || r.format == "ktx2")
        r.error = "a " + r.format + " image: kept, but gamefmt does not decode " + r.format + " textures yet";
    follow(bytes, job, r, children);
    return r;
}

// The API, then the CDN; a CDN answer of 403, 404 or 410 (the location expired) asks the API once more.
bool Fetcher::download(Worker &w, const Job &job, FetchRecord &r, std::vector<std::uint8_t> &bytes) {
    for (unsigned round = 0; round < 2; ++round) {
        std::string location;
        Step step = Step::Retry;
        for (unsigned attempt = 0; step == Step::Retry; ++attempt) {
            double wait = 0;
            if (!mLimiter.acquire([this] { return stopped(); })) return abandon(r);
            step = askApi(w, job, r, location, wait);
            if (step == Step::BadKey) {
                mBadKey = true;
                return false;
            }
            if (step != Step::Retry) break;
            if (attempt + 1 >= mOptions.maxTries) {
                if (r.status.empty()) r.status = "network";
                r.error = "gave up after " + std::to_string(mOptions.maxTries) + " tries: " + r.error;
                return false;
            }
            if (!sleepFor(wait > 0 ? wait : backoff(w, attempt))) return abandon(r);
            r.status.clear();
        }
        if (step != Step::Ok) return false;
        step = Step::Retry;
        for (unsigned attempt = 0; step == Step::Retry; ++attempt) {
            double wait = 0;
            step = askCdn(w, location, r, bytes, wait);
            if (step == Step::Retry && attempt + 1 >= mOptions.maxTries) {
                r.status = "network";
                r.error = "the download gave up after " + std::to_string(mOptions.maxTries) + " tries: " + r.error;
                return false;
            }
            if (step == Step::Retry && !sleepFor(wait > 0 ? wait : backoff(w, attempt))) return abandon(r);
        }
        if (step == Step::Ok) return true;
        if (step != Step::Expired) return false;
    }
    r.status = "network";
    r.error = "the CDN refused the download twice (the location expired?)";
    return false;
}

// Seconds a 429 or 503 asks to wait (Retry-After, else x-ratelimit-reset), or 0.
double WaitAsked(const HttpResponse &response) {
    for (const char *name : {"retry-after", "x-ratelimit-reset"}) {
        const auto it = response.headers.find(name);
        if (it == response.headers.end()) continue;
        char *end = nullptr;
        const double seconds = std::strtod(it->second.c_str(), &end);
        if (end != it->second.c_str() && seconds >= 0) return std::min(seconds, kMaxWaitSeconds);
    }
    return 0;
}

Step Fetcher::askApi(Worker &w, const Job &job, FetchRecord &r, std::string &location, double &wait) {
    HttpRequest request;
    request.url = mOptions.apiBase + "/asset-delivery-api/v1/assetId/" + job.id;
    request.headers = {"x-api-key: " + mOptions.apiKey, "Accept: application/json"};
    request.maxBytes = kMaxApiAnswer;
    request.caFile = mOptions.caFile;
    request.connectTimeoutMs = mOptions.connectTimeoutMs;
    request.stallSeconds = mOptions.stallSeconds;
    ++mApiRequests;
    const HttpResponse response = w.http.perform(request);
    r.http = response.status;
    if (response.failure == HttpResponse::Failure::TooLarge)
        return r.status = "error", r.error = "the API's answer is larger than 1 MiB", Step::Final;
    if (response.failure != HttpResponse::Failure::None) return r.error = scrub(response.error), Step::Retry;
    const nlohmann::json body = nlohmann::json::parse(response.body.begin(), response.body.end(), nullptr, false);
    location = StringMember(body, "location");
    if (response.status >= 200 && response.status < 300 && !location.empty()) return Step::Ok;
    const ApiError e = FirstError(body);
    r.error = scrub("HTTP " + std::to_string(response.status) + (e.message.empty() ? "" : ": " + e.message));
    if (response.status == 401 || e.code == 11 || e.gateway == "INSUFFICIENT_SCOPE") {
        r.status = "bad-key";
        return Step::BadKey;
    }
    if (response.status == 429) {
        r.status = "rate-limited";
        wait = WaitAsked(response);
        mLimiter.pause(wait > 0 ? wait : mOptions.backoffSeconds);
        return Step::Retry;
    }
    if (response.status >= 500 || response.status == 499 || e.code == 0 || e.code == 2 || e.code == 21) {
        wait = WaitAsked(response);
        return Step::Retry;
    }
    const nlohmann::json *archived = Member(body, "isArchived");
    if (archived != nullptr && archived->is_boolean() && archived->get<bool>())
        return r.status = "archived", Step::Final;
    r.status = StatusOfCode(e.code);
    if (r.status.empty()) r.status = response.status == 403 ? "private" : response.status == 404 ? "missing" : "error";
    if (r.status == "error" && response.status >= 200 && response.status < 300)
        r.error = "the API's answer names no location";
    return Step::Final;
}

Step Fetcher::askCdn(Worker &w, std::string &url, FetchRecord &r, std::vector<std::uint8_t> &bytes, double &wait) {
    for (unsigned hop = 0; hop <= kMaxRedirects; ++hop) {
        if (!AllowedDownloadUrl(url, mOptions.apiBase)) {
            const auto parts = SplitUrl(url);
            r.status = "error";
            r.error = "the download location is not on a Roblox CDN host (" + scrub(parts ? parts->host : "?") + ")";
            return Step::Final;
        }
        HttpRequest request; // no key, no cookie: the CDN gets nothing that identifies the user
        request.url = url;
        request.maxBytes = mOptions.maxBytes;
        request.caFile = mOptions.caFile;
        request.connectTimeoutMs = mOptions.connectTimeoutMs;
        request.stallSeconds = mOptions.stallSeconds;
        ++mCdnRequests;
        HttpResponse response = w.http.perform(request);
        if (response.failure == HttpResponse::Failure::TooLarge) {
            r.status = "too-large";
            r.error = "larger than " + std::to_string(mOptions.maxBytes) + " bytes (--max-bytes)";
            return Step::Final;
        }
        if (response.failure != HttpResponse::Failure::None) return r.error = scrub(response.error), Step::Retry;
        const long s = response.status;
        if (s >= 300 && s < 400 && response.headers.count("location") != 0) {
            std::string next = response.headers["location"];
            if (!next.empty() && next.front() == '/') next = url.substr(0, url.find('/', url.find("://") + 3)) + next;
            url = next;
            continue;
        }
        if (s == 403 || s == 404 || s == 410) return r.error = "CDN HTTP " + std::to_string(s), Step::Expired;
        if (s == 429 || s >= 500)
            return wait = WaitAsked(response), r.error = "CDN HTTP " + std::to_string(s), Step::Retry;
        if (s < 200 || s >= 300) return r.status = "error", r.error = "CDN HTTP " + std::to_string(s), Step::Final;
        bytes = std::move(response.body);
        return Step::Ok;
    }
    r.status = "error";
    r.error = "more than " + std::to_string(kMaxRedirects) + " redirects";
    return Step::Final;
}

// gzip or zstd inside the body (some assets are stored compressed): undone, a few levels, within maxBytes.
bool Fetcher::decode(std::vector<std::uint8_t> &bytes, FetchRecord &r) const {
    DecompressionLimits limits;
    limits.maxOutput = mOptions.maxBytes;
    limits.maxRatio = 4096;
    try {
        for (unsigned level = 0; level < 3; ++level) {
            if (LooksLikeGzip(bytes.data(), bytes.size())) {
                bytes = InflateGzip(bytes.data(), bytes.size(), "fetched asset (gzip)", 0, limits);
            } else if (LooksLikeZstdFrame(bytes.data(), bytes.size())) {
                const std::optional<std::uint64_t> size = ZstdFrameContentSize(bytes.data(), bytes.size());
                if (!size) throw FormatError("fetched asset (zstd)", "a zstd frame that declares no size", 0);
                bytes = DecompressZstdFrame(bytes.data(), bytes.size(), *size, "fetched asset (zstd)", 0, limits);
            } else {
                return true;
            }
        }
        return true;
    } catch (const FormatError &e) {
        r.status = "error";
        r.error = scrub(e.what());
        bytes.clear();
        return false;
    }
}

// Written as <id><ext>.gamefmt-partial and renamed when complete; an older file of the id under another extension
// (--refresh) is removed afterwards.
bool Fetcher::store(const std::vector<std::uint8_t> &bytes, FetchRecord &r) {
    const std::string name = r.id + ExtensionFor(r.format);
    const std::string final = mOptions.into + "/" + name;
    const std::string partial = final + kPartialSuffix;
    {
        std::ofstream out(PathFromUtf8(partial), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::error_code ec;
            fs::remove(PathFromUtf8(partial), ec);
            return r.status = "error", r.error = "cannot write " + partial, false;
        }
    }
    if (std::string error = ReplaceFile(partial, final); !error.empty())
        return r.status = "error", r.error = error, false;
    {
        std::lock_guard<std::mutex> lock(mMutex);
        const auto old = mPresent.find(r.id);
        if (old != mPresent.end() && old->second != name) {
            std::error_code ec;
            fs::remove(PathFromUtf8(mOptions.into + "/" + old->second), ec);
        }
        mPresent[r.id] = name;
    }
    Sha256 sha;
    sha.update(bytes.data(), bytes.size());
    r.sha256 = sha.hexDigest();
    r.bytes = bytes.size();
    r.file = name;
    return true;
}

// The ids a fetched model (every content URI naming an id) or TexturePack (its maps) names.
void Fetcher::follow(const std::vector<std::uint8_t> &bytes, const Job &job, FetchRecord &r,
                     std::vector<Job> &children) const {
    std::vector<std::pair<std::string, std::string>> named; // (uri, kind)
    if (r.format == "texturepack") {
        if (const auto maps = rbx::ReadTexturePack(bytes.data(), bytes.size()))
            for (const std::string *uri :
                 {&maps->color, &maps->normal, &maps->metalness, &maps->roughness, &maps->emissive, &maps->height})
                if (!uri->empty()) named.emplace_back(*uri, "surface map");
    } else if (r.format == "rbxm" || r.format == "rbxmx") {
        try {
            const rbx::Document doc = rbx::ReadDocument(bytes.data(), bytes.size());
            for (const Asset &a : Collect(doc)) named.emplace_back(a.uri, a.kind);
        } catch (const FormatError &e) {
            r.error = scrub(std::string("its references cannot be read: ") + e.what());
        }
    }
    for (const auto &[uri, kind] : named) {
        const glue::RbxContentKey key = glue::ParseContentUri(uri);
        if (key.kind != glue::RbxContentKey::Kind::Id || key.value == job.id) continue;
        if (std::find(r.leadsTo.begin(), r.leadsTo.end(), key.value) != r.leadsTo.end()) continue;
        r.leadsTo.push_back(key.value);
        children.push_back({key.value, kind, job.id, job.depth + 1});
    }
}

// Whether an introspection answer's scopes allow asset reads: a string "legacy-asset:manage", or an object naming
// "legacy-asset" (any member) with "manage" among its operations. True when the answer lists no scopes.
bool HasAssetScope(const nlohmann::json &answer) {
    const nlohmann::json *scopes = Member(answer, "scopes");
    if (scopes == nullptr || !scopes->is_array()) return true;
    for (const nlohmann::json &scope : *scopes) {
        if (scope.is_string() && scope.get<std::string>() == "legacy-asset:manage") return true;
        if (!scope.is_object()) continue;
        bool named = false, manage = false;
        for (const auto &member : scope.items()) {
            const nlohmann::json &v = member.value();
            if (v.is_string() && v.get<std::string>() == "legacy-asset") named = true;
            if (v.is_array())
                for (const nlohmann::json &op : v)
                    if (op.is_string() &&
                        (op.get<std::string>() == "manage" || op.get<std::string>() == "legacy-asset:manage"))
                        manage = true;
        }
        if (named && manage) return true;
    }
    return false;
}

} // namespace

std::string CheckApiKey(const FetchOptions &options, std::string &warning) {
    HttpClient http;
    HttpRequest request;
    request.url = options.apiBase + "/api-keys/v1/introspect";
    request.post = true;
    request.body = nlohmann::json({{"apiKey", options.apiKey}}).dump();
    request.headers = {"Content-Type: application/json", "Accept: application/json"};
    request.maxBytes = kMaxApiAnswer;
    request.caFile = options.caFile;
    request.connectTimeoutMs = options.connectTimeoutMs;
    request.stallSeconds = options.stallSeconds;
    const HttpResponse response = http.perform(request);
    const auto scrub = [&](std::string text) { return ScrubKey(std::move(text), options.apiKey); };
    if (response.failure != HttpResponse::Failure::None) {
        warning = "could not check the API key (" + scrub(response.error) + "); fetching anyway";
        return {};
    }
    const nlohmann::json body = nlohmann::json::parse(response.body.begin(), response.body.end(), nullptr, false);
    if (response.status == 401 || response.status == 403) {
        const ApiError e = FirstError(body);
        return "Roblox refused the API key (HTTP " + std::to_string(response.status) +
               (e.message.empty() ? "" : ": " + scrub(e.message)) +
               "). Check that it was copied whole and is not revoked or expired, and that its IP allow-list (if it has "
               "one) includes this machine's public address; a refused address looks like an invalid key";
    }
    if (response.status != 200 || !body.is_object()) {
        warning = "could not check the API key (HTTP " + std::to_string(response.status) + "); fetching anyway";
        return {};
    }
    const std::string name = scrub(StringMember(body, "name"));
    const std::string which = name.empty() ? "the API key" : "the API key '" + name + "'";
    if (const nlohmann::json *enabled = Member(body, "enabled");
        enabled != nullptr && enabled->is_boolean() && !enabled->get<bool>())
        return which + " is disabled: enable it in Creator Dashboard → Open Cloud → API Keys";
    if (const nlohmann::json *expired = Member(body, "expired");
        expired != nullptr && expired->is_boolean() && expired->get<bool>())
        return which + " has expired (" + scrub(StringMember(body, "expirationTimeUtc")) +
               "): create a new key, or set a later expiration in Creator Dashboard → Open Cloud → API Keys";
    if (!HasAssetScope(body))
        return which + " lacks the scope assets need: in Creator Dashboard → Open Cloud → API Keys, add the API system "
                       "'legacy-assets' with the operation 'manage' (scope legacy-asset:manage)";
    return {};
}

bool FetchReport::complete() const {
    for (const auto &[status, n] : counts)
        if (n != 0 && status != "ok" && status != "present" && status != "skipped") return false;
    return true;
}

FetchReport FetchAssets(const std::vector<FetchItem> &items, const FetchOptions &options) {
    Fetcher fetcher(options);
    return fetcher.run(items);
}

std::string FetchRecordLine(const FetchRecord &record) {
    nlohmann::ordered_json j;
    j["id"] = record.id;
    j["kind"] = record.kind;
    j["status"] = record.status;
    j["http"] = record.http;
    j["bytes"] = record.bytes;
    j["sha256"] = record.sha256;
    j["file"] = record.file;
    j["format"] = record.format;
    j["from"] = record.from;
    j["depth"] = record.depth;
    j["leads_to"] = record.leadsTo;
    j["error"] = record.error;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string SniffFetched(const std::uint8_t *data, std::size_t size) {
    std::string format = glue::SniffAsset(data, size);
    if (!format.empty()) return format;
    const auto starts = [&](const char *magic, std::size_t n, std::size_t at = 0) {
        return size >= at + n && std::memcmp(data + at, magic, n) == 0;
    };
    if (starts("GIF8", 4)) return "gif";
    if (starts("RIFF", 4) && starts("WEBP", 4, 8)) return "webp";
    if (starts("\xABKTX 11\xBB\r\n\x1A\n", 12)) return "ktx";
    if (starts("\xABKTX 20\xBB\r\n\x1A\n", 12)) return "ktx2";
    if (starts("OggS", 4)) return "ogg";
    if (starts("ID3", 3) || (size >= 2 && data[0] == 0xFF && (data[1] & 0xE0) == 0xE0)) return "mp3";
    if (starts("#EXTM3U", 7)) return "hls";
    return "unknown";
}

std::string ExtensionFor(const std::string &format) {
    if (format == "texturepack") return ".xml";
    if (format == "hls") return ".m3u8";
    if (format.empty() || format == "unknown") return ".bin";
    return "." + format;
}

bool AllowedDownloadUrl(const std::string &url, const std::string &apiBase) {
    const auto u = SplitUrl(url);
    if (!u) return false;
    const auto base = SplitUrl(apiBase);
    if (base && IsLoopback(base->host) && IsLoopback(u->host)) return u->scheme == "http" || u->scheme == "https";
    return u->scheme == "https" && (HostIs(u->host, "rbxcdn.com") || HostIs(u->host, "roblox.com"));
}

} // namespace gamefmt::cli
