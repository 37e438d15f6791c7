/// \file
/// The Catch2 main() of the trace stage's test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
