// The fingerprint for people: keys grouped (CPU, operating system, memory, ...), hard keys marked
// with '*', then every stability check with its level, finding and fix. Plain text, no colour, so
// it reads the same in a terminal, a log and a CI page. What `tare env` prints.
#pragma once

#include <string>

#include "model/fingerprint.h"

namespace tare::env {

std::string FormatFingerprintText(const Fingerprint& fp);

}  // namespace tare::env
