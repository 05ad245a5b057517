// The main of every doctest program without options of its own (library a2a_doctest_main): what
// DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN would define.
#include <doctest/doctest.h>

int main(int argc, char** argv) {
  return doctest::Context(argc, argv).run();
}
