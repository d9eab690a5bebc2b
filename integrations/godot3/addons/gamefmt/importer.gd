# Imports Roblox (.rbxm .rbxl .rbxmx .rbxlx .rbxmesh), Second Life (.llmesh .slm) and Redguard (.3d .3dc .rob .rgm .wld)
# files: `gamefmt export FILE <imported folder>/<name>-<md5>.glb`, then Godot's own glTF importer. Godot keeps
# `.mesh` for its own mesh resources, so Roblox meshes are imported under the extension `.rbxmesh` (rename the
# file; gamefmt recognises the content). The gamefmt command: the GAMEFMT_EXECUTABLE environment variable, else
# `gamefmt` on PATH.
tool
extends EditorSceneImporter


func _get_extensions():
	return ["rbxm", "rbxl", "rbxmx", "rbxlx", "rbxmesh", "llmesh", "slm", "3d", "3dc", "rob", "rgm", "wld"]


func _get_import_flags():
	return IMPORT_SCENE | IMPORT_ANIMATION


func _import_scene(path, flags, bake_fps):
	var exe = OS.get_environment("GAMEFMT_EXECUTABLE")
	if exe == "":
		exe = "gamefmt"
	var sink = ProjectSettings.globalize_path("res://.import/%s-%s.glb" % [path.get_file(), path.md5_text()])
	var output = []
	var code = OS.execute(exe, ["export", "-q", ProjectSettings.globalize_path(path), sink], true, output, true)
	if code != 0:
		push_error("gamefmt could not import %s: %s" % [path, PoolStringArray(output).join(" ").strip_edges()])
		return null
	return import_scene_from_other_importer(sink, flags, bake_fps)
