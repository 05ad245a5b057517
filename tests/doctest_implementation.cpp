// doctest's implementation, compiled once for every doctest program of tests/ (library
// a2a_doctest) instead of once in each: it is about 7 seconds of compiling per copy.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
