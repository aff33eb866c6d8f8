#pragma once
// A small XML well-formedness checker for the report tests: elements nest and close, attributes
// are quoted and unique, only the five named entities and character references appear, no
// stray '<' or '&'. Returns the element tree so tests can check structure.
#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::test {

struct XmlNode {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<XmlNode> children;
  std::string text;  // entity-decoded character data directly inside
  std::vector<const XmlNode*> all(std::string_view child) const {
    std::vector<const XmlNode*> out;
    for (const auto& c : children)
      if (c.name == child) out.push_back(&c);
    return out;
  }
  const XmlNode* first(std::string_view child) const {
    for (const auto& c : children)
      if (c.name == child) return &c;
    return nullptr;
  }
};

class XmlChecker {
 public:
  explicit XmlChecker(std::string_view text) : s_(text) {}

  XmlNode parse_document() {
    skip_misc();
    XmlNode root = element();
    skip_misc();
    if (pos_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("XML not well-formed at byte " + std::to_string(pos_) + ": " + what + " near '" +
                             std::string(s_.substr(pos_, 40)) + "'");
  }
  bool starts(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }
  void skip_space() {
    while (pos_ < s_.size() && std::string_view(" \t\r\n").find(s_[pos_]) != std::string_view::npos) ++pos_;
  }
  void skip_past(std::string_view end) {
    const auto at = s_.find(end, pos_);
    if (at == std::string_view::npos) fail("unterminated construct");
    pos_ = at + end.size();
  }
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?"))
        skip_past("?>");
      else if (starts("<!--"))
        skip_past("-->");
      else
        return;
    }
  }
  std::string name() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                std::string_view(":_-.").find(s_[pos_]) != std::string_view::npos))
      ++pos_;
    if (pos_ == start) fail("expected a name");
    return std::string(s_.substr(start, pos_ - start));
  }
  std::string decode_until(char stop) {
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != stop) {
      const char c = s_[pos_];
      if (c == '<') {
        if (stop == '<') break;
        fail("'<' inside an attribute value");
      }
      if (c == '&') {
        const auto semi = s_.find(';', pos_);
        if (semi == std::string_view::npos) fail("unterminated entity");
        const std::string_view entity = s_.substr(pos_ + 1, semi - pos_ - 1);
        static const std::map<std::string_view, char> named{
            {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
        if (auto it = named.find(entity); it != named.end())
          out += it->second;
        else if (entity.size() > 1 && entity[0] == '#')
          out += character_reference(entity.substr(1));
        else
          fail("unknown entity");
        pos_ = semi + 1;
        continue;
      }
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
        fail("control character");
      out += c;
      ++pos_;
    }
    return out;
  }
  // &#39; or &#x27;: ASCII is decoded, anything else stands as '?' (tests compare ASCII text).
  char character_reference(std::string_view digits) {
    const bool hex = !digits.empty() && (digits[0] == 'x' || digits[0] == 'X');
    const std::string number(hex ? digits.substr(1) : digits);
    if (number.empty() ||
        number.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
      fail("bad character reference");
    const long code = std::stol(number, nullptr, hex ? 16 : 10);
    return code > 0 && code < 128 ? static_cast<char>(code) : '?';
  }
  XmlNode element() {
    if (!starts("<")) fail("expected '<'");
    ++pos_;
    XmlNode node;
    node.name = name();
    for (;;) {
      skip_space();
      if (starts("/>")) {
        pos_ += 2;
        return node;
      }
      if (starts(">")) {
        ++pos_;
        break;
      }
      const std::string attribute = name();
      skip_space();
      if (!starts("=")) fail("expected '=' after an attribute name");
      ++pos_;
      skip_space();
      if (!starts("\"") && !starts("'")) fail("unquoted attribute value");
      const char quote = s_[pos_++];
      std::string value = decode_until(quote);
      if (pos_ >= s_.size()) fail("unterminated attribute value");
      ++pos_;
      if (!node.attributes.emplace(attribute, value).second) fail("duplicate attribute " + attribute);
    }
    for (;;) {
      node.text += decode_until('<');
      if (pos_ >= s_.size()) fail("unclosed element " + node.name);
      if (starts("<!--")) {
        skip_past("-->");
      } else if (starts("</")) {
        pos_ += 2;
        if (name() != node.name) fail("mismatched closing tag for " + node.name);
        skip_space();
        if (!starts(">")) fail("expected '>'");
        ++pos_;
        return node;
      } else {
        node.children.push_back(element());
      }
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

inline XmlNode parse_xml(std::string_view text) { return XmlChecker(text).parse_document(); }

}  // namespace perfgate::test
