// Body colours and classic clothing on the characters of a Roblox document (docs/formats/roblox-avatar.md §1–§2):
// which parts are body parts, the colour BodyColors gives them, and the composited textures (R15: torso and limb
// textures; R6: one atlas per character) their UVs point into. The geometry builder asks; this class loads the
// template images through the asset resolver once each and composites each texture once.
#pragma once

#include "assimp_glue/roblox_model/geometry.hpp"
#include "common/png.hpp"
#include "importers/roblox_model/avatar/characters.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace gamefmt::glue {

class AvatarLooks {
public:
    AvatarLooks(const rbx::Document &doc, const RbxGeometryOptions &options);

    struct Body {
        std::size_t character = 0;
        rbx::Limb limb = rbx::Limb::Torso;
    };
    // The body part facts of `part`, null when it is not a body part of a character.
    const Body *body(std::uint32_t part) const;
    const std::vector<rbx::Character> &characters() const { return mCharacters; }

    // §5: the FaceControls of a character's head part, kNoInstance for any other part.
    std::uint32_t faceControls(std::uint32_t part) const;

    // §2: the colour BodyColors gives the body part (nullopt: not a body part, or no BodyColors).
    std::optional<rbx::Color3uint8> bodyColor(std::uint32_t part) const;

    // A composited texture: PNG bytes and a name for it (the texture's file name hint).
    struct Composite {
        std::vector<std::uint8_t> png;
        std::string name;
    };
    // The texture an R15 MeshPart body part shows (§1.4): the body colour, the character's pants, shirt and T-shirt
    // where its canvas takes them, its own texture (`ownTexture`, may be empty) on top. Null when clothing is off,
    // the part is not an R15 body part or the head, or there is nothing to composite (no clothing image and no own
    // texture). One composite per (character, canvas, own texture).
    const Composite *r15Composite(std::uint32_t part, const std::string &ownTexture);
    // The R6 atlas of the part's character (§1.3) when the part is an R6 body part other than the head and the
    // character wears some classic clothing image that loads; null otherwise.
    const Composite *r6Atlas(std::uint32_t part);

    // One warning naming what could not be composited (missing or unreadable clothing images).
    void warnings() const;

private:
    const RgbaImage *image(const std::string &uri);
    rbx::ClothingLayers clothingLayers(const rbx::Character &ch); // the images and tints, no colour or overlay
    const Composite *make(const std::string &key, rbx::ClothingCanvas canvas, rbx::Limb limb, const rbx::Character &ch,
                          const RgbaImage *overlay);

    const RbxGeometryOptions &mOptions;
    std::vector<rbx::Character> mCharacters;
    std::unordered_map<std::uint32_t, Body> mBodies;
    std::map<std::string, std::optional<RgbaImage>> mImages; // URI → decoded, nullopt when unavailable
    std::map<std::string, Composite> mComposites;
    std::set<std::string> mMissing, mUnreadable;
};

} // namespace gamefmt::glue
