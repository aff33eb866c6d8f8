#pragma once
// A table of text cells that renders as aligned columns for a terminal or as a GitHub-flavoured
// Markdown table for a pull request.
#include <string>
#include <vector>

namespace perfgate {

class TextTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string title;
    Align align = Align::left;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells);  // as many cells as columns
  bool empty() const { return rows_.empty(); }

  std::string text() const;      // two spaces between columns, a rule under the titles
  std::string markdown() const;  // cells escaped by markdown_cell (report/markdown_text.h)

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace perfgate
