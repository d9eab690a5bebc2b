// Empty: libgamefmt.so is made of the static libraries linked whole (CMakeLists.txt).
