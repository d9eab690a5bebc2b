// Classic clothing compositing (docs/formats/roblox-avatar.md §1, §7.1, §7.2). The oracle is the reference's own
// numbers, typed here: the template faces of §1.2, the destination rectangles and formulas of §1.3/§1.4 and the
// centre pairs of §7.1. The template used is a coordinate code (each pixel's colour names its x and y), so a
// composited pixel says exactly which template pixel it shows.
#include "importers/roblox_model/avatar/clothing.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using gamefmt::RgbaImage;
using namespace gamefmt::rbx;

// Pixel (x, y) of the code template: r = x mod 256, g = y mod 256, b = 16·(x div 256) + (y div 256), opaque.
RgbaImage CodeTemplate(std::uint32_t w = 585, std::uint32_t h = 559) {
    RgbaImage t;
    t.width = w;
    t.height = h;
    t.rgba.resize(std::size_t(w) * h * 4);
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            std::uint8_t *p = &t.rgba[(std::size_t(y) * w + x) * 4];
            p[0] = static_cast<std::uint8_t>(x % 256);
            p[1] = static_cast<std::uint8_t>(y % 256);
            p[2] = static_cast<std::uint8_t>(16 * (x / 256) + y / 256);
            p[3] = 255;
        }
    return t;
}

RgbaImage Solid(std::uint32_t w, std::uint32_t h, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
    RgbaImage t;
    t.width = w;
    t.height = h;
    t.rgba.resize(std::size_t(w) * h * 4);
    for (std::size_t i = 0; i < t.rgba.size(); i += 4) {
        t.rgba[i] = r;
        t.rgba[i + 1] = g;
        t.rgba[i + 2] = b;
        t.rgba[i + 3] = a;
    }
    return t;
}

struct Xy {
    int x, y;
};

const std::uint8_t *Pixel(const RgbaImage &image, int x, int y) {
    return &image.rgba[(std::size_t(y) * image.width + std::size_t(x)) * 4];
}

// The template pixel a composited pixel shows (decoding the code template).
Xy Decode(const RgbaImage &image, int x, int y) {
    const std::uint8_t *p = Pixel(image, x, y);
    return {p[0] + 256 * (p[2] / 16), p[1] + 256 * (p[2] % 16)};
}

// §1.2 template faces, typed from the reference.
struct Rect {
    int x, y, w, h;
    bool contains(Xy p) const { return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h; }
};
constexpr Rect kTorsoFront{231, 74, 128, 128}, kTorsoBack{427, 74, 128, 128}, kTorsoR{165, 74, 64, 128},
    kTorsoL{361, 74, 64, 128}, kTorsoUp{231, 8, 128, 64}, kTorsoDown{231, 204, 128, 64};
constexpr Rect kLeftU{308, 289, 64, 64}, kLeftF{308, 355, 64, 128}, kLeftL{374, 355, 64, 128},
    kLeftB{440, 355, 64, 128}, kLeftR{506, 355, 64, 128}, kLeftD{308, 485, 64, 64};
constexpr Rect kRightF{217, 355, 64, 128}, kRightR{151, 355, 64, 128}, kRightL{19, 355, 64, 128};

