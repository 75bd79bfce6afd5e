#include <sqlite3.h>

// NB: SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import;
// these wrappers bind text and blobs that SQLite copies before the call returns.
static inline int csqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
  return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int csqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int bytes) {
  return sqlite3_bind_blob(stmt, index, data, bytes, SQLITE_TRANSIENT);
}
