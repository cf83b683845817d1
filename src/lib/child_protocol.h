// The child side of the child protocol, version 1 (docs/protocol.md): reads the TARE_* request
// from the environment, runs it, and writes one JSON line per benchmark (one line for list and for
// errors that precede any benchmark) to TARE_RESULT_FD. The benchmark's own stdout and stderr are
// left alone.
#pragma once

namespace tare::internal {

inline constexpr int kProtocolVersion = 1;
// Exit status of a child whose result carries an error.
inline constexpr int kChildErrorExit = 3;

// True when the environment asks for the protocol (TARE_CHILD=1).
bool ChildRequested();

// Serves the request; returns the process exit status (0, or kChildErrorExit).
int RunChildProtocol();

}  // namespace tare::internal
