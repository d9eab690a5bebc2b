# An evaluator of Roblox rig animation written from the joint math of docs/formats/roblox-model.md §5.6 alone (world(Part1)
# = world(Part0) · C0 · T · C1⁻¹, welds world(Part1) = world(Part0) · C0 · C1⁻¹; T from the joint's own keys, Poses
# with Weight ≠ 0, position lerp and rotation slerp, Linear easing only), reading the file through `gamefmt dump`
# (text), not through gamefmt's scene. scripts/consumers/check.py compares Blender's positions with it.
import math
import re
import subprocess

LINE = re.compile(r'^( *)(\S+) "(.*)" \[(.*)\]$')
PROP = re.compile(r'^ *\.(\S+) = (\w+):(.*)$')


def dump(gamefmt, path):
    """Instances as dicts: class, name, ref, parent (ref or None), children, props {name: (type, text)}."""
    text = subprocess.run([gamefmt, "dump", path], capture_output=True, text=True, check=True).stdout
    insts, stack, order = {}, [], []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            depth = len(m.group(1)) // 2
            del stack[depth:]
            inst = {"class": m.group(2), "name": m.group(3), "ref": m.group(4), "props": {}, "children": [],
                    "parent": stack[-1]["ref"] if stack else None}
            if stack:
                stack[-1]["children"].append(inst["ref"])
            insts[inst["ref"]] = inst
            order.append(inst)
            stack.append(inst)
            continue
        m = PROP.match(line)
        if m and stack:
            stack[-1]["props"][m.group(1)] = (m.group(2), m.group(3))
    return insts, order


def cframe(inst, name):
    if name not in inst["props"]:
        return ([0.0, 0.0, 0.0], [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])
    v = [float(x) for x in inst["props"][name][1].split()]
    return (v[0:3], [v[3:6], v[6:9], v[9:12]])


def mul(a, b):
    (p, r), (q, s) = a, b
    rs = [[sum(r[i][k] * s[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return ([p[i] + sum(r[i][k] * q[k] for k in range(3)) for i in range(3)], rs)


def inv(a):
    p, r = a
    rt = [[r[j][i] for j in range(3)] for i in range(3)]
    return ([-sum(rt[i][k] * p[k] for k in range(3)) for i in range(3)], rt)


def quat(r):
    w = math.sqrt(max(0.0, 1 + r[0][0] + r[1][1] + r[2][2])) / 2
    x = math.copysign(math.sqrt(max(0.0, 1 + r[0][0] - r[1][1] - r[2][2])) / 2, r[2][1] - r[1][2])
    y = math.copysign(math.sqrt(max(0.0, 1 - r[0][0] + r[1][1] - r[2][2])) / 2, r[0][2] - r[2][0])
    z = math.copysign(math.sqrt(max(0.0, 1 - r[0][0] - r[1][1] + r[2][2])) / 2, r[1][0] - r[0][1])
    return [w, x, y, z]


def matrix(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def slerp(a, b, t):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = [-x for x in b], -d
    if d > 0.9999999:
        q = [x + t * (y - x) for x, y in zip(a, b)]
    else:
        th = math.acos(d)
        q = [(math.sin((1 - t) * th) * x + math.sin(t * th) * y) / math.sin(th) for x, y in zip(a, b)]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def tracks(insts, sequence_name):
    """{(parent pose name, pose name): sorted [(time, cframe)]} of the KeyframeSequence named so."""
    seq = next(i for i in insts.values() if i["class"] == "KeyframeSequence" and i["name"] == sequence_name)
    out = {}
    for kref in seq["children"]:
        key = insts[kref]
        if key["class"] != "Keyframe":
            continue
        t = float(key["props"]["Time"][1])
        todo = [(c, None) for c in key["children"]]
        while todo:
            ref, parent = todo.pop()
            pose = insts[ref]
            if pose["class"] != "Pose":
                continue
            if parent is not None and float(pose["props"].get("Weight", ("", "1"))[1]) != 0:
                out.setdefault((parent, pose["name"]), []).append((t, cframe(pose, "CFrame")))
            todo += [(c, pose["name"]) for c in pose["children"]]
    return {k: sorted(v, key=lambda e: e[0]) for k, v in out.items()}


def transform_at(keys, t):
    if t <= keys[0][0]:
        return keys[0][1]
    if t >= keys[-1][0]:
        return keys[-1][1]
    for (t0, a), (t1, b) in zip(keys, keys[1:]):
        if t0 <= t < t1:
            u = (t - t0) / (t1 - t0)
            return ([x + u * (y - x) for x, y in zip(a[0], b[0])], matrix(slerp(quat(a[1]), quat(b[1]), u)))
    return keys[-1][1]


def inside(insts, ref, model):
    while ref is not None:
        if insts[ref]["class"] == "Model" and insts[ref]["name"] == model:
            return True
        ref = insts[ref]["parent"]
    return False


def world_positions(gamefmt, path, sequence_name, t, model):
    """{part name: world position in studs} of every part of Model `model` a rig or a weld reaches, at time t of the
    sequence."""
    insts, _ = dump(gamefmt, path)
    ts = tracks(insts, sequence_name)
    joints = []
    for i in insts.values():
        if i["class"] in ("Motor6D", "Weld") and "Part0" in i["props"] and "Part1" in i["props"]:
            p0, p1 = i["props"]["Part0"][1], i["props"]["Part1"][1]
            if p0 in insts and p1 in insts and inside(insts, p1, model):
                joints.append((i, p0, p1))
    world = {}
    part1s = {p1 for _, _, p1 in joints}
    for _, p0, _ in joints:
        if p0 not in part1s:
            world[p0] = cframe(insts[p0], "CFrame")
    # Motor6Ds first (the rig, §4.1), then the parts welded to it ride along.
    for kind in ("Motor6D", "Weld"):
        changed = True
        while changed:
            changed = False
            for j, p0, p1 in joints:
                if j["class"] != kind or p0 not in world or p1 in world:
                    continue
                T = ([0.0, 0.0, 0.0], [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])
                key = (insts[p0]["name"], insts[p1]["name"])
                if kind == "Motor6D" and key in ts:
                    T = transform_at(ts[key], t)
                world[p1] = mul(mul(mul(world[p0], cframe(j, "C0")), T), inv(cframe(j, "C1")))
                changed = True
    return {insts[r]["name"]: w[0] for r, w in world.items()}
