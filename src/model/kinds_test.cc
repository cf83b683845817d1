// The closed vocabularies: every name parses back to its enum, an unknown name is an error that
// lists the known ones, and JSON carries the name, never the enum's number.
#include "model/kinds.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/target.h"

namespace tare {
namespace {

template <typename E>
void ExpectRoundTrip(std::initializer_list<std::pair<E, const char*>> all, const char* (*name_of)(E),
                     StatusOr<E> (*parse)(std::string_view)) {
  for (const auto& [e, name] : all) {
    EXPECT_STREQ(name_of(e), name);
    auto back = parse(name);
    ASSERT_TRUE(back.ok()) << name;
    EXPECT_EQ(*back, e) << name;
    EXPECT_EQ(nlohmann::json(e), nlohmann::json(name));
    EXPECT_EQ(nlohmann::json(name).template get<E>(), e);
  }
}

TEST(Kinds, EveryNameParsesBackAndJsonCarriesTheName) {
  ExpectRoundTrip<RunKind>({{RunKind::kRun, "run"}, {RunKind::kAb, "ab"}}, RunKindName, ParseRunKind);
  ExpectRoundTrip<CohortState>({{CohortState::kRunning, "running"},
                                {CohortState::kComplete, "complete"},
                                {CohortState::kInterrupted, "interrupted"},
                                {CohortState::kStopped, "stopped"}},
                               CohortStateName, ParseCohortState);
  ExpectRoundTrip<CellRole>({{CellRole::kTarget, "target"}, {CellRole::kControl, "control"}}, CellRoleName,
                            ParseCellRole);
  ExpectRoundTrip<ArmRole>({{ArmRole::kBase, "base"}, {ArmRole::kHead, "head"}, {ArmRole::kNull, "null"}}, ArmRoleName,
                           ParseArmRole);
  ExpectRoundTrip<CheckKind>({{CheckKind::kGate, "gate"}, {CheckKind::kBound, "bound"}}, CheckKindName, ParseCheckKind);
  ExpectRoundTrip<SuiteChange>({{SuiteChange::kNew, "new"}, {SuiteChange::kMissing, "missing"}}, SuiteChangeName,
                               ParseSuiteChange);
}

TEST(Kinds, AnUnknownNameIsAnErrorListingTheKnownOnes) {
  auto k = ParseRunKind("oracle");
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(k.status().message(), "unknown run kind 'oracle' (known: run, ab)");
  EXPECT_FALSE(ParseCohortState("Complete").ok());  // names are exact
  EXPECT_FALSE(ParseCellRole("").ok());
  EXPECT_FALSE(ParseArmRole("hd02").ok());  // an arm's name, not a role
  EXPECT_FALSE(ParseCheckKind("gates").ok());
  EXPECT_FALSE(ParseSuiteChange("added").ok());
}

TEST(Kinds, JsonReadingAnUnknownNameThrowsForTheReadersBoundary) {
  EXPECT_THROW(nlohmann::json("sideways").get<CellRole>(), std::runtime_error);
  EXPECT_THROW(nlohmann::json(3).get<CellRole>(), nlohmann::json::type_error);  // a number is no name
}

TEST(Kinds, TargetKindsAndInstrumentsAreWrittenByNameToo) {
  EXPECT_EQ(nlohmann::json(TargetKind::kGbench), nlohmann::json("gbench"));
  EXPECT_EQ(nlohmann::json(Instrument::kSim), nlohmann::json("sim"));
  EXPECT_EQ(nlohmann::json("mem").get<Instrument>(), Instrument::kMem);
  // An object field, as the reports write them.
  nlohmann::json j = {{"kind", TargetKind::kTare}, {"role", CellRole::kControl}};
  EXPECT_EQ(j.dump(), R"({"kind":"tare","role":"control"})");
}

// Arms are named by the campaign; their role is read from the name in one place (RoleOfArm), which
// every reader — the cohort, the gates, the broken-cell rule, the HTML page — asks instead of
// comparing names.
TEST(Kinds, AnArmsRoleIsReadFromItsNameInOnePlace) {
  EXPECT_EQ(RoleOfArm("base"), ArmRole::kBase);
  EXPECT_EQ(RoleOfArm("null"), ArmRole::kNull);
  for (const char* head : {"head", "hd02", "hd17"}) EXPECT_EQ(RoleOfArm(head), ArmRole::kHead) << head;
  EXPECT_EQ(RoleOfArm(kBaseArm), ArmRole::kBase);
  EXPECT_EQ(RoleOfArm(kNullArm), ArmRole::kNull);
  EXPECT_EQ(RoleOfArm(kFirstHeadArm), ArmRole::kHead);
  // The names a stored cohort writes for each role parse back to it.
  for (ArmRole r : {ArmRole::kBase, ArmRole::kHead, ArmRole::kNull}) EXPECT_EQ(RoleOfArm(ArmRoleName(r)), r);
}

}  // namespace
}  // namespace tare
