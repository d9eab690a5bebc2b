"""Tests of scripts/windows-deps' pure parts: the cache keys (the same bytes the shell version hashed, so existing
prefixes stay valid), the relocation edits, the generated minizip project and the recipe table."""
import hashlib
import unittest

import script_loader

wd = script_loader.load("windows-deps")


class Keys(unittest.TestCase):
    def test_prefix_key_hashes_versions_recipe_toolchain_and_compiler_line(self):
        # What `(printf '%s' "$versions"; echo "recipe 3"; cat toolchain; g++ --version | head -1) | sha256sum`
        # hashed, versions being "pkg=ver\n" lines.
        shell_bytes = b"zlib=1:1.2.13\nlz4=1.9.4-1\nrecipe 3\nset(X Y)\ng++ 12\n"
        expected = hashlib.sha256(shell_bytes).hexdigest()[:16]
        self.assertEqual(wd.prefix_key(["zlib=1:1.2.13", "lz4=1.9.4-1"], 3, "set(X Y)\n", "g++ 12"), expected)
        self.assertNotEqual(wd.prefix_key(["zlib=1:1.2.13", "lz4=1.9.4-1"], 4, "set(X Y)\n", "g++ 12"), expected)
        self.assertEqual(len(expected), 16)

    def test_curl_key(self):
        self.assertEqual(wd.curl_key("curl=7.88.1-10", 1),
                         hashlib.sha256(b"curl=7.88.1-10curl recipe 1\n").hexdigest()[:16])


class Relocation(unittest.TestCase):
    prefix = "/cache/mingw-deps-0123456789abcdef"

    def test_assimp_names_zlib_by_target(self):
        text = 'INTERFACE_LINK_LIBRARIES "/usr/x86_64-w64-mingw32/lib/libz.a;minizip"'
        self.assertEqual(wd.relocate_assimp_targets(text), 'INTERFACE_LINK_LIBRARIES "ZLIB::ZLIB;minizip"')

    def test_curl_and_draco_become_relative_and_edits_are_idempotent(self):
        curl = f'INTERFACE_LINK_LIBRARIES "{self.prefix}/lib/libzstd.a"'
        once = wd.relocate_curl_targets(curl, self.prefix)
        self.assertEqual(once, 'INTERFACE_LINK_LIBRARIES "${_IMPORT_PREFIX}/lib/libzstd.a"')
        self.assertEqual(wd.relocate_curl_targets(once, self.prefix), once)
        draco = f'set(_IMPORT_PREFIX "{self.prefix}")\nINTERFACE_INCLUDE_DIRECTORIES "{self.prefix}/include"'
        moved = wd.relocate_draco_targets(draco, self.prefix)
        self.assertNotIn(self.prefix, moved)
        self.assertIn('get_filename_component(_IMPORT_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)', moved)
        self.assertIn('"${_IMPORT_PREFIX}/include"', moved)
        self.assertEqual(wd.relocate_draco_targets(moved, self.prefix), moved)


class Recipes(unittest.TestCase):
    def test_minizip_project_and_pkgconfig(self):
        project = wd.minizip_cmake("/src/minizip")
        for source in ("ioapi.c", "unzip.c", "zip.c", "iowin32.c"):
            self.assertIn(f"/src/minizip/{source}", project)
        pc = wd.minizip_pc("/p", "1.1-8")
        self.assertIn("Version: 1.1-8", pc)
        self.assertIn("Libs: -L${prefix}/lib -lminizip -lz", pc)

    def test_archive_version_from_dsc(self):
        self.assertEqual(wd.archive_version("lz4_1.9.4-1.dsc"), "1.9.4-1")
        self.assertEqual(wd.archive_version("libpng1.6_1.6.39-2.dsc"), "1.6.39-2")

    def test_every_keyed_source_is_built_and_every_built_one_is_keyed(self):
        keyed = {source for _, source in wd.DEPS}
        built = {source for _, source, _, _, _ in wd.CMAKE_LIBRARIES} | {"minizip", "assimp", "zlib"}
        self.assertEqual(keyed, built)
        for _, source, dev, _, _ in wd.CMAKE_LIBRARIES:
            self.assertIn((dev, source), wd.DEPS)


if __name__ == "__main__":
    unittest.main()
