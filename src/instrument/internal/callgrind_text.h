// The words and numbers of the callgrind profile format: the lexical layer under the reader
// (callgrind_reader.cc). Internal to the callgrind reader; not part of its contract.
//
// Numbers in a profile are input the benchmark controls, so ParseNumber is total: a token that is
// not exactly a number that fits in 64 bits is nullopt, never an exception or a wrapped value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tare::instrument::callgrind_internal {

// `s` without leading and trailing blanks (space, tab, CR).
std::string_view Trim(std::string_view s);

// The blank-separated words of `s` into *words (cleared first; reused on the hot path).
void SplitWordsInto(std::string_view s, std::vector<std::string_view>* words);
std::vector<std::string_view> SplitWords(std::string_view s);

// Number := decimal digits | "0x" hex digits. The whole token, no sign, no overflow.
std::optional<uint64_t> ParseNumber(std::string_view s);

// The words of `v` joined by single spaces, for messages.
std::string Join(const std::vector<std::string>& v);

// `s` cut to 60 characters, for quoting input in messages.
std::string Shorten(std::string_view s);

}  // namespace tare::instrument::callgrind_internal
