# Writes the manual page and the bash completion from the built command line (tools/gamefmt/CMakeLists.txt).
#   cmake -DGAMEFMT=<gamefmt> -DOUT_DIR=<dir> -P GenerateCliDocs.cmake
file(MAKE_DIRECTORY ${OUT_DIR})
foreach(pair "--man;gamefmt.1" "--bash-completion;gamefmt.bash")
    list(GET pair 0 flag)
    list(GET pair 1 name)
    execute_process(COMMAND ${GAMEFMT} help ${flag} OUTPUT_FILE ${OUT_DIR}/${name} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "gamefmt help ${flag} failed (${rc})")
    endif()
endforeach()
