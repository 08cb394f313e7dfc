"""PostgreSQL twins of the schema steps in ``storage/migrations`` (same numbers, same meaning)."""
