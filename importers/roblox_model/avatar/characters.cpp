// Avatars in a Roblox document (docs/formats/roblox-avatar.md §1.1, §2, §3.1, §5, §6).
#include "importers/roblox_model/avatar/characters.hpp"

#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/appearance/brickcolor.hpp"
#include "importers/roblox_model/document/properties.hpp"

#include <algorithm>
#include <cmath>

namespace gamefmt::rbx {
namespace {

struct NamedLimb {
    const char *name;
    Limb limb;
};
constexpr NamedLimb kBodyParts[] = {
    {"Head", Limb::Head},
    {"UpperTorso", Limb::Torso},
    {"LowerTorso", Limb::Torso},
    {"LeftUpperArm", Limb::LeftArm},
    {"LeftLowerArm", Limb::LeftArm},
    {"LeftHand", Limb::LeftArm},
    {"RightUpperArm", Limb::RightArm},
    {"RightLowerArm", Limb::RightArm},
    {"RightHand", Limb::RightArm},
    {"LeftUpperLeg", Limb::LeftLeg},
    {"LeftLowerLeg", Limb::LeftLeg},
    {"LeftFoot", Limb::LeftLeg},
    {"RightUpperLeg", Limb::RightLeg},
    {"RightLowerLeg", Limb::RightLeg},
    {"RightFoot", Limb::RightLeg},
    {"Torso", Limb::Torso},
    {"Left Arm", Limb::LeftArm},
    {"Right Arm", Limb::RightArm},
    {"Left Leg", Limb::LeftLeg},
    {"Right Leg", Limb::RightLeg},
};

// §2: the BodyColors properties by limb (Color3, then the BrickColor twin).
struct BodyColorProps {
    Limb limb;
    const char *color3, *brick;
};
constexpr BodyColorProps kBodyColorProps[] = {
    {Limb::Head, "HeadColor3", "HeadColor"},          {Limb::Torso, "TorsoColor3", "TorsoColor"},
    {Limb::LeftArm, "LeftArmColor3", "LeftArmColor"}, {Limb::RightArm, "RightArmColor3", "RightArmColor"},
    {Limb::LeftLeg, "LeftLegColor3", "LeftLegColor"}, {Limb::RightLeg, "RightLegColor3", "RightLegColor"},
};

// §5 FaceControls, with the FACS codes a dynamic head's mesh names them by: c_ (centre), l_/r_ (left/right) and the
// initials of the words (docs/formats/roblox-avatar.md §5.1).
const std::vector<FacsControlName> kFacsControls = {
    {"ChinRaiser", "c_CR"},
    {"ChinRaiserUpperLip", "c_CRUL"},
    {"Corrugator", "c_COR"},
    {"EyesLookDown", "c_ELD"},
    {"EyesLookLeft", "c_ELL"},
    {"EyesLookRight", "c_ELR"},
    {"EyesLookUp", "c_ELU"},
    {"FlatPucker", "c_FP"},
    {"Funneler", "c_FN"},
    {"JawDrop", "c_JD"},
    {"JawLeft", "c_JL"},
    {"JawRight", "c_JR"},
    {"LipPresser", "c_LP"},
    {"LipsTogether", "c_LPT"},
    {"LowerLipSuck", "c_LLS"},
    {"MouthLeft", "c_ML"},
    {"MouthRight", "c_MR"},
    {"Pucker", "c_PK"},
    {"TongueDown", "c_TD"},
    {"TongueOut", "c_TO"},
    {"TongueUp", "c_TU"},
    {"UpperLipSuck", "c_ULS"},
    {"LeftBrowLowerer", "l_BL"},
    {"LeftCheekPuff", "l_CHP"},
    {"LeftCheekRaiser", "l_CHR"},
    {"LeftDimpler", "l_DM"},
    {"LeftEyeClosed", "l_EC"},
    {"LeftEyeUpperLidRaiser", "l_EULR"},
    {"LeftInnerBrowRaiser", "l_IBR"},
    {"LeftLipCornerDown", "l_LCD"},
    {"LeftLipCornerPuller", "l_LCP"},
    {"LeftLowerLipDepressor", "l_LLD"},
    {"LeftLipStretcher", "l_LS"},
    {"LeftNoseWrinkler", "l_NW"},
    {"LeftOuterBrowRaiser", "l_OBR"},
    {"LeftUpperLipRaiser", "l_ULR"},
    {"RightBrowLowerer", "r_BL"},
    {"RightCheekPuff", "r_CHP"},
    {"RightCheekRaiser", "r_CHR"},
    {"RightDimpler", "r_DM"},
    {"RightEyeClosed", "r_EC"},
    {"RightEyeUpperLidRaiser", "r_EULR"},
    {"RightInnerBrowRaiser", "r_IBR"},
    {"RightLipCornerDown", "r_LCD"},
    {"RightLipCornerPuller", "r_LCP"},
    {"RightLowerLipDepressor", "r_LLD"},
    {"RightLipStretcher", "r_LS"},
    {"RightNoseWrinkler", "r_NW"},
    {"RightOuterBrowRaiser", "r_OBR"},
    {"RightUpperLipRaiser", "r_ULR"},
};

std::uint8_t Byte(float v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    return static_cast<std::uint8_t>(std::lround(v * 255.0f));
}

std::optional<Color3uint8> ColorOf(const Document &doc, std::uint32_t i, const char *color3, const char *brick) {
    if (const Property *p = PropertyOf(doc, i, color3)) {
        if (const auto *c = std::get_if<Color3>(&p->value.data)) return Color3uint8{Byte(c->r), Byte(c->g), Byte(c->b)};
        if (const auto *c = std::get_if<Color3uint8>(&p->value.data)) return *c;
    }
    if (brick != nullptr)
        if (const Property *p = PropertyOf(doc, i, brick)) {
            const double n = NumberValue(p, -1);
            if (const auto *b = std::get_if<BrickColor>(&p->value.data)) {
                if (auto rgb = BrickColorRgb(b->number)) return rgb;
            } else if (n >= 0) {
                if (auto rgb = BrickColorRgb(static_cast<std::uint32_t>(n))) return rgb;
            }
        }
    return std::nullopt;
}

std::string UriOf(const Document &doc, std::uint32_t i, std::initializer_list<const char *> names) {
    for (const char *name : names) {
        std::string uri = ContentUriOf(PropertyOf(doc, i, name));
        if (!uri.empty()) return uri;
    }
    return {};
}

std::uint32_t ChildOfClass(const Document &doc, std::uint32_t parent, std::string_view cls) {
    for (std::uint32_t c : doc.instances[parent].children)
        if (c < doc.instances.size() && doc.className(doc.instances[c]) == cls) return c;
    return kNoInstance;
}

std::uint32_t ChildNamed(const Document &doc, std::uint32_t parent, std::string_view name) {
    for (std::uint32_t c : doc.instances[parent].children)
        if (c < doc.instances.size() && doc.instances[c].name == name) return c;
    return kNoInstance;
}

void ReadClothing(const Document &doc, Character &ch) {
    if (const std::uint32_t s = ChildOfClass(doc, ch.model, "Shirt"); s != kNoInstance) {
        ch.clothing.shirt = UriOf(doc, s, {"ShirtTemplate", "ShirtTemplateContent"});
        ch.clothing.shirtTint = ColorOf(doc, s, "Color3", nullptr).value_or(Color3uint8{255, 255, 255});
    }
    if (const std::uint32_t p = ChildOfClass(doc, ch.model, "Pants"); p != kNoInstance) {
        ch.clothing.pants = UriOf(doc, p, {"PantsTemplate", "PantsTemplateContent"});
        ch.clothing.pantsTint = ColorOf(doc, p, "Color3", nullptr).value_or(Color3uint8{255, 255, 255});
    }
    if (const std::uint32_t g = ChildOfClass(doc, ch.model, "ShirtGraphic"); g != kNoInstance) {
        ch.clothing.tshirt = UriOf(doc, g, {"Graphic", "GraphicContent"});
        ch.clothing.tshirtTint = ColorOf(doc, g, "Color3", nullptr).value_or(Color3uint8{255, 255, 255});
    }
}

void ReadBodyColors(const Document &doc, Character &ch) {
    const std::uint32_t bc = ChildOfClass(doc, ch.model, "BodyColors");
    if (bc == kNoInstance) return;
    std::array<Color3uint8, kLimbCount> colours;
    colours.fill(Color3uint8{163, 162, 165});
    for (const BodyColorProps &p : kBodyColorProps)
        if (auto c = ColorOf(doc, bc, p.color3, p.brick)) colours[static_cast<std::size_t>(p.limb)] = *c;
    ch.bodyColors = colours;
}

WrapInfo ReadWrap(const Document &doc, std::uint32_t wrap, std::uint32_t part) {
    WrapInfo w;
    w.wrap = wrap;
    w.part = part;
    w.cage = UriOf(doc, wrap, {"CageMeshContent", "CageMeshId"});
    w.cageOrigin = RigidOf(doc, wrap, "CageOrigin");
    w.reference = UriOf(doc, wrap, {"ReferenceMeshContent", "ReferenceMeshId"});
    w.referenceOrigin = RigidOf(doc, wrap, "ReferenceOrigin");
    w.order = static_cast<std::int32_t>(NumberOf(doc, wrap, "Order", 1));
    w.autoSkin = static_cast<std::uint32_t>(NumberOf(doc, wrap, "AutoSkin", 0));
    return w;
}

// The body attachment of the character whose name is `name` (first in body part order), with its part.
std::pair<std::uint32_t, std::uint32_t> BodyAttachment(const Document &doc, const Character &ch,
                                                       std::string_view name) {
    for (const BodyPart &bp : ch.parts)
        for (std::uint32_t c : doc.instances[bp.part].children)
            if (c < doc.instances.size() && IsClass(doc, c, "Attachment") && doc.instances[c].name == name)
                return {bp.part, c};
    return {kNoInstance, kNoInstance};
}

void ReadAccessory(const Document &doc, Character &ch, std::uint32_t acc) {
    AccessoryInfo a;
    a.accessory = acc;
    a.handle = ChildNamed(doc, acc, "Handle");
    // The handle is a part (a BasePart has a CFrame); anything else named Handle is not worn.
    if (a.handle == kNoInstance || PropertyOf(doc, a.handle, "CFrame") == nullptr) return;
    for (std::uint32_t c : doc.instances[a.handle].children) {
        if (c >= doc.instances.size() || !IsClass(doc, c, "Attachment")) continue;
        const auto [part, att] = BodyAttachment(doc, ch, doc.instances[c].name);
        if (att == kNoInstance) continue;
        a.bodyPart = part;
        a.bodyAttachment = att;
        a.handleAttachment = c;
        a.placement = RigidOf(doc, att, "CFrame") * RigidOf(doc, c, "CFrame").inverse();
        break;
    }
    if (a.bodyPart == kNoInstance && ch.head != kNoInstance && PropertyOf(doc, acc, "AttachmentPoint") != nullptr) {
        a.bodyPart = ch.head; // a legacy hat: Head · T(0, 0.5, 0) · AttachmentPoint⁻¹
        a.legacy = true;
        Rigid up;
        up.p = {0, 0.5, 0};
        a.placement = up * RigidOf(doc, acc, "AttachmentPoint").inverse();
    }
    for (std::uint32_t c : doc.instances[a.handle].children)
        if (c < doc.instances.size() && IsClass(doc, c, "WrapLayer") && BoolOf(doc, c, "Enabled", true)) {
            WrapInfo w = ReadWrap(doc, c, a.handle);
            w.accessory = acc;
            ch.layers.push_back(std::move(w));
        }
    ch.accessories.push_back(a);
}

} // namespace

std::optional<Limb> LimbOfPartName(std::string_view name) {
    for (const NamedLimb &l : kBodyParts)
        if (name == l.name) return l.limb;
    return std::nullopt;
}

const std::vector<FacsControlName> &FacsControlNames() {
    return kFacsControls;
}

std::string_view FacsCodeOf(std::string_view property) {
    for (const FacsControlName &c : kFacsControls)
        if (property == c.property) return c.code;
    return {};
}

double FacsTargetWeight(std::string_view target, const std::function<double(std::string_view control)> &valueOf) {
    double weight = 1;
    bool any = false;
    while (!target.empty()) {
        const std::size_t plus = target.find('+');
        const std::string_view code = target.substr(0, plus);
        const FacsControlName *control = nullptr;
        for (const FacsControlName &c : kFacsControls)
            if (code == c.code) control = &c;
        if (control == nullptr) return 0;
        weight *= valueOf(control->property);
        any = true;
        target = plus == std::string_view::npos ? std::string_view() : target.substr(plus + 1);
    }
    return any ? weight : 0;
}

std::vector<std::pair<std::string, float>> FaceControlValues(const Document &doc, std::uint32_t faceControls) {
    std::vector<std::pair<std::string, float>> out;
    if (faceControls >= doc.instances.size()) return out;
    for (const FacsControlName &c : kFacsControls) {
        const Property *p = PropertyOf(doc, faceControls, c.property);
        if (p == nullptr) continue;
        const double v = NumberValue(p, 0);
        out.emplace_back(c.property, std::isfinite(v) ? static_cast<float>(std::clamp(v, 0.0, 1.0)) : 0.0f);
    }
    return out;
}

bool AvatarReads(std::string_view name) {
    static const std::string_view kNames[] = {"ShirtTemplate",   "ShirtTemplateContent",
                                              "PantsTemplate",   "PantsTemplateContent",
                                              "Graphic",         "GraphicContent",
                                              "Color3",          "RigType",
                                              "AttachmentPoint", "CageMeshId",
                                              "CageMeshContent", "CageOrigin",
                                              "ReferenceMeshId", "ReferenceMeshContent",
                                              "ReferenceOrigin", "Order",
                                              "AutoSkin",        "Enabled",
                                              "CFrame"};
    if (std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames)) return true;
    for (const BodyColorProps &p : kBodyColorProps)
        if (name == p.color3 || name == p.brick) return true;
    return !FacsCodeOf(name).empty();
}

