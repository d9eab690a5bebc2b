// GoogleTest entry point: installs the capturing Assimp logger before any test runs.
#include "support/log_capture.hpp"

#include <assimp/DefaultLogger.hpp>
#include <gtest/gtest.h>

int main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
    gamefmt::test::InstallTestLogger();
    const int rc = RUN_ALL_TESTS();
    Assimp::DefaultLogger::kill();
    return rc;
}
