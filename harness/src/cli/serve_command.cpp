// perfgate serve CASE (hidden): one side of an A/B check. Prepares the case exactly as `check`
// does (fresh random inputs, the result checked against the float64 reference), then obeys the
// A/B driver line by line on stdin/stdout so that base and head builds can be stepped in
// lockstep, only one of them running at a time:
//
//   -> ready {"case": ID, "build": {perfgate_version, source_hash, fingerprint, ...}, "check": ...}
//      (or "skipped REASON" / "error REASON", then exit 77 / 2)
//   <- warm BATCH_MIN_TIME_MS WARMUP_S TIMEOUT_S      -> warm DISPATCHES_PER_BATCH
//   <- sample BATCHES DISPATCHES                      -> samples NS NS ... (per dispatch, one per batch)
//   <- quit (or end of input)                         -> exit 0
//
// `warm` sizes a batch for this build; the driver then gives both sides the same DISPATCHES per
// batch, so that what a batch amortises (waking threads, a first dispatch after the other
// side's turn) weighs the same on both. Each `sample` runs the plan once untimed first: the
// other side has just had the caches and the cores.
// Anything else is answered "error REASON" and ends the server (exit 2).
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "cli/options.h"
#include "core/sysinfo.h"
#include "measure/measure_case.h"
#include "measure/sampler.h"
#include "perfgate/error.h"
#include "store/ab_json.h"

namespace perfgate {
namespace {

void reply(const std::string& line) {
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

int answer_commands(PreparedCase& prepared) {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    if (command == "quit") return 0;
    if (command == "warm") {
      SamplingSettings options;
      if (!(in >> options.batch_min_time_ms >> options.warmup_s >> options.timeout_s)) {
        reply("error warm: expected BATCH_MIN_TIME_MS WARMUP_S TIMEOUT_S, got '" + line + "'");
        return 2;
      }
      reply("warm " + std::to_string(warm_up(prepared, options).dispatches_per_batch));
    } else if (command == "sample") {
      int batches = 0, dispatches = 0;
      if (!(in >> batches >> dispatches) || batches < 1 || dispatches < 1) {
        reply("error sample: expected BATCHES DISPATCHES (whole numbers from 1), got '" + line + "'");
        return 2;
      }
      prepared.run_once();
      std::string out = "samples";
      for (int i = 0; i < batches; ++i) {
        const BatchTiming t = prepared.time_batch(dispatches, false);
        char number[32];
        std::snprintf(number, sizeof number, " %.9g", t.device_ns / t.dispatches);
        out += number;
      }
      reply(out);
    } else {
      reply("error unknown command '" + line + "'");
      return 2;
    }
  }
  return 0;  // the driver closed our input
}

}  // namespace

int serve_main(const ServeFlags& flags) {
  CaseSpec spec;
  try {
    spec = parse_case_id(flags.case_id);
  } catch (const Error& e) {
    reply(std::string("skipped this build has no such case: ") + e.what());
    return 77;
  }
  OpenedDevice opened = open_backend(spec.backend, flags.device);
  if (!opened.device) {
    reply("skipped no " + std::string(to_string(spec.backend)) + " device: " + opened.missing_reason);
    return 77;
  }
  const std::uint64_t seed = CommonOptions{.seed = flags.seed}.input_seed();
  try {
    CaseResult result;
    auto prepared = prepare_verified(*opened.device, spec, seed, result);
    if (!prepared) {
      reply(std::string(result.verdict == Verdict::skipped ? "skipped " : "error ") + result.message);
      return result.verdict == Verdict::skipped ? 77 : 2;
    }
    AbBuild build;
    build.perfgate_version = perfgate_version();
    build.source_hash = result.source_hash;
    build.fingerprint = opened.device->fingerprint();
    const nlohmann::json ready = {{"case", spec.id}, {"build", to_json(build)}, {"check", result.check}};
    reply("ready " + ready.dump());
    return answer_commands(*prepared);
  } catch (const NoDevice& e) {
    reply("skipped " + e.reason);
    return 77;
  } catch (const std::exception& e) {
    reply(std::string("error ") + e.what());
    return 2;
  }
}

}  // namespace perfgate
