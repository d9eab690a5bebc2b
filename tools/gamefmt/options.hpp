// The flags several verbs share: post-processing steps and presets (upstream's spellings), importer and
// exporter properties (--option NAME=VALUE and named format flags), and logging. Each table lives in
// options.cpp and drives both parsing and the help text.
#pragma once

#include "args.hpp"

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace Assimp {
class Importer;
class ExportProperties;
} // namespace Assimp

namespace gamefmt::cli {

// One Assimp property from the command line, typed the way the value reads.
struct Property {
    enum class Kind { Integer, Float, Bool, String };
    std::string name;
    Kind kind = Kind::String;
    int integer = 0;
    double number = 0.0;
    bool boolean = false;
    std::string text;
};

// Parses "NAME=VALUE": an integer if VALUE is one (it must fit an int), else a float, else true/false, else a
// string. False with `error` set when NAME is empty, '=' is missing or an integer is out of range.
bool ParseProperty(const std::string &assignment, Property &property, std::string &error);

void ApplyProperties(const std::vector<Property> &properties, Assimp::Importer &importer);
void ApplyProperties(const std::vector<Property> &properties, Assimp::ExportProperties &exportProperties);
// ApplyProperties for an export of `input`: also GAMEFMT_GLTF_TEXTURE_BASE = its folder unless given.
void ApplyExportProperties(const std::vector<Property> &properties, const std::string &input,
                           Assimp::ExportProperties &exportProperties);
// gamefmt::MakeImporter() with `properties` applied: the importer every verb loads with.
std::unique_ptr<Assimp::Importer> MakeConfiguredImporter(const std::vector<Property> &properties);

// `properties` for one of `workers` files converted at once: every option that sets how many threads one import
// uses (a format's own, e.g. GAMEFMT_RBX_TERRAIN_THREADS) and that the user did not set gets the worker's share of
// the cores, so that parallel files do not oversubscribe the machine. The batch driver knows no format option.
std::vector<Property> WithCoreShare(std::vector<Property> properties, std::size_t workers);

// Which groups of shared flags a verb accepts.
enum FlagGroup : unsigned {
    kPostProcessFlags = 1u << 0, // -tri, --triangulate, ..., -cfast, --config=full
    kPropertyFlags = 1u << 1,    // --option NAME=VALUE and the named format flags
    kLogFlags = 1u << 2,         // -l, -v, --log-out=FILE
};

struct CommonOptions {
    unsigned ppSteps = 0;
    bool ppGiven = false; // a step or preset was named (info then skips its default preset)
    std::vector<Property> properties;
    bool quiet = false; // -q: no warning summary
    bool showLog = false;
    bool verbose = false;
    std::string logFile;
};

enum class FlagResult { NotMine, Consumed, Error };

// A verb flag that takes a value, stored in `value` or appended to `list` (one of them is set). `attached`: "-xV".
struct ValuedFlag {
    const char *shortName, *longName;
    bool attached;
    std::string *value;
    std::vector<std::string> *list;
};
// Consumes the current argument when it is one of `flags` (with its value); Error ("… needs a value") when the value
// is missing.
FlagResult ConsumeValuedFlag(ArgCursor &cursor, const std::vector<ValuedFlag> &flags, std::string &error);

// A verb's own flags: consume the current argument (and its value) or return NotMine. On Error set `error`.
using VerbFlagParser = std::function<FlagResult(ArgCursor &cursor, std::string &error)>;

// Splits a verb's arguments into its own flags (via `verbFlags`, tried first), the shared flag groups in
// `groups`, and positional arguments. Returns false after printing a one-line usage error naming the verb.
bool ParseVerbArgs(const std::string &verb, const std::vector<std::string> &args, unsigned groups,
                   const VerbFlagParser &verbFlags, CommonOptions &common, std::vector<std::string> &positional,
                   std::ostream &err);

// True when `arg` is exactly a post-processing step flag or preset ("-fd" is a step, not "-f d").
bool IsPostProcessFlag(const std::string &arg);

// The named property flags (--asset-dir, --keep-units, …), for the bash completion.
std::vector<std::string> NamedFlags();

// Help text for the shared flag groups in `groups`.
void PrintFlagGroupsHelp(std::ostream &out, unsigned groups);

// The long names of the steps in `steps` ("triangulate join-identical-vertices ..."), or "none".
std::string DescribeSteps(unsigned steps);

} // namespace gamefmt::cli
