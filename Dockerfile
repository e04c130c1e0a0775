# The service's image: `foursquare serve` as a non-root user, its SQLite file in the /data
# volume unless FOURSQUARE_DATABASE_URL names another database (docs/operations.md, "The
# image").
#
# Two stages: the first installs the locked dependencies (requirements/service.txt, every file
# checked against its hash) and the project's wheel into a virtualenv that has no pip; the
# second copies only that virtualenv onto a fresh base, so neither the source tree, the build
# tools, the egg-info nor pip's caches reach the image. PYTHON_IMAGE may name another base with
# Python 3.11 as `python3` (the tests build on one made from Debian's packages, having no
# registry to pull python:3.11-slim from).
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# PyICU (look-alike player names) is built from its source against Debian's ICU: its headers,
# pkg-config and a C++ compiler, and Python's headers where the base lacks them (a Debian
# python3 has them in python3-dev; python:3.11-slim has its own). Only this stage has them.
RUN apt-get update \
    && python_dev=$(python3 -c 'import sysconfig, os; print("" if os.path.exists(sysconfig.get_paths()["include"] + "/Python.h") else "python3-dev")') \
    && apt-get install -y --no-install-recommends libicu-dev pkg-config g++ $python_dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The dependencies first, in a layer of their own: a change to the code does not reinstall them.
COPY requirements/build.txt requirements/service.txt requirements/
RUN python3 -m venv /opt/build \
    && /opt/build/bin/pip install --require-hashes -r requirements/build.txt \
    && python3 -m venv --without-pip /opt/foursquare \
    && /opt/build/bin/pip --python /opt/foursquare/bin/python install \
        --require-hashes -r requirements/service.txt
COPY pyproject.toml README.md ./
COPY engine engine
COPY api api
COPY migrations migrations
COPY web web
# The wheel is built with the locked setuptools (no build isolation: nothing unlocked is
# downloaded), and installed without resolving anything again.
RUN /opt/build/bin/pip wheel --no-deps --no-build-isolation --wheel-dir /wheels . \
    && /opt/build/bin/pip --python /opt/foursquare/bin/python install --no-deps /wheels/*.whl

FROM ${PYTHON_IMAGE}
# FOURSQUARE_PORT is the one place the port is set: the command below listens on it and the
# health check asks it. (FOURSQUARE_HOST and FOURSQUARE_WORKERS likewise feed the command;
# none of the three is a setting of the service itself.)
ENV PATH=/opt/foursquare/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    FOURSQUARE_DATABASE_URL=sqlite:////data/foursquare.db \
    FOURSQUARE_HOST=0.0.0.0 \
    FOURSQUARE_PORT=8000 \
    FOURSQUARE_WORKERS=1
COPY --from=build /opt/foursquare /opt/foursquare
# ICU's runtime library for PyICU: the package libicu-dev depends on (libicu72 on Debian 12),
# found by name so that the line holds on the next Debian release too.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        $(apt-cache depends libicu-dev | sed -n 's/^ *Depends: \(libicu[0-9][0-9]*\)$/\1/p') \
    && rm -rf /var/lib/apt/lists/* \
    && python -c "import icu"
RUN useradd --system --uid 10001 --no-create-home --home-dir /data foursquare \
    && mkdir -p /data && chown foursquare /data
USER foursquare
WORKDIR /data
# The default SQLite database (and its -wal and -shm files) live here.
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$FOURSQUARE_PORT/healthz', timeout=2)"
# `foursquare serve` applies pending migrations, then starts gunicorn with uvicorn workers.
# The shell only expands the variables: exec makes the server PID 1, so it gets `docker stop`'s
# SIGTERM and drains its requests.
CMD exec foursquare serve --host "$FOURSQUARE_HOST" --port "$FOURSQUARE_PORT" --workers "$FOURSQUARE_WORKERS"
