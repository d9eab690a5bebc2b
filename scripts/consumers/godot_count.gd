# Run by scripts/check-godot-plugin: godot3-server --path PROJECT -s godot_count.gd. Loads every imported model and
# prints "RESULT <file> meshes=N verts=N blend=N bones=N".
extends SceneTree

var meshes = 0
var verts = 0
var blend = 0
var bones = 0


func walk(n):
	if n is MeshInstance and n.mesh != null:
		meshes += 1
		blend += n.mesh.get_blend_shape_count()
		for s in range(n.mesh.get_surface_count()):
			verts += n.mesh.surface_get_arrays(s)[Mesh.ARRAY_VERTEX].size()
	if n is Skeleton:
		bones += n.get_bone_count()
	for c in n.get_children():
		walk(c)


func _init():
	for f in ["bar.rbxmesh", "sl.llmesh", "rg.3dc", "place.rbxl"]:
		var scene = load("res://" + f)
		if scene == null:
			print("RESULT " + f + " load-failed")
			continue
		meshes = 0
		verts = 0
		blend = 0
		bones = 0
		walk(scene.instance())
		print("RESULT %s meshes=%d verts=%d blend=%d bones=%d" % [f, meshes, verts, blend, bones])
	quit(0)