// §7.1 R15 torso: each destination face centre shows the same template pixel shifted (the faces are shifted only).
TEST(RbxAvatarClothing, R15TorsoFaceCentresLandWhereTheReferenceSays) {
    const RgbaImage shirt = CodeTemplate();
    ClothingLayers layers;
    layers.shirt = &shirt;
    const RgbaImage torso = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, layers);
    ASSERT_EQ(torso.width, 388u);
    ASSERT_EQ(torso.height, 272u);
    const std::pair<Xy, Xy> pairs[] = {{{295, 138}, {66, 138}},  {{491, 138}, {258, 138}}, {{197, 138}, {354, 138}},
                                       {{393, 138}, {162, 138}}, {{295, 40}, {66, 42}},    {{295, 236}, {66, 234}}};
    for (const auto &[from, to] : pairs) {
        const Xy got = Decode(torso, to.x, to.y);
        EXPECT_EQ(got.x, from.x) << to.x << "," << to.y;
        EXPECT_EQ(got.y, from.y) << to.x << "," << to.y;
    }
    // Every pixel of FRONT's destination (2,74) 128×128 shows template (x + 229, y).
    for (int y = 74; y < 202; ++y)
        for (int x = 2; x < 130; ++x) {
            const Xy got = Decode(torso, x, y);
            ASSERT_TRUE(got.x == x + 229 && got.y == y) << x << "," << y;
        }
    // The 2-pixel wrap-around strips (§1.4): x 0..2 repeats R's right edge (x 384..386), 386..388 FRONT's left.
    for (int y = 74; y < 202; y += 17) {
        EXPECT_TRUE(kTorsoR.contains(Decode(torso, 0, y)));
        EXPECT_EQ(Decode(torso, 1, y).x, 385 - 157);
        EXPECT_EQ(Decode(torso, 386, y).x, 2 + 229);
        EXPECT_EQ(Decode(torso, 387, y).x, 3 + 229);
    }
    EXPECT_TRUE(kTorsoBack.contains(Decode(torso, 258, 138)));
    EXPECT_TRUE(kTorsoL.contains(Decode(torso, 162, 138)));
    EXPECT_TRUE(kTorsoUp.contains(Decode(torso, 66, 42)));
    EXPECT_TRUE(kTorsoDown.contains(Decode(torso, 66, 234)));
    EXPECT_TRUE(kTorsoFront.contains(Decode(torso, 66, 138)));
}

// §7.1 R15 limbs: the side faces shifted, U turned counter-clockwise ((tx, ty) → (ty − 287, 374 − tx) for the left
// limb), D shifted, the hand rows moved.
TEST(RbxAvatarClothing, R15LimbFacesLandWhereTheReferenceSays) {
    const RgbaImage shirt = CodeTemplate();
    ClothingLayers layers;
    layers.shirt = &shirt;
    const RgbaImage left = CompositeClothing(ClothingCanvas::R15LeftLimb, Limb::LeftArm, layers);
    ASSERT_EQ(left.width, 264u);
    ASSERT_EQ(left.height, 284u);
    const std::pair<Xy, Xy> shifted[] = {{{340, 390}, {98, 101}},  {{538, 390}, {34, 101}}, {{406, 390}, {162, 101}},
                                         {{472, 390}, {226, 101}}, {{340, 475}, {98, 226}}, {{340, 517}, {230, 250}}};
    for (const auto &[from, to] : shifted) {
        const Xy got = Decode(left, to.x, to.y);
        EXPECT_EQ(got.x, from.x) << to.x << "," << to.y;
        EXPECT_EQ(got.y, from.y) << to.x << "," << to.y;
    }
    // U: the continuous map (tx, ty) → (ty − 287, 374 − tx) puts pixel centre (X + 0.5, Y + 0.5) on template pixel
    // (373 − Y, X + 287); (340, 321) → (34, 34) is the face centre.
    EXPECT_TRUE(kLeftU.contains(Decode(left, 34, 34)));
    for (int y = 2; y < 66; ++y)
        for (int x = 2; x < 66; ++x) {
            const Xy got = Decode(left, x, y);
            ASSERT_TRUE(got.x == 373 - y && got.y == x + 287) << x << "," << y;
        }
    EXPECT_TRUE(kLeftF.contains(Decode(left, 98, 101)));
    EXPECT_TRUE(kLeftR.contains(Decode(left, 34, 101)));
    EXPECT_TRUE(kLeftL.contains(Decode(left, 162, 101)));
    EXPECT_TRUE(kLeftB.contains(Decode(left, 226, 101)));
    EXPECT_TRUE(kLeftD.contains(Decode(left, 230, 250)));
    // The foot/hand row of B goes to (2..66, 238..254): template rows 467..483 of B.
    EXPECT_TRUE(kLeftB.contains(Decode(left, 10, 240)));
    EXPECT_EQ(Decode(left, 10, 240).y, 240 - 238 + 467);

    const RgbaImage right = CompositeClothing(ClothingCanvas::R15RightLimb, Limb::RightArm, layers);
    const std::pair<Xy, Xy> rightPairs[] = {{{249, 390}, {98, 101}}, {{183, 390}, {34, 101}}, {{51, 390}, {162, 101}}};
    for (const auto &[from, to] : rightPairs) {
        const Xy got = Decode(right, to.x, to.y);
        EXPECT_EQ(got.x, from.x) << to.x << "," << to.y;
        EXPECT_EQ(got.y, from.y) << to.x << "," << to.y;
    }
    EXPECT_TRUE(kRightF.contains(Decode(right, 98, 101)));
    EXPECT_TRUE(kRightR.contains(Decode(right, 34, 101)));
    EXPECT_TRUE(kRightL.contains(Decode(right, 162, 101)));
    // Right U: (tx, ty) → (ty − 287, 283 − tx).
    for (int y = 2; y < 66; y += 7)
        for (int x = 2; x < 66; x += 7) {
            const Xy got = Decode(right, x, y);
            EXPECT_TRUE(got.x == 282 - y && got.y == x + 287) << x << "," << y;
        }
}

