// model/record_fields.h against a real SQLite store: a verdict, a comparison (with its broken arms
// and cross-check) and a check with EVERY listed field set to a value other than its default go
// through Store::SaveVerdicts / SaveChecks and read back equal, field for field (leveldb's encoders
// are tested the same way). record_fields.cc fails to compile when a record gains a member its list
// lacks, so together they say: every field of these records is stored and read back. Rows written
// before schema version 7 (the new columns NULL, no comparison row) read back saying what they lack.
#include "model/record_fields.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "base/files.h"
#include "model/metric.h"
#include "store/store.h"

namespace tare {
namespace {

// Sets each listed field of `rec` to a value no default has (the field's index makes it unique).
template <typename T>
void FillEveryField(T* rec, std::span<const Field<T>> fields) {
  int i = 0;
  for (const auto& f : fields) {
    ++i;
    std::visit(
        [&](auto member) {
          auto& v = rec->*member;
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::string>) {
            v = std::string(f.name) + (f.bytes ? std::string("\xff\x01", 2) : "") + std::to_string(i);
          } else if constexpr (std::is_same_v<V, double>) {
            v = 0.25 + i;
          } else if constexpr (std::is_same_v<V, int64_t>) {
            v = 100 + i;
          } else if constexpr (std::is_same_v<V, bool>) {
            v = !v;
          } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
            v = {f.name, "second"};
          } else if constexpr (std::is_same_v<V, NamedFigures>) {
            v = {{"sim.Ir", 1.5 + i}, {"sim.D1mr", 2.5}};
          } else if constexpr (std::is_same_v<V, Direction>) {
            v = Direction::kHigherIsBetter;
          } else if constexpr (std::is_same_v<V, Verdict>) {
            v = Verdict::kFail;
          } else if constexpr (std::is_same_v<V, CellRole>) {
            v = CellRole::kControl;
          } else {
            v = CheckKind::kBound;
          }
        },
        f.member);
  }
}

// Each listed field of `got` that differs from `want`'s, by name.
template <typename T>
std::string Differences(const T& got, const T& want, std::span<const Field<T>> fields) {
  std::string out;
  for (const auto& f : fields) {
    std::visit(
        [&](auto member) {
          if (!(got.*member == want.*member)) out += std::string(f.name) + " ";
        },
        f.member);
  }
  return out;
}

class RecordFieldsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("tare-record-fields-test");
    ASSERT_TRUE(d.ok());
    dir_ = *d;
    auto s = store::Store::Open(dir_ + "/tare.db");
    ASSERT_TRUE(s.ok()) << s.status().message();
    store_ = std::move(*s);
    RunRecord r;
    r.kind = RunKind::kAb;
    r.started_unix_ns = 1;
    r.tare_version = "0.1.0";
    auto id = store_->BeginRun(r);
    ASSERT_TRUE(id.ok()) << id.status().message();
    run_ = *id;
    BenchmarkRecord b;
    b.uri = "cmd:x";
    b.name = "x";
    auto bench = store_->AddBenchmark(run_, b);
    ASSERT_TRUE(bench.ok());
    ASSERT_TRUE(store_->AddCell(run_, {0, "x", CellRole::kControl, *bench, {}, {}}).ok());
  }
  void TearDown() override {
    store_.reset();
    RemoveTree(dir_);
  }
  AbComparison Full() const {
    AbComparison c;
    c.cell = "x";
    c.head = "hd02";
    FillEveryField(&c, ComparisonFields());
    FillEveryField(&c.broken, BrokenFields());
    AbCrossCheck x;
    FillEveryField(&x, CrossCheckFields());
    c.cross_check = x;
    AbMetricResult m;
    FillEveryField(&m, MetricResultFields());
    c.metrics = {m};
    m.metric = "wall_ns";
    c.metrics.push_back(m);
    return c;
  }
  std::string dir_;
  std::unique_ptr<store::Store> store_;
  int64_t run_ = 0;
};

