"""Test helpers shared by the API, integrity and benchmark tests."""
