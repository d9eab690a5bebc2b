// The one HTTP client of gamefmt (`gamefmt assets fetch`, docs/roblox-assets.md "Getting the assets"): libcurl, TLS
// verification always on, proxies from the standard environment variables (libcurl's own rules), no cookies, no
// redirects followed (the caller decides where a 3xx may lead), a byte cap on every body, connect and stall
// timeouts. Importers never use it: importing stays offline.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gamefmt::cli {

struct HttpRequest {
    std::string url;
    std::vector<std::string> headers; // "Name: value"
    bool post = false;
    std::string body;                                 // for a POST
    std::uint64_t maxBytes = std::uint64_t(64) << 20; // the body is cut (TooLarge) past this, decoded
    long connectTimeoutMs = 10000;
    long stallSeconds = 30; // fail when fewer than 1 byte a second arrives for this long
    long totalTimeoutMs = 300000;
    std::string caFile; // a CA bundle to verify against instead of the system's; empty: the system's
};

struct HttpResponse {
    enum class Failure { None, Network, Timeout, TooLarge };
    Failure failure = Failure::None;
    std::string error;                          // what failed (libcurl's words), for Failure != None
    long status = 0;                            // the HTTP status (0 when none arrived)
    std::map<std::string, std::string> headers; // lower-case names; the last value of a repeated header
    std::vector<std::uint8_t> body;             // after Content-Encoding (gzip, deflate, zstd) is undone
};

// One connection cache (keep-alive), for one thread at a time: a worker owns its client.
class HttpClient {
public:
    HttpClient();
    ~HttpClient();
    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    HttpResponse perform(const HttpRequest &request);

private:
    void *mCurl = nullptr; // CURL*
};

// "libcurl/7.88.1 OpenSSL/3.0.x ..." for `gamefmt version` and reports.
std::string HttpLibraryVersion();

} // namespace gamefmt::cli
