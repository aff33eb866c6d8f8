// The pipeline files in ci/ are valid YAML with the shape their systems need: GitHub Actions
// jobs made of steps, GitLab jobs made of script lines, and a protected approval job in each.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>

namespace {

YAML::Node load(const std::string& relative) {
  return YAML::LoadFile(std::string(PERFGATE_SOURCE_DIR) + "/" + relative);
}

TEST(CiPipelines, GithubWorkflowHasTheGateAndAProtectedApproval) {
  const YAML::Node workflow = load("ci/github/perfgate.yml");
  // `on` is a YAML 1.1 boolean to some readers; yaml-cpp keeps the key text.
  ASSERT_TRUE(workflow["on"]);
  EXPECT_TRUE(workflow["on"]["push"]);
  EXPECT_TRUE(workflow["on"]["pull_request"]);
  const YAML::Node jobs = workflow["jobs"];
  ASSERT_TRUE(jobs.IsMap());
  for (const auto& job : jobs) {
    ASSERT_TRUE(job.second["runs-on"]) << job.first.Scalar();
    ASSERT_TRUE(job.second["steps"].IsSequence()) << job.first.Scalar();
    for (const auto& step : job.second["steps"])
      EXPECT_TRUE(step["run"] || step["uses"]) << job.first.Scalar() << ": a step with neither run nor uses";
  }
  const YAML::Node approve = jobs["approve-baseline"];
  ASSERT_TRUE(approve);
  EXPECT_EQ(approve["environment"].as<std::string>(), "perf-baselines");
  std::string script;
  for (const auto& step : approve["steps"])
    if (step["run"]) script += step["run"].as<std::string>();
  EXPECT_NE(script.find("perfgate baseline approve"), std::string::npos);
  EXPECT_NE(script.find("--yes"), std::string::npos);
  EXPECT_NE(script.find("gh pr create"), std::string::npos);
}

TEST(CiPipelines, GitlabPipelineHasTheGateAndAManualProtectedApproval) {
  const YAML::Node pipeline = load("ci/gitlab/perfgate.gitlab-ci.yml");
  ASSERT_TRUE(pipeline["stages"].IsSequence());
  for (const char* name : {"perf", "approve-baseline"}) {
    const YAML::Node job = pipeline[name];
    ASSERT_TRUE(job) << name;
    ASSERT_TRUE(job["script"].IsSequence()) << name;
    for (const auto& line : job["script"]) EXPECT_TRUE(line.IsScalar()) << name << ": a script line that is not text";
  }
  const YAML::Node approve = pipeline["approve-baseline"];
  EXPECT_EQ(approve["environment"]["name"].as<std::string>(), "perf-baselines");
  EXPECT_EQ(approve["rules"][0]["when"].as<std::string>(), "manual");
  std::string script;
  for (const auto& line : approve["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("--by \"$GITLAB_USER_LOGIN\""), std::string::npos);
  EXPECT_NE(pipeline["perf"]["artifacts"]["paths"].size(), 0u);
}

}  // namespace
