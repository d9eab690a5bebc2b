# gamefmt for Godot 3 (docs/use-with/godot.md): registers the scene importer.
tool
extends EditorPlugin

var importer


func _enter_tree():
	importer = preload("importer.gd").new()
	add_scene_import_plugin(importer)


func _exit_tree():
	remove_scene_import_plugin(importer)
	importer = null
