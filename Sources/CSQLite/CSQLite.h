// The system SQLite (Debian: libsqlite3-dev), with the session extension's declarations:
// sqlite3.h declares sqlite3session_* and sqlite3changeset_* only when these are defined, and
// Debian's library is built with both.
#ifndef COMPOSABLE_WORKSPACE_CSQLITE_H
#define COMPOSABLE_WORKSPACE_CSQLITE_H

#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/// SQLITE_TRANSIENT, which Swift cannot import (a cast macro): SQLite copies the bytes it is
/// given before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
