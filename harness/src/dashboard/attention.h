#pragma once
// What the dashboard's front page lists first: every regression change point and every drift past
// its allowance, as judge/history_analysis.h found them, grouped by the commit range that made
// them (one item per range across cases and machines), each with its state. Nothing is judged
// here: the states are the judge's (open, acknowledged, not gated) and the logs' (bisected,
// alerted); "recovered" says a later segment of the same series is back at the level before.
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "judge/history_analysis.h"

namespace perfgate {

// One series' state, for the front page's list and its filter: "open" (a gated regression or a
// drift nobody acknowledged), "not-gated", "acknowledged", "improved" (only improvements),
// "unchanged" (no change point, no drift).
std::string series_state(const CaseHistory& history);

// Whether the series' newest segment is back within the smallest step it reports of the level
// before `change` (a later step undid it).
bool recovered(const CaseHistory& history, const HistoryChange& change);

// The items, open ones first, then by their worst change (largest first). Each item:
// {kinds: ["step", "drift"] (either or both), commit_before, commit_after, run_before, run_after, started_at,
//  state: "open"|"not-gated"|"acknowledged", recovered, alerted, acknowledged: [{by, reason}],
//  bisected: [{sha, subject, change_pct, ...}], machines, devices, cases (count), worst: entry,
//  entries: [{kind, case, machine, change_id, change_pct, interval_pct, state, ...}]}.
nlohmann::json attention_items(const std::vector<CaseHistory>& histories,
                               const std::set<std::string>& alerted);

// The devices (GPU uuid, else host id) a series' runs name, in order of first appearance; a
// machine id whose runs name one (or none) gives one entry at most.
std::vector<std::string> series_devices(const CaseHistory& history);

// A point's device: its GPU's uuid, else its host's id, else "".
std::string point_device(const HistoryPoint& point);

}  // namespace perfgate
