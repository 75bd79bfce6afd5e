// Debian's libpq-dev puts libpq's headers in their own folder.
#include <postgresql/libpq-fe.h>

// NB: a notice processor is a C function pointer; this one drops the server's notices (such as
// "schema already exists, skipping"), which libpq would otherwise print on standard error.
static inline void cpostgres_ignore_notice(void *argument, const char *message) {
  (void)argument;
  (void)message;
}

/// Stops libpq printing the server's notices and warnings.
static inline void cpostgres_ignore_notices(PGconn *connection) {
  PQsetNoticeProcessor(connection, cpostgres_ignore_notice, (void *)0);
}

// NB: the diagnostic field codes are character-literal macros ('C', 'M'), which Swift does not
// import; these name the ones the store reads.
static const int cpostgres_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int cpostgres_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
