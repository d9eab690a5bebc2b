// `gamefmt assets fetch` (docs/roblox-assets.md "Getting the assets"; the protocol:
// docs/formats/roblox-asset-delivery.md): asset ids → files in an asset folder, through Roblox's Open Cloud asset
// delivery API with the user's own API key. Two steps per id: the API answers with a temporary CDN location (the key
// goes to the API host only), the CDN serves the bytes (no key). Files are staged and renamed when complete; ids
// already in the folder are not fetched again; what a fetched model or TexturePack names is followed (a few hops); one
// JSON line per id goes to the folder's manifest. Never used by an importer: importing stays offline.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gamefmt::cli {

struct FetchOptions {
    std::string into;                                 // the asset folder (UTF-8; made when missing)
    std::string apiBase = "https://apis.roblox.com";  // scheme://host[:port][/prefix], no trailing '/'
    std::string apiKey;                               // never printed, logged or written
    unsigned jobs = 4;                                // transfers in flight
    unsigned ratePerMinute = 900;                     // API requests in any 60 s, at most (1000 is Roblox's limit)
    bool refresh = false;                             // fetch ids the folder already has
    unsigned maxDepth = 3;                            // hops followed from what was asked for
    std::uint64_t maxBytes = std::uint64_t(64) << 20; // per asset, as received and as decoded
    std::string caFile;                               // CA bundle instead of the system's
    long connectTimeoutMs = 10000;
    long stallSeconds = 30;
    unsigned maxTries = 6;       // per request, for 429, 5xx and network failures
    double backoffSeconds = 1.0; // first backoff (doubled per try, full jitter)
    double backoffCapSeconds = 60.0;
    // Called after each id is done (from a worker thread, one call at a time).
    std::function<void(std::size_t done, std::size_t known, const std::map<std::string, std::size_t> &counts)> progress;
    const std::atomic<bool> *cancel = nullptr; // set by the caller to stop early (ids not yet started: not written)
};

// One id to fetch, and what it is for (a `gamefmt assets` kind: "mesh", "decal" …, or "any").
struct FetchItem {
    std::string id;
    std::string kind = "any";
};

// One line of the manifest.
struct FetchRecord {
    std::string id;
    std::string kind;
    // ok, present, private, archived, moderated, restricted, missing, wrong-type, rate-limited, bad-key, network,
    // too-large, error, skipped (deeper than maxDepth; not fetched)
    std::string status;
    long http = 0;           // the API's HTTP status (0: no request made)
    std::uint64_t bytes = 0; // the file's size
    std::string sha256;      // of the file
    std::string file;        // its name in the folder
    std::string format;      // sniffed: mesh, png, jpg, gif, webp, rbxm, rbxmx, texturepack, ktx, ktx2, ogg, mp3,
                             // hls, unknown
    std::string from;        // the id whose file named this one ("" for what was asked for)
    unsigned depth = 0;
    std::vector<std::string> leadsTo; // ids this file names
    std::string error;                // why, for statuses other than ok and present; a note for ok (KTX)
};

struct FetchReport {
    std::vector<FetchRecord> records; // in the order they finished
    std::map<std::string, std::size_t> counts;
    std::size_t apiRequests = 0;
    std::size_t cdnRequests = 0;
    bool badKey = false;
    std::string manifestError; // the manifest could not be written (the fetch went on)
    // Every id is ok, present or skipped.
    bool complete() const;
};

FetchReport FetchAssets(const std::vector<FetchItem> &items, const FetchOptions &options);

// The manifest's JSON line for a record (no newline).
std::string FetchRecordLine(const FetchRecord &record);

// The pre-flight check (POST /api-keys/v1/introspect): "" when the key may fetch assets, or cannot be checked (then
// `warning` says why); otherwise what is wrong and what to do (missing scope, disabled, expired, refused).
std::string CheckApiKey(const FetchOptions &options, std::string &warning);

// What fetched bytes are (after transport decoding): see FetchRecord::format.
std::string SniffFetched(const std::uint8_t *data, std::size_t size);
// The file extension for a format (".mesh", ".png", ".xml" for a TexturePack, ".bin" for unknown).
std::string ExtensionFor(const std::string &format);

// Where a CDN `location` may point: https on rbxcdn.com or roblox.com (and their subdomains); when the API base is
// a loopback address (tests, local mirrors), http or https on a loopback host.
bool AllowedDownloadUrl(const std::string &url, const std::string &apiBase);

} // namespace gamefmt::cli
