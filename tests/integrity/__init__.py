"""Integrity under concurrency, crashes, fuzzing and many games (GitHub issue 4)."""
