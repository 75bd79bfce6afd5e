#include <sqlite3.h>

// NB: SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import;
// these wrappers bind text and blobs that SQLite copies before the call returns.
static inline int csqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
  return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int csqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int bytes) {
  return sqlite3_bind_blob(stmt, index, data, bytes, SQLITE_TRANSIENT);
}

// Keeps the -wal and -shm files between connections and skips the checkpoint on close, so a
// short-lived process neither creates nor deletes them (sqlite3_db_config is variadic).
static inline int csqlite_keep_wal(sqlite3 *db) {
  int persist = 1;
  int status = sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  if (status != SQLITE_OK) return status;
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
