"""Foursquare Server: the HTTP layer (FastAPI) over the rules engine."""
