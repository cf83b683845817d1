#include "proc/wire.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace tare::proc::wire {
namespace {

TEST(Wire, RequestsSurviveTheRoundTripFieldByField) {
  SpawnRequest r;
  r.argv = {"/bin/echo", "", "with space", std::string("nul\0inside", 10)};
  r.env = {"A=1", "B=two words"};
  r.cwd = "/tmp";
  r.stdin_path = "/dev/zero";
  r.stdout_path = "/tmp/o";
  r.stderr_path = "/tmp/e";
  r.result_fd = 7;
  r.result_path = "/tmp/r";
  r.timeout_ns = -5;  // negative values must come back as they went
  r.disable_aslr = true;
  r.perf_events = {"task-clock", "cycles"};
  auto back = DecodeRequest(EncodeRequest(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->argv, r.argv);
  EXPECT_EQ(back->env, r.env);
  EXPECT_EQ(back->cwd, r.cwd);
  EXPECT_EQ(back->stdin_path, r.stdin_path);
  EXPECT_EQ(back->stdout_path, r.stdout_path);
  EXPECT_EQ(back->stderr_path, r.stderr_path);
  EXPECT_EQ(back->result_fd, 7);
  EXPECT_EQ(back->result_path, r.result_path);
  EXPECT_EQ(back->timeout_ns, -5);
  EXPECT_TRUE(back->disable_aslr);
  EXPECT_EQ(back->perf_events, r.perf_events);
}

TEST(Wire, ResultsSurviveTheRoundTripFieldByField) {
  SpawnResult r;
  r.started = true;
  r.pid = 4242;
  r.spawn_error = "";
  r.exited = true;
  r.exit_code = 3;
  r.term_signal = 9;
  r.timed_out = true;
  r.interrupted = false;
  r.wall_ns = 1'234'567'890'123;
  r.start_unix_ns = 1'700'000'000'000'000'000;
  r.end_unix_ns = 1'700'000'000'000'000'123;
  r.user_ns = 1;
  r.sys_ns = 2;
  r.peak_rss_bytes = 3;
  r.minor_faults = 4;
  r.major_faults = 5;
  r.voluntary_ctx_switches = 6;
  r.involuntary_ctx_switches = 7;
  r.stdout_bytes = -1;
  r.stderr_bytes = 8;
  r.peak_rss_floor_bytes = 458752;
  r.perf = {{"task-clock", 123456.5, 0.25, ""}, {"cycles", std::nullopt, 1, "cycles: not here"}};
  auto back = DecodeResult(EncodeResult(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->started, true);
  EXPECT_EQ(back->pid, 4242);
  EXPECT_EQ(back->exit_code, 3);
  EXPECT_EQ(back->term_signal, 9);
  EXPECT_TRUE(back->timed_out);
  EXPECT_FALSE(back->interrupted);
  EXPECT_EQ(back->wall_ns, r.wall_ns);
  EXPECT_EQ(back->start_unix_ns, r.start_unix_ns);
  EXPECT_EQ(back->end_unix_ns, r.end_unix_ns);
  EXPECT_EQ(back->user_ns + back->sys_ns + back->peak_rss_bytes + back->minor_faults + back->major_faults +
                back->voluntary_ctx_switches + back->involuntary_ctx_switches,
            28);
  EXPECT_EQ(back->stdout_bytes, -1);
  EXPECT_EQ(back->stderr_bytes, 8);
  EXPECT_EQ(back->peak_rss_floor_bytes, 458752);
  ASSERT_EQ(back->perf.size(), 2u);
  EXPECT_EQ(back->perf[0].event, "task-clock");
  EXPECT_EQ(back->perf[0].value, 123456.5);
  EXPECT_EQ(back->perf[0].running_fraction, 0.25);
  EXPECT_FALSE(back->perf[1].value.has_value());
  EXPECT_EQ(back->perf[1].unavailable, "cycles: not here");
}

// A message cut short, with bytes left over, or of another format is an error naming the cause.
TEST(Wire, MalformedMessagesAreErrorsNotGarbage) {
  SpawnResult r;
  r.perf = {{"task-clock", 1.0, 1, ""}};
  std::string good = EncodeResult(r);
  for (const std::string& bad : {good.substr(0, good.size() - 1), good + "x", std::string(),
                                 std::string(1, static_cast<char>(kFormat + 1)) + good.substr(1)}) {
    auto back = DecodeResult(bad);
    ASSERT_FALSE(back.ok());
    EXPECT_NE(back.status().message().find("same build"), std::string::npos) << back.status().message();
  }
  SpawnRequest q;
  q.argv = {"/bin/true"};
  std::string req = EncodeRequest(q);
  req[1] = '\xff';  // argv count: far more strings than bytes
  EXPECT_FALSE(DecodeRequest(req).ok());
}

TEST(Wire, MessagesAreFramedOverAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(WriteMessage(fds[1], "hello").ok());
  ASSERT_TRUE(WriteMessage(fds[1], "").ok());
  close(fds[1]);
  std::string body = "stale";
  ASSERT_TRUE(ReadMessage(fds[0], &body).ok());
  EXPECT_EQ(body, "hello");
  ASSERT_TRUE(ReadMessage(fds[0], &body).ok());
  EXPECT_EQ(body, "");
  Status eof = ReadMessage(fds[0], &body);
  EXPECT_FALSE(eof.ok());
  EXPECT_EQ(eof.code(), StatusCode::kNotFound);
  close(fds[0]);
}

}  // namespace
}  // namespace tare::proc::wire
