"""The SQLite schema migrations: ``NNNN_name.sql`` files applied in order by `storage.migrate`."""
