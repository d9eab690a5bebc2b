# gamefmt for Blender: File > Import / Export of Roblox meshes and places, Second Life mesh assets and Redguard
# models through the `gamefmt` command line (docs/use-with/blender.md). Import runs `gamefmt export FILE tmp.glb`
# and Blender's own glTF importer; export runs Blender's glTF exporter and `gamefmt export tmp.glb FILE`.
# One import operator for every format, so scripts can call bpy.ops.import_scene.gamefmt(filepath=...).
import os
import shutil
import subprocess
import tempfile

import bpy
from bpy.props import FloatProperty, BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

bl_info = {
    "name": "gamefmt: Roblox, Second Life and Redguard formats",
    "author": "gamefmt",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export",
    "description": "Roblox .mesh .rbxm .rbxl .rbxmx .rbxlx, Second Life .llmesh .slm, Redguard .3d .3dc .rob .rgm .wld",
    "category": "Import-Export",
}

IMPORT_EXTENSIONS = "*.mesh;*.rbxm;*.rbxl;*.rbxmx;*.rbxlx;*.llmesh;*.slm;*.3d;*.3dc;*.rob;*.rgm;*.wld"


class GamefmtPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__ or __name__
    executable: StringProperty(name="gamefmt command", default="gamefmt", subtype="FILE_PATH",
                               description="The gamefmt program (a name on PATH or a full path); 'gamefmt' uses "
                                           "the one inside the add-on when it has one for this system")

    def draw(self, context):
        self.layout.prop(self, "executable")
        bundled = _bundled_executable()
        self.layout.label(text="Bundled: " + (bundled if bundled else "none for this system"))


def _bundled_executable():
    """The gamefmt program the add-on zip carries for this system (bin/<system>/), or None."""
    import platform
    import sys
    machine = platform.machine().lower()
    if machine not in ("x86_64", "amd64"):
        return None
    if sys.platform.startswith("win"):
        exe = os.path.join(os.path.dirname(__file__), "bin", "windows-x86_64", "gamefmt.exe")
    elif sys.platform.startswith("linux"):
        exe = os.path.join(os.path.dirname(__file__), "bin", "linux-x86_64", "gamefmt")
    else:
        return None
    return exe if os.path.isfile(exe) else None


def _executable(context):
    """GAMEFMT_EXECUTABLE, else the preference when it was changed, else the bundled program, else PATH's."""
    prefs = context.preferences.addons.get(__package__ or __name__)
    exe = prefs.preferences.executable if prefs is not None else "gamefmt"
    if os.environ.get("GAMEFMT_EXECUTABLE"):
        return os.environ["GAMEFMT_EXECUTABLE"]
    if exe in ("", "gamefmt"):
        bundled = _bundled_executable()
        if bundled:
            if not os.access(bundled, os.X_OK):  # zip extraction may drop the execute bit
                os.chmod(bundled, 0o755)
            return bundled
    return exe or "gamefmt"


def _run(operator, context, args):
    """Runs gamefmt; reports its error in Blender's UI and returns False when it fails."""
    exe = _executable(context)
    if shutil.which(exe) is None and not os.path.isfile(exe):
        operator.report({"ERROR"}, "gamefmt not found ('%s'): install it or set the path in the add-on's "
                                   "preferences" % exe)
        return False
    # gamefmt writes UTF-8 everywhere (Windows' console code page would garble file names).
    result = subprocess.run([exe] + args, capture_output=True, encoding="utf-8", errors="replace")
    if result.returncode != 0:
        message = (result.stderr or result.stdout).strip().splitlines()
        operator.report({"ERROR"}, "gamefmt failed: " + (message[0] if message else "exit %d" % result.returncode))
        return False
    for line in result.stderr.splitlines():
        if "warning" in line:
            operator.report({"WARNING"}, line.strip())
    return True


def _numpy_shim():
    # Debian 12's numpy 1.24 lacks numpy.bool, which Blender 3.4's glTF importer uses; newer Blenders do not.
    import numpy
    if "bool" not in numpy.__dict__:
        numpy.bool = bool


