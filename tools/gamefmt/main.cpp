// gamefmt: convert and inspect game formats through Assimp.
#include "cli.hpp"

#include <iostream>

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return gamefmt::cli::RunCli(args, std::cout, std::cerr);
}
