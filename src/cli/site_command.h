// `tare site -o DIR`: a static site of every benchmark in a store (html/site_pages.h): index.html
// and a history page per benchmark, for GitHub Pages (docs/ci.md, "A benchmark site").
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

void AddSiteCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
