// Captures Assimp's log (DefaultLogger is process-global) for the lifetime of one LogCapture.
#pragma once

#include <string>
#include <vector>

namespace gamefmt::test {

class LogCapture {
public:
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    std::vector<std::string> lines() const;

private:
    std::size_t mStart;
};

// Creates the process-wide verbose DefaultLogger the captures read from (test_main calls it).
void InstallTestLogger();

} // namespace gamefmt::test
