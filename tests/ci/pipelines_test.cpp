// The pipeline files in ci/ are valid YAML with the shape their systems need: GitHub Actions
// jobs made of steps, GitLab jobs made of script lines, and a protected approval job in each.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iterator>
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
    for (const auto& line : job["script"])
      EXPECT_TRUE(line.IsScalar()) << name << ": a script line that is not text";
  }
  const YAML::Node approve = pipeline["approve-baseline"];
  EXPECT_EQ(approve["environment"]["name"].as<std::string>(), "perf-baselines");
  EXPECT_EQ(approve["rules"][0]["when"].as<std::string>(), "manual");
  std::string script;
  for (const auto& line : approve["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("--by \"$GITLAB_USER_LOGIN\""), std::string::npos);
  EXPECT_NE(pipeline["perf"]["artifacts"]["paths"].size(), 0u);
}

// A pull request on a shared runner is gated A/B: the merge base built in a second worktree,
// cached by its commit, and ctest -L perf run with PERFGATE_BASE pointing at it.
TEST(CiPipelines, GithubPullRequestsAreGatedAgainstTheirMergeBase) {
  const YAML::Node jobs = load("ci/github/perfgate.yml")["jobs"];
  const YAML::Node ab = jobs["ab-gate"];
  ASSERT_TRUE(ab);
  EXPECT_NE(ab["if"].as<std::string>().find("pull_request"), std::string::npos);
  std::string script, cache_key;
  for (const auto& step : ab["steps"]) {
    if (step["run"]) script += step["run"].as<std::string>() + "\n";
    if (step["uses"] && step["uses"].as<std::string>().starts_with("actions/cache"))
      cache_key = step["with"]["key"].as<std::string>();
  }
  EXPECT_NE(script.find("git merge-base"), std::string::npos);
  EXPECT_NE(script.find("git worktree add"), std::string::npos);
  EXPECT_NE(script.find("PERFGATE_BASE="), std::string::npos);
  EXPECT_NE(script.find("ctest --test-dir build -L perf"), std::string::npos);
  EXPECT_NE(cache_key.find("steps.base.outputs.sha"), std::string::npos);
  // The stored-baseline gate measures pull requests only on dedicated machine classes.
  std::string perf_gate_if;
  for (const auto& step : jobs["perf"]["steps"])
    if (step["name"] && step["name"].as<std::string>() == "Perf gate")
      perf_gate_if = step["if"].as<std::string>();
  EXPECT_NE(perf_gate_if.find("matrix.dedicated"), std::string::npos);
}

