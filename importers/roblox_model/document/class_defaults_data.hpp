// The generated class-defaults table (class_defaults_data.cpp, written by tools/rbx_defaults/gen_class_defaults.py;
// read through class_defaults.hpp): per class, its (serialized property name, value text) pairs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gamefmt::rbx {

namespace class_defaults {
struct Pair {
    const char *name; // serialized property name
    const char *text; // value text
};
struct ClassEntry {
    const char *name;
    std::uint32_t first; // into kClassPairs
    std::uint32_t count;
};
extern const char *const kDatabaseVersion;
extern const Pair kPairs[];
extern const std::size_t kPairCount;
extern const std::uint16_t kClassPairs[];
extern const ClassEntry kClasses[];
extern const std::size_t kClassCount;
} // namespace class_defaults

} // namespace gamefmt::rbx
