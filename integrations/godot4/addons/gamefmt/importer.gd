# Imports Roblox (.rbxm .rbxl .rbxmx .rbxlx .rbxmesh), Second Life (.llmesh .slm) and Redguard (.3d .3dc .rob .rgm .wld)
# files the way Godot's FBX2glTF importer does: `gamefmt export FILE <imported folder>/<name>-<md5>.glb`, then
# GLTFDocument. Godot keeps `.mesh` for its own resources: import Roblox meshes renamed to `.rbxmesh`.
@tool
extends EditorSceneFormatImporter


func _get_extensions() -> PackedStringArray:
	return PackedStringArray(["rbxm", "rbxl", "rbxmx", "rbxlx", "rbxmesh", "llmesh", "slm", "3d", "3dc", "rob", "rgm", "wld"])


func _get_import_flags() -> int:  # used up to Godot 4.3; harmless later
	return IMPORT_SCENE | IMPORT_ANIMATION


func _import_scene(path: String, flags: int, options: Dictionary) -> Object:
	var exe: String = OS.get_environment("GAMEFMT_EXECUTABLE")
	if exe == "":
		exe = EditorInterface.get_editor_settings().get_setting("filesystem/import/gamefmt/gamefmt_path")
	var sink := ProjectSettings.globalize_path("res://.godot/imported/%s-%s.glb" % [path.get_file(), path.md5_text()])
	var output := []
	var code := OS.execute(exe, ["export", "-q", ProjectSettings.globalize_path(path), sink], output, true)
	if code != 0:
		push_error("gamefmt could not import %s: %s" % [path, " ".join(output).strip_edges()])
		return null
	var state := GLTFState.new()
	var doc := GLTFDocument.new()
	if doc.append_from_file(sink, state, flags, path.get_base_dir()) != OK:
		push_error("gamefmt: Godot could not read the glb gamefmt wrote for %s" % path)
		return null
	return doc.generate_scene(state, options.get("animation/fps", 30), options.get("animation/trimming", false), false)