// §7.1 R6: the atlas's strips turned clockwise; FRONT (tx, ty) → (234 − ty, tx − 167).
TEST(RbxAvatarClothing, R6AtlasStripsLandWhereTheReferenceSays) {
    const RgbaImage shirt = CodeTemplate(), pants = CodeTemplate();
    ClothingLayers layers;
    layers.shirt = &shirt;
    const RgbaImage atlas = CompositeClothing(ClothingCanvas::R6Atlas, Limb::Torso, layers);
    ASSERT_EQ(atlas.width, 1024u);
    ASSERT_EQ(atlas.height, 512u);
    // Pixel centre (X + 0.5, Y + 0.5) = (234 − ty, tx − 167) → template pixel (Y + 167, 233 − X).
    for (int y = 64; y < 192; ++y)
        for (int x = 32; x < 160; ++x) {
            const Xy got = Decode(atlas, x, y);
            ASSERT_TRUE(got.x == y + 167 && got.y == 233 - x) << x << "," << y;
        }
    EXPECT_TRUE(kTorsoFront.contains(Decode(atlas, 96, 128)));
    EXPECT_TRUE(kRightF.contains(Decode(atlas, 296, 224))); // right arm F (249, 419)
    EXPECT_TRUE(kLeftF.contains(Decode(atlas, 496, 96)));   // left arm F (340, 419)
    const Xy rightArmF = Decode(atlas, 296, 224), leftArmF = Decode(atlas, 496, 96);
    EXPECT_NEAR(rightArmF.x, 249, 1);
    EXPECT_NEAR(rightArmF.y, 419, 1);
    EXPECT_NEAR(leftArmF.x, 340, 1);
    EXPECT_NEAR(leftArmF.y, 419, 1);
    // Caps unturned: torso UP at (200, 328), right arm U at (904, 328).
    EXPECT_EQ(Decode(atlas, 200, 328).x, 231);
    EXPECT_EQ(Decode(atlas, 200, 328).y, 8);
    EXPECT_EQ(Decode(atlas, 904 + 5, 328 + 6).x, 217 + 5);
    EXPECT_EQ(Decode(atlas, 904 + 5, 328 + 6).y, 289 + 6);
    // The shirt does not reach the legs: the pants' columns keep the body colour.
    const std::uint8_t *leg = Pixel(atlas, 696, 224);
    EXPECT_EQ(leg[0], 163);
    EXPECT_EQ(leg[1], 162);
    EXPECT_EQ(leg[2], 165);
    // The pants do: right leg F at (696, 224).
    ClothingLayers withPants;
    withPants.pants = &pants;
    const RgbaImage legs = CompositeClothing(ClothingCanvas::R6Atlas, Limb::Torso, withPants);
    EXPECT_TRUE(kRightF.contains(Decode(legs, 696, 224)));
    const std::uint8_t *arm = Pixel(legs, 296, 224);
    EXPECT_EQ(arm[0], 163); // and not the arms
}