std::vector<Character> FindCharacters(const Document &doc) {
    std::vector<Character> out;
    for (std::uint32_t m = 0; m < doc.instances.size(); ++m) {
        if (!IsClass(doc, m, "Model") && !IsClass(doc, m, "WorldModel")) continue;
        const std::uint32_t humanoid = ChildOfClass(doc, m, "Humanoid");
        if (humanoid == kNoInstance) continue;
        Character ch;
        ch.model = m;
        ch.humanoid = humanoid;
        bool upperTorso = false;
        for (std::uint32_t c : doc.instances[m].children) {
            if (c >= doc.instances.size()) continue;
            const std::optional<Limb> limb = LimbOfPartName(doc.instances[c].name);
            if (!limb || PropertyOf(doc, c, "CFrame") == nullptr) continue; // a BasePart has a CFrame
            ch.parts.push_back({c, *limb});
            if (doc.instances[c].name == "UpperTorso") upperTorso = true;
            if (*limb == Limb::Head && ch.head == kNoInstance) ch.head = c;
        }
        if (ch.parts.empty()) continue;
        const Property *rigType = PropertyOf(doc, humanoid, "RigType");
        ch.rig = rigType != nullptr ? (NumberValue(rigType, 1) == 0 ? AvatarRig::R6 : AvatarRig::R15)
                                    : (upperTorso ? AvatarRig::R15 : AvatarRig::R6);
        ReadBodyColors(doc, ch);
        ReadClothing(doc, ch);
        if (ch.head != kNoInstance) ch.faceControls = ChildOfClass(doc, ch.head, "FaceControls");
        for (const BodyPart &bp : ch.parts)
            for (std::uint32_t c : doc.instances[bp.part].children)
                if (c < doc.instances.size() && IsClass(doc, c, "WrapTarget"))
                    ch.targets.push_back(ReadWrap(doc, c, bp.part));
        for (std::uint32_t c : doc.instances[m].children)
            if (c < doc.instances.size() &&
                (IsClass(doc, c, "Accessory") || IsClass(doc, c, "Hat") || IsClass(doc, c, "Accoutrement")))
                ReadAccessory(doc, ch, c);
        out.push_back(std::move(ch));
    }
    return out;
}

} // namespace gamefmt::rbx
