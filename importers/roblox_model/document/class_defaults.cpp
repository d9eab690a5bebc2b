// Looking up class defaults (class_defaults.hpp) in the generated table.
#include "importers/roblox_model/document/class_defaults.hpp"

#include "importers/roblox_model/document/class_defaults_data.hpp"

#include "common/error.hpp"
#include "importers/roblox_model/document/value_text.hpp"

#include <algorithm>
#include <cstring>
#include <variant>

namespace gamefmt::rbx {

using class_defaults::ClassEntry;
using class_defaults::Pair;

const char *ClassDefaultText(std::string_view className, std::string_view property) {
    const ClassEntry *classesEnd = class_defaults::kClasses + class_defaults::kClassCount;
    const ClassEntry *c = std::lower_bound(class_defaults::kClasses, classesEnd, className,
                                           [](const ClassEntry &e, std::string_view n) { return e.name < n; });
    if (c == classesEnd || c->name != className) return nullptr;
    const std::uint16_t *first = class_defaults::kClassPairs + c->first;
    const std::uint16_t *last = first + c->count;
    const std::uint16_t *p = std::lower_bound(first, last, property, [](std::uint16_t id, std::string_view n) {
        return std::string_view(class_defaults::kPairs[id].name) < n;
    });
    if (p == last || class_defaults::kPairs[*p].name != property) return nullptr;
    return class_defaults::kPairs[*p].text;
}

std::optional<Value> ClassDefault(std::string_view className, std::string_view property, Type type) {
    const char *text = ClassDefaultText(className, property);
    if (!text) return std::nullopt;
    Document scratch; // the table holds no Ref or SharedString values: nothing lands here
    Value v = ParseValue(text, scratch);
    if (v.type == type) return v;
    const auto isFrame = [](Type t) { return t == Type::CFrame || t == Type::CFrameQuat; };
    if (isFrame(v.type) && isFrame(type)) {
        v.type = type;
        return v;
    }
    if (v.type == Type::Float32 && type == Type::Float64) return Value{type, static_cast<double>(v.as<float>())};
    if (v.type == Type::Float64 && type == Type::Float32) {
        const auto f = static_cast<float>(v.as<double>());
        if (static_cast<double>(f) == v.as<double>()) return Value{type, f};
    }
    return std::nullopt;
}

const char *ClassDefaultsVersion() {
    return class_defaults::kDatabaseVersion;
}

} // namespace gamefmt::rbx
