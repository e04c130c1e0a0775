FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    FOURSQUARE_DATABASE_URL=sqlite:////data/foursquare.db

WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY api ./api
COPY migrations ./migrations
COPY web ./web
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app foursquare \
    && mkdir -p /data && chown foursquare /data

USER foursquare
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
# `foursquare serve` applies pending migrations, then starts gunicorn with uvicorn workers.
CMD ["foursquare", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-access-log"]
