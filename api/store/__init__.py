"""Storage: engines and transactions, the ORM models, all SQL, migrations."""
