#include "base/shared_library.h"

#include <dlfcn.h>
#include <fmt/format.h>

namespace tare {

Status LoadSharedLibrary(const std::vector<std::string>& sonames, const std::string& package,
                         const std::string& for_what, const std::vector<SharedSymbol>& symbols) {
  void* handle = nullptr;
  std::string first_error;
  for (const auto& soname : sonames) {
    handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) break;
    const char* e = dlerror();
    if (first_error.empty()) first_error = e != nullptr ? e : soname + ": not found";
  }
  const std::string want = sonames.empty() ? package : sonames.front();
  if (handle == nullptr) {
    return Status::FailedPrecondition(
        fmt::format("{} need {} (Debian package {}), which cannot be loaded: {}; install it: sudo apt-get install {}",
                    for_what, want, package, first_error, package));
  }
  for (const auto& s : symbols) {
    dlerror();
    void* address = dlsym(handle, s.name);
    if (address == nullptr) {
      // Copied before dlclose, which frees dlerror's string (ASan found the read after it).
      const char* e = dlerror();
      const std::string why = e != nullptr ? e : "no such symbol";
      dlclose(handle);
      return Status::FailedPrecondition(
          fmt::format("{} need {} (Debian package {}), but the one loaded has no {}: {}; it is older than the one tare "
                      "was built with: upgrade it: sudo apt-get install {}",
                      for_what, want, package, s.name, why, package));
    }
    *s.slot = address;
  }
  return Status::Ok();  // the handle stays open for the life of the process
}

}  // namespace tare
