#include "cli/invocation.h"

#include <algorithm>

namespace tare::cli {

namespace {
std::vector<std::string>& InvocationStorage() {
  static std::vector<std::string> argv;
  return argv;
}
}  // namespace

void SetInvocation(int argc, char** argv) { InvocationStorage().assign(argv, argv + argc); }
const std::vector<std::string>& Invocation() { return InvocationStorage(); }

SplitArgs SplitAtTarget(const std::vector<std::string>& argv, size_t first,
                        const std::vector<std::string>& value_options) {
  SplitArgs out;
  out.tare.assign(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(std::min(first, argv.size())));
  size_t i = first;
  while (i < argv.size()) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the target
    out.tare.push_back(a);
    bool takes_value = a.find('=') == std::string::npos &&
                       std::find(value_options.begin(), value_options.end(), a) != value_options.end();
    if (takes_value && i + 1 < argv.size()) out.tare.push_back(argv[++i]);
    ++i;
  }
  out.target.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  return out;
}

}  // namespace tare::cli