TEST(CiPipelines, GitlabMergeRequestsAreGatedAgainstTheirMergeBase) {
  const YAML::Node pipeline = load("ci/gitlab/perfgate.gitlab-ci.yml");
  const YAML::Node ab = pipeline["perf-ab"];
  ASSERT_TRUE(ab);
  ASSERT_TRUE(ab["script"].IsSequence());
  EXPECT_NE(ab["rules"][0]["if"].as<std::string>().find("merge_request_event"), std::string::npos);
  EXPECT_NE(ab["cache"]["key"].as<std::string>().find("CI_MERGE_REQUEST_DIFF_BASE_SHA"), std::string::npos);
  std::string script;
  for (const auto& line : ab["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("git worktree add"), std::string::npos);
  EXPECT_NE(script.find("PERFGATE_BASE="), std::string::npos);
  EXPECT_NE(script.find("ctest --test-dir build -L perf"), std::string::npos);
  EXPECT_NE(pipeline["perf"]["rules"][0]["if"].as<std::string>().find("!= \"merge_request_event\""),
            std::string::npos);
}

// A fleet: one perf job per machine class, each gating its own backend (and, with several GPUs,
// one case per GPU through a resource spec); one final job merges every machine's results into
// one report and posts the pipeline's only alert.
std::string run_lines(const YAML::Node& steps) {
  std::string script;
  for (const auto& step : steps)
    if (step["run"]) script += step["run"].as<std::string>() + "\n";
  return script;
}

TEST(CiPipelines, GithubFleetGatesEachMachineAndMergesOneReport) {
  const YAML::Node jobs = load("ci/github/perfgate.yml")["jobs"];
  const YAML::Node machines = jobs["perf"]["strategy"]["matrix"]["include"];
  ASSERT_GE(machines.size(), 2u);
  for (const auto& m : machines) {
    EXPECT_TRUE(m["machine"] && m["runs-on"] && m["backend"])
        << "a machine class without its label or backend";
    EXPECT_TRUE(m["gpus"].IsDefined());
  }
  const std::string perf = run_lines(jobs["perf"]["steps"]);
  EXPECT_NE(perf.find("-L '^${{ matrix.backend }}$'"), std::string::npos);
  EXPECT_NE(perf.find("perfgate list --resource-spec"), std::string::npos);
  EXPECT_NE(perf.find("--resource-spec-file"), std::string::npos);
  EXPECT_EQ(YAML::Dump(jobs["perf"]).find("PERFGATE_WEBHOOK_URL"), std::string::npos)
      << "a machine's job must not post an alert of its own";

  const YAML::Node fleet = jobs["fleet-report"];
  ASSERT_TRUE(fleet);
  EXPECT_EQ(fleet["needs"].as<std::string>(), "perf");
  EXPECT_NE(fleet["if"].as<std::string>().find("always()"), std::string::npos);
  const std::string script = run_lines(fleet["steps"]);
  EXPECT_NE(script.find("perfgate report \"$@\" --markdown fleet.md --html fleet.html"), std::string::npos);
  EXPECT_NE(script.find("perfgate notify \"$@\""), std::string::npos);
  EXPECT_NE(YAML::Dump(fleet).find("secrets.PERFGATE_WEBHOOK_URL"), std::string::npos);
}

TEST(CiPipelines, GitlabFleetGatesEachMachineAndMergesOneReport) {
  const YAML::Node pipeline = load("ci/gitlab/perfgate.gitlab-ci.yml");
  const YAML::Node machines = pipeline["perf"]["parallel"]["matrix"];
  ASSERT_GE(machines.size(), 2u);
  for (const auto& m : machines) EXPECT_TRUE(m["PERFGATE_MACHINE"] && m["PERFGATE_BACKEND"]);
  std::string perf;
  for (const auto& line : pipeline["perf"]["script"]) perf += line.as<std::string>() + "\n";
  EXPECT_NE(perf.find("-L \"^$PERFGATE_BACKEND\\$\""), std::string::npos);
  EXPECT_NE(perf.find("--resource-spec-file"), std::string::npos);
  EXPECT_NE(perf.find("unset PERFGATE_WEBHOOK_URL"), std::string::npos);

  const YAML::Node fleet = pipeline["fleet-report"];
  ASSERT_TRUE(fleet);
  EXPECT_EQ(fleet["needs"][0]["job"].as<std::string>(), "perf");
  EXPECT_EQ(fleet["rules"][0]["when"].as<std::string>(), "always");
  std::string script;
  for (const auto& line : fleet["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("perfgate report \"$@\" --markdown fleet.md --html fleet.html"), std::string::npos);
  EXPECT_NE(script.find("perfgate notify \"$@\""), std::string::npos);
  const std::string stages = YAML::Dump(pipeline["stages"]);
  EXPECT_LT(stages.find("perf"), stages.find("report"));
}

// History: the main-branch jobs keep every gated run in the history branch (ci/history.sh) and
// gate on its change points; pull requests never write it.
TEST(CiPipelines, GithubKeepsTheHistoryOnTheMainBranch) {
  const YAML::Node job = load("ci/github/perfgate.yml")["jobs"]["history"];
  ASSERT_TRUE(job);
  EXPECT_EQ(job["needs"].as<std::string>(), "perf");
  const std::string when = job["if"].as<std::string>();
  EXPECT_NE(when.find("always()"), std::string::npos);
  EXPECT_NE(when.find("refs/heads/main"), std::string::npos);
  EXPECT_EQ(job["permissions"]["contents"].as<std::string>(), "write");
  EXPECT_NE(run_lines(job["steps"]).find("ci/history.sh build/perfgate"), std::string::npos);
  EXPECT_NE(YAML::Dump(job).find("secrets.PERFGATE_WEBHOOK_URL"), std::string::npos);
}

TEST(CiPipelines, GitlabKeepsTheHistoryOnTheDefaultBranch) {
  const YAML::Node job = load("ci/gitlab/perfgate.gitlab-ci.yml")["history"];
  ASSERT_TRUE(job);
  EXPECT_NE(job["rules"][0]["if"].as<std::string>().find("CI_DEFAULT_BRANCH"), std::string::npos);
  EXPECT_EQ(job["resource_group"].as<std::string>(), "perfgate-history");
  std::string script;
  for (const auto& line : job["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("ci/history.sh build/perfgate"), std::string::npos);
}

// A CI script with the branch helpers it sources (ci/history_branch.bash).
std::string ci_script_text(const std::string& name) {
  std::string text;
  for (const std::string& file : {name, std::string("history_branch.bash")}) {
    std::ifstream in(std::string(PERFGATE_SOURCE_DIR) + "/ci/" + file);
    text.append((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return text;
}

TEST(CiPipelines, TheHistoryScriptAppendsGatesAndPushes) {
  const std::string text = ci_script_text("history.sh");
  EXPECT_NE(text.find("--append-history"), std::string::npos);
  EXPECT_NE(text.find("history --history \"$dir\" --changes --gate --notify"), std::string::npos);
  EXPECT_NE(text.find("merge=union"), std::string::npos);
  EXPECT_NE(text.find("git -C \"$dir\" push"), std::string::npos);
}

// The perf jobs judge each case with the machine's own record of its noise: the history branch
// the history job keeps, read before ctest runs.
TEST(CiPipelines, PerfJobsJudgeWithTheMachinesHistory) {
  std::string github;
  for (const auto& step : load("ci/github/perfgate.yml")["jobs"]["perf"]["steps"])
    if (step["run"]) github += step["run"].as<std::string>() + "\n";
  const std::size_t history = github.find("PERFGATE_HISTORY=");
  ASSERT_NE(history, std::string::npos);
  EXPECT_LT(history, github.find("ctest --test-dir build -L perf"));
  EXPECT_NE(github.find("--branch perfgate-history"), std::string::npos);
  std::string gitlab;
  for (const auto& line : load("ci/gitlab/perfgate.gitlab-ci.yml")["perf"]["script"])
    gitlab += line.as<std::string>() + "\n";
  const std::size_t exported = gitlab.find("export PERFGATE_HISTORY=");
  ASSERT_NE(exported, std::string::npos);
  EXPECT_LT(exported, gitlab.find("ctest --test-dir build -L perf"));
}

// A dedicated runner names its host before its checks run: clones of one image share
// /etc/machine-id, and a hosted runner's name repeats across fresh VMs, so only a dedicated one.
TEST(CiPipelines, GithubDedicatedRunnersNameTheirHost) {
  const YAML::Node steps = load("ci/github/perfgate.yml")["jobs"]["perf"]["steps"];
  std::size_t named = 0, gate = 0, i = 0;
  for (const auto& step : steps) {
    ++i;
    const std::string run = step["run"] ? step["run"].as<std::string>() : "";
    if (run.find("PERFGATE_HOST_ID=${{ runner.name }}") != std::string::npos) {
      named = i;
      ASSERT_TRUE(step["if"]);
      EXPECT_EQ(step["if"].as<std::string>(), "matrix.dedicated");
    }
    if (run.find("ctest --test-dir build -L perf") != std::string::npos) gate = i;
  }
  ASSERT_NE(named, 0u);
  EXPECT_LT(named, gate);
}

// Bisect: when the main-branch history gate fails (a new regression change point), a job per
// machine class bisects the change points of its machine (ci/bisect.sh) and pushes the culprit
// into the history branch.
TEST(CiPipelines, GithubBisectsANewChangePoint) {
  const YAML::Node job = load("ci/github/perfgate.yml")["jobs"]["bisect"];
  ASSERT_TRUE(job);
  EXPECT_EQ(job["needs"].as<std::string>(), "history");
  EXPECT_NE(job["if"].as<std::string>().find("needs.history.result == 'failure'"), std::string::npos);
  EXPECT_EQ(job["permissions"]["contents"].as<std::string>(), "write");
  EXPECT_NE(run_lines(job["steps"]).find("ci/bisect.sh build/perfgate"), std::string::npos);
  EXPECT_NE(YAML::Dump(job).find("fetch-depth: 0"), std::string::npos);
}

TEST(CiPipelines, GitlabBisectsANewChangePoint) {
  const YAML::Node pipeline = load("ci/gitlab/perfgate.gitlab-ci.yml");
  const YAML::Node job = pipeline["bisect"];
  ASSERT_TRUE(job);
  EXPECT_EQ(job["rules"][0]["when"].as<std::string>(), "on_failure");
  EXPECT_EQ(job["needs"][0].as<std::string>(), "history");
  std::string script;
  for (const auto& line : job["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("ci/bisect.sh build/perfgate"), std::string::npos);
}

TEST(CiPipelines, TheBisectScriptBisectsWhatNoBisectRecorded) {
  const std::string text = ci_script_text("bisect.sh");
  EXPECT_NE(text.find("--unbisected"), std::string::npos);
  EXPECT_NE(text.find("bisect --change-point \"$id\" --history \"$dir\""), std::string::npos);
  EXPECT_NE(text.find("git -C \"$dir\" push"), std::string::npos);
}

// A pull request is told what it changed: the A/B job writes the comment with perfgate and keeps
// one comment on the pull request (ci/pr_comment.py), which may fail without failing the gate.
TEST(CiPipelines, GithubPullRequestsGetOneCommentUpdatedInPlace) {
  const YAML::Node ab = load("ci/github/perfgate.yml")["jobs"]["ab-gate"];
  ASSERT_TRUE(ab);
  EXPECT_EQ(ab["permissions"]["pull-requests"].as<std::string>(), "write");
  std::size_t report = 0, comment = 0, i = 0;
  for (const auto& step : ab["steps"]) {
    ++i;
    const std::string run = step["run"] ? step["run"].as<std::string>() : "";
    if (run.find("--pr-comment comment.md --dashboard-url \"$PERFGATE_DASHBOARD_URL\"") !=
        std::string::npos) {
      report = i;
      EXPECT_EQ(step["env"]["PERFGATE_DASHBOARD_URL"].as<std::string>(),
                "${{ vars.PERFGATE_DASHBOARD_URL }}");
    }
    if (run.find("python3 ci/pr_comment.py github comment.md") != std::string::npos) {
      comment = i;
      EXPECT_TRUE(step["continue-on-error"].as<bool>());
      EXPECT_NE(step["if"].as<std::string>().find("always()"), std::string::npos);
      EXPECT_EQ(step["env"]["GITHUB_TOKEN"].as<std::string>(), "${{ github.token }}");
      EXPECT_EQ(step["env"]["PERFGATE_PR_NUMBER"].as<std::string>(),
                "${{ github.event.pull_request.number }}");
    }
  }
  ASSERT_NE(report, 0u);
  EXPECT_GT(comment, report);
}

TEST(CiPipelines, GitlabMergeRequestsGetOneNoteUpdatedInPlace) {
  const YAML::Node ab = load("ci/gitlab/perfgate.gitlab-ci.yml")["perf-ab"];
  std::string script;
  for (const auto& line : ab["script"]) script += line.as<std::string>() + "\n";
  const std::size_t report =
      script.find("--pr-comment comment.md --dashboard-url \"${PERFGATE_DASHBOARD_URL:-$CI_PAGES_URL}\"");
  const std::size_t post = script.find("python3 ci/pr_comment.py gitlab comment.md || echo");
  ASSERT_NE(report, std::string::npos);
  ASSERT_NE(post, std::string::npos);
  EXPECT_LT(report, post);
  EXPECT_LT(post, script.find("exit $status"));  // the gate's verdict is the job's, whatever the post did
}

// The dashboard: the history job builds it from the history branch and the baselines, also when
// its gate fails, and a job of its own publishes it (GitHub Pages, GitLab Pages).
TEST(CiPipelines, GithubPublishesTheDashboardOnPages) {
  const YAML::Node jobs = load("ci/github/perfgate.yml")["jobs"];
  bool built = false, uploaded = false;
  for (const auto& step : jobs["history"]["steps"]) {
    const std::string run = step["run"] ? step["run"].as<std::string>() : "";
    if (run.find("perfgate dashboard --history perfgate-history --baselines baselines --out site") !=
        std::string::npos) {
      built = true;
      EXPECT_NE(step["if"].as<std::string>().find("always()"), std::string::npos);
    }
    if (step["uses"] && step["uses"].as<std::string>().starts_with("actions/upload-pages-artifact@")) {
      uploaded = built;
      EXPECT_EQ(step["with"]["path"].as<std::string>(), "site");
    }
  }
  EXPECT_TRUE(built);
  EXPECT_TRUE(uploaded) << "the site must be uploaded after it is built";
  const YAML::Node pages = jobs["pages"];
  ASSERT_TRUE(pages);
  EXPECT_EQ(pages["needs"].as<std::string>(), "history");
  EXPECT_NE(pages["if"].as<std::string>().find("always()"), std::string::npos);
  EXPECT_EQ(pages["permissions"]["pages"].as<std::string>(), "write");
  EXPECT_EQ(pages["permissions"]["id-token"].as<std::string>(), "write");
  EXPECT_EQ(pages["environment"]["name"].as<std::string>(), "github-pages");
  EXPECT_TRUE(pages["steps"][0]["uses"].as<std::string>().starts_with("actions/deploy-pages@"));
}

TEST(CiPipelines, GitlabPublishesTheDashboardOnPages) {
  const YAML::Node pipeline = load("ci/gitlab/perfgate.gitlab-ci.yml");
  std::string history;
  for (const auto& line : pipeline["history"]["script"]) history += line.as<std::string>() + "\n";
  const std::size_t gate = history.find("ci/history.sh build/perfgate");
  const std::size_t built =
      history.find("perfgate dashboard --history perfgate-history --baselines baselines --out site");
  ASSERT_NE(built, std::string::npos);
  EXPECT_LT(gate, built);
  EXPECT_NE(history.find("|| status=$?"), std::string::npos) << "a failed gate must not skip the dashboard";
  EXPECT_LT(built, history.find("exit $status"));
  EXPECT_NE(YAML::Dump(pipeline["history"]["artifacts"]["paths"]).find("site/"), std::string::npos);

  const YAML::Node pages = pipeline["pages"];
  ASSERT_TRUE(pages);
  EXPECT_EQ(pages["needs"][0]["job"].as<std::string>(), "history");
  EXPECT_EQ(pages["rules"][0]["when"].as<std::string>(), "always");
  EXPECT_EQ(pages["artifacts"]["paths"][0].as<std::string>(), "public");
  std::string script;
  for (const auto& line : pages["script"]) script += line.as<std::string>() + "\n";
  EXPECT_NE(script.find("mv site public"), std::string::npos);
}

}  // namespace
