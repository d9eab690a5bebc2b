// A small HTTP/1.1 server on 127.0.0.1 for the asset fetcher's tests (tests/cli/test_assets_fetch.cpp): it plays
// Roblox's asset delivery API and CDN as docs/formats/roblox-asset-delivery.md documents them. One thread per
// connection, keep-alive, Content-Length bodies; a handler decides each answer, and every request is recorded.
// Test code only: nothing here is used by gamefmt itself.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gamefmt::testing {

struct HttpTestRequest {
    std::string method, path;                   // path with its query
    std::map<std::string, std::string> headers; // lower-case names
    std::string body;
    double at = 0; // seconds since the server started
};

struct HttpTestReply {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    // Misbehaviour: send only this many bytes of the body, then close (a truncated answer; Content-Length stays the
    // full size) — or, with stall, then wait this many seconds before closing.
    long long cutAfter = -1;
    double stallSeconds = 0;
};

class HttpTestServer {
public:
    using Handler = std::function<HttpTestReply(const HttpTestRequest &)>;
    explicit HttpTestServer(Handler handler);
    ~HttpTestServer();
    HttpTestServer(const HttpTestServer &) = delete;
    HttpTestServer &operator=(const HttpTestServer &) = delete;

    // False (with error()) when no socket could be opened.
    bool ok() const { return mListen >= 0; }
    const std::string &error() const { return mError; }
    int port() const { return mPort; }
    std::string base() const { return "http://127.0.0.1:" + std::to_string(mPort); }
    std::vector<HttpTestRequest> requests() const;

private:
    void acceptLoop();
    void serve(long long socket);

    Handler mHandler;
    long long mListen = -1;
    int mPort = 0;
    std::string mError;
    std::atomic<bool> mStop{false};
    std::thread mAcceptor;
    mutable std::mutex mMutex;
    std::vector<HttpTestRequest> mRequests;
    std::vector<std::thread> mConnections;
    std::vector<long long> mOpen;
    double mStart = 0;
};

} // namespace gamefmt::testing
