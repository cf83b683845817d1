// The smallest program: exit(0) by system call, no libc. spawner_test runs it to check what the
// spawn helper says of a peak RSS below its own pages (spawn_helper_main.cc, step 3).
extern "C" [[noreturn]] void _start() {
  asm volatile("mov $60, %eax\n\txor %edi, %edi\n\tsyscall");
  __builtin_unreachable();
}
