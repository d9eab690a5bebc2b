// The geometry Roblox generates for primitive parts (docs/formats/roblox-model.md §5.2): boxes, wedges, corner
// wedges, cylinders, spheres and ellipsoids in the part's local frame, size baked into the vertices, and the
// quads decals and textures lie on. Triangles are counter-clockwise seen from outside. Planar faces have flat
// normals and their own 0..1 UVs; curved surfaces have smooth normals. No Assimp here.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <vector>

namespace gamefmt::rbx {

enum class ShapeKind : std::uint8_t {
    Box,         // Part Block, SpawnLocation, Seat, TrussPart, BlockMesh, SpecialMesh Brick, placeholders…
    Wedge,       // WedgePart, Part shape Wedge, SpecialMesh Wedge: high edge at the back (+Z)
    CornerWedge, // CornerWedgePart, Part shape CornerWedge: apex over the right front corner
    CylinderX,   // Part shape Cylinder, SpecialMesh Cylinder: length X, diameter min(Y, Z)
    CylinderY,   // CylinderMesh, SpecialMesh Head: height Y, diameter min(X, Z)
    Sphere,      // Part shape Ball: diameter min(X, Y, Z)
    Ellipsoid,   // SpecialMesh Sphere: semi-axes size / 2
};

// The rbx.geometry word of a shape: "box", "wedge", "cornerwedge", "cylinderX", "cylinderY", "sphere",
// "ellipsoid".
const char *ShapeName(ShapeKind kind);

// NormalId (the Face property): Right +X, Top +Y, Back +Z, Left -X, Bottom -Y, Front -Z.
enum class NormalId : std::uint8_t { Right = 0, Top = 1, Back = 2, Left = 3, Bottom = 4, Front = 5 };
Vector3 FaceNormal(NormalId face);

// Indexed triangles with one normal and one UV per vertex. UVs have their origin at the bottom left (Assimp's
// convention): v = 1 is the top of the image.
struct ShapeMesh {
    std::vector<Vector3> positions;
    std::vector<Vector3> normals;
    std::vector<Vector2> uvs;
    std::vector<std::uint32_t> indices; // three per triangle
    void clear() {
        positions.clear();
        normals.clear();
        uvs.clear();
        indices.clear();
    }
};

// Every planar face's frame, for its UVs and for decals: "up" is +Y on side faces and -Z on the top and the
// bottom; "right" = up × normal (the viewer's right, looking at the face from outside). u runs left → right,
// v bottom → top over the face's extent.
//
// Segments: round shapes get `segments` (clamped to 3..256) around; spheres get segments / 2 (at least 2)
// rings. Sizes are used as given (negative or NaN sizes are the caller's to reject).
void BuildShape(ShapeKind kind, const Vector3 &size, const Vector3 &offset, unsigned segments, ShapeMesh &out);

// How a decal or texture maps its image onto a face, in studs: u = (s + offsetU) / tileU, v_image =
// (t + offsetV) / tileV with s, t the distance from the face's top-left corner (Texture); a Decal stretches
// the image once over the face (tileU = width, tileV = height, offsets 0).
struct FaceMapping {
    bool tiled = false;
    float tileU = 2, tileV = 2;     // StudsPerTileU/V (Texture)
    float offsetU = 0, offsetV = 0; // OffsetStudsU/V (Texture)
};

// A quad covering face `face` of a box of `size` centred on `offset`, pushed `lift` studs out along the face
// normal: four vertices, two triangles.
void BuildFaceQuad(NormalId face, const Vector3 &size, const Vector3 &offset, float lift, const FaceMapping &mapping,
                   ShapeMesh &out);

} // namespace gamefmt::rbx
