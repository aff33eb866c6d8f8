#include "core/yaml_load.h"

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <new>
#include <set>
#include <sstream>

#include "perfgate/error.h"

namespace perfgate {
namespace {

// A parse that builds nothing: it only looks for anchors (&name) and aliases (*name).
class PlainYamlCheck : public YAML::EventHandler {
 public:
  explicit PlainYamlCheck(const std::string& file) : file_(file) {}
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { check(mark, anchor); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { throw refused(mark, "an alias (*name)"); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    check(mark, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    check(mark, anchor);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    check(mark, anchor);
  }
  void OnMapEnd() override {}
  void OnAnchor(const YAML::Mark& mark, const std::string&) override {
    throw refused(mark, "an anchor (&name)");
  }

 private:
  void check(const YAML::Mark& mark, YAML::anchor_t anchor) const {
    if (anchor != YAML::NullAnchor) throw refused(mark, "an anchor (&name)");
  }
  Error refused(const YAML::Mark& mark, const std::string& what) const {
    return located_error(file_, mark.line + 1, "",
                         what + " is not allowed here: perfgate writes plain YAML only");
  }
  const std::string& file_;
};

std::string size_text(std::uintmax_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string read_bounded_file(const std::filesystem::path& file, std::uintmax_t max_bytes) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(file, ec);
  if (ec) throw Error(file.string() + ": cannot be read: " + ec.message());
  if (bytes > max_bytes)
    throw Error(file.string() + ": " + size_text(bytes) + ", over the limit of " + size_text(max_bytes) +
                " for this kind of file; nothing was read");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string() + ": cannot open: " + std::strerror(errno));
  // Read at most the limit, in case the file grew since it was measured.
  std::string text(static_cast<std::size_t>(bytes), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.peek() != std::char_traits<char>::eof())
    throw Error(file.string() + ": grew past " + size_text(max_bytes) + " while it was read");
  return text;
}

YAML::Node load_plain_yaml(const std::string& text, const std::string& file) {
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    PlainYamlCheck check(file);
    // The first document only, which is all YAML::Load reads (and looping over documents never
    // ends on some malformed streams).
    parser.HandleNextDocument(check);
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw located_error(file, e.mark.line + 1, "", "malformed YAML: " + e.msg);
  } catch (const std::bad_alloc&) {
    throw located_error(file, 0, "", "does not fit in memory");
  }
}

void check_keys(const std::string& file, const YAML::Node& map, const std::string& path,
                std::initializer_list<std::string_view> allowed) {
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string key_path = path.empty() ? key : path + "." + key;
    const int line = yaml_line(it->first);
    if (allowed.size() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      throw located_error(file, line, key_path, "unknown key (expected one of: " + list + ")");
    }
    if (!seen.insert(key).second) throw located_error(file, line, key_path, "given twice");
  }
}

int yaml_line(const YAML::Node& node) { return node.Mark().line + 1; }

Error yaml_error(const std::string& file, const YAML::Node& at, const std::string& key,
                 const std::string& message) {
  return located_error(file, yaml_line(at), key, message);
}

std::optional<double> finite_number(const YAML::Node& node) {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || !std::isfinite(value))
    return std::nullopt;
  return value;
}

}  // namespace perfgate
