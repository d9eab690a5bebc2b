# Runs inside Blender with the gamefmt add-on enabled (scripts/check-blender-addon): imports one file of each
# format family through bpy.ops.import_scene.gamefmt, then exports the Roblox mesh back through the add-on's
# exporter, and prints "RESULT {json}" per step with objects, vertices, bones and shape keys.
import json
import sys

import addon_utils
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
testdata, out_dir = args[0], args[1]


def reset():
    # Factory settings also reset the preferences, which disables add-ons: enable ours again.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("io_scene_gamefmt", default_set=True)


def counts():
    out = {"objects": {}, "vertices": 0, "bones": 0, "shape_keys": []}
    for o in bpy.data.objects:
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
addon = sys.modules["io_scene_gamefmt"]
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
