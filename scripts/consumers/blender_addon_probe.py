# Runs inside Blender (scripts/check-blender-addon): installs the add-on zip the way a user does (Blender 3.x:
# Install add-on from file; 4.2+: Install from Disk as an extension, blender_manifest.toml), enables it, imports
# one file of each format family through bpy.ops.import_scene.gamefmt, then exports the Roblox mesh back through
# the add-on's exporter, and prints "RESULT {json}" per step with objects, vertices, bones and shape keys.
import json
import os
import sys

import addon_utils
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
testdata, out_dir, addon_zip = args[0], args[1], args[2]

if bpy.app.version >= (4, 2, 0):
    installed = bpy.ops.extensions.package_install_files(filepath=addon_zip, repo="user_default",
                                                         enable_on_install=True)
    MODULE = "bl_ext.user_default.io_scene_gamefmt"
else:
    installed = bpy.ops.preferences.addon_install(filepath=addon_zip)
    MODULE = "io_scene_gamefmt"
addon_utils.enable(MODULE, default_set=True)
print("RESULT " + json.dumps({"file": "install", "result": sorted(installed), "module": MODULE,
                              "blender": bpy.app.version_string}))


def reset():
    # Factory settings also reset the preferences, which disables add-ons: enable ours again.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable(MODULE, default_set=True)


# The program the add-on runs: the one bundled for this system, not one on PATH.
addon = sys.modules[MODULE]
exe = addon._executable(bpy.context)
print("RESULT " + json.dumps({"file": "executable", "path": exe,
                              "inside_addon": os.path.dirname(addon.__file__) in exe}))


def counts():
    out = {"objects": {}, "vertices": 0, "bones": 0, "shape_keys": []}
    # Blender 4.x's glTF importer adds an icosphere (42 vertices) as the bones' display shape: not imported data.
    bone_shapes = {pb.custom_shape for o in bpy.data.objects if o.type == "ARMATURE"
                   for pb in o.pose.bones if pb.custom_shape is not None}
    for o in bpy.data.objects:
        if o in bone_shapes:
            continue
        out["objects"][o.type] = out["objects"].get(o.type, 0) + 1
        if o.type == "MESH":
            out["vertices"] += len(o.data.vertices)
            if o.data.shape_keys:
                out["shape_keys"] += [k.name for k in o.data.shape_keys.key_blocks]
        if o.type == "ARMATURE":
            out["bones"] += len(o.data.bones)
    return out


for name, options in [("skinned-bar.mesh", {}), ("sl-rigged.llmesh", {}), ("rg-animated.3dc", {}),
                      ("asset-place.rbxl", {"asset_dir": testdata + "/rbx-assets"})]:
    reset()
    result = bpy.ops.import_scene.gamefmt(filepath=testdata + "/" + name, **options)
    print("RESULT " + json.dumps({"file": name, "result": sorted(result), **counts()}))
    if name == "skinned-bar.mesh":
        exported = bpy.ops.export_scene.gamefmt_rbxmesh(filepath=out_dir + "/bar-from-blender.mesh")
        print("RESULT " + json.dumps({"file": "export", "result": sorted(exported)}))

# The File > Import menu has one entry per format family.
reset()
addon = sys.modules[MODULE]
hooked = addon._menu_import in bpy.types.TOPBAR_MT_file_import._dyn_ui_initialize()
print("RESULT " + json.dumps({"file": "menu", "result": ["FINISHED" if hooked else "MISSING"],
                              "entries": [text for text, _ in addon.IMPORT_MENU]}))

# A file gamefmt refuses: the operator is cancelled with gamefmt's error, not a Python exception.
reset()
try:
    refused = bpy.ops.import_scene.gamefmt(filepath=out_dir + "/not-a-model.mesh")
except RuntimeError as e:  # Blender raises the operator's ERROR report as RuntimeError in background mode
    refused = {"CANCELLED", "ERROR: " + str(e).splitlines()[0][:120]}
print("RESULT " + json.dumps({"file": "refused", "result": sorted(refused)}))
