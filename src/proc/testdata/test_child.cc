// A child process with known behaviour, driven by argv, for the spawner's real-process tests.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  std::string mode = argv[1];
  if (mode == "exit") return std::atoi(argv[2]);
  if (mode == "alloc") {  // allocate and touch N MiB, so they are resident
    size_t bytes = static_cast<size_t>(std::atol(argv[2])) * 1024 * 1024;
    char* p = static_cast<char*>(std::malloc(bytes));
    for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
    std::printf("%d\n", p[bytes / 2]);
    return 0;
  }
  if (mode == "crash") {
    raise(SIGSEGV);
    return 0;
  }
  if (mode == "sleep") {
    sleep(static_cast<unsigned>(std::atoi(argv[2])));
    return 0;
  }
  if (mode == "family-sleep") {  // a grandchild in the same process group, then sleep
    if (fork() == 0) {
      sleep(static_cast<unsigned>(std::atoi(argv[2])));
      _exit(0);
    }
    sleep(static_cast<unsigned>(std::atoi(argv[2])));
    return 0;
  }
  if (mode == "escape-sleep") {  // a grandchild in a session of its own (setsid), then sleep
    if (fork() == 0) {
      setsid();
      sleep(static_cast<unsigned>(std::atoi(argv[2])));
      _exit(0);
    }
    sleep(static_cast<unsigned>(std::atoi(argv[2])));
    return 0;
  }
  if (mode == "daemon-exit") {  // a grandchild in a session of its own outlives us: we exit at once
    if (fork() == 0) {
      setsid();
      sleep(static_cast<unsigned>(std::atoi(argv[2])));
      _exit(0);
    }
    return 0;
  }
  if (mode == "print") {
    std::printf("%s\n", argv[2]);
    std::fprintf(stderr, "err:%s\n", argv[2]);
    return 0;
  }
  if (mode == "env") {
    const char* v = std::getenv(argv[2]);
    std::printf("%s\n", v ? v : "(unset)");
    return 0;
  }
  if (mode == "pwd") {
    char buf[4096];
    std::printf("%s\n", getcwd(buf, sizeof(buf)));
    return 0;
  }
  if (mode == "fdwrite") {
    int fd = std::atoi(argv[2]);
    std::string line = std::string(argv[3]) + "\n";
    return write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) ? 0 : 5;
  }
  if (mode == "spin") {  // burn N ms of CPU time (not wall time: the host may be loaded)
    timespec start, now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    volatile unsigned long x = 0;
    do {
      for (int i = 0; i < 10000; ++i) x = x + i;  // (C++20 deprecates += on a volatile)
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < std::atol(argv[2]));
    return 0;
  }
  return 64;
}
