// A tiny program whose ELF facts the env tests know: built with a fixed build id
// (-Wl,--build-id=0x...), once stripped (-s) and once static (src/env/CMakeLists.txt). It uses
// iostream so that it needs libstdc++.so.6 as well as libc.so.6.
#include <iostream>

int main() {
  std::cout << "tare env ELF fixture\n";
  return 0;
}
