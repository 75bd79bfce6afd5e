// NB: toml++ compiled here in its header-only form: Debian ships it as a shared library only,
// and the release executable is linked statically.
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include <cstring>
#include <sstream>
#include <string>

#include "ctoml.h"

namespace {

ctoml_item item_for(const toml::node &node, const toml::key *key) {
  ctoml_item item{};
  if (key) {
    item.key = key->data();
    item.key_length = key->length();
  }
  item.line = node.source().begin.line;
  return item;
}

void visit_node(const toml::node &node, const toml::key *key, ctoml_visitor visit,
                void *context);

void visit_contents(const toml::table &table, ctoml_visitor visit, void *context) {
  for (auto &&[key, value] : table) visit_node(value, &key, visit, context);
}

void visit_node(const toml::node &node, const toml::key *key, ctoml_visitor visit,
                void *context) {
  ctoml_item item = item_for(node, key);
  std::string text;
  if (auto table = node.as_table()) {
    item.kind = CTOML_TABLE;
    visit(&item, context);
    visit_contents(*table, visit, context);
  } else if (auto array = node.as_array()) {
    item.kind = CTOML_ARRAY;
    visit(&item, context);
    for (auto &&element : *array) visit_node(element, nullptr, visit, context);
  } else {
    if (auto value = node.as_string()) {
      item.kind = CTOML_STRING;
      item.text = value->get().data();
      item.text_length = value->get().length();
    } else if (auto value = node.as_integer()) {
      item.kind = CTOML_INTEGER;
      item.integer = value->get();
    } else if (auto value = node.as_floating_point()) {
      item.kind = CTOML_FLOAT;
      item.number = value->get();
    } else if (auto value = node.as_boolean()) {
      item.kind = CTOML_BOOLEAN;
      item.boolean = value->get() ? 1 : 0;
    } else {
      std::ostringstream written;
      if (auto value = node.as_date_time()) written << value->get();
      else if (auto value = node.as_date()) written << value->get();
      else if (auto value = node.as_time()) written << value->get();
      text = written.str();
      item.kind = CTOML_DATE_TIME;
      item.text = text.data();
      item.text_length = text.length();
    }
    visit(&item, context);
    return;
  }
  ctoml_item end{};
  end.kind = CTOML_END;
  end.line = item.line;
  visit(&end, context);
}

}  // namespace

extern "C" int ctoml_read(const char *text, size_t length, ctoml_visitor visit, void *context,
                          char *error, size_t error_size, unsigned *error_line) {
  toml::parse_result result = toml::parse(std::string_view(text, length));
  if (!result) {
    const toml::parse_error &failure = result.error();
    if (error_size > 0) {
      std::string description(failure.description());
      std::strncpy(error, description.c_str(), error_size - 1);
      error[error_size - 1] = '\0';
    }
    if (error_line) *error_line = failure.source().begin.line;
    return 1;
  }
  visit_contents(result.table(), visit, context);
  return 0;
}
