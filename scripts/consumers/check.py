# Opens what `gamefmt export` writes in the programs people use, headless, and checks the numbers against the
# source file as gamefmt's importer reads it (`gamefmt info --json`), not against the glb itself:
#   * Blender (Debian's 3.4): a skinned Roblox mesh with FACS poses (bones, weights present, named shape keys),
#     an animated Redguard model (an action whose F-curves change the shape-key values frame by frame) and a
#     generated Roblox place (object counts, custom properties from the instances, sizes in metres) and the generated
#     R15-like rig (its Walk action; parts where an evaluator of the reference's joint math, rbx_rig_eval.py, puts
#     them at several frames, a welded sword included);
#     and the generated Redguard level (mesh objects, lights, towers standing on the terrain's vertices);
#   * Open3D (Debian's python3-open3d under /usr/bin/python3): vertex and triangle totals of each file.
# With --blender-only, Open3D is left out (scripts/test-debian sid: Blender 5.2 in Debian sid).
# Usage: python3 scripts/consumers/check.py [--blender-only] GAMEFMT GEN_TESTDATA OUTDIR
import json
import os
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
blender_only = "--blender-only" in sys.argv
argv = [a for a in sys.argv if a != "--blender-only"]
gamefmt, gen, out = argv[1], argv[2], os.path.abspath(argv[3])
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
failures = []


