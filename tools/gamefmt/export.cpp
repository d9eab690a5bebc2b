// The `export` verb: import one file (raw unless steps are given) and write it with any export format.
#include "export_formats.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "staged_io.hpp"
#include "verbs.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>

#include <filesystem>
#include <ostream>
#include <system_error>

namespace gamefmt::cli {

namespace {

// The output path and format from OUT and -f: OUT's extension picks the format, -f alone writes IN's name with
// the format's extension. False (with the error printed) when they are missing, unknown or would overwrite IN.
bool ResolveOutput(const std::vector<std::string> &files, const std::string &formatId,
                   const std::vector<ExportFormat> &formats, std::ostream &err, const ExportFormat *&format,
                   std::string &outPath) {
    const std::string &in = files[0];
    format = nullptr;
    if (!formatId.empty()) {
        format = FindFormatById(formats, formatId);
        if (format == nullptr) {
            err << "gamefmt export: unknown export format '" << formatId << "'; " << kListExportHint << '\n';
            return false;
        }
    }
    if (files.size() == 2) {
        outPath = files[1];
    } else if (format != nullptr) {
        // As upstream: without OUT, write IN's name with the format's extension beside it.
        outPath = PathToUtf8(PathFromUtf8(in).replace_extension(format->extension));
        if (outPath == in) {
            err << "gamefmt export: writing '" << outPath << "' would overwrite the input; give OUT\n";
            return false;
        }
    } else {
        err << "gamefmt export: give OUT or -f ID (see 'gamefmt help export')\n";
        return false;
    }
    if (IsSameFile(in, outPath)) {
        err << "gamefmt export: '" << outPath << "' is the input file; write to another name\n";
        return false;
    }
    if (format == nullptr) {
        const std::string extension = PathToUtf8(PathFromUtf8(outPath).extension());
        format = FindFormatForExtension(formats, extension);
        if (format == nullptr) {
            err << "gamefmt export: "
                << (extension.empty() ? "'" + outPath + "' has no extension to choose a format by"
                                      : "no export format writes '" + extension + "' files")
                << "; use -f ID (" << kListExportHint << ")\n";
            return false;
        }
    }
    return true;
}

} // namespace

int RunExport(const Args &args, std::ostream &out, std::ostream &err) {
    std::string formatId;
    CommonOptions common;
    std::vector<std::string> files;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &error) {
        // The steps "-fd", "-fi", ... share the "-f" prefix: exact step names are not format ids.
        if (IsPostProcessFlag(cursor.current())) return FlagResult::NotMine;
        switch (cursor.value("-f", "--format", true, formatId)) {
        case ArgCursor::Match::Yes:
            return FlagResult::Consumed;
        case ArgCursor::Match::MissingValue:
            error = "-f needs an export format id";
            return FlagResult::Error;
        case ArgCursor::Match::No:
            break;
        }
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("export", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, files, err))
        return kExitUsage;
    if (files.empty() || files.size() > 2) {
        err << "gamefmt export: expected IN [OUT] (see 'gamefmt help export')\n";
        return kExitUsage;
    }

    const std::unique_ptr<Assimp::Exporter> exporter = gamefmt::MakeExporter();
    const std::vector<ExportFormat> formats = ListExportFormats(*exporter);
    const std::string &in = files[0];
    const ExportFormat *format = nullptr;
    std::string outPath;
    if (!ResolveOutput(files, formatId, formats, err, format, outPath)) return kExitUsage;

    LogSession log(common, err);
    if (log.failed("export", err)) return kExitUsage;
    const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(common.properties);
    // Raw unless steps were given; incomplete (geometry-less) scenes are always exported raw.
    const LoadResult loaded = LoadScene(*importer, in, 0, common.ppSteps);
    if (loaded.scene == nullptr) {
        PrintFileError(err, loaded.failedStage, in, loaded.error);
        return kExitBadInput;
    }
    log.reportWarnings(in); // a failed import shows only its error
    if (loaded.incomplete && common.ppSteps != 0)
        err << "gamefmt export: note: '" << in << "' has no geometry; post-processing skipped\n";

    Assimp::ExportProperties properties;
    ApplyExportProperties(common.properties, in, properties);
    std::string direct;
    // Every file is written as NAME.gamefmt-partial and renamed into place once the export succeeded (docs/batch.md).
    auto *staged = new StagedIOSystem(); // the exporter owns it
    exporter->SetIOHandler(staged);
    const bool handled = ExportWithoutCopy(*exporter, *loaded.scene, format->id, outPath, properties, direct, staged);
    if (handled ? !direct.empty() : exporter->Export(loaded.scene, format->id, outPath, 0, &properties) != AI_SUCCESS) {
        staged->discard();
        const std::string reason = handled ? direct : exporter->GetErrorString();
        PrintFileError(err, "export", outPath,
                       reason.empty() ? "the " + format->id + " exporter gave no reason (run with -v to see its log)"
                                      : reason);
        return kExitBadInput;
    }
    const std::string moved = staged->commit();
    if (!moved.empty()) {
        PrintFileError(err, "export", outPath, moved);
        return kExitBadInput;
    }
    log.reportWarnings(outPath); // the exporter's
    std::error_code ec;
    const auto size = std::filesystem::file_size(PathFromUtf8(outPath), ec);
    out << "Wrote " << outPath << " (" << format->id;
    if (!ec) out << ", " << size << " bytes";
    out << ")\n";
    return kExitOk;
}

} // namespace gamefmt::cli
