#pragma once
// Several machines' runs as one self-contained HTML page (`perfgate report A B C --html F`):
// the counts over all of them, a table of the machines (device, run, counts, resolution), and
// the cases as rows against the machines as columns, each cell coloured by its verdict.
#include <string>

#include "report/fleet_view.h"

namespace perfgate {

std::string render_fleet_html(const FleetView& view);

}  // namespace perfgate