class ImportGamefmt(bpy.types.Operator, ImportHelper):
    """Import a Roblox, Second Life or Redguard file through gamefmt"""
    bl_idname = "import_scene.gamefmt"
    bl_label = "Import (gamefmt)"
    bl_options = {"UNDO", "PRESET"}

    filter_glob: StringProperty(default=IMPORT_EXTENSIONS, options={"HIDDEN"})
    asset_dir: StringProperty(name="Roblox asset folder", subtype="DIR_PATH",
                              description="Folder of downloaded Roblox assets or a Studio install (meshes, images)")
    scope: EnumProperty(name="Roblox scope", items=[("auto", "Auto", "Workspace for places, all for models"),
                                                    ("workspace", "Workspace", ""), ("all", "All", "")])
    terrain: BoolProperty(name="Roblox terrain", default=True)
    terrain_stride: EnumProperty(name="Terrain stride", default="1",
                                 items=[("1", "1", "full resolution (default)"), ("2", "2", "every 2nd voxel (preview)"),
                                        ("4", "4", "every 4th voxel (preview)")])
    terrain_error: FloatProperty(name="Terrain error", default=0.5, min=0.0, max=64.0,
                                 description="Simplify terrain to this error in studs (0 = every triangle)")
    keep_units: BoolProperty(name="Keep source units", default=False,
                             description="Studs as they are, not metres")
    sl_lod: EnumProperty(name="Second Life LOD", items=[("high", "High", ""), ("medium", "Medium", ""),
                                                        ("low", "Low", ""), ("lowest", "Lowest", ""),
                                                        ("all", "All", "")])
    rg_assets: StringProperty(name="Redguard art folder", subtype="DIR_PATH",
                              description="Folder with TEXBSI.### and .COL palettes")

    def execute(self, context):
        args = []
        if self.asset_dir:
            args += ["--asset-dir", bpy.path.abspath(self.asset_dir)]
        if self.scope != "auto":
            args += ["--rbx-scope", self.scope]
        if not self.terrain:
            args += ["--rbx-no-terrain"]
        if self.terrain_stride != "1":
            args += ["--rbx-terrain-stride", self.terrain_stride]
        if self.terrain_error != 0.5:
            args += ["--rbx-terrain-error", "%g" % self.terrain_error]
        if self.keep_units:
            args += ["--keep-units"]
        if self.sl_lod != "high":
            args += ["--sl-lod", self.sl_lod]
        if self.rg_assets:
            args += ["--rg-assets", bpy.path.abspath(self.rg_assets)]
        with tempfile.TemporaryDirectory() as tmp:
            glb = os.path.join(tmp, "scene.glb")
            if not _run(self, context, ["export", "-q", self.filepath, glb] + args):
                return {"CANCELLED"}
            _numpy_shim()
            return bpy.ops.import_scene.gltf(filepath=glb)


class _ExportBase(ExportHelper):
    def execute(self, context):
        with tempfile.TemporaryDirectory() as tmp:
            glb = os.path.join(tmp, "scene.glb")
            _numpy_shim()
            if bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB",
                                         use_selection=self.selected_only) != {"FINISHED"}:
                self.report({"ERROR"}, "Blender's glTF exporter failed")
                return {"CANCELLED"}
            if not _run(self, context, ["export", "-q", glb, self.filepath, "-f", self.format_id]):
                return {"CANCELLED"}
        return {"FINISHED"}


def _export_class(name, label, extension, format_id):
    return type(name, (_ExportBase, bpy.types.Operator), {
        "bl_idname": "export_scene.gamefmt_" + format_id.replace("-", "_"),
        "bl_label": label,
        "filename_ext": extension,
        "format_id": format_id,
        "__annotations__": {
            "filter_glob": StringProperty(default="*" + extension, options={"HIDDEN"}),
            "selected_only": BoolProperty(name="Selected only", default=False),
        },
    })


EXPORTERS = [
    _export_class("ExportGamefmtRobloxMesh", "Export Roblox mesh (gamefmt)", ".mesh", "rbxmesh"),
    _export_class("ExportGamefmtRobloxModel", "Export Roblox model (gamefmt)", ".rbxm", "rbxm"),
    _export_class("ExportGamefmtSlMesh", "Export Second Life mesh (gamefmt)", ".llmesh", "llmesh"),
    _export_class("ExportGamefmtRedguard", "Export Redguard model (gamefmt)", ".3d", "rg3d"),
]


IMPORT_MENU = [
    ("Roblox mesh (gamefmt) (.mesh)", "*.mesh"),
    ("Roblox model/place (gamefmt) (.rbxm .rbxl .rbxmx .rbxlx)", "*.rbxm;*.rbxl;*.rbxmx;*.rbxlx"),
    ("Second Life mesh (gamefmt) (.llmesh .slm)", "*.llmesh;*.slm"),
    ("Redguard model (gamefmt) (.3d .3dc .rob)", "*.3d;*.3dc;*.rob"),
    ("Redguard level (gamefmt) (.rgm .wld)", "*.rgm;*.wld"),
]


def _menu_import(self, context):
    # One entry per family; all run the same operator, which accepts every format.
    for text, glob in IMPORT_MENU:
        self.layout.operator(ImportGamefmt.bl_idname, text=text).filter_glob = glob


def _menu_export(self, context):
    for cls in EXPORTERS:
        self.layout.operator(cls.bl_idname, text=cls.bl_label.replace("Export ", "").replace(" (gamefmt)", "")
                             + " (gamefmt) (%s)" % cls.filename_ext)


CLASSES = [GamefmtPreferences, ImportGamefmt] + EXPORTERS


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
