// Avatars in a Roblox document (docs/formats/roblox-avatar.md): the characters (a Model holding a Humanoid), their
// body parts by limb, BodyColors, classic clothing, accessories with the attachments that place them, layered
// clothing (WrapLayer) and the body's cages (WrapTarget), and the dynamic head's FaceControls. Reading only; the
// glue composites, fits and animates.
#pragma once

#include "common/math.hpp"
#include "importers/roblox_model/avatar/clothing.hpp"
#include "importers/roblox_model/document/dom.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::rbx {

enum class AvatarRig : std::uint8_t { R6, R15 };

struct BodyPart {
    std::uint32_t part = kNoInstance;
    Limb limb = Limb::Torso;
};

// §1.1: the first Shirt, Pants and ShirtGraphic of the character; empty URIs when absent. Tints are Color3 (white
// when absent).
struct ClassicClothing {
    std::string shirt, pants, tshirt;
    Color3uint8 shirtTint{255, 255, 255}, pantsTint{255, 255, 255}, tshirtTint{255, 255, 255};
    bool any() const { return !shirt.empty() || !pants.empty() || !tshirt.empty(); }
};

// §6: an Accessory (or legacy Hat) and how its Handle is worn.
struct AccessoryInfo {
    std::uint32_t accessory = kNoInstance;
    std::uint32_t handle = kNoInstance;
    // The body part and the matched attachments (same name, one under the handle, one under a body part); kNoInstance
    // when none matches.
    std::uint32_t bodyPart = kNoInstance, bodyAttachment = kNoInstance, handleAttachment = kNoInstance;
    // world(handle) = world(bodyPart) · placement: bodyAtt.CFrame · handleAtt.CFrame⁻¹, or for a legacy hat with no
    // match T(0, 0.5, 0) · AttachmentPoint⁻¹ on the head (§6). Valid when bodyPart is set.
    Rigid placement;
    bool legacy = false; // placed by AttachmentPoint
};

// §3.1: a WrapLayer (on a clothing MeshPart) or WrapTarget (on a body part).
struct WrapInfo {
    std::uint32_t wrap = kNoInstance; // the WrapLayer / WrapTarget
    std::uint32_t part = kNoInstance; // its parent MeshPart
    std::string cage;                 // CageMeshId / CageMeshContent (WrapLayer: outer cage; WrapTarget: the body cage)
    Rigid cageOrigin;
    std::string reference; // WrapLayer: ReferenceMeshId (the inner cage)
    Rigid referenceOrigin;
    std::int32_t order = 1;                // WrapLayer.Order
    std::uint32_t autoSkin = 0;            // 0 Disabled, 1 EnabledPreserve, 2 EnabledOverride
    std::uint32_t accessory = kNoInstance; // the Accessory the clothing belongs to, if any
};

struct Character {
    std::uint32_t model = kNoInstance;
    std::uint32_t humanoid = kNoInstance;
    AvatarRig rig = AvatarRig::R15;
    std::vector<BodyPart> parts;
    // §2: BodyColors by limb (Color3 properties, else their BrickColor twins); nullopt when the character has none.
    std::optional<std::array<Color3uint8, kLimbCount>> bodyColors;
    ClassicClothing clothing;
    std::vector<AccessoryInfo> accessories;
    std::vector<WrapInfo> layers;  // WrapLayers (Enabled), in document order; the fit sorts them by Order, stably
    std::vector<WrapInfo> targets; // WrapTargets of body parts
    std::uint32_t head = kNoInstance;
    std::uint32_t faceControls = kNoInstance; // the head's FaceControls
};

// Every character of the document: a Model with a Humanoid child and at least one body part among its children
// (R15 names: UpperTorso, LeftUpperArm…; R6: Torso, "Left Arm"…). The rig is Humanoid.RigType when it is there,
// else R15 when an UpperTorso is.
std::vector<Character> FindCharacters(const Document &doc);

// The limb a body part name belongs to (R15 and R6 names), nullopt for other names (HumanoidRootPart too).
std::optional<Limb> LimbOfPartName(std::string_view name);

// The FaceControls property names (§5) in FACS order with their FACS codes in a head mesh ("JawDrop" ↔ "c_JD").
struct FacsControlName {
    const char *property;
    const char *code;
};
const std::vector<FacsControlName> &FacsControlNames();
// "JawDrop" → "c_JD"; "" for a name that is not a control.
std::string_view FacsCodeOf(std::string_view property);

// The weight of a head mesh's morph target named after a FACS column (§5): the control's value for "c_JD", the
// product of its components' for a corrective "c_JD+l_EC(+…)"; `valueOf` takes the FaceControls property name. Names
// that are not FACS codes weigh 0.
double FacsTargetWeight(std::string_view target, const std::function<double(std::string_view control)> &valueOf);

// The FaceControls values a file sets (property name → 0..1; absent controls are 0).
std::vector<std::pair<std::string, float>> FaceControlValues(const Document &doc, std::uint32_t faceControls);

// True for the serialized property names this module reads (ReadOptions::keepProperty).
bool AvatarReads(std::string_view name);

} // namespace gamefmt::rbx
