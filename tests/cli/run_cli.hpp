// Runs one gamefmt command line in-process (RunCli) and keeps its exit code and output.
#pragma once

#include "cli.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace gamefmt::test {

struct CliResult {
    int code = -1;
    std::string out;
    std::string err;
};

inline CliResult Cli(const std::vector<std::string> &args) {
    std::ostringstream out, err;
    CliResult run;
    run.code = gamefmt::cli::RunCli(args, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

} // namespace gamefmt::test
