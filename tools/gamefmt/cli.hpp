// The gamefmt command line as a library: RunCli is main() without the process, so tests run verbs in-process.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gamefmt::cli {

// Exit codes.
constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1; // an input file failed to import, validate or export
constexpr int kExitUsage = 2;    // bad command line

// Runs one command line (args excludes the program name), writing to `out` and `err`.
int RunCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace gamefmt::cli
