#pragma once
// Several machines' runs as one GitHub-flavoured Markdown page (`perfgate report A B C`): the
// verdict counts over all of them, one line per machine (device, run, counts, resolution), and
// one table with the cases as rows and the machines as columns, each cell the verdict and change.
#include <string>

#include "report/fleet_view.h"

namespace perfgate {

std::string render_fleet_markdown(const FleetView& view);

}  // namespace perfgate
