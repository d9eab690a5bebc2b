// Link shim for Debian's libassimp (docs/formats/assimp-integration.md §5): its version script hides
// DeadlyErrorBase's constructor while exporting the class's typeinfo and vtable, so DeadlyImportError
// and DeadlyExportError cannot be constructed outside the library. CMake compiles this file only when a
// configure-time link test shows the symbol missing; against an Assimp that exports it, it would be a
// duplicate definition. With it, our exporters' DeadlyExportError text reaches Exporter::GetErrorString.
#include <assimp/Exceptional.h>

#include <string>

DeadlyErrorBase::DeadlyErrorBase(Assimp::Formatter::format f) : runtime_error(std::string(f)) {}
