"""The game services: deal, play, read, rank, advise; idempotent retries."""
