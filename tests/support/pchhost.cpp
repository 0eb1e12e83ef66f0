// Compiles the precompiled header that the tests of one layer share (tests/CMakeLists.txt); holds no code.
