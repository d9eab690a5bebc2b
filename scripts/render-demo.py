# Blender (headless) script for scripts/render-demo: imports a glb, looks through its camera (or a default
# one), lights it with a sun and a sky, and renders with Cycles on the CPU.
# With FRAME, the scene is posed at that frame of its animation first (Blender's 24 frames per second), and the
# default camera looks from the side (-X) rather than from the front.
# GAMEFMT_RENDER_UNFRAMED=PREFIX leaves objects whose name starts so out of the default camera's framing.
# GAMEFMT_RENDER_TURN=DEGREES turns the default camera about the vertical axis through the scene's centre (180: the
# other side; a Roblox character faces glTF -Z, Blender +Y, so 200 shows it from the front, a little from its left).
# With GAMEFMT_RENDER_WIRE=1 in the environment, every triangle edge is drawn dark over the shading (to show what a
# mesher or a simplifier made).
#   blender -b --python scripts/render-demo.py -- IN.glb OUT.png [WIDTH HEIGHT SAMPLES [FRAME]]
import math
import os
import sys

import numpy

if "bool" not in numpy.__dict__:  # Debian's Blender 3.4 glTF importer and Debian's numpy (docs/formats/gltf-and-consumers.md §6.1)
    numpy.bool = bool
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
src, out = args[0], args[1]
width, height, samples = (int(args[2]), int(args[3]), int(args[4])) if len(args) >= 5 else (800, 450, 96)
frame = int(args[5]) if len(args) >= 6 else None

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
scene = bpy.context.scene
if frame is not None:
    scene.frame_set(frame)
cameras = [o for o in scene.objects if o.type == "CAMERA"]
if cameras:
    scene.camera = cameras[0]
else:
    # No camera in the file: one in front of the scene's bounds (Blender is Z-up), looking down at 25°.
    from mathutils import Vector
    # GAMEFMT_RENDER_UNFRAMED=PREFIX: objects named so are drawn but not framed (a level's terrain is 65 km wide).
    unframed = os.environ.get("GAMEFMT_RENDER_UNFRAMED")
    framed = [o for o in scene.objects if o.type == "MESH" and not (unframed and o.name.startswith(unframed))]
    corners = [o.matrix_world @ Vector(c) for o in framed for c in o.bound_box]
    lo = Vector((min(c.x for c in corners), min(c.y for c in corners), min(c.z for c in corners)))
    hi = Vector((max(c.x for c in corners), max(c.y for c in corners), max(c.z for c in corners)))
    centre, radius = (lo + hi) / 2, max((hi - lo).length / 2, 0.01)
    data = bpy.data.cameras.new("View")
    cam = bpy.data.objects.new("View", data)
    scene.collection.objects.link(cam)
    turn = math.radians(float(os.environ.get("GAMEFMT_RENDER_TURN", "0")))
    side = frame is not None
    standing = side or turn != 0
    # Views of standing figures fit the height (the vertical angle), not the width.
    half = math.atan(math.tan(data.angle / 2) * height / width) if standing else data.angle / 2
    distance = radius / math.tan(half) * 1.1
    heading = (-math.pi / 2 if side else 0) + turn  # 0: the camera on -Y looking at +Y
    look = Vector((math.sin(heading), -math.cos(heading), 0)) * math.cos(math.radians(25))
    cam.location = centre + (look + Vector((0, 0, math.sin(math.radians(25))))) * distance
    cam.rotation_euler = (math.radians(65), 0, heading)
    data.clip_end = distance * (40 if unframed else 4)
    scene.camera = cam

if os.environ.get("GAMEFMT_RENDER_WIRE"):
    for material in bpy.data.materials:
        if not material.use_nodes:
            continue
        nodes, links = material.node_tree.nodes, material.node_tree.links
        output = next((n for n in nodes if n.type == "OUTPUT_MATERIAL"), None)
        if output is None or not output.inputs["Surface"].links:
            continue
        shaded = output.inputs["Surface"].links[0].from_socket
        wire = nodes.new("ShaderNodeWireframe")
        wire.use_pixel_size = True
        wire.inputs["Size"].default_value = 0.6
        edge = nodes.new("ShaderNodeBsdfDiffuse")
        edge.inputs["Color"].default_value = (0.02, 0.02, 0.02, 1.0)
        mix = nodes.new("ShaderNodeMixShader")
        links.new(wire.outputs["Fac"], mix.inputs["Fac"])
        links.new(shaded, mix.inputs[1])
        links.new(edge.outputs["BSDF"], mix.inputs[2])
        links.new(mix.outputs["Shader"], output.inputs["Surface"])

sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", type="SUN"))
sun.data.energy = 3.0
sun.rotation_euler = (math.radians(50), math.radians(10), math.radians(30))
scene.collection.objects.link(sun)
world = bpy.data.worlds.new("Sky")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.55, 0.7, 0.9, 1.0)
world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.6
scene.world = world

scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = samples
scene.cycles.use_denoising = False  # Debian's Blender 3.4 has no OpenImageDenoise
scene.render.resolution_x = width
scene.render.resolution_y = height
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGB"
scene.render.image_settings.compression = 100
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
print("RENDERED", out)
