# Runs under Debian's /usr/bin/python3 with python3-open3d: reads each glb with open3d.io.read_triangle_model and
# prints one line "RESULT {json}" with meshes, vertices and triangles per file. Used by scripts/check-consumers.
import json
import sys

import open3d as o3d

result = {}
for path in sys.argv[1:]:
    model = o3d.io.read_triangle_model(path)
    result[path] = {"meshes": len(model.meshes),
                    "vertices": sum(len(m.mesh.vertices) for m in model.meshes),
                    "triangles": sum(len(m.mesh.triangles) for m in model.meshes)}
print("RESULT " + json.dumps(result))
