#!/usr/bin/env python3
"""Generates importers/roblox_model/document/class_defaults_data.cpp: the value a new instance of each Roblox class has for
each property it serializes (docs/formats/roblox-model.md §2.7 "Class defaults").

Input: rbx-dom's reflection database (rojo-rbx/rbx-dom, rbx_dom_lua/src/database.json; MIT licence, The Rojo
Developers), e.g. the copy in ../shared/reference/rbx-reflection/. The build never reads it: the generated file is
committed, with the licence notice.

    tools/rbx_defaults/gen_class_defaults.py DATABASE.json > importers/roblox_model/document/class_defaults_data.cpp

For each class: its DefaultProperties, keyed by the name the property is serialized under (SerializesAs, or its
own name; DoesNotSerialize ones are left out), each value in gamefmt's value text form (value_text.hpp,
"<Type>:<text>") of the type the binary format stores it as. Defaults with no such form here (SharedString,
NetAssetRef, MaterialColors, non-empty Attributes or Tags) are left out: the writer then still says what it cannot
write. Identical (name, value) pairs are stored once.
"""
import base64
import json
import struct
import sys

FONT_WEIGHTS = {"Thin": 100, "ExtraLight": 200, "Light": 300, "Regular": 400, "Medium": 500, "SemiBold": 600,
                "Bold": 700, "ExtraBold": 800, "Heavy": 900}
FACE_BITS = {"Right": 1, "Top": 2, "Back": 4, "Left": 8, "Bottom": 16, "Front": 32}
AXIS_BITS = {"X": 1, "Y": 2, "Z": 4}


def plain(t):
    """'4e+02' as '400': the shortest digits, written as Python writes the number ('400.0' without '.0')."""
    r = repr(float(t))
    return r[:-2] if r.endswith(".0") else r


def f32(x):
    """The shortest text that reads back as the same float32."""
    v = struct.unpack("<f", struct.pack("<f", float(x)))[0]
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("non-finite default")
    for digits in range(1, 18):
        t = "%.*g" % (digits, v)
        if struct.unpack("<f", struct.pack("<f", float(t)))[0] == v:
            return plain(t)
    return repr(v)


def f64(x):
    """The shortest text that reads back as the same double."""
    v = float(x)
    for digits in range(1, 18):
        t = "%.*g" % (digits, v)
        if float(t) == v:
            return plain(t)
    return repr(v)


def nums(values, fmt=f32):
    return " ".join(fmt(v) for v in values)


def percent(s):
    out = []
    for b in s.encode("utf-8"):
        out.append("%%%02X" % b if b <= 0x20 or b in (0x25, 0x7F) else chr(b))
    text = "".join(out)
    if text == "":
        return "-"
    return "%2D" if text == "-" else text


def cframe(c):
    o = c["orientation"]
    return nums(c["position"] + o[0] + o[1] + o[2])


def string_value(s):
    raw = s.encode("utf-8")
    if b"\0" in raw:
        return "BinaryString:" + base64.b64encode(raw).decode()
    return "String:" + s


def value_text(kind, v):
    """The value text of a DefaultProperties entry, or None when it has none here."""
    simple = {
        "Bool": lambda: "Bool:" + ("true" if v else "false"),
        "Int32": lambda: "Int32:%d" % v,
        "Int64": lambda: "Int64:%d" % v,
        "Enum": lambda: "Enum:%d" % v,
        "BrickColor": lambda: "BrickColor:%d" % v,
        "SecurityCapabilities": lambda: "SecurityCapabilities:%d" % v,
        "Float32": lambda: "Float32:" + f32(v),
        "Float64": lambda: "Float64:" + f64(v),
        "String": lambda: string_value(v),
        "ContentId": lambda: string_value(v),
        "BinaryString": lambda: "BinaryString:" + v,
        "Vector2": lambda: "Vector2:" + nums(v),
        "Vector3": lambda: "Vector3:" + nums(v),
        "Color3": lambda: "Color3:" + nums(v),
        "Vector3int16": lambda: "Vector3int16:" + " ".join("%d" % x for x in v),
        "Vector2int16": lambda: "Vector2int16:" + " ".join("%d" % x for x in v),
        "Color3uint8": lambda: "Color3uint8:" + " ".join("%d" % x for x in v),
        "NumberRange": lambda: "NumberRange:" + nums(v),
        "UDim": lambda: "UDim:%s %d" % (f32(v[0]), v[1]),
        "UDim2": lambda: "UDim2:%s %d %s %d" % (f32(v[0][0]), v[0][1], f32(v[1][0]), v[1][1]),
        "Rect": lambda: "Rect:" + nums(v[0] + v[1]),
        "Ray": lambda: "Ray:" + nums(v["origin"] + v["direction"]),
        "CFrame": lambda: "CFrame:" + cframe(v),
        "UniqueId": lambda: "UniqueId:" + v,
        "Faces": lambda: "Faces:%d" % sum(FACE_BITS[f] for f in v),
        "Axes": lambda: "Axes:%d" % sum(AXIS_BITS[a] for a in v),
    }
    if kind in simple:
        return simple[kind]()
    if kind == "Attributes":  # serialized as the AttributesSerialize blob: empty for no attributes
        return "String:" if v == {} else None
    if kind == "Tags":  # serialized as a String of NUL-separated tags
        return "String:" if v == [] else None
    if kind == "OptionalCFrame":
        return "OptionalCFrame:" + ("" if v is None else cframe(v))
    if kind == "PhysicalProperties":
        if v == "Default":
            return "PhysicalProperties:default"
        keys = ["density", "friction", "elasticity", "frictionWeight", "elasticityWeight"]
        if "acousticAbsorption" in v:
            keys.append("acousticAbsorption")
        return "PhysicalProperties:" + nums([v[k] for k in keys])
    if kind == "Content":
        if v == "None":
            return "Content:none"
        if isinstance(v, dict) and "Uri" in v:
            return "Content:uri " + v["Uri"]
        return None
    if kind == "NumberSequence":
        return "NumberSequence:" + " ".join(nums([k["time"], k["value"], k["envelope"]]) for k in v["keypoints"])
    if kind == "ColorSequence":
        return "ColorSequence:" + " ".join(nums([k["time"]] + k["color"] + [k.get("envelope", 0.0)])
                                           for k in v["keypoints"])
    if kind == "Font":
        style = {"Normal": "Normal", "Italic": "Italic"}[v["style"]]
        text = "Font:%d %s %s" % (FONT_WEIGHTS[v["weight"]], style, percent(v["family"]))
        if v.get("cachedFaceId"):
            text += " " + percent(v["cachedFaceId"])
        return text
    return None  # SharedString, NetAssetRef, MaterialColors


