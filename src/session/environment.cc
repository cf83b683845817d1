#include "session/environment.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/redact.h"

namespace tare::session {

std::vector<std::string> ProcessEnvironment() { return EnvironmentWithoutSecrets(); }

Status ValidateEnvOverrides(const std::vector<std::string>& overrides, const std::string& field) {
  for (const auto& kv : overrides) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(fmt::format("{} '{}' must look like KEY=VALUE", field, kv));
    }
  }
  return Status::Ok();
}

std::vector<std::string> ApplyEnvOverrides(std::vector<std::string> env, const std::vector<std::string>& overrides) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < env.size(); ++i) index[env[i].substr(0, env[i].find('='))] = i;
  for (const auto& kv : overrides) {
    const std::string key = kv.substr(0, kv.find('='));
    auto it = index.find(key);
    if (it != index.end()) {
      env[it->second] = kv;
    } else {
      index[key] = env.size();
      env.push_back(kv);
    }
  }
  return env;
}

}  // namespace tare::session
