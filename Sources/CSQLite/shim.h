// SQLite from the system (Debian: libsqlite3-dev). Linux Swift has no `import SQLite3`.
#include <sqlite3.h>
