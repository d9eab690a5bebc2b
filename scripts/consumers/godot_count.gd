# Run by scripts/check-godot-plugin: godot3-server --path PROJECT -s godot_count.gd. Loads every imported model and
# prints "RESULT <file> meshes=N verts=N blend=N bones=N", and "RESULT <file> animations=A,B,..." (the sorted
# animation names of its AnimationPlayers) when it has any.
extends SceneTree

var meshes = 0
var verts = 0
var blend = 0
var bones = 0
var animations = []


func walk(n):
	if n is MeshInstance and n.mesh != null:
		meshes += 1
		blend += n.mesh.get_blend_shape_count()
		for s in range(n.mesh.get_surface_count()):
			verts += n.mesh.surface_get_arrays(s)[Mesh.ARRAY_VERTEX].size()
	if n is Skeleton:
		bones += n.get_bone_count()
	if n is AnimationPlayer:
		for a in n.get_animation_list():
			animations.append(a)
	for c in n.get_children():
		walk(c)


func _init():
	for f in ["bar.rbxmesh", "sl.llmesh", "rg.3dc", "place.rbxl", "rig.rbxm", "level/DEMO.RGM"]:
		var scene = load("res://" + f)
		if scene == null:
			print("RESULT " + f + " load-failed")
			continue
		meshes = 0
		verts = 0
		blend = 0
		bones = 0
		animations = []
		walk(scene.instance())
		print("RESULT %s meshes=%d verts=%d blend=%d bones=%d" % [f, meshes, verts, blend, bones])
		if animations.size() > 0:
			animations.sort()
			print("RESULT %s animations=%s" % [f, PoolStringArray(animations).join(",")])
	quit(0)
