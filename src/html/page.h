// What every HTML report shares: the page itself (one self-contained file — inline CSS and SVG, no
// script, no network, so it opens from disk and from a CI artifact alike), and the blocks that
// describe a run: where its code came from, tare's version, when it started, the host's
// fingerprint (hard keys shown, soft keys and stability checks folded away) and its notes.
//
// A Content-Security-Policy in the page forbids every script and every fetch: even a string that
// escaped escaping could not run or load anything. Every string from a run goes through
// html_text.h where it is written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace tare::html {

// "<!DOCTYPE html>... <body><main><h1>title</h1>"; `title` is escaped.
std::string PageStart(std::string_view title);
// The footer (tare's version, generated time is left out so a page is reproducible) and the end.
std::string PageEnd();

// "2026-11-29 16:38:43 UTC"; "" for 0.
std::string FormatUnixTime(int64_t unix_ns);
// "main@1a2b3c4d5e6f, uncommitted changes" / "commit unknown"; tags after, "job=nightly". Raw
// (unescaped) text.
std::string ProvenanceText(const Provenance& p);

// <dl> rows (<dt>/<dd>) describing a run: id and kind, status, code, tare version, started,
// command line. Escaped HTML.
std::string RunFactRows(const RunRecord& run);
// The host: hard fingerprint keys in a table, soft keys and stability checks in a <details>.
// A fingerprint that cannot be read is said so, not fatal.
std::string FingerprintBlock(const std::string& fingerprint_json, const std::string& digest,
                             std::string_view title = "Host");
// Notes as a list ("" when there are none).
std::string NotesBlock(const std::vector<NoteRecord>& notes);
// The executables with their sha256.
std::string ExecutablesBlock(const std::vector<ExecutableRecord>& executables);

// A class name for a CSS-coloured badge: "PASS" -> "pass", "regressed" -> "regressed".
std::string BadgeClass(std::string_view word);
// <span class="badge CLASS">WORD</span>.
std::string Badge(std::string_view word);

}  // namespace tare::html
