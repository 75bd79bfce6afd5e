#ifndef CTOML_H
#define CTOML_H

// A C face of toml++ (Debian's libtomlplusplus-dev, header-only): a document's values handed
// to a visitor in order, so Swift reads TOML without C++ interoperability.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What an item is. A table or an array is followed by its contents, then CTOML_END.
typedef enum ctoml_kind {
  CTOML_TABLE,
  CTOML_ARRAY,
  CTOML_END,
  CTOML_STRING,
  CTOML_INTEGER,
  CTOML_FLOAT,
  CTOML_BOOLEAN,
  CTOML_DATE_TIME,
} ctoml_kind;

/// One value of the document, with its key (none in an array) and the line it is on.
typedef struct ctoml_item {
  ctoml_kind kind;
  const char *key;
  size_t key_length;
  /// A string's bytes, or a date or time as TOML writes it.
  const char *text;
  size_t text_length;
  long long integer;
  double number;
  int boolean;
  unsigned line;
} ctoml_item;

typedef void (*ctoml_visitor)(const ctoml_item *item, void *context);

/// Parses `length` bytes of TOML and hands every value to `visit`, the root table's first;
/// returns 0. On a syntax error it visits nothing, writes the parser's description to `error`
/// (at most `error_size` bytes with the NUL) and its line to `error_line`, and returns 1.
int ctoml_read(const char *text, size_t length, ctoml_visitor visit, void *context,
               char *error, size_t error_size, unsigned *error_line);

#ifdef __cplusplus
}
#endif

#endif
