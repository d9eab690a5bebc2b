// The verbs RunCli dispatches to. Each gets the arguments after the verb name and returns an exit code.
#pragma once

#include "cli.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace gamefmt::cli {

using Args = std::vector<std::string>;

int RunInfo(const Args &args, std::ostream &out, std::ostream &err);        // info.cpp
int RunExport(const Args &args, std::ostream &out, std::ostream &err);      // export.cpp
int RunConvert(const Args &args, std::ostream &out, std::ostream &err);     // convert.cpp
int RunListExt(const Args &args, std::ostream &out, std::ostream &err);     // listing.cpp
int RunKnowExt(const Args &args, std::ostream &out, std::ostream &err);     // listing.cpp
int RunListExport(const Args &args, std::ostream &out, std::ostream &err);  // listing.cpp
int RunExportInfo(const Args &args, std::ostream &out, std::ostream &err);  // listing.cpp
int RunValidate(const Args &args, std::ostream &out, std::ostream &err);    // validate.cpp
int RunDump(const Args &args, std::ostream &out, std::ostream &err);        // dump.cpp
int RunExtract(const Args &args, std::ostream &out, std::ostream &err);     // extract.cpp
int RunAssets(const Args &args, std::ostream &out, std::ostream &err);      // assets.cpp
int RunAssetsFetch(const Args &args, std::ostream &out, std::ostream &err); // assets_fetch.cpp (`assets fetch`)
int RunFormats(const Args &args, std::ostream &out, std::ostream &err);     // formats.cpp

} // namespace gamefmt::cli
