// Body colours and classic clothing on body parts (docs/formats/roblox-avatar.md §1–§2).
#include "assimp_glue/roblox_model/avatar_looks.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "importers/roblox_model/document/dom.hpp"

namespace gamefmt::glue {
namespace {

using rbx::ClothingCanvas;
using rbx::Limb;

// §1.4: the R15 canvas a limb group's parts share.
ClothingCanvas R15CanvasOf(Limb limb) {
    switch (limb) {
    case Limb::LeftArm:
    case Limb::LeftLeg:
        return ClothingCanvas::R15LeftLimb;
    case Limb::RightArm:
    case Limb::RightLeg:
        return ClothingCanvas::R15RightLimb;
    default:
        return ClothingCanvas::R15Torso;
    }
}

} // namespace

AvatarLooks::AvatarLooks(const rbx::Document &doc, const RbxGeometryOptions &options)
    : mOptions(options), mCharacters(rbx::FindCharacters(doc)) {
    for (std::size_t c = 0; c < mCharacters.size(); ++c)
        for (const rbx::BodyPart &bp : mCharacters[c].parts) mBodies.emplace(bp.part, Body{c, bp.limb});
}

const AvatarLooks::Body *AvatarLooks::body(std::uint32_t part) const {
    const auto it = mBodies.find(part);
    return it == mBodies.end() ? nullptr : &it->second;
}

std::uint32_t AvatarLooks::faceControls(std::uint32_t part) const {
    const Body *b = body(part);
    if (b == nullptr) return rbx::kNoInstance;
    const rbx::Character &ch = mCharacters[b->character];
    return ch.head == part ? ch.faceControls : rbx::kNoInstance;
}

std::optional<rbx::Color3uint8> AvatarLooks::bodyColor(std::uint32_t part) const {
    const Body *b = body(part);
    if (b == nullptr) return std::nullopt;
    const auto &colours = mCharacters[b->character].bodyColors;
    if (!colours) return std::nullopt;
    return (*colours)[static_cast<std::size_t>(b->limb)];
}

const RgbaImage *AvatarLooks::image(const std::string &uri) {
    if (uri.empty()) return nullptr;
    auto found = mImages.find(uri);
    if (found == mImages.end()) {
        std::optional<RgbaImage> decoded;
        std::optional<RbxAsset> asset = mOptions.assets ? mOptions.assets(uri, RbxAssetKind::Image) : std::nullopt;
        if (!asset) {
            mMissing.insert(uri);
        } else if (asset->format != "png") {
            mUnreadable.insert(uri + " (" + asset->format + ", not PNG)");
        } else {
            try {
                decoded = DecodePngRgba(asset->bytes.data(), asset->bytes.size(), std::uint64_t(1) << 24);
            } catch (const FormatError &e) {
                mUnreadable.insert(uri + " (" + e.what() + ")");
            }
        }
        found = mImages.emplace(uri, std::move(decoded)).first;
    }
    return found->second ? &*found->second : nullptr;
}

rbx::ClothingLayers AvatarLooks::clothingLayers(const rbx::Character &ch) {
    rbx::ClothingLayers layers;
    layers.pants = image(ch.clothing.pants);
    layers.shirt = image(ch.clothing.shirt);
    layers.tshirt = image(ch.clothing.tshirt);
    layers.pantsTint = ch.clothing.pantsTint;
    layers.shirtTint = ch.clothing.shirtTint;
    layers.tshirtTint = ch.clothing.tshirtTint;
    return layers;
}

const AvatarLooks::Composite *AvatarLooks::make(const std::string &key, ClothingCanvas canvas, Limb limb,
                                                const rbx::Character &ch, const RgbaImage *overlay) {
    const auto found = mComposites.find(key);
    if (found != mComposites.end()) return &found->second;
    rbx::ClothingLayers layers = clothingLayers(ch);
    if (ch.bodyColors) layers.bodyColor = (*ch.bodyColors)[static_cast<std::size_t>(limb)];
    layers.overlay = overlay;
    const RgbaImage out = rbx::CompositeClothing(canvas, limb, layers, mOptions.clothingScale);
    Composite c;
    c.png = EncodePngRgba(out.rgba.data(), out.width, out.height, rbx::kFormatName, PngEffort::Fast);
    c.name = key;
    return &mComposites.emplace(key, std::move(c)).first->second;
}

const AvatarLooks::Composite *AvatarLooks::r15Composite(std::uint32_t part, const std::string &ownTexture) {
    const Body *b = body(part);
    if (!mOptions.clothing || b == nullptr || b->limb == Limb::Head) return nullptr;
    const rbx::Character &ch = mCharacters[b->character];
    if (ch.rig != rbx::AvatarRig::R15) return nullptr;
    const ClothingCanvas canvas = R15CanvasOf(b->limb);
    const bool arm = b->limb == Limb::LeftArm || b->limb == Limb::RightArm;
    const bool leg = b->limb == Limb::LeftLeg || b->limb == Limb::RightLeg;
    // The clothing this canvas takes (§1.4: pants on torso and legs, the shirt on torso and arms, the T-shirt on the
    // torso).
    const bool clothing = (!arm && image(ch.clothing.pants) != nullptr) ||
                          (!leg && image(ch.clothing.shirt) != nullptr) ||
                          (canvas == ClothingCanvas::R15Torso && image(ch.clothing.tshirt) != nullptr);
    const RgbaImage *overlay = image(ownTexture);
    if (!clothing && overlay == nullptr) return nullptr;
    const char *canvasName = canvas == ClothingCanvas::R15Torso      ? "torso"
                             : canvas == ClothingCanvas::R15LeftLimb ? (arm ? "left arm" : "left leg")
                                                                     : (arm ? "right arm" : "right leg");
    std::string key = "avatar " + std::to_string(ch.model) + " " + canvasName;
    if (overlay != nullptr) key += " + " + ownTexture;
    return make(key, canvas, b->limb, ch, overlay);
}

const AvatarLooks::Composite *AvatarLooks::r6Atlas(std::uint32_t part) {
    const Body *b = body(part);
    if (!mOptions.clothing || b == nullptr || b->limb == Limb::Head) return nullptr;
    const rbx::Character &ch = mCharacters[b->character];
    if (ch.rig != rbx::AvatarRig::R6) return nullptr;
    if (image(ch.clothing.pants) == nullptr && image(ch.clothing.shirt) == nullptr &&
        image(ch.clothing.tshirt) == nullptr)
        return nullptr;
    // One atlas per character: each limb's rectangles over its own body colour (§1.3, §2).
    const std::string key = "avatar " + std::to_string(ch.model) + " R6";
    const auto found = mComposites.find(key);
    if (found != mComposites.end()) return &found->second;
    const rbx::ClothingLayers layers = clothingLayers(ch);
    std::array<rbx::Color3uint8, rbx::kLimbCount> colours;
    colours.fill(rbx::Color3uint8{163, 162, 165});
    if (ch.bodyColors) colours = *ch.bodyColors;
    const RgbaImage out = rbx::CompositeR6Atlas(colours, layers, mOptions.clothingScale);
    Composite c;
    c.png = EncodePngRgba(out.rgba.data(), out.width, out.height, rbx::kFormatName, PngEffort::Fast);
    c.name = key;
    return &mComposites.emplace(key, std::move(c)).first->second;
}

void AvatarLooks::warnings() const {
    const std::string prefix = std::string(rbx::kFormatName) + ": ";
    if (!mMissing.empty()) {
        std::string list;
        for (const std::string &uri : mMissing) list += (list.empty() ? "" : ", ") + SanitizeForAiString(uri, 120);
        LogWarn(prefix + std::to_string(mMissing.size()) +
                " classic clothing or body texture image(s) not in the asset folders (--asset-dir; `gamefmt assets "
                "--missing` lists them); the layers that exist are composited: " +
                SanitizeForAiString(list, 600));
    }
    if (!mUnreadable.empty()) {
        std::string list;
        for (const std::string &what : mUnreadable) list += (list.empty() ? "" : "; ") + what;
        LogWarn(prefix + std::to_string(mUnreadable.size()) +
                " classic clothing or body texture image(s) could not be composited (only PNG is decoded): " +
                SanitizeForAiString(list, 600));
    }
}

} // namespace gamefmt::glue
