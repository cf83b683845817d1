// One argument as a POSIX shell reads it back unchanged, for the command lines tare prints for a
// user to paste (the resume command, an oracle trial, a parameter-scan command's text).
#pragma once

#include <string>

namespace tare {

// As it is when it holds only characters no shell treats specially, otherwise in single quotes,
// with ' written as '\''. A word starting with '=' is quoted too (zsh expands =cmd to its path).
std::string ShellQuote(const std::string& arg);

}  // namespace tare
