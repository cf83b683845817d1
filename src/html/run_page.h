// The HTML report of one stored run (`tare report --run`): the run's facts and host, then per
// benchmark its samples in order and their distribution, with the summaries of its metrics. A plain
// run has one series; a `tare ab` cohort is shown raw, one colour per arm (its verdicts are in the
// cohort's own report, ab_page.h). Pure: RunData in, one self-contained HTML page out.
#pragma once

#include "html/ab_page.h"

#include <functional>
#include <string>
#include <vector>

#include "html/plots.h"
#include "base/status.h"
#include "model/run.h"

namespace tare::html {

// The metric a benchmark's plot shows: its own measurement (compare::PrimaryMetric: sim.Ir,
// bench.wall_ns, gb.real_time_ns, wall_ns), among the metrics its samples carry.
std::string PlottedMetric(const RunData& data, int64_t benchmark_id);

// The arms of a run's samples in display order: base, heads (in order of appearance), null;
// {""} for a plain run.
std::vector<std::string> ArmsOf(const RunData& data);

// A benchmark's samples of `metric` in run order, one series per arm of `arms` (x: the sample's
// position among this benchmark's samples; tooltips name the sample, its arm, block and value, or
// why it failed). A sample of an arm not in `arms` is left out.
SamplePlotSpec SamplesOf(const RunData& data, int64_t benchmark_id, const std::string& metric,
                         const std::vector<std::string>& arms);

// The whole page. `figures` go under the benchmark (a cohort's cell) they name: a sim cohort's
// flame graphs (ab_page.h, CellFigure).
std::string RenderRunHtml(const RunData& data, const std::vector<CellFigure>& figures = {});

// The same page built a benchmark at a time, for a run of any size (issue 48, item 7): `head` is
// the run without its samples (Store::LoadRunHead), and `samples_of(id)` gives one benchmark's
// samples in run order (Store::LoadBenchmarkSamples); memory holds one benchmark's samples, not the
// run's. A plain run's page is RenderRunHtml's; a cohort's arms are coloured per benchmark. An error
// of samples_of is returned.
using BenchmarkSamplesSource = std::function<StatusOr<std::vector<StoredSample>>(int64_t benchmark_id)>;
StatusOr<std::string> RenderRunHtmlByBenchmark(const RunData& head, const BenchmarkSamplesSource& samples_of);

}  // namespace tare::html
