// Classic clothing compositing (docs/formats/roblox-avatar.md §1–§2).
#include "importers/roblox_model/avatar/clothing.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

namespace gamefmt::rbx {
namespace {

// A face of the 585×559 template (§1.2), x, y, width, height.
struct TemplateFace {
    double x, y, w, h;
};
// Torso.
constexpr TemplateFace kTorsoUp{231, 8, 128, 64}, kTorsoR{165, 74, 64, 128}, kTorsoFront{231, 74, 128, 128},
    kTorsoL{361, 74, 64, 128}, kTorsoBack{427, 74, 128, 128}, kTorsoDown{231, 204, 128, 64};
// The six faces of a limb template: U, R, F, L, B, D.
struct LimbFaces {
    TemplateFace u, r, f, l, b, d;
};
constexpr LimbFaces kRightLimb{{217, 289, 64, 64}, {151, 355, 64, 128}, {217, 355, 64, 128},
                               {19, 355, 64, 128}, {85, 355, 64, 128},  {217, 485, 64, 64}};
constexpr LimbFaces kLeftLimb{{308, 289, 64, 64},  {506, 355, 64, 128}, {308, 355, 64, 128},
                              {374, 355, 64, 128}, {440, 355, 64, 128}, {308, 485, 64, 64}};

bool IsArm(Limb limb) {
    return limb == Limb::LeftArm || limb == Limb::RightArm;
}

ClothingBlit Blit(ClothingSource source, const TemplateFace &f, double dx, double dy, Turn turn, const char *label) {
    ClothingBlit b;
    b.source = source;
    b.sx = f.x;
    b.sy = f.y;
    b.sw = f.w;
    b.sh = f.h;
    b.dx = dx;
    b.dy = dy;
    b.turn = turn;
    b.dw = turn == Turn::None ? f.w : f.h;
    b.dh = turn == Turn::None ? f.h : f.w;
    b.label = label;
    return b;
}

// A part of a template face: rows y0..y1 of it (template rows).
TemplateFace Rows(const TemplateFace &f, double y0, double y1) {
    return {f.x, y0, f.w, y1 - y0};
}

// §1.4 torso texture: faces shifted so that they touch.
void R15Torso(ClothingSource s, std::vector<ClothingBlit> &out) {
    out.push_back(Blit(s, kTorsoUp, 2, 10, Turn::None, "Torso UP"));
    out.push_back(Blit(s, kTorsoFront, 2, 74, Turn::None, "Torso FRONT"));
    out.push_back(Blit(s, kTorsoL, 130, 74, Turn::None, "Torso L"));
    out.push_back(Blit(s, kTorsoBack, 194, 74, Turn::None, "Torso BACK"));
    out.push_back(Blit(s, kTorsoR, 322, 74, Turn::None, "Torso R"));
    out.push_back(Blit(s, kTorsoDown, 2, 202, Turn::None, "Torso DOWN"));
}

// §1.4 limb texture: R, F, L, B in columns 2, 66, 130, 194; upper and lower limb rows 355..467 → 66..178, hand or
// foot rows 467..483 → 218..234 (B's → 2..66 × 238..254); U turned counter-clockwise into 2..66 × 2..66; D unturned
// at 198..262 × 218..282.
void R15Limb(ClothingSource s, const LimbFaces &t, std::vector<ClothingBlit> &out) {
    const TemplateFace *sides[] = {&t.r, &t.f, &t.l, &t.b};
    static const char *const kLimbLabels[] = {"limb R", "limb F", "limb L", "limb B"};
    static const char *const kEndLabels[] = {"hand/foot R", "hand/foot F", "hand/foot L", "hand/foot B"};
    for (int k = 0; k < 4; ++k) {
        const double column = 2 + 64.0 * k;
        out.push_back(Blit(s, Rows(*sides[k], 355, 467), column, 66, Turn::None, kLimbLabels[k]));
        out.push_back(
            Blit(s, Rows(*sides[k], 467, 483), k == 3 ? 2 : column, k == 3 ? 238 : 218, Turn::None, kEndLabels[k]));
    }
    out.push_back(Blit(s, t.u, 2, 2, Turn::CounterClockwise, "limb U"));
    out.push_back(Blit(s, t.d, 198, 218, Turn::None, "limb D"));
}

// §1.3 atlas: a part's strip of side faces turned clockwise down a column (the first face repeated at the end),
// and its two caps unturned.
struct R6Column {
    double x;
    const TemplateFace *sides[4];
    const char *labels[6]; // the four sides, then the caps
    Point2 up, down;
};

void R6Strip(ClothingSource s, const R6Column &c, const TemplateFace &up, const TemplateFace &down,
             std::vector<ClothingBlit> &out) {
    double y = 0;
    for (int k = 0; k <= 4; ++k) {
        const TemplateFace &f = *c.sides[k % 4];
        out.push_back(Blit(s, f, c.x, y, Turn::Clockwise, c.labels[k % 4]));
        y += f.w;
    }
    out.push_back(Blit(s, up, c.up.x, c.up.y, Turn::None, c.labels[4]));
    out.push_back(Blit(s, down, c.down.x, c.down.y, Turn::None, c.labels[5]));
}

void R6Part(Limb limb, std::vector<ClothingBlit> &out) {
    switch (limb) {
    case Limb::Torso: {
        const R6Column c{32,
                         {&kTorsoR, &kTorsoFront, &kTorsoL, &kTorsoBack},
                         {"Torso R", "Torso FRONT", "Torso L", "Torso BACK", "Torso UP", "Torso DOWN"},
                         {200, 328},
                         {336, 328}};
        R6Strip(ClothingSource::Pants, c, kTorsoUp, kTorsoDown, out);
        R6Strip(ClothingSource::Shirt, c, kTorsoUp, kTorsoDown, out);
        ClothingBlit t;
        t.source = ClothingSource::TShirt;
        t.sw = t.sh = 1;
        t.dx = 32;
        t.dy = 64;
        t.dw = t.dh = 128;
        t.turn = Turn::Clockwise;
        t.label = "T-shirt";
        out.push_back(t);
        return;
    }
    case Limb::RightArm:
    case Limb::RightLeg: {
        const bool arm = limb == Limb::RightArm;
        const LimbFaces &t = kRightLimb;
        const R6Column c{arm ? 232.0 : 632.0,
                         {&t.l, &t.b, &t.r, &t.f},
                         {"L", "B", "R", "F", "U", "D"},
                         arm ? Point2{904, 328} : Point2{472, 328},
                         arm ? Point2{760, 328} : Point2{616, 328}};
        R6Strip(arm ? ClothingSource::Shirt : ClothingSource::Pants, c, t.u, t.d, out);
        return;
    }
    case Limb::LeftArm:
    case Limb::LeftLeg: {
        const bool arm = limb == Limb::LeftArm;
        const LimbFaces &t = kLeftLimb;
        const R6Column c{arm ? 432.0 : 832.0,
                         {&t.r, &t.f, &t.l, &t.b},
                         {"R", "F", "L", "B", "U", "D"},
                         arm ? Point2{200, 400} : Point2{544, 328},
                         arm ? Point2{832, 328} : Point2{688, 328}};
        R6Strip(arm ? ClothingSource::Shirt : ClothingSource::Pants, c, t.u, t.d, out);
        return;
    }
    case Limb::Head:
        return;
    }
}

std::uint8_t Mix(std::uint8_t src, std::uint8_t dst, unsigned alpha) {
    return static_cast<std::uint8_t>((src * alpha + dst * (255 - alpha) + 127) / 255);
}

std::uint8_t Tint(std::uint8_t v, std::uint8_t t) {
    return static_cast<std::uint8_t>((v * t + 127) / 255);
}

// Draws `image` through `blit` onto `canvas` (size scale × the canvas's); `templateUnits`: the blit's source
// rectangle is in 585×559 template pixels (else in units of the whole image).
void Draw(RgbaImage &canvas, int scale, const ClothingBlit &blit, const RgbaImage &image, bool templateUnits,
          Color3uint8 tint) {
    if (image.width == 0 || image.height == 0 || image.rgba.size() < std::size_t(image.width) * image.height * 4)
        return;
    const double kx = templateUnits ? double(image.width) / kTemplateWidth : double(image.width);
    const double ky = templateUnits ? double(image.height) / kTemplateHeight : double(image.height);
    const int x0 = static_cast<int>(std::lround(blit.dx * scale)),
              x1 = static_cast<int>(std::lround((blit.dx + blit.dw) * scale));
    const int y0 = static_cast<int>(std::lround(blit.dy * scale)),
              y1 = static_cast<int>(std::lround((blit.dy + blit.dh) * scale));
    const bool tinted = tint.r != 255 || tint.g != 255 || tint.b != 255;
    const int xa = std::max(0, x0), xb = std::min<int>(x1, static_cast<int>(canvas.width));
    const int ya = std::max(0, y0), yb = std::min<int>(y1, static_cast<int>(canvas.height));
    if (xa >= xb || ya >= yb) return;
    // The map is affine and separable: a destination column decides one source coordinate (x unturned, y turned), a
    // destination row the other. Texel indices once per column and per row, the same as per pixel.
    const bool turned = blit.turn != Turn::None;
    const auto texel = [&](double v, bool alongX) {
        const double k = alongX ? kx : ky;
        const double limit = (alongX ? image.width : image.height) - 1.0;
        return static_cast<std::size_t>(std::clamp(std::floor(v * k), 0.0, limit));
    };
    std::vector<std::size_t> byColumn(static_cast<std::size_t>(xb - xa)), byRow(static_cast<std::size_t>(yb - ya));
    const double rowMid = (ya + 0.5) / scale, columnMid = (xa + 0.5) / scale;
    for (int x = xa; x < xb; ++x) {
        const Point2 s = BlitBackward(blit, {(x + 0.5) / scale, rowMid});
        byColumn[static_cast<std::size_t>(x - xa)] = turned ? texel(s.y, false) : texel(s.x, true);
    }
    for (int y = ya; y < yb; ++y) {
        const Point2 s = BlitBackward(blit, {columnMid, (y + 0.5) / scale});
        byRow[static_cast<std::size_t>(y - ya)] = turned ? texel(s.x, true) : texel(s.y, false);
    }
    for (int y = ya; y < yb; ++y) {
        const std::size_t r = byRow[static_cast<std::size_t>(y - ya)];
        std::uint8_t *dst = &canvas.rgba[(std::size_t(y) * canvas.width + std::size_t(xa)) * 4];
        for (int x = xa; x < xb; ++x, dst += 4) {
            const std::size_t c = byColumn[static_cast<std::size_t>(x - xa)];
            const std::size_t tx = turned ? r : c, ty = turned ? c : r;
            const std::uint8_t *src = &image.rgba[(ty * image.width + tx) * 4];
            const unsigned a = src[3];
            if (a == 0) continue;
            std::uint8_t red = src[0], green = src[1], blue = src[2];
            if (tinted) {
                red = Tint(red, tint.r);
                green = Tint(green, tint.g);
                blue = Tint(blue, tint.b);
            }
            if (a == 255) {
                dst[0] = red, dst[1] = green, dst[2] = blue;
                continue;
            }
            dst[0] = Mix(red, dst[0], a);
            dst[1] = Mix(green, dst[1], a);
            dst[2] = Mix(blue, dst[2], a);
        }
    }
}

} // namespace

const char *LimbName(Limb limb) {
    switch (limb) {
    case Limb::Head:
        return "Head";
    case Limb::Torso:
        return "Torso";
    case Limb::LeftArm:
        return "LeftArm";
    case Limb::RightArm:
        return "RightArm";
    case Limb::LeftLeg:
        return "LeftLeg";
    case Limb::RightLeg:
        return "RightLeg";
    }
    return "";
}

CanvasSize CanvasSizeOf(ClothingCanvas canvas) {
    switch (canvas) {
    case ClothingCanvas::R15Torso:
        return {388, 272};
    case ClothingCanvas::R15LeftLimb:
    case ClothingCanvas::R15RightLimb:
        return {264, 284};
    case ClothingCanvas::R6Atlas:
        return {1024, 512};
    }
    return {};
}

Point2 BlitForward(const ClothingBlit &b, Point2 s) {
    const double u = s.x - b.sx, v = s.y - b.sy;
    switch (b.turn) {
    case Turn::None:
        return {b.dx + u * b.dw / b.sw, b.dy + v * b.dh / b.sh};
    case Turn::Clockwise:
        return {b.dx + (b.sh - v) * b.dw / b.sh, b.dy + u * b.dh / b.sw};
    case Turn::CounterClockwise:
        return {b.dx + v * b.dw / b.sh, b.dy + (b.sw - u) * b.dh / b.sw};
    }
    return {};
}

Point2 BlitBackward(const ClothingBlit &b, Point2 c) {
    const double x = c.x - b.dx, y = c.y - b.dy;
    switch (b.turn) {
    case Turn::None:
        return {b.sx + x * b.sw / b.dw, b.sy + y * b.sh / b.dh};
    case Turn::Clockwise:
        return {b.sx + y * b.sw / b.dh, b.sy + b.sh - x * b.sh / b.dw};
    case Turn::CounterClockwise:
        return {b.sx + b.sw - y * b.sw / b.dh, b.sy + x * b.sh / b.dw};
    }
    return {};
}

std::vector<ClothingBlit> ClothingBlits(ClothingCanvas canvas, Limb limb) {
    std::vector<ClothingBlit> out;
    switch (canvas) {
    case ClothingCanvas::R15Torso: {
        R15Torso(ClothingSource::Pants, out);
        R15Torso(ClothingSource::Shirt, out);
        ClothingBlit t;
        t.source = ClothingSource::TShirt;
        t.sw = t.sh = 1;
        t.dx = 2;
        t.dy = 74;
        t.dw = t.dh = 128;
        t.label = "T-shirt";
        out.push_back(t);
        break;
    }
    case ClothingCanvas::R15LeftLimb:
    case ClothingCanvas::R15RightLimb:
        R15Limb(IsArm(limb) ? ClothingSource::Shirt : ClothingSource::Pants,
                canvas == ClothingCanvas::R15LeftLimb ? kLeftLimb : kRightLimb, out);
        break;
    case ClothingCanvas::R6Atlas:
        R6Part(limb, out);
        break;
    }
    return out;
}

std::vector<BoxFaceUv> R6BoxFaces(Limb limb) {
    if (limb == Limb::Head) return {};
    const std::vector<ClothingBlit> blits = ClothingBlits(ClothingCanvas::R6Atlas, limb);
    // The template faces by label (the strip's first pass of each side; pants and shirt lie at the same places).
    const auto find = [&](std::string_view label) {
        for (const ClothingBlit &b : blits)
            if (b.source != ClothingSource::TShirt && label == b.label) return b;
        return ClothingBlit{};
    };
    const bool torso = limb == Limb::Torso;
    // Corners (top-left, top-right, bottom-right, bottom-left of the template face) as signs of the half size:
    // a face seen from outside, its template's left and top edges where the character's view puts them (§1.2).
    std::vector<BoxFaceUv> out;
    out.push_back({find(torso ? "Torso R" : "R"), {{{1, 1, 1}, {1, 1, -1}, {1, -1, -1}, {1, -1, 1}}}});         // +X
    out.push_back({find(torso ? "Torso UP" : "U"), {{{1, 1, 1}, {-1, 1, 1}, {-1, 1, -1}, {1, 1, -1}}}});        // +Y
    out.push_back({find(torso ? "Torso BACK" : "B"), {{{-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1}}}});      // +Z
    out.push_back({find(torso ? "Torso L" : "L"), {{{-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}, {-1, -1, -1}}}});     // −X
    out.push_back({find(torso ? "Torso DOWN" : "D"), {{{1, -1, -1}, {-1, -1, -1}, {-1, -1, 1}, {1, -1, 1}}}});  // −Y
    out.push_back({find(torso ? "Torso FRONT" : "F"), {{{1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}}}}); // −Z
    return out;
}

namespace {

void Fill(RgbaImage &image, int scale, double x, double y, double w, double h, Color3uint8 c) {
    const auto lo = [&](double v, std::uint32_t limit) {
        return static_cast<std::uint32_t>(std::clamp(std::round(v * scale), 0.0, static_cast<double>(limit)));
    };
    for (std::uint32_t py = lo(y, image.height); py < lo(y + h, image.height); ++py)
        for (std::uint32_t px = lo(x, image.width); px < lo(x + w, image.width); ++px) {
            std::uint8_t *p = &image.rgba[(std::size_t(py) * image.width + px) * 4];
            p[0] = c.r;
            p[1] = c.g;
            p[2] = c.b;
            p[3] = 255;
        }
}

// Pants, shirt, T-shirt through `blits`, then the torso's wrap strips and the overlay.
void DrawLayers(RgbaImage &out, ClothingCanvas canvas, const std::vector<ClothingBlit> &blits,
                const ClothingLayers &layers, int scale) {
    for (ClothingSource pass : {ClothingSource::Pants, ClothingSource::Shirt, ClothingSource::TShirt}) {
        const RgbaImage *image = pass == ClothingSource::Pants   ? layers.pants
                                 : pass == ClothingSource::Shirt ? layers.shirt
                                                                 : layers.tshirt;
        if (image == nullptr) continue;
        const Color3uint8 tint = pass == ClothingSource::Pants   ? layers.pantsTint
                                 : pass == ClothingSource::Shirt ? layers.shirtTint
                                                                 : layers.tshirtTint;
        for (const ClothingBlit &b : blits)
            if (b.source == pass) Draw(out, scale, b, *image, pass != ClothingSource::TShirt, tint);
    }
    if (canvas == ClothingCanvas::R15Torso) {
        // The wrap-around strips: x 0..2 repeats R's right edge (384..386), 386..388 FRONT's left edge (2..4).
        const auto s = static_cast<std::size_t>(scale);
        for (std::size_t y = 74 * s; y < 202 * s && y < out.height; ++y)
            for (std::size_t k = 0; k < 2 * s; ++k) {
                std::uint8_t *row = &out.rgba[y * out.width * 4];
                std::copy_n(row + (384 * s + k) * 4, 4, row + k * 4);
                std::copy_n(row + (2 * s + k) * 4, 4, row + (386 * s + k) * 4);
            }
    }
    if (layers.overlay != nullptr) {
        const CanvasSize size = CanvasSizeOf(canvas);
        ClothingBlit whole;
        whole.sw = whole.sh = 1;
        whole.dw = size.width;
        whole.dh = size.height;
        Draw(out, scale, whole, *layers.overlay, false, {255, 255, 255});
    }
}

RgbaImage Blank(ClothingCanvas canvas, int scale) {
    const CanvasSize size = CanvasSizeOf(canvas);
    RgbaImage out;
    out.width = static_cast<std::uint32_t>(size.width * scale);
    out.height = static_cast<std::uint32_t>(size.height * scale);
    out.rgba.resize(std::size_t(out.width) * out.height * 4);
    return out;
}

constexpr Limb kR6Limbs[] = {Limb::Torso, Limb::RightArm, Limb::LeftArm, Limb::RightLeg, Limb::LeftLeg};

} // namespace

RgbaImage CompositeClothing(ClothingCanvas canvas, Limb limb, const ClothingLayers &layers, int scale) {
    if (canvas == ClothingCanvas::R6Atlas) {
        std::array<Color3uint8, kLimbCount> colours;
        colours.fill(layers.bodyColor);
        return CompositeR6Atlas(colours, layers, scale);
    }
    scale = std::clamp(scale, 1, 8);
    RgbaImage out = Blank(canvas, scale);
    const CanvasSize size = CanvasSizeOf(canvas);
    Fill(out, scale, 0, 0, size.width, size.height, layers.bodyColor);
    DrawLayers(out, canvas, ClothingBlits(canvas, limb), layers, scale);
    return out;
}

RgbaImage CompositeR6Atlas(const std::array<Color3uint8, kLimbCount> &colours, const ClothingLayers &layers,
                           int scale) {
    scale = std::clamp(scale, 1, 8);
    RgbaImage out = Blank(ClothingCanvas::R6Atlas, scale);
    Fill(out, scale, 0, 0, 1024, 512, colours[static_cast<std::size_t>(Limb::Torso)]);
    std::vector<ClothingBlit> blits;
    for (Limb l : kR6Limbs) {
        const std::vector<ClothingBlit> part = ClothingBlits(ClothingCanvas::R6Atlas, l);
        for (const ClothingBlit &b : part)
            if (b.source != ClothingSource::TShirt)
                Fill(out, scale, b.dx, b.dy, b.dw, b.dh, colours[static_cast<std::size_t>(l)]);
        blits.insert(blits.end(), part.begin(), part.end());
    }
    DrawLayers(out, ClothingCanvas::R6Atlas, blits, layers, scale);
    return out;
}

void BuildR6BodyBox(Limb limb, const Vector3 &size, ShapeMesh &out) {
    out.clear();
    const CanvasSize atlas = CanvasSizeOf(ClothingCanvas::R6Atlas);
    const float hx = size.x / 2, hy = size.y / 2, hz = size.z / 2;
    for (const BoxFaceUv &face : R6BoxFaces(limb)) {
        const ClothingBlit &b = face.blit;
        const Point2 templateCorner[4] = {
            {b.sx, b.sy}, {b.sx + b.sw, b.sy}, {b.sx + b.sw, b.sy + b.sh}, {b.sx, b.sy + b.sh}};
        Vector3 p[4];
        for (int c = 0; c < 4; ++c) p[c] = {face.corner[c][0] * hx, face.corner[c][1] * hy, face.corner[c][2] * hz};
        // The face's outward normal: the axis all four corners share.
        Vector3 n;
        for (int axis = 0; axis < 3; ++axis)
            if (face.corner[0][axis] == face.corner[1][axis] && face.corner[1][axis] == face.corner[2][axis])
                (axis == 0 ? n.x : axis == 1 ? n.y : n.z) = static_cast<float>(face.corner[0][axis]);
        const auto base = static_cast<std::uint32_t>(out.positions.size());
        for (int c = 0; c < 4; ++c) {
            const Point2 a = BlitForward(b, templateCorner[c]);
            out.positions.push_back(p[c]);
            out.normals.push_back(n);
            out.uvs.push_back({static_cast<float>(a.x / atlas.width), static_cast<float>(1.0 - a.y / atlas.height)});
        }
        // Corners 0..3 run around the face; wind the two triangles so that they face along n.
        const Vector3 e1{p[1].x - p[0].x, p[1].y - p[0].y, p[1].z - p[0].z};
        const Vector3 e2{p[2].x - p[0].x, p[2].y - p[0].y, p[2].z - p[0].z};
        const float facing =
            (e1.y * e2.z - e1.z * e2.y) * n.x + (e1.z * e2.x - e1.x * e2.z) * n.y + (e1.x * e2.y - e1.y * e2.x) * n.z;
        const std::uint32_t order[2][6] = {{0, 1, 2, 0, 2, 3}, {0, 2, 1, 0, 3, 2}};
        for (std::uint32_t k : order[facing >= 0 ? 0 : 1]) out.indices.push_back(base + k);
    }
}

} // namespace gamefmt::rbx
