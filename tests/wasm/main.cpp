// Catch2's main for the Emscripten build of the suite (the native build links Catch2WithMain,
// which Debian ships only for the host).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
