// main() for benchmark binaries that link tare_bench_main instead of writing TARE_MAIN().
#include "tare/tare.hpp"

int main(int argc, char** argv) { return tare::run_main(argc, argv); }
