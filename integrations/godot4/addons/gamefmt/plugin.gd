# gamefmt for Godot 4 (docs/use-with/godot.md): registers the scene format importer. Tested in Godot 4.6 (Debian
# sid's `godot`, headless) by scripts/check-godot4-plugin.
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
