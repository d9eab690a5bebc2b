// gamefmt: convert and inspect game formats through Assimp.
#include "cli.hpp"

#include <iostream>

#ifdef _WIN32
#include <windows.h>
// shellapi.h needs windows.h first
#include <shellapi.h>

#include <memory>

namespace {

// Windows hands main() its arguments in the ANSI code page, which cannot spell most file names: take the
// UTF-16 command line and make UTF-8 of it, the encoding gamefmt and Assimp use for paths everywhere.
std::vector<std::string> Utf8Arguments() {
    int count = 0;
    const std::unique_ptr<LPWSTR, decltype(&LocalFree)> wide(CommandLineToArgvW(GetCommandLineW(), &count), &LocalFree);
    std::vector<std::string> args;
    for (int i = 1; wide != nullptr && i < count; ++i) {
        const wchar_t *w = wide.get()[i];
        const int bytes = WideCharToMultiByte(CP_UTF8, 0, w, -1, nullptr, 0, nullptr, nullptr);
        std::string arg(bytes > 0 ? static_cast<std::size_t>(bytes) : 1u, '\0');
        if (bytes > 0) WideCharToMultiByte(CP_UTF8, 0, w, -1, arg.data(), bytes, nullptr, nullptr);
        arg.pop_back(); // the terminating NUL
        args.push_back(std::move(arg));
    }
    return args;
}

} // namespace

int main() {
    SetConsoleOutputCP(CP_UTF8); // messages name files in UTF-8
    return gamefmt::cli::RunCli(Utf8Arguments(), std::cout, std::cerr);
}
#else
int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return gamefmt::cli::RunCli(args, std::cout, std::cerr);
}
#endif
