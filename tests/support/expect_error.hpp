// Small assertions shared by the codec tests: catching the FormatError a call must throw.
#pragma once

#include "common/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gamefmt::test {

// Runs `f`, which must throw FormatError, and returns the error for inspection (a test failure and a
// placeholder error when nothing is thrown).
template <typename F> FormatError Thrown(F &&f) {
    try {
        f();
    } catch (const FormatError &e) {
        return e;
    }
    ADD_FAILURE() << "expected a FormatError";
    return FormatError("none", "no exception");
}

inline bool Contains(const std::string &haystack, const std::string &needle) {
    return haystack.find(needle) != std::string::npos;
}

} // namespace gamefmt::test
