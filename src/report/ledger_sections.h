// Inside the ledger (report/ledger.cc): the sections after its cell tables, each as the blocks
// report/ledger_fit.h may shorten, and the small formatting helpers both files use. Not an API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/ab_report.h"
#include "report/ledger_fit.h"

namespace tare::report::ledger_detail {

std::string Short(const std::string& sha);             // the first 12 hex digits
std::string UtcTime(int64_t unix_ns);                  // "2025-01-02 03:04:05 UTC", "—" for none
std::string Percent2(double fraction);                 // "3.02%"
std::string Confidence(double c);                      // "95%", "98.75%"
std::string Value(double v, const std::string& unit);  // in its unit, "n/a" for NaN
std::string JoinInts(const std::vector<int64_t>& v);   // "10, 20 and 40"
std::string Basename(const std::string& path);
std::string VerdictText(Verdict v);
bool SeveralHeads(const AbReport& r);

// `where` names the whole ledger in what a shortened section says instead of its table.
std::string Provenance(const AbReport& r);  // folded: campaign, cohort, lock, host, arms, plan
void BrokenCells(const AbReport& r, std::vector<LedgerBlock>& blocks);
void CrossChecks(const AbReport& r, std::vector<LedgerBlock>& blocks);
void NullArm(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks);
void Layouts(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks);
void Checks(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks);
void Cohorts(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks);
void Notes(const AbReport& r, const std::string& where, std::vector<LedgerBlock>& blocks);
std::string Legend(const AbReport& r);  // folded: how to read the ledger

// ledger_suite.cc: benchmarks new in a head or missing from one (AbReport::suite).
std::string SuiteBanner(const AbReport& r);  // under the title; "" when the suite did not change
void SuiteChanges(const AbReport& r, std::vector<LedgerBlock>& blocks);  // after the broken cells
std::string SuiteSummaryLines(const AbReport& r);                        // the terminal summary's lines

}  // namespace tare::report::ledger_detail
