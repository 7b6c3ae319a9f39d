// The system SQLite (Debian: libsqlite3-dev) for the `sqlite` group's floors: the plain C
// calls the SQLite workspace wraps. The root package's CSQLite is not a product, so the
// benchmarks declare the same library under a module of their own, with the same defines:
// sqlite3.h declares sqlite3session_* and sqlite3changeset_* only when these are defined, and
// Debian's library is built with both.
#ifndef COMPOSABLE_BENCHMARKS_CSQLITEFLOOR_H
#define COMPOSABLE_BENCHMARKS_CSQLITEFLOOR_H

#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

#endif
