// Classic clothing (docs/formats/roblox-avatar.md §1–§2): where each face of a 585×559 shirt or pants template, and
// the T-shirt image, lands in the textures a body's UVs point into (R15: one torso and one texture per limb; R6: one
// 1024×512 atlas), and the compositing of body colour, pants, shirt, T-shirt and a part's own texture into them.
// Pixel arithmetic only: no document, no Assimp.
#pragma once

#include "common/png.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/geometry/shapes.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace gamefmt::rbx {

// The template's size (§1.2): images of another size are sampled proportionally.
inline constexpr int kTemplateWidth = 585, kTemplateHeight = 559;

// A body's limb groups (§2): R15 parts and R6 parts both fall into one of these.
enum class Limb : std::uint8_t { Head, Torso, LeftArm, RightArm, LeftLeg, RightLeg };
inline constexpr std::size_t kLimbCount = 6;
const char *LimbName(Limb limb);

// The textures classic clothing is composited into.
enum class ClothingCanvas : std::uint8_t {
    R15Torso,     // 388×272: UpperTorso and LowerTorso
    R15LeftLimb,  // 264×284: LeftUpperArm, LeftLowerArm, LeftHand (the left leg's parts use the same layout)
    R15RightLimb, // 264×284: the right arm's and the right leg's parts
    R6Atlas,      // 1024×512: every R6 body part
};
struct CanvasSize {
    int width = 0, height = 0;
};
CanvasSize CanvasSizeOf(ClothingCanvas canvas);

// How a rectangle of the source is turned on its way into the canvas (§1.3: "90° clockwise": the source's top
// edge becomes the destination's right edge).
enum class Turn : std::uint8_t { None, Clockwise, CounterClockwise };

// Which image a blit reads.
enum class ClothingSource : std::uint8_t { Shirt, Pants, TShirt };

// One rectangle of a source image (template pixels; the T-shirt's is its whole image, 0,0 to 1,1 of it) drawn
// into one rectangle of a canvas (canvas pixels at composite scale 1), turned as `turn` says, stretched when the
// sizes differ. `label` names the template face ("Torso FRONT", "Left arm U"), for messages and tests.
struct ClothingBlit {
    ClothingSource source = ClothingSource::Shirt;
    double sx = 0, sy = 0, sw = 0, sh = 0; // source rectangle
    double dx = 0, dy = 0, dw = 0, dh = 0; // destination rectangle
    Turn turn = Turn::None;
    const char *label = "";
};

// Where a point of the source rectangle lands in the canvas, and back (continuous coordinates: pixel (x, y) covers
// x..x+1, y..y+1).
struct Point2 {
    double x = 0, y = 0;
};
Point2 BlitForward(const ClothingBlit &blit, Point2 source);
Point2 BlitBackward(const ClothingBlit &blit, Point2 canvas);

// Every blit of `canvas`, bottom layer first within each source (§1.3, §1.4). For R6, `limb` picks the part whose
// rectangles are wanted (Head: none); for the R15 canvases it is ignored, except that the R15 limb canvases take the
// shirt for arms and the pants for legs: pass LeftArm/RightArm or LeftLeg/RightLeg (LeftArm and LeftLeg with
// R15LeftLimb).
std::vector<ClothingBlit> ClothingBlits(ClothingCanvas canvas, Limb limb);

// The template face a body box face shows (R6 parts drawn as boxes): the blit of `limb`'s face `face` (0 +X, 1 +Y,
// 2 +Z, 3 −X, 4 −Y, 5 −Z, the part's own axes: +X the character's right, +Y up, −Z the front) and, for each of
// the face's corners named by the template image's left/right and top/bottom, its place in the box.
struct BoxFaceUv {
    ClothingBlit blit;
    // corner[c] for c = 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left of the template face: the box corner
    // as signs (−1/+1) of the part's half size on X, Y, Z.
    std::array<std::array<int, 3>, 4> corner{};
};
// The six faces of an R6 body part box in the atlas (§1.3); empty for the head.
std::vector<BoxFaceUv> R6BoxFaces(Limb limb);

// An R6 body part drawn as a box of `size` (centred on the part) whose faces sample the atlas (R6BoxFaces): 24
// vertices, 12 triangles wound counter-clockwise seen from outside, flat normals, UVs (x/1024, 1 − y/512) (V up, as
// Assimp keeps UVs). Roblox draws these parts with its own bevelled limb meshes, which are not shipped (§1.3).
void BuildR6BodyBox(Limb limb, const Vector3 &size, ShapeMesh &out);

// What goes into one canvas, bottom to top (§1.3, §1.4, §2): the body colour, then pants, shirt, T-shirt (each
// optional, tinted by its Color3: multiply, white = none), then the part's own texture over the whole canvas.
struct ClothingLayers {
    Color3uint8 bodyColor{163, 162, 165};
    const RgbaImage *pants = nullptr;
    const RgbaImage *shirt = nullptr;
    const RgbaImage *tshirt = nullptr;
    const RgbaImage *overlay = nullptr; // the MeshPart's TextureID, stretched over the canvas
    Color3uint8 pantsTint{255, 255, 255}, shirtTint{255, 255, 255}, tshirtTint{255, 255, 255};
};

// The canvas at `scale` × its size (1..8): every pixel the body colour, then each layer source-over (straight alpha,
// 8-bit sRGB: out = src·a + dst·(1 − a), rounded), sampling the nearest texel at the pixel's centre. The R15 torso
// also gets its 2-pixel wrap-around strips (x 0..2 repeats x 384..386, x 386..388 repeats x 2..4, rows 74..202).
RgbaImage CompositeClothing(ClothingCanvas canvas, Limb limb, const ClothingLayers &layers, int scale = 1);

// The R6 atlas of a character whose limbs have different body colours (§2): each part's rectangles filled with its
// own colour (the rest of the atlas with the torso's), then the layers as CompositeClothing (layers.bodyColor unused).
RgbaImage CompositeR6Atlas(const std::array<Color3uint8, kLimbCount> &colours, const ClothingLayers &layers,
                           int scale = 1);

} // namespace gamefmt::rbx
