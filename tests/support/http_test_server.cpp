// HttpTestServer (http_test_server.hpp): Winsock on Windows, BSD sockets elsewhere.
#include "support/http_test_server.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
using SocketLength = int;
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
using SocketLength = socklen_t;
#endif

namespace gamefmt::testing {
namespace {

#ifdef _WIN32
using Socket = SOCKET;
void CloseSocket(long long s) {
    closesocket(static_cast<SOCKET>(s));
}
void Shutdown(long long s) {
    shutdown(static_cast<SOCKET>(s), SD_BOTH);
}
struct WinsockInit {
    WinsockInit() {
        WSADATA data;
        WSAStartup(MAKEWORD(2, 2), &data);
    }
};
#else
using Socket = int;
void CloseSocket(long long s) {
    close(static_cast<int>(s));
}
void Shutdown(long long s) {
    shutdown(static_cast<int>(s), SHUT_RDWR);
}
#endif

double Now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool SendAll(long long s, const char *data, std::size_t size) {
    while (size > 0) {
        const int n = send(static_cast<Socket>(s), data, static_cast<int>(std::min<std::size_t>(size, 1 << 16)), 0);
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// Reads one request from `buffer` + the socket; false when the peer closed or sent garbage.
bool ReadRequest(long long s, std::string &buffer, HttpTestRequest &request) {
    char chunk[8192];
    std::size_t end;
    while ((end = buffer.find("\r\n\r\n")) == std::string::npos) {
        if (buffer.size() > (1 << 20)) return false;
        const int n = recv(static_cast<Socket>(s), chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
    }
    const std::string head = buffer.substr(0, end);
    buffer.erase(0, end + 4);
    std::size_t lineEnd = head.find("\r\n");
    const std::string first = head.substr(0, lineEnd);
    const std::size_t sp1 = first.find(' '), sp2 = first.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1) return false;
    request.method = first.substr(0, sp1);
    request.path = first.substr(sp1 + 1, sp2 - sp1 - 1);
    while (lineEnd != std::string::npos) {
        const std::size_t next = head.find("\r\n", lineEnd + 2);
        const std::string line =
            head.substr(lineEnd + 2, next == std::string::npos ? std::string::npos : next - lineEnd - 2);
        lineEnd = next;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        std::size_t v = colon + 1;
        while (v < line.size() && line[v] == ' ') ++v;
        request.headers[name] = line.substr(v);
    }
    const auto length = request.headers.find("content-length");
    const std::size_t want = length == request.headers.end() ? 0 : std::stoul(length->second);
    while (buffer.size() < want) {
        const int n = recv(static_cast<Socket>(s), chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
    }
    request.body = buffer.substr(0, want);
    buffer.erase(0, want);
    return true;
}

} // namespace

HttpTestServer::HttpTestServer(Handler handler) : mHandler(std::move(handler)), mStart(Now()) {
#ifdef _WIN32
    static WinsockInit winsock;
#endif
    const Socket s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    SocketLength length = sizeof address;
    if (bind(s, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || listen(s, 64) != 0 ||
        getsockname(s, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        mError = "cannot listen on 127.0.0.1";
        CloseSocket(static_cast<long long>(s));
        return;
    }
    mListen = static_cast<long long>(s);
    mPort = ntohs(address.sin_port);
    mAcceptor = std::thread([this] { acceptLoop(); });
}

HttpTestServer::~HttpTestServer() {
    mStop = true;
    if (mListen >= 0) {
        Shutdown(mListen);
        CloseSocket(mListen);
    }
    if (mAcceptor.joinable()) mAcceptor.join();
    {
        std::lock_guard<std::mutex> lock(mMutex);
        for (long long s : mOpen) Shutdown(s);
    }
    for (std::thread &t : mConnections)
        if (t.joinable()) t.join();
}

std::vector<HttpTestRequest> HttpTestServer::requests() const {
    std::lock_guard<std::mutex> lock(mMutex);
    return mRequests;
}

void HttpTestServer::acceptLoop() {
    while (!mStop) {
        const Socket c = accept(static_cast<Socket>(mListen), nullptr, nullptr);
#ifdef _WIN32
        if (c == INVALID_SOCKET) break;
#else
        if (c < 0) break;
#endif
        std::lock_guard<std::mutex> lock(mMutex);
        mOpen.push_back(static_cast<long long>(c));
        mConnections.emplace_back([this, c] { serve(static_cast<long long>(c)); });
    }
}

void HttpTestServer::serve(long long s) {
    std::string buffer;
    HttpTestRequest request;
    while (!mStop && ReadRequest(s, buffer, request)) {
        request.at = Now() - mStart;
        {
            std::lock_guard<std::mutex> lock(mMutex);
            mRequests.push_back(request);
        }
        const HttpTestReply reply = mHandler(request);
        std::string head = "HTTP/1.1 " + std::to_string(reply.status) + " X\r\n";
        for (const auto &[name, value] : reply.headers) head += name + ": " + value + "\r\n";
        head += "Content-Length: " + std::to_string(reply.body.size()) + "\r\n\r\n";
        bool sent = SendAll(s, head.data(), head.size());
        if (reply.cutAfter >= 0) {
            const std::size_t n = std::min<std::size_t>(reply.body.size(), static_cast<std::size_t>(reply.cutAfter));
            if (sent) SendAll(s, reply.body.data(), n);
            const double until = Now() + reply.stallSeconds;
            while (!mStop && Now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            break;
        }
        if (!sent || !SendAll(s, reply.body.data(), reply.body.size())) break;
        request = HttpTestRequest();
    }
    {
        std::lock_guard<std::mutex> lock(mMutex);
        mOpen.erase(std::remove(mOpen.begin(), mOpen.end(), s), mOpen.end());
    }
    Shutdown(s);
    CloseSocket(s);
}

} // namespace gamefmt::testing
