#include "report/text_table.h"

#include <algorithm>

#include "core/terminal_text.h"
#include "perfgate/error.h"
#include "report/markdown_text.h"

namespace perfgate {
namespace {

// Columns on a terminal: UTF-8 continuation bytes take none (µ is one column).
std::size_t columns_of(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) throw Error("table row with the wrong number of cells");
  rows_.push_back(std::move(cells));
}

std::string TextTable::text() const {
  // Cells hold text from outside (commit subjects, run ids): shown as text, never obeyed.
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : rows_) {
    rows.emplace_back();
    for (const auto& cell : row) rows.back().push_back(terminal_text(cell));
  }
  std::vector<std::size_t> widths;
  for (const auto& column : columns_) widths.push_back(columns_of(column.title));
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], columns_of(row[c]));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - columns_of(cells[c]), ' ');
      out += columns_[c].align == Align::left ? cells[c] + pad : pad + cells[c];
      out += c + 1 < cells.size() ? "  " : "";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::vector<std::string> titles;
  std::size_t total = 0;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    titles.push_back(columns_[c].title);
    total += widths[c] + (c + 1 < columns_.size() ? 2 : 0);
  }
  std::string out = line(titles) + std::string(total, '-') + "\n";
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string TextTable::markdown() const {
  std::string out = "|", rule = "|";
  for (const auto& column : columns_) {
    out += " " + markdown_cell(column.title) + " |";
    rule += column.align == Align::left ? " --- |" : " ---: |";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& cell : row) {
      const std::string text = markdown_cell(cell);
      out += " " + (text.empty() ? " " : text) + " |";  // an empty cell keeps its column visible
    }
    out += "\n";
  }
  return out;
}

}  // namespace perfgate