def serialized_name(classes, class_name, prop):
    """The name `prop` of `class_name` is serialized under, or None (not serialized, or unknown)."""
    c = class_name
    while c:
        desc = classes[c]["Properties"].get(prop)
        if desc is not None:
            kind = desc["Kind"]
            if "Alias" in kind:
                return None
            ser = kind["Canonical"]["Serialization"]
            if ser == "Serializes" or (isinstance(ser, dict) and "Migrate" in ser):
                return prop
            if isinstance(ser, dict) and "SerializesAs" in ser:
                return ser["SerializesAs"]
            return None  # DoesNotSerialize
        c = classes[c].get("Superclass")
    return None


def c_string(s):
    out = ['"']
    for b in s.encode("utf-8"):
        if b in (0x22, 0x5C):
            out.append("\\" + chr(b))
        elif 0x20 <= b < 0x7F and b != 0x3F:  # '?' escaped: no trigraphs
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    out.append('"')
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        db = json.load(f)
    classes = db["Classes"]
    version = ".".join(str(x) for x in db["Version"][:3])
    pool, pool_index, table = [], {}, []
    skipped = 0
    for name in sorted(classes, key=lambda s: s.encode("utf-8")):
        entries = {}
        for prop, tagged in classes[name].get("DefaultProperties", {}).items():
            ser = serialized_name(classes, name, prop)
            if ser is None or ser == "Name":
                continue
            (kind, v), = tagged.items()
            try:
                text = value_text(kind, v)
            except (TypeError, KeyError):  # JSON null for a non-finite float (inf or NaN: unknown which)
                text = None
            if text is None:
                skipped += 1
                continue
            entries[ser] = text
        ids = []
        for ser in sorted(entries, key=lambda s: s.encode("utf-8")):
            key = (ser, entries[ser])
            if key not in pool_index:
                pool_index[key] = len(pool)
                pool.append(key)
            ids.append(pool_index[key])
        if ids:
            table.append((name, ids))
    with open(sys.argv[1].rsplit("/", 1)[0] + "/LICENSE.txt", encoding="utf-8") as f:
        licence = f.read().strip()
    w = sys.stdout.write
    w("// GENERATED by tools/rbx_defaults/gen_class_defaults.py from rbx-dom's reflection database (Roblox %s):\n"
      "// do not edit. %d classes, %d (property, default) pairs, %d defaults without a value text left out.\n"
      "// Derived from rbx-dom (https://github.com/rojo-rbx/rbx-dom), under its licence:\n//\n" %
      (version, len(table), len(pool), skipped))
    for line in licence.splitlines():
        w(("// " + line).rstrip() + "\n")
    w('// clang-format off\n#include "importers/roblox_model/document/class_defaults_data.hpp"\n\n'
      "namespace gamefmt::rbx::class_defaults {\n\n")
    w("const char *const kDatabaseVersion = %s;\n\n" % c_string(version))
    w("// (serialized property name, value text), shared by every class with that default.\n")
    w("const Pair kPairs[] = {\n")
    for ser, text in pool:
        w("    {%s, %s},\n" % (c_string(ser), c_string(text)))
    w("};\nconst std::size_t kPairCount = sizeof(kPairs) / sizeof(kPairs[0]);\n\n")
    w("// Each class's pairs, sorted by serialized name.\nconst std::uint16_t kClassPairs[] = {\n")
    firsts, n = [], 0
    for name, ids in table:
        firsts.append(n)
        n += len(ids)
        w("    " + ", ".join(str(i) for i in ids) + ", // " + name + "\n")
    w("};\n\n// Sorted by name (bytewise).\nconst ClassEntry kClasses[] = {\n")
    for (name, ids), first in zip(table, firsts):
        w("    {%s, %d, %d},\n" % (c_string(name), first, len(ids)))
    w("};\nconst std::size_t kClassCount = sizeof(kClasses) / sizeof(kClasses[0]);\n\n"
      "} // namespace gamefmt::rbx::class_defaults\n")
    assert len(pool) < 65536


if __name__ == "__main__":
    main()
