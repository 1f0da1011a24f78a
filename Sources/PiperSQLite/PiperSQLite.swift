// PiperSQLite: a small owner-per-handle wrapper over SQLite's C API.
