# Runs inside Blender (blender -b --factory-startup --python-exit-code 1 -P blender_probe.py -- FILE.glb): imports
# the glb with Blender's own glTF importer into an empty scene and prints one line "RESULT {json}" with what a
# user would see: objects per type, vertices, armature bones, shape keys, actions and their F-curves, custom
# properties, and the dimensions of named objects; given NAME@FRAME arguments after the file, the world position of
# object NAME at FRAME (after frame_set: animations applied); an argument anim=NAME first plays the glTF animation NAME
# (Blender 3.4 imports it as one action per object, "<NAME>_<object>", and stashes all but one in muted NLA tracks;
# 4.4 and later as one action with a slot per object: "actions" lists both kinds as "<NAME>_<object>"); an argument
# vertices:OBJECT@FRAME gives the world positions of that mesh object's vertices at FRAME, deformed (armature and
# shape keys applied).
# Used by scripts/check-consumers.
import json
import sys

import numpy

# Debian 12's numpy 1.24 has no numpy.bool, which Blender 3.4's glTF importer uses (docs/formats/gltf-and-consumers.md §6.1).
if "bool" not in numpy.__dict__:
    numpy.bool = bool

import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
path = args[0]
bpy.ops.wm.read_factory_settings(use_empty=True)
if bpy.ops.import_scene.gltf(filepath=path) != {"FINISHED"}:
    raise SystemExit("the glTF importer did not finish")
out = {"objects": {}, "vertices": 0, "bones": 0, "vertex_groups": 0, "weighted_vertices": 0, "shape_keys": [], "actions": [], "props": {}, "dimensions": {},
       "custom": {}}
# Blender 4.x and later's glTF importer adds an icosphere (42 vertices) as the bones' display shape: not imported data.
bone_shapes = {pb.custom_shape for o in bpy.data.objects if o.type == "ARMATURE" for pb in o.pose.bones
               if pb.custom_shape is not None}
for o in bpy.data.objects:
    if o in bone_shapes:
        continue
    out["objects"][o.type] = out["objects"].get(o.type, 0) + 1
    out["dimensions"][o.name] = [round(d, 5) for d in o.dimensions]
    if o.type == "MESH":
        out["vertices"] += len(o.data.vertices)
        out.setdefault("mesh_vertices", {})[o.name] = len(o.data.vertices)
        out["vertex_groups"] += len(o.vertex_groups)
        out["weighted_vertices"] += sum(1 for v in o.data.vertices if any(g.weight > 0 for g in v.groups))
        if o.data.shape_keys:
            out["shape_keys"] += [k.name for k in o.data.shape_keys.key_blocks]
    if o.type == "ARMATURE":
        out["bones"] += len(o.data.bones)
    for k in o.keys():
        out["props"][k] = out["props"].get(k, 0) + 1
    if "rbx.ClassName" in o.keys():
        out["custom"][o.name] = {k: (list(o[k]) if hasattr(o[k], "__len__") and not isinstance(o[k], str) else o[k])
                                 for k in o.keys() if k.startswith("rbx.")}


def channel_sets():
    """(name, F-curves) per animated thing, named as Blender 3.4 names its per-object actions, "<animation>_<object>":
    up to Blender 4.3 an action holds F-curves; from 4.4 (slotted actions; 5.0 dropped Action.fcurves) the glTF
    importer makes one action per glTF animation with a slot per object, whose F-curves are in channel bags."""
    for a in bpy.data.actions:
        if not getattr(a, "is_action_layered", False):
            yield a.name, list(a.fcurves)
            continue
        for layer in a.layers:
            for strip in layer.strips:
                for bag in strip.channelbags:
                    yield a.name + "_" + bag.slot.name_display, list(bag.fcurves)


def play(name):
    """Makes glTF animation `name` the one every object plays, its other animations muted."""
    for o in bpy.data.objects:
        legacy = bpy.data.actions.get(name + "_" + o.name)  # Blender 3.4: one action per object
        layered = bpy.data.actions.get(name)
        slot = None
        if layered is not None and getattr(layered, "is_action_layered", False):
            slot = next((s for s in layered.slots if s.identifier == "OB" + o.name), None)
        if legacy is None and slot is None and o.animation_data is None:
            continue
        o.animation_data_create()
        o.animation_data.action = legacy if legacy is not None else (layered if slot is not None else None)
        if slot is not None:
            o.animation_data.action_slot = slot
        for track in o.animation_data.nla_tracks:
            track.mute = True


for name, curves in channel_sets():
    out["actions"].append({"name": name, "curves": sorted(f.data_path for f in curves),
                           "keys": [len(f.keyframe_points) for f in curves],
                           "values": [[round(p.co[1], 5) for p in f.keyframe_points] for f in curves]})
out["fps"] = bpy.context.scene.render.fps
out["blender"] = bpy.app.version_string
out["positions"] = {}
for spec in args[1:]:
    if spec.startswith("anim="):
        play(spec[5:])
        continue
    name, frame = spec.rsplit("@", 1)
    bpy.context.scene.frame_set(int(frame))
    if name.startswith("vertices:"):
        obj = bpy.data.objects[name[9:]].evaluated_get(bpy.context.evaluated_depsgraph_get())
        mesh = obj.to_mesh()
        out["positions"][spec] = [[round(c, 6) for c in obj.matrix_world @ v.co] for v in mesh.vertices]
        obj.to_mesh_clear()
        continue
    out["positions"][spec] = [round(v, 6) for v in bpy.data.objects[name].matrix_world.translation]
print("RESULT " + json.dumps(out))