// §7.2: transparent shirt pixels show the pants, both transparent the body colour; the shirt never reaches the leg
// textures nor the pants the arm textures; a 1×1 red T-shirt fills exactly the torso's (2..130, 74..202).
TEST(RbxAvatarClothing, LayersStackAsTheReferenceOrders) {
    RgbaImage shirt = Solid(585, 559, 0, 0, 255, 255), pants = Solid(585, 559, 0, 255, 0, 255);
    // The shirt is transparent on the left half of FRONT; the pants transparent on its top quarter.
    for (int y = 74; y < 202; ++y)
        for (int x = 231; x < 295; ++x) shirt.rgba[(std::size_t(y) * 585 + x) * 4 + 3] = 0;
    for (int y = 74; y < 106; ++y)
        for (int x = 231; x < 359; ++x) pants.rgba[(std::size_t(y) * 585 + x) * 4 + 3] = 0;
    ClothingLayers layers;
    layers.bodyColor = {10, 20, 30};
    layers.shirt = &shirt;
    layers.pants = &pants;
    const RgbaImage torso = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, layers);
    const auto rgb = [](const RgbaImage &im, int x, int y) {
        const std::uint8_t *p = Pixel(im, x, y);
        return std::vector<int>{p[0], p[1], p[2], p[3]};
    };
    EXPECT_EQ(rgb(torso, 100, 150), (std::vector<int>{0, 0, 255, 255})); // shirt
    EXPECT_EQ(rgb(torso, 10, 150), (std::vector<int>{0, 255, 0, 255}));  // pants under the transparent shirt
    EXPECT_EQ(rgb(torso, 10, 80), (std::vector<int>{10, 20, 30, 255}));  // neither: the body colour
    // Half-transparent shirt over the body colour: straight alpha, rounded (255·128 + 10·127)/255.
    RgbaImage half = Solid(585, 559, 255, 255, 255, 128);
    ClothingLayers halfLayers;
    halfLayers.bodyColor = {10, 20, 30};
    halfLayers.shirt = &half;
    const RgbaImage blended = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, halfLayers);
    EXPECT_EQ(rgb(blended, 66, 138),
              (std::vector<int>{(255 * 128 + 10 * 127 + 127) / 255, (255 * 128 + 20 * 127 + 127) / 255,
                                (255 * 128 + 30 * 127 + 127) / 255, 255}));
    // Arms take the shirt only, legs the pants only.
    const RgbaImage arm = CompositeClothing(ClothingCanvas::R15LeftLimb, Limb::LeftArm, layers);
    const RgbaImage leg = CompositeClothing(ClothingCanvas::R15LeftLimb, Limb::LeftLeg, layers);
    EXPECT_EQ(rgb(arm, 98, 101), (std::vector<int>{0, 0, 255, 255}));
    EXPECT_EQ(rgb(leg, 98, 101), (std::vector<int>{0, 255, 0, 255}));
    // The T-shirt: one red pixel stretched over exactly (2..130, 74..202).
    const RgbaImage red = Solid(1, 1, 255, 0, 0, 255);
    ClothingLayers tee;
    tee.bodyColor = {10, 20, 30};
    tee.tshirt = &red;
    const RgbaImage shirtOnly = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, tee);
    std::size_t redCount = 0;
    for (int y = 0; y < 272; ++y)
        for (int x = 0; x < 388; ++x) {
            const bool isRed = rgb(shirtOnly, x, y) == std::vector<int>{255, 0, 0, 255};
            const bool inside = x >= 2 && x < 130 && y >= 74 && y < 202;
            if (isRed) ++redCount;
            // The wrap strip at 386..388 repeats FRONT's left edge, which the T-shirt covers.
            if (!(x >= 386 && y >= 74 && y < 202)) {
                ASSERT_EQ(isRed, inside) << x << "," << y;
            }
        }
    EXPECT_EQ(redCount, 128u * 128u + 2u * 128u);
}