TEST_F(RecordFieldsTest, EveryFieldOfAVerdictComparisonCrossCheckAndCheckIsStoredAndReadBack) {
  const AbComparison want = Full();
  ASSERT_TRUE(store_->SaveVerdicts(run_, 0, 1, true, {want}).ok());
  auto looks = store_->LooksOf(run_);
  ASSERT_TRUE(looks.ok()) << looks.status().message();
  ASSERT_EQ(looks->size(), 1u);
  const store::StoredLook& look = looks->front();
  EXPECT_TRUE(look.lacks.empty()) << *look.lacks.begin();
  EXPECT_TRUE(look.final);
  ASSERT_EQ(look.comparisons.size(), 1u);
  const AbComparison& got = look.comparisons.front();
  EXPECT_EQ(got.cell, want.cell);
  EXPECT_EQ(got.head, want.head);
  EXPECT_EQ(Differences(got, want, ComparisonFields()), "");
  EXPECT_EQ(Differences(got.broken, want.broken, BrokenFields()), "");
  ASSERT_TRUE(got.cross_check.has_value());
  EXPECT_EQ(Differences(*got.cross_check, *want.cross_check, CrossCheckFields()), "");
  ASSERT_EQ(got.metrics.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(Differences(got.metrics[i], want.metrics[i], MetricResultFields()), "");

  AbCheck check;
  FillEveryField(&check, CheckFields());
  ASSERT_TRUE(store_->SaveChecks(run_, CheckKind::kBound, {check}).ok());
  auto checks = store_->ChecksOf(run_);
  ASSERT_TRUE(checks.ok()) << checks.status().message();
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_EQ(Differences(checks->front(), check, CheckFields()), "");
}

// A cohort stored by a tare older than schema version 7, as the migration leaves it: its verdict
// rows' new columns NULL and no comparison row. It reads as it was, saying what it lacks; copied
// into another store (tare merge, import) it keeps lacking them, never gains defaults.
TEST_F(RecordFieldsTest, RowsStoredBeforeVersion7SayWhatTheyLack) {
  ASSERT_TRUE(store_->SaveVerdicts(run_, 0, 1, true, {Full()}).ok());
  {
    SQLite::Database db(dir_ + "/tare.db", SQLite::OPEN_READWRITE);
    db.exec(
        "UPDATE ab_verdicts SET unit = NULL, direction = NULL, declared = NULL, has_null = NULL, "
        "pass_bound = NULL, changed = NULL, exact = NULL; DELETE FROM ab_comparisons");
  }
  auto looks = store_->LooksOf(run_);
  ASSERT_TRUE(looks.ok()) << looks.status().message();
  ASSERT_EQ(looks->size(), 1u);
  const auto& lacks = looks->front().lacks;
  for (const char* field :
       {"unit", "direction", "declared", "has_null", "pass_bound", "changed", "exact", "comparison"}) {
    EXPECT_EQ(lacks.count(field), 1u) << field;
  }
  const AbComparison& c = looks->front().comparisons.front();
  EXPECT_EQ(c.role, CellRole::kControl) << "the cell's role, from ab_cells";
  EXPECT_EQ(c.verdict, Verdict::kFail) << "its metrics' worst";
  EXPECT_FALSE(c.cross_check.has_value());
  EXPECT_EQ(c.metrics.front().unit, "");
  EXPECT_TRUE(std::isnan(c.metrics.front().pass_bound));

  // Written into another store as read: still lacking, never defaults that claim a value.
  ASSERT_TRUE(store_->SaveVerdicts(run_, 0, 2, true, looks->front().comparisons, lacks).ok());
  auto again = store_->LooksOf(run_);
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->size(), 2u);
  EXPECT_EQ(again->back().lacks, lacks);
}

// Issue 45, item 7: the cycle model is a field of the stored metric definition; a definition stored
// before the field (its column NULL) has it read from its description, as tare did before.
TEST_F(RecordFieldsTest, TheCycleModelIsAFieldAndAnOlderStoresIsReadFromTheDescription) {
  MetricDef cycles = LookupMetric("sim.est_cycles");
  EXPECT_EQ(cycles.model, "iai-v1");
  cycles.description = "estimated cycles";  // the field alone says it
  ASSERT_TRUE(store_->AddMetric(run_, cycles).ok());
  MetricDef old = LookupMetric("sim.est_cycles");
  old.name = "sim.est_cycles_old";
  old.model = "";
  old.description = "estimated cycles, model iai-v0: as an older tare wrote it";
  ASSERT_TRUE(store_->AddMetric(run_, old).ok());
  {
    SQLite::Database db(dir_ + "/tare.db", SQLite::OPEN_READWRITE);
    db.exec("UPDATE metrics SET cycle_model = NULL WHERE name = 'sim.est_cycles_old'");
  }
  auto data = store_->LoadRunHead(run_);
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_EQ(data->metrics.size(), 2u);
  EXPECT_EQ(MetricModel(data->metrics[0]), "iai-v1");
  EXPECT_EQ(MetricModel(data->metrics[1]), "iai-v0");
}

}  // namespace
}  // namespace tare