def check(what, actual, expected):
    if actual != expected:
        failures.append(f"{what}: got {actual!r}, expected {expected!r}")
    else:
        print(f"  ok  {what}: {actual!r}")


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit(f"check-consumers: {' '.join(args)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r.stdout


def result_of(text):
    for line in text.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit("check-consumers: no RESULT line in:\n" + text)


def info(path, *flags):
    return json.loads(run([gamefmt, "info", "--json", *flags, path]))


blender_version = "?"


def blender(glb, *positions):
    global blender_version
    env = dict(os.environ, HOME=os.path.join(out, "home"))  # Blender writes its config under $HOME
    result = result_of(run(["blender", "-b", "--factory-startup", "--python-exit-code", "1", "-P",
                            os.path.join(here, "blender_probe.py"), "--", glb, *positions], env=env))
    blender_version = result.get("blender", "?")
    return result


run([gen, "--all", os.path.join(out, "fixtures")])
assets = os.path.join(root, "testdata", "rbx-assets")
files = {
    "head": (os.path.join(out, "fixtures", "fixtures", "roblox_mesh", "export_600_skinned_facs.mesh"), []),
    "rg": (os.path.join(root, "testdata", "rg-animated.3dc"), []),
    "sl": (os.path.join(root, "testdata", "sl-rigged.llmesh"), []),
    "place": (os.path.join(root, "testdata", "demo-place.rbxl"), ["--rbx-node-properties", "--rbx-asset-dir", assets]),
    "rig": (os.path.join(root, "testdata", "demo-rig.rbxm"), []),
    "skin": (os.path.join(root, "testdata", "skinned-rig.rbxm"), ["--rbx-asset-dir", assets]),
    "avatar": (os.path.join(root, "testdata", "avatar-r15.rbxm"), ["--rbx-asset-dir", assets]),
    "level": (os.path.join(root, "testdata", "rg-level", "DEMO.RGM"), []),
}
glbs = {}
for name, (source, flags) in files.items():
    glbs[name] = os.path.join(out, name + ".glb")
    run([gamefmt, "export", "-q", source, glbs[name], *flags])

# ---- Blender
print("Blender:")
src = info(files["head"][0], "-r")
mesh = src["meshes"][0]
b = blender(glbs["head"])
check("skinned mesh: armature bones", b["bones"], src["counts"]["bones"])
check("skinned mesh: mesh vertices", b["vertices"], mesh["vertices"])
check("skinned mesh: vertex groups (one per bone)", b["vertex_groups"], mesh["bones"])
check("skinned mesh: vertices with a weight", b["weighted_vertices"], mesh["vertices"])
check("skinned mesh: shape keys (Basis + FACS poses)", len(b["shape_keys"]), 1 + mesh["morphTargets"])
check("skinned mesh: FACS names", all(k == "Basis" or k.startswith(("c_", "l_", "r_")) for k in b["shape_keys"]), True)
check("skinned mesh: objects", b["objects"].get("ARMATURE", 0) >= 1 and b["objects"].get("MESH", 0) == 1, True)

src = info(files["rg"][0], "-r")
frames = src["meshes"][0]["morphTargets"]
keys = int(src["animations"][0]["durationTicks"]) + 1
b = blender(glbs["rg"])
check("Redguard: shape keys", b["shape_keys"], ["Basis"] + [f"frame{k}" for k in range(frames)])
check("Redguard: actions", len(b["actions"]), 1)
action = b["actions"][0]
check("Redguard: F-curves", action["curves"], sorted(f'key_blocks["frame{k}"].value' for k in range(frames)))
check("Redguard: keys per F-curve", action["keys"], [keys] * frames)
# Key i shows frame i+1 (frame 0 is the reference pose): weight 1 on that shape key, 0 on the others.
values = dict(zip(sorted(f'key_blocks["frame{k}"].value' for k in range(frames)), action["values"]))
for k in range(frames):
    check(f"Redguard: frame{k} weights over time", values[f'key_blocks["frame{k}"].value'],
          [1.0 if i + 1 == k else 0.0 for i in range(keys)])

src = info(files["place"][0], "-r", *files["place"][1])
b = blender(glbs["place"])
meshNodes = sum(1 for n in src["nodes"] if n["meshes"])
check("place: mesh objects", b["objects"].get("MESH", 0), meshNodes)
check("place: cameras", b["objects"].get("CAMERA", 0), src["counts"]["cameras"])
check("place: lights", b["objects"].get("LIGHT", 0), src["counts"]["lights"])
check("place: objects at least the nodes", sum(b["objects"].values()) >= src["counts"]["nodes"], True)
check("place: objects with rbx.ClassName (every instance)", b["props"].get("rbx.ClassName", 0), src["counts"]["nodes"] - 1)
base = b["custom"].get("Baseplate", {})
check("place: Baseplate's class", base.get("rbx.ClassName"), "Part")
size = base.get("rbx.props.size", [0, 0, 0])
check("place: Baseplate's size in metres (studs x 0.28)", sorted(b["dimensions"]["Baseplate"]),
      sorted(round(s * 0.28, 5) for s in size))

src = info(files["rig"][0], "-r")
spec = [f"{name}@{frame}" for name in ("LeftHand", "RightFoot", "Head", "Sword") for frame in (0, 6, 12, 30)]
b = blender(glbs["rig"], *spec)
# Blender 3.4 makes one action per animated object, named <animation>_<node>.
joints = ("Root", "Waist", "Neck", "LeftShoulder", "LeftElbow", "LeftWrist", "RightShoulder", "RightElbow",
          "RightWrist", "LeftHip", "LeftKnee", "LeftAnkle", "RightHip", "RightKnee", "RightAnkle")
check("rig: actions (Walk, one per joint node: every joint of the rig is keyed)", sorted(a["name"] for a in b["actions"]),
      sorted(f"Walk_{n}:T" for n in joints))
check("rig: Walk's channels", src["animations"][0]["nodeChannels"], 15)
sys.path.insert(0, here)
import rbx_rig_eval  # noqa: E402

worst = 0.0
for s in spec:
    name, frame = s.rsplit("@", 1)
    x, y, z = rbx_rig_eval.world_positions(gamefmt, files["rig"][0], "Walk", int(frame) / b["fps"], "Walker")[name]
    expected = [x * 0.28, -z * 0.28, y * 0.28]  # studs → metres, glTF +Y up → Blender +Z up
    worst = max(worst, max(abs(a - e) for a, e in zip(b["positions"][s], expected)))
check("rig: parts at frames 0, 6, 12, 30 where the joint math puts them (within 1 mm)", worst < 1e-3, True)

# A skinned MeshPart whose Bones are animated: the bar's top ring turns 90° about Z round the Tip Bone's pivot
# (world (0, 2, 0) studs) at t = 1 s (frame 24): every vertex above the pivot lands where that rotation puts it.
# (The glb's skinned mesh sits on a node of its own at the root, "Bar.skin": glTF ignores a skinned node's transform.)
b = blender(glbs["skin"], "vertices:Bar.skin@0", "vertices:Bar.skin@24")
rest, bent = b["positions"]["vertices:Bar.skin@0"], b["positions"]["vertices:Bar.skin@24"]
pivot = 2 * 0.28  # Blender Z (glTF Y), metres
top = [i for i, v in enumerate(rest) if v[2] > 4 * 0.28 - 1e-4]
worst = 0.0
for i in top:
    x, z = rest[i][0], rest[i][2]  # Rz90 in Roblox's XY plane is Blender's XZ plane: x' = -(z - pivot), z' = pivot + x
    worst = max(worst, abs(bent[i][0] + (z - pivot)), abs(bent[i][2] - (pivot + x)), abs(bent[i][1] - rest[i][1]))
check("skinned rig: top ring vertices", len(top), 4)
check("skinned rig: the skin follows the Bones at frame 24 (within 1 mm)", worst < 1e-3, True)

# The generated avatar's jacket, fitted onto its cages and skinned to its body parts, follows its Smile clip's bent left
# elbow: at 0.5 s (frame 12) the LeftElbow joint (world (-1.5, 3.5, 0) studs) has turned 90 degrees about X, and every
# jacket vertex below y = 2.9 studs and left of x = -1.4 (the lower sleeve's outer half: the auto-skin rule gives a
# vertex its nearest cage vertex's part, and the fixture's 8-corner cages put the sleeve's inner side near the waist
# on the LowerTorso) is where that rotation puts it. The jacket is the skinned mesh
# object with 576 vertices (6 parts x 96).
b = blender(glbs["avatar"])
jacket = [name for name, count in b.get("mesh_vertices", {}).items() if count == 576 and name.endswith(".skin")]
check("avatar: one skinned mesh of the jacket's 576 vertices", len(jacket), 1)
if jacket:
    b = blender(glbs["avatar"], "anim=Smile", f"vertices:{jacket[0]}@0", f"vertices:{jacket[0]}@12")
    rest, bent = b["positions"][f"vertices:{jacket[0]}@0"], b["positions"][f"vertices:{jacket[0]}@12"]
    py, pz = 3.5 * 0.28, 0.0  # the elbow in Blender's Z (Roblox Y) and -Y (Roblox Z), metres
    lower = [i for i, v in enumerate(rest) if v[2] < 2.9 * 0.28 and v[0] < -1.4 * 0.28]
    worst = 0.0
    for i in lower:
        y, z = rest[i][2] - py, -rest[i][1] - pz  # Roblox y, z relative to the elbow
        y2, z2 = -z, y  # Rx(90): y' = -z, z' = y
        worst = max(worst, abs(bent[i][2] - (py + y2)), abs(-bent[i][1] - (pz + z2)), abs(bent[i][0] - rest[i][0]))
    check("avatar: lower sleeve vertices", len(lower) >= 12, True)
    check("avatar: the fitted jacket follows the bent elbow at frame 12 (within 1 mm)", worst < 1e-3, True)

# The generated Redguard level: every node with meshes is a mesh object, its two lights are lights, and the towers
# stand on the terrain where the scene file puts them: on grid vertex (gx, gy) at glTF (-256 gx, H + 300, -256 gy),
# Blender (-256 gx, 256 gy, H + 300), H the terrain's height there (a vertex of the Terrain object).
src = info(files["level"][0], "-r")
towers = {"S000_TOWER": (128, 120), "S001_TOWER": (122, 116), "S002_TOWER": (134, 124), "B_003_WATCHER": (131, 128)}
b = blender(glbs["level"], "vertices:Terrain@0", *[f"{name}@0" for name in towers])
check("level: mesh objects", b["objects"].get("MESH", 0), sum(1 for n in src["nodes"] if n["meshes"]))
check("level: lights", b["objects"].get("LIGHT", 0), src["counts"]["lights"])
ground = {(round(-v[0] / 256), round(v[1] / 256)): v[2] for v in b["positions"]["vertices:Terrain@0"]}
check("level: terrain grid vertices", len(ground), 256 * 256)
worst = 0.0
for name, (gx, gy) in towers.items():
    x, y, z = b["positions"][f"{name}@0"]
    worst = max(worst, abs(x + 256 * gx), abs(y - 256 * gy), abs(z - 300 - ground[(gx, gy)]))
check("level: towers stand on their terrain vertices (within 0.01 units)", worst < 0.01, True)

# A real R15 rig and its Walk (the shared corpus, when present): the same comparison.
ams = os.path.join(root, "..", "shared", "corpus", "rbx", "public-places", "ams-melee.rbxl")
if os.path.exists(ams):
    glb = os.path.join(out, "ams-melee.glb")
    run([gamefmt, "export", "-q", ams, glb])
    spec = [f"{name}@{frame}" for name in ("LeftHand", "RightFoot", "LeftLowerArm") for frame in (0, 4, 9, 14)]
    b = blender(glb, "anim=Walk", *spec)
    worst = 0.0
    for s in spec:
        name, frame = s.rsplit("@", 1)
        x, y, z = rbx_rig_eval.world_positions(gamefmt, ams, "Walk", int(frame) / b["fps"], "Animations")[name]
        worst = max(worst, max(abs(a - e) for a, e in zip(b["positions"][s], [x * 0.28, -z * 0.28, y * 0.28])))
    check("ams-melee R15 Walk: parts where the joint math puts them (within 1 mm)", worst < 1e-3, True)

# ---- Open3D
if blender_only:
    if failures:
        print("check-consumers: " + str(len(failures)) + " check(s) failed:\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)
    print("check-consumers: Blender %s reads every file as expected" % blender_version)
    sys.exit(0)
print("Open3D:")
o = result_of(run(["/usr/bin/python3", os.path.join(here, "open3d_probe.py"), *glbs.values()]))
for name, (source, flags) in files.items():
    # Open3D reads through Assimp with its own steps, which triangulate and flatten instances: compare with the
    # source read the same way.
    # Open3D also joins identical vertices: only the level has any (terrain cells whose neighbours show the same
    # image corner at a shared grid vertex), so it is compared with the source read with -jiv too.
    counts = info(source, "-tri", "-ptv", *(["-jiv"] if name == "level" else []), *flags)["counts"]
    check(f"{name}: vertices", o[glbs[name]]["vertices"], counts["vertices"])
    check(f"{name}: triangles", o[glbs[name]]["triangles"], counts["faces"])

if failures:
    print("check-consumers: " + str(len(failures)) + " check(s) failed:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print("check-consumers: Blender and Open3D read every file as expected")
