// The one exception type every gamefmt codec throws: which format, what was wrong, and where.
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace gamefmt {

class FormatError : public std::runtime_error {
public:
    static constexpr std::size_t kNoOffset = std::numeric_limits<std::size_t>::max();

    // format: a short human name such as "Roblox mesh"; offset: the byte offset in the file (or
    // kNoOffset when the problem is not tied to a position, e.g. while writing).
    FormatError(std::string format, std::string message, std::size_t offset = kNoOffset)
        : std::runtime_error(Compose(format, message, offset)), mFormat(std::move(format)),
          mMessage(std::move(message)), mOffset(offset) {}

    const std::string &format() const noexcept { return mFormat; }
    const std::string &message() const noexcept { return mMessage; }
    std::size_t offset() const noexcept { return mOffset; }
    bool hasOffset() const noexcept { return mOffset != kNoOffset; }

private:
    static std::string Compose(const std::string &format, const std::string &message, std::size_t offset) {
        std::string s = format + ": " + message;
        if (offset != kNoOffset) s += " (at byte offset " + std::to_string(offset) + ")";
        return s;
    }

    std::string mFormat;
    std::string mMessage;
    std::size_t mOffset;
};

} // namespace gamefmt
