// Status and StatusOr<T>: errors as values (leveldb style). Every fallible function in tare returns
// one of these; no exception crosses a module boundary. The message names the object that failed
// and says what to do about it. Only cli/ maps a Status code to a process exit status.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tare {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // bad user input: flags, files, regexes (exit 2)
  kNotFound,            // a file, benchmark or run that does not exist (exit 2)
  kFailedPrecondition,  // the world is not in the state the operation needs (exit 2)
  kUnavailable,         // a facility the host lacks (hardware counters, valgrind)
  kDataLoss,            // malformed data from a child or a file
  kInternal,            // a broken invariant in tare itself
  kCancelled,           // the user interrupted (Ctrl-C)
  kDeadlineExceeded,    // a timeout
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status FailedPrecondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
  static Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status DataLoss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status Cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
  static Status DeadlineExceeded(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "message" for errors, "ok" otherwise.
  std::string ToString() const { return ok() ? "ok" : message_; }
  // The same error with context prepended: "reading foo.json: <message>".
  Status WithContext(const std::string& context) const {
    return ok() ? *this : Status(code_, context + ": " + message_);
  }
  // The same error with more said after it: "<message>; <more>".
  Status WithMore(const std::string& more) const { return ok() ? *this : Status(code_, message_ + "; " + more); }

 private:
  Status(StatusCode c, std::string m) : code_(c), message_(std::move(m)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : v_(std::move(value)) {}                                              // NOLINT: implicit by design
  StatusOr(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }
  T& value() & {
    assert(ok());
    return std::get<T>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace tare

// Propagate an error Status from an expression returning Status.
#define TARE_RETURN_IF_ERROR(expr) \
  do { \
    ::tare::Status tare_status_ = (expr); \
    if (!tare_status_.ok()) return tare_status_; \
  } while (0)

#define TARE_CONCAT_INNER(a, b) a##b
#define TARE_CONCAT(a, b) TARE_CONCAT_INNER(a, b)
// TARE_ASSIGN_OR_RETURN(auto x, Compute()); — binds the value or returns the error.
#define TARE_ASSIGN_OR_RETURN(lhs, expr) TARE_ASSIGN_OR_RETURN_IMPL(TARE_CONCAT(tare_or_, __LINE__), lhs, expr)
#define TARE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr); \
  if (!tmp.ok()) return tmp.status(); \
  lhs = std::move(tmp).value()
