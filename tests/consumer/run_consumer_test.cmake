# Installs the gamefmt build tree into a scratch prefix, then configures, builds and runs tests/consumer
# against it with find_package(gamefmt). Run with cmake -P (see tests/CMakeLists.txt).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${GAMEFMT_BINARY_DIR} --prefix ${WORK_DIR}/prefix
    RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
set(flags "")
if(SANITIZE)
    set(flags "-fsanitize=address,undefined")
endif()
# The MinGW build's consumer is built with the same toolchain file and run under Wine (its emulator).
set(cross "")
if(TOOLCHAIN_FILE)
    set(cross -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE} -DGAMEFMT_MINGW_PREFIX=${MINGW_PREFIX})
else()
    list(APPEND cross -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${cross}
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the consumer project failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the consumer project failed: ${rc}")
endif()
execute_process(COMMAND ${EMULATOR} ${WORK_DIR}/build/consumer${CMAKE_EXECUTABLE_SUFFIX_OVERRIDE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the consumer program failed: ${rc}")
endif()
