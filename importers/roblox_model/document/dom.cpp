// The Roblox document model: name interning, tree building.
#include "importers/roblox_model/document/dom.hpp"

namespace gamefmt::rbx {

const char *TypeName(Type type) {
    switch (type) {
    case Type::String:
        return "String";
    case Type::Bool:
        return "Bool";
    case Type::Int32:
        return "Int32";
    case Type::Float32:
        return "Float32";
    case Type::Float64:
        return "Float64";
    case Type::UDim:
        return "UDim";
    case Type::UDim2:
        return "UDim2";
    case Type::Ray:
        return "Ray";
    case Type::Faces:
        return "Faces";
    case Type::Axes:
        return "Axes";
    case Type::BrickColor:
        return "BrickColor";
    case Type::Color3:
        return "Color3";
    case Type::Vector2:
        return "Vector2";
    case Type::Vector3:
        return "Vector3";
    case Type::Vector2int16:
        return "Vector2int16";
    case Type::CFrame:
        return "CFrame";
    case Type::CFrameQuat:
        return "CFrameQuat";
    case Type::Enum:
        return "Enum";
    case Type::Ref:
        return "Ref";
    case Type::Vector3int16:
        return "Vector3int16";
    case Type::NumberSequence:
        return "NumberSequence";
    case Type::ColorSequence:
        return "ColorSequence";
    case Type::NumberRange:
        return "NumberRange";
    case Type::Rect:
        return "Rect";
    case Type::PhysicalProperties:
        return "PhysicalProperties";
    case Type::Color3uint8:
        return "Color3uint8";
    case Type::Int64:
        return "Int64";
    case Type::SharedString:
        return "SharedString";
    case Type::Bytecode:
        return "Bytecode";
    case Type::OptionalCFrame:
        return "OptionalCFrame";
    case Type::UniqueId:
        return "UniqueId";
    case Type::Font:
        return "Font";
    case Type::SecurityCapabilities:
        return "SecurityCapabilities";
    case Type::Content:
        return "Content";
    case Type::Unknown:
        return "Unknown";
    }
    return "Unknown";
}

std::uint32_t NameTable::intern(std::string_view s) {
    auto it = mIds.find(std::string(s));
    if (it != mIds.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(mStrings.size());
    mStrings.emplace_back(s);
    mIds.emplace(mStrings.back(), id);
    return id;
}

std::optional<std::uint32_t> NameTable::find(std::string_view s) const {
    auto it = mIds.find(std::string(s));
    if (it == mIds.end()) return std::nullopt;
    return it->second;
}

std::uint32_t Document::addInstance(std::string_view className, std::string_view name) {
    Instance instance;
    instance.className = names.intern(className);
    instance.name = std::string(name);
    instances.push_back(std::move(instance));
    return static_cast<std::uint32_t>(instances.size() - 1);
}

std::uint32_t Document::addInstance(std::string_view className, std::string_view name, std::uint32_t parent) {
    const std::uint32_t added = addInstance(className, name);
    setParent(added, parent);
    return added;
}

void Document::setParent(std::uint32_t child, std::uint32_t parent) {
    instances[child].parent = parent;
    if (parent == kNoInstance)
        roots.push_back(child);
    else
        instances[parent].children.push_back(child);
}

const Property *Document::findProperty(const Instance &i, std::string_view name) const {
    const std::optional<std::uint32_t> id = names.find(name);
    return id ? i.find(*id) : nullptr;
}

} // namespace gamefmt::rbx
