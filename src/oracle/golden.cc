#include "oracle/golden.h"

#include <fmt/format.h>

#include "base/files.h"
#include "oracle/trial_output.h"

namespace tare::oracle {
namespace {

std::string_view FirstLine(std::string_view text) {
  size_t end = text.find('\n');
  std::string_view line = text.substr(0, end);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// Explains a wrong first line: the other kind of golden, a newer version, or not a golden at all.
Status WrongVersion(std::string_view found, std::string_view expected, const std::string& path) {
  std::string shown(found.substr(0, 80));
  if (found == kGoldenVersionLine) {
    return Status::InvalidArgument(fmt::format(
        "'{}' is a vote golden ({}); use it with `tare oracle check`, not `tare oracle counters`", path, found));
  }
  if (found == kCountersVersionLine) {
    return Status::InvalidArgument(fmt::format(
        "'{}' is a counters golden ({}); use it with `tare oracle counters`, not `tare oracle check`", path, found));
  }
  std::string_view stem = expected.substr(0, expected.rfind(' ') + 1);
  if (found.substr(0, stem.size()) == stem) {
    return Status::InvalidArgument(
        fmt::format("'{}' was written in format '{}', which this tare ({}) does not read (it reads '{}'); "
                    "use a newer tare or regenerate the golden with --accept",
                    path, shown, TARE_VERSION, expected));
  }
  return Status::InvalidArgument(
      fmt::format("'{}' is not a tare oracle golden: its first line is '{}', expected '{}'; create it with "
                  "--accept",
                  path, shown, expected));
}

}  // namespace

StatusOr<Golden> ParseGolden(std::string_view text, const std::string& path) {
  std::string_view first = FirstLine(text);
  if (NormalizeLine(first) != kGoldenVersionLine) return WrongVersion(first, kGoldenVersionLine, path);
  size_t body = text.find('\n');
  TrialOutput parsed = ParseTrialOutput(body == std::string_view::npos ? "" : text.substr(body + 1));
  return Golden{std::move(parsed.header), std::move(parsed.items)};
}

std::string FormatGolden(const Golden& golden) {
  std::string out(kGoldenVersionLine);
  out +=
      "\n## Written by `tare oracle check --accept`: header lines (#) must match every trial\n"
      "## exactly; each other line is an item voted present. See docs/oracle.md.\n";
  for (const std::string& line : golden.header) out += line + "\n";
  for (const std::string& item : golden.items) out += item + "\n";
  return out;
}

StatusOr<Golden> ReadGolden(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok() && text.status().code() != StatusCode::kNotFound) return text.status();  // a directory
  if (!text.ok()) {
    return Status::NotFound(fmt::format("{}; create the golden with `tare oracle check --accept --golden {} -- CMD`",
                                        text.status().message(), path));
  }
  return ParseGolden(*text, path);
}

Status WriteGolden(const std::string& path, const Golden& golden) {
  return WriteFileAtomic(path, FormatGolden(golden));
}

StatusOr<std::string> ParseCountersGolden(std::string_view text, const std::string& path) {
  std::string_view first = FirstLine(text);
  if (first != kCountersVersionLine) return WrongVersion(first, kCountersVersionLine, path);
  size_t body = text.find('\n');
  return std::string(body == std::string_view::npos ? "" : text.substr(body + 1));
}

std::string FormatCountersGolden(std::string_view report) {
  std::string out(kCountersVersionLine);
  out += "\n";
  out += report;
  return out;
}

StatusOr<std::string> ReadCountersGolden(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok() && text.status().code() != StatusCode::kNotFound) return text.status();  // a directory
  if (!text.ok()) {
    return Status::NotFound(fmt::format("{}; create the golden with `tare oracle counters --accept --golden {} -- CMD`",
                                        text.status().message(), path));
  }
  return ParseCountersGolden(*text, path);
}

Status WriteCountersGolden(const std::string& path, std::string_view report) {
  return WriteFileAtomic(path, FormatCountersGolden(report));
}

}  // namespace tare::oracle
