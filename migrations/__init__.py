"""Alembic migrations of the Foursquare database (a package so it ships with the service)."""
