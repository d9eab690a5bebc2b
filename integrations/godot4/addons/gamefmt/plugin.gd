# gamefmt for Godot 4 (docs/use-with/godot.md): registers the scene format importer. Not run here (Debian 12 has no
# Godot 4); it keeps to the API of ../shared/formats/gltf-and-consumers.md §6.4.
@tool
extends EditorPlugin

var importer


func _enter_tree():
	if not EditorInterface.get_editor_settings().has_setting("filesystem/import/gamefmt/gamefmt_path"):
		EditorInterface.get_editor_settings().set_setting("filesystem/import/gamefmt/gamefmt_path", "gamefmt")
	importer = preload("importer.gd").new()
	add_scene_format_importer_plugin(importer)


func _exit_tree():
	remove_scene_format_importer_plugin(importer)
	importer = null
