# Run by scripts/check-godot4-plugin: godot --headless --path PROJECT -s godot4_check.gd -- [FILE:NODE@SECONDS ...].
# Loads every model the editor imported through the gamefmt plugin and prints, per file, one line
# "RESULT {json}" with what the scene holds: MeshInstance3D nodes, vertices (every surface of their meshes), blend
# shapes, Skeleton3D bones, the animations of its AnimationPlayers; for each FILE:NODE@SECONDS argument, the global
# position of the node named NODE after the file's first animation has been played to SECONDS.
extends SceneTree

const FILES = ["bar.rbxmesh", "sl.llmesh", "rg.3dc", "place.rbxl", "rig.rbxm", "level/DEMO.RGM"]

var counts = {}


func walk(n: Node) -> void:
	if n is MeshInstance3D and n.mesh != null:
		counts["meshes"] += 1
		counts["blend"] += n.mesh.get_blend_shape_count()
		for s in range(n.mesh.get_surface_count()):
			counts["verts"] += n.mesh.surface_get_arrays(s)[Mesh.ARRAY_VERTEX].size()
	if n is Skeleton3D:
		counts["bones"] += n.get_bone_count()
	if n is AnimationPlayer:
		for a in n.get_animation_list():
			counts["animations"].append(str(a))
	for c in n.get_children():
		walk(c)


func find_player(n: Node) -> AnimationPlayer:
	if n is AnimationPlayer:
		return n
	for c in n.get_children():
		var p := find_player(c)
		if p != null:
			return p
	return null


func _initialize() -> void:
	# Nodes enter the tree (global positions, animation playback) only once the main loop runs.
	await process_frame
	var specs := OS.get_cmdline_user_args()
	var code := 0
	for f in FILES:
		var packed = load("res://" + f)
		if packed == null:
			print("RESULT " + JSON.stringify({"file": f, "loaded": false}))
			code = 1
			continue
		var scene: Node = packed.instantiate()
		root.add_child(scene)
		counts = {"file": f, "loaded": true, "meshes": 0, "verts": 0, "blend": 0, "bones": 0, "animations": []}
		walk(scene)
		counts["animations"].sort()
		var positions := {}
		var player := find_player(scene)
		for spec in specs:
			if not spec.begins_with(f + ":"):
				continue
			var rest: String = spec.substr(f.length() + 1)
			var node_name := rest.get_slice("@", 0)
			var seconds := float(rest.get_slice("@", 1))
			if player != null and player.get_animation_list().size() > 0:
				player.play(player.get_animation_list()[0])
				player.seek(seconds, true)
				player.pause()
			var node := scene.find_child(node_name, true, false) as Node3D
			if node == null:
				positions[rest] = null
				code = 1
			else:
				var p := node.global_position
				positions[rest] = [p.x, p.y, p.z]
		counts["positions"] = positions
		print("RESULT " + JSON.stringify(counts))
		scene.queue_free()
	quit(code)
