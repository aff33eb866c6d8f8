#pragma once
// What every HTML report shares: the page around its body (doctype, an empty icon, the inline
// stylesheet, a footer with the perfgate version) and the verdict chips.
#include <string>
#include <utility>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

std::string html_page(const std::string& title, const std::string& body, const std::string& perfgate_version);
// A coloured chip naming the verdict.
std::string verdict_chip(Verdict verdict);
// One chip per verdict present, "3 pass", worst first; "no cases" without any.
std::string verdict_counts(const std::vector<std::pair<Verdict, int>>& counts);

}  // namespace perfgate
