// The confirmation rule on judged results: a regression stands only when every fresh
// measurement regressed too, or moved past the first's allowance; the result records the first
// verdict and each confirmation.
#include "judge/confirmation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace perfgate {
namespace {

CaseResult judged(Verdict verdict, double change_pct, double baseline_median = 3500, double allowed_pct = 4) {
  CaseResult r;
  r.id = "copy/vulkan/n=1048576";
  r.verdict = verdict;
  r.message = "latency_ns: " + std::to_string(change_pct);
  Judgement j;
  j.metric = "latency_ns";
  j.baseline_median = baseline_median;
  j.change_pct = change_pct;
  j.threshold_pct = allowed_pct;
  j.verdict = verdict;
  r.judgements.push_back(j);
  return r;
}

TEST(Confirmation, OnlyABaselineRegressionNeedsIt) {
  EXPECT_TRUE(needs_confirmation(judged(Verdict::regressed, 6)));
  EXPECT_FALSE(needs_confirmation(judged(Verdict::pass, 1)));
  EXPECT_FALSE(needs_confirmation(judged(Verdict::regressed, 0, 0)));  // an absolute floor
}

TEST(Confirmation, ConfirmedRegressionStands) {
  CaseResult r = judged(Verdict::regressed, 5.2);
  apply_confirmations(r, {judged(Verdict::regressed, 4.9)});
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_EQ(r.first_verdict, Verdict::regressed);
  ASSERT_EQ(r.confirmations.size(), 1u);
  EXPECT_DOUBLE_EQ(r.confirmations[0].change_pct, 4.9);
  EXPECT_NE(r.message.find("confirmed by 1 fresh measurement (latency_ns +4.9%)"), std::string::npos)
      << r.message;
}

TEST(Confirmation, TheMessageNamesWhereConfirmationsWereMeasured) {
  CaseResult r = judged(Verdict::regressed, 5.2);
  apply_confirmations(r, {judged(Verdict::regressed, 4.9), judged(Verdict::regressed, 5.0)}, "fresh process");
  EXPECT_NE(r.message.find("confirmed by 2 fresh processes (latency_ns +4.9%, latency_ns +5.0%)"),
            std::string::npos)
      << r.message;
  CaseResult once = judged(Verdict::regressed, 5.2);
  apply_confirmations(once, {judged(Verdict::pass, 0.3)}, "fresh process");
  EXPECT_NE(once.message.find("not confirmed: a fresh process gave pass (latency_ns +0.3%)"),
            std::string::npos)
      << once.message;
}

TEST(Confirmation, AOneOffDoesNotStand) {
  CaseResult r = judged(Verdict::regressed, 9.9);
  apply_confirmations(r, {judged(Verdict::pass, 0.4)});
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_EQ(r.first_verdict, Verdict::regressed);
  EXPECT_NE(r.message.find("not confirmed"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("+0.4%"), std::string::npos) << r.message;
}

TEST(Confirmation, EveryConfirmationMustRegress) {
  CaseResult r = judged(Verdict::regressed, 6);
  apply_confirmations(r, {judged(Verdict::regressed, 6.1), judged(Verdict::inconclusive, 3.5)});
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_EQ(r.confirmations.size(), 2u);
}

// A fresh process whose own spread allowed more, but which moved past the allowance the first
// measurement had, bears it out: on llvmpipe fresh processes of a copy doing +26% more work read
// +21.7..+27.7% and passed against their own wider allowances.
TEST(Confirmation, AFreshMeasurementPastTheFirstsAllowanceBearsItOut) {
  CaseResult r = judged(Verdict::regressed, 28.1, 3500, 16.6);
  apply_confirmations(r, {judged(Verdict::pass, 27.7, 3500, 30)}, "fresh process");
  EXPECT_EQ(r.verdict, Verdict::regressed) << r.message;
  EXPECT_NE(r.message.find("confirmed by 1 fresh process (latency_ns +27.7%, pass but past the first's "
                           "allowance 16.6%)"),
            std::string::npos)
      << r.message;
  CaseResult within = judged(Verdict::regressed, 28.1, 3500, 16.6);
  apply_confirmations(within, {judged(Verdict::pass, 16.0, 3500, 30)}, "fresh process");
  EXPECT_EQ(within.verdict, Verdict::pass) << within.message;
  CaseResult other_metric = judged(Verdict::regressed, 28.1, 3500, 16.6);
  CaseResult fresh = judged(Verdict::pass, 27.7, 3500, 30);
  fresh.judgements[0].metric = "relative_latency";
  apply_confirmations(other_metric, {fresh}, "fresh process");
  EXPECT_EQ(other_metric.verdict, Verdict::pass) << "changes of two metrics do not compare";
}

// A first regression that rested on its level's bound (one period, another host: the change
// past the bound and the allowance together) is borne out only past that reach: beside a parallel
// build an A/A check against one period read +218% and its fresh process +9.6%, past the bare
// allowance of 4.6%, and the check failed.
TEST(Confirmation, PastAnUnplacedLevelAFreshMeasurementMustReachAsFar) {
  auto bounded = [](Verdict verdict, double change_pct, double allowed_pct) {
    CaseResult r = judged(verdict, change_pct, 1.0, allowed_pct);
    r.judgements[0].metric = "relative_latency";
    r.judgements[0].level_bound_pct = 50;
    return r;
  };
  CaseResult within = bounded(Verdict::regressed, 218.1, 4.6);
  apply_confirmations(within, {bounded(Verdict::pass, 9.6, 10)}, "fresh process");
  EXPECT_EQ(within.verdict, Verdict::pass) << within.message;
  EXPECT_NE(within.message.find("not confirmed: a fresh process gave pass (relative_latency +9.6%)"),
            std::string::npos)
      << within.message;
  CaseResult past = bounded(Verdict::regressed, 218.1, 4.6);
  apply_confirmations(past, {bounded(Verdict::inconclusive, 80.0, 30)}, "fresh process");
  EXPECT_EQ(past.verdict, Verdict::regressed) << past.message;
  EXPECT_NE(past.message.find("inconclusive but past the first's reach (level and allowance) 50.4%"),
            std::string::npos)
      << past.message;
}

// A calibrated case that regressed on its bandwidth while its relative time improved (a
// floor): each confirmation is quoted, and weighed, by the bandwidth, the metric that was judged
// (a line once read "confirmed by 1 fresh process (relative_latency -76.2%)").
CaseResult confirmation_two_metrics(Verdict verdict, double latency_pct, double bandwidth_pct) {
  CaseResult r = judged(Verdict::pass, latency_pct, 1.0, 10);
  r.judgements[0].metric = "relative_latency";
  Judgement bandwidth = judged(verdict, bandwidth_pct, 50, 5).judgements[0];
  bandwidth.metric = "bandwidth_gbps";
  r.judgements.push_back(bandwidth);
  r.verdict = verdict;
  return r;
}

TEST(Confirmation, QuotesTheMetricThatWasJudged) {
  CaseResult r = confirmation_two_metrics(Verdict::regressed, -70.1, 12.0);
  apply_confirmations(r, {confirmation_two_metrics(Verdict::regressed, -76.2, 11.5)}, "fresh process");
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_NE(r.message.find("confirmed by 1 fresh process (bandwidth_gbps +11.5%)"), std::string::npos)
      << r.message;
  EXPECT_EQ(r.message.find("relative_latency"), std::string::npos) << r.message;
  ASSERT_EQ(r.confirmations.size(), 1u);
  EXPECT_EQ(r.confirmations[0].metric, "bandwidth_gbps");
  // Past the first's bandwidth allowance (5%), though the fresh one's own allowed it: borne out.
  CaseResult past = confirmation_two_metrics(Verdict::regressed, -70.1, 12.0);
  apply_confirmations(past, {confirmation_two_metrics(Verdict::pass, -76.2, 8.0)}, "fresh process");
  EXPECT_EQ(past.verdict, Verdict::regressed) << past.message;
  EXPECT_NE(past.message.find("(bandwidth_gbps +8.0%, pass but past the first's allowance 5.0%)"),
            std::string::npos)
      << past.message;
  CaseResult cleared = confirmation_two_metrics(Verdict::regressed, -70.1, 12.0);
  apply_confirmations(cleared, {confirmation_two_metrics(Verdict::pass, -76.2, 1.0)}, "fresh process");
  EXPECT_EQ(cleared.verdict, Verdict::pass);
  EXPECT_NE(cleared.message.find("not confirmed: a fresh process gave pass (bandwidth_gbps +1.0%)"),
            std::string::npos)
      << cleared.message;
}

TEST(Confirmation, AnErrorLeavesTheRegressionStanding) {
  CaseResult r = judged(Verdict::regressed, 6);
  CaseResult broken = judged(Verdict::error, 0);
  broken.message = "device lost";
  apply_confirmations(r, {broken});
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_NE(r.message.find("device lost"), std::string::npos) << r.message;
}

// A fresh measurement too busy to judge says nothing either way; one inconclusive for any other
// reason within the first's allowance still clears the regression.
TEST(Confirmation, AFreshMeasurementTooBusyToJudgeLeavesTheRegressionStanding) {
  CaseResult r = judged(Verdict::regressed, 104.7);
  CaseResult busy = judged(Verdict::inconclusive, 378.3);
  busy.judgements[0].too_busy = true;
  busy.message = "too busy to judge: this check's spread calls for 200%";
  apply_confirmations(r, {busy}, "fresh process");
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_NE(r.message.find("unconfirmed (a fresh process was too busy to judge: too busy"), std::string::npos)
      << r.message;
  CaseResult unsure = judged(Verdict::regressed, 104.7);
  apply_confirmations(unsure, {judged(Verdict::inconclusive, 3)}, "fresh process");
  EXPECT_EQ(unsure.verdict, Verdict::pass);
}

}  // namespace
}  // namespace perfgate
