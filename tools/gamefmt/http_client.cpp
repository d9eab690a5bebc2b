// libcurl behind HttpClient (http_client.hpp).
#include "http_client.hpp"

#include "common/ascii.hpp"
#include "common/text_number.hpp"

#include <curl/curl.h>

#include <mutex>

namespace gamefmt::cli {
namespace {

void GlobalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
    HttpResponse *response;
    std::uint64_t maxBytes;
    bool tooLarge = false;
};

std::size_t OnBody(char *data, std::size_t size, std::size_t count, void *user) {
    auto *t = static_cast<Transfer *>(user);
    const std::size_t n = size * count;
    if (t->response->body.size() + n > t->maxBytes) {
        t->tooLarge = true;
        return 0; // libcurl stops with CURLE_WRITE_ERROR
    }
    t->response->body.insert(t->response->body.end(), data, data + n);
    return n;
}

std::size_t OnHeader(char *data, std::size_t size, std::size_t count, void *user) {
    auto *t = static_cast<Transfer *>(user);
    const std::size_t n = size * count;
    const std::string_view line(data, n);
    if (line.rfind("HTTP/", 0) == 0) {
        t->response->headers.clear(); // a new response (after a 100 Continue)
        return n;
    }
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && t->response->headers.size() < 200)
        t->response->headers[AsciiLower(std::string(TrimAscii(line.substr(0, colon))))] =
            std::string(TrimAscii(line.substr(colon + 1)));
    return n;
}

} // namespace

HttpClient::HttpClient() {
    GlobalInit();
    mCurl = curl_easy_init();
}

HttpClient::~HttpClient() {
    if (mCurl != nullptr) curl_easy_cleanup(static_cast<CURL *>(mCurl));
}

HttpResponse HttpClient::perform(const HttpRequest &request) {
    HttpResponse response;
    CURL *curl = static_cast<CURL *>(mCurl);
    if (curl == nullptr) {
        response.failure = HttpResponse::Failure::Network;
        response.error = "libcurl could not start";
        return response;
    }
    curl_easy_reset(curl);
    Transfer transfer{&response, request.maxBytes};
    char errorText[CURL_ERROR_SIZE] = {};
    curl_slist *headers = nullptr;
    for (const std::string &h : request.headers) headers = curl_slist_append(headers, h.c_str());
    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!request.caFile.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, request.caFile.c_str());
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // every encoding this libcurl decodes
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "gamefmt-assets-fetch");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMs);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request.totalTimeoutMs);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, request.stallSeconds);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorText);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    if (request.post) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    }
    const CURLcode rc = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    if (transfer.tooLarge) {
        response.failure = HttpResponse::Failure::TooLarge;
        response.error = "the body is larger than " + std::to_string(request.maxBytes) + " bytes";
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        response.failure = HttpResponse::Failure::Timeout;
        response.error = errorText[0] != '\0' ? errorText : curl_easy_strerror(rc);
    } else if (rc != CURLE_OK) {
        response.failure = HttpResponse::Failure::Network;
        response.error = errorText[0] != '\0' ? errorText : curl_easy_strerror(rc);
    }
    // A body cut short is not a body: nothing of it is kept.
    if (response.failure != HttpResponse::Failure::None) response.body.clear();
    return response;
}

std::string HttpLibraryVersion() {
    return curl_version();
}

} // namespace gamefmt::cli
