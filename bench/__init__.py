"""Benchmarks: scripts that print figures (``python bench/<name>.py --help``), never timed tests."""