TEST(RbxAvatarClothing, TintsMultiplyAndScaleEnlargesTheCanvas) {
    const RgbaImage white = Solid(585, 559, 255, 255, 255, 255);
    ClothingLayers layers;
    layers.shirt = &white;
    layers.shirtTint = {128, 64, 255};
    const RgbaImage torso = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, layers);
    const std::uint8_t *p = Pixel(torso, 66, 138);
    EXPECT_EQ(p[0], 128);
    EXPECT_EQ(p[1], 64);
    EXPECT_EQ(p[2], 255);
    // Scale 2: twice the size, each pixel of scale 1 a 2×2 block (unturned faces).
    const RgbaImage code = CodeTemplate();
    ClothingLayers c;
    c.shirt = &code;
    const RgbaImage one = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, c, 1);
    const RgbaImage two = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, c, 2);
    ASSERT_EQ(two.width, 776u);
    ASSERT_EQ(two.height, 544u);
    for (int y = 74; y < 202; y += 5)
        for (int x = 2; x < 386; x += 5)
            for (int k = 0; k < 4; ++k)
                ASSERT_EQ(Pixel(two, 2 * x + 1, 2 * y)[k], Pixel(one, x, y)[k]) << x << "," << y;
    // A template at twice the size is sampled proportionally: the same face lands in the same place.
    const RgbaImage big = CodeTemplate(1170, 1118);
    ClothingLayers b;
    b.shirt = &big;
    const RgbaImage fromBig = CompositeClothing(ClothingCanvas::R15Torso, Limb::Torso, b);
    const Xy centre = Decode(fromBig, 66, 138);
    EXPECT_EQ(centre.x, 2 * 295 + 1);
    EXPECT_EQ(centre.y, 2 * 138 + 1);
}

// The R6 box faces (§1.2 orientation: R faces +X, FRONT −Z, U +Y; template left/top from the character's view) map
// their template corners into the atlas by the same blits: FRONT's top-left template corner (231, 74) at
// (234 − 74, 231 − 167) = (160, 64), on the box's +X, +Y, −Z corner.
TEST(RbxAvatarClothing, R6BoxFacesMapTheirCornersThroughTheAtlas) {
    const std::vector<BoxFaceUv> faces = R6BoxFaces(Limb::Torso);
    ASSERT_EQ(faces.size(), 6u);
    const BoxFaceUv &front = faces[5];
    EXPECT_STREQ(front.blit.label, "Torso FRONT");
    const Point2 tl = BlitForward(front.blit, {231, 74});
    EXPECT_DOUBLE_EQ(tl.x, 160);
    EXPECT_DOUBLE_EQ(tl.y, 64);
    EXPECT_EQ(front.corner[0], (std::array<int, 3>{1, 1, -1}));
    // R (+X): its right edge (−Z) touches FRONT's left edge (+X): same corners.
    EXPECT_EQ(faces[0].corner[1], front.corner[0]);
    EXPECT_EQ(faces[0].corner[2], front.corner[3]);
    // UP's bottom edge is FRONT's top edge.
    EXPECT_EQ(faces[1].corner[3], front.corner[0]);
    EXPECT_EQ(faces[1].corner[2], front.corner[1]);
    // Forward then backward is the identity on every blit.
    for (Limb limb : {Limb::Torso, Limb::LeftArm, Limb::RightLeg})
        for (const ClothingBlit &b : ClothingBlits(ClothingCanvas::R6Atlas, limb)) {
            const Point2 s{b.sx + 0.25 * b.sw, b.sy + 0.75 * b.sh};
            const Point2 back = BlitBackward(b, BlitForward(b, s));
            EXPECT_NEAR(back.x, s.x, 1e-9) << b.label;
            EXPECT_NEAR(back.y, s.y, 1e-9) << b.label;
        }
    EXPECT_TRUE(R6BoxFaces(Limb::Head).empty());
    EXPECT_EQ(R6BoxFaces(Limb::LeftLeg).size(), 6u);
}

} // namespace
