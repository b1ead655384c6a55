# syntax=docker/dockerfile:1
# Three stages: wheels are built in the first, the documentation site in the second, and the
# last only installs the wheels and copies the site, so the runtime image carries no build tools,
# no pip cache and no source tree beyond the gunicorn config and the built site. The dependencies
# are the locks' (requirements/server.txt; requirements/docs.txt for the site), hashes checked.
#
# The base image is named by tag: its digest could not be looked up where this file was written
# (no access to Docker Hub). To pin it, build with the digest the registry reports for the tag:
#   docker buildx imagetools inspect python:3.11-slim     (the "Digest:" line)
#   docker build --build-arg PYTHON_IMAGE=python:3.11-slim@sha256:<digest> .
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS builder
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# A C compiler for the play search's compiled deals (service/bots/_playout.c): without it the
# wheel is built without them and `hard` searches in Python, 10 to 30 times the CPU.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY requirements/server.txt pyproject.toml README.md LICENSE ./
COPY service ./service
RUN pip wheel --require-hashes --only-binary=:all: --wheel-dir /wheels -r server.txt \
    && pip wheel --no-deps --wheel-dir /wheels . \
    && cp server.txt /wheels/

FROM ${PYTHON_IMAGE} AS manual
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 NO_MKDOCS_2_WARNING=1
WORKDIR /src
COPY requirements/docs.txt ./
RUN pip install --require-hashes -r docs.txt
COPY mkdocs.yml openapi.yaml ./
COPY docs ./docs
COPY service ./service
RUN python -m mkdocs build --strict --site-dir /site

FROM ${PYTHON_IMAGE} AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN groupadd --system --gid 10001 cribbage \
    && useradd --system --uid 10001 --gid cribbage --no-create-home \
       --home-dir /nonexistent --shell /usr/sbin/nologin cribbage
COPY --from=builder /wheels /wheels
RUN pip install --no-index --find-links=/wheels --require-hashes -r /wheels/server.txt \
    && pip install --no-index --find-links=/wheels --no-deps cribbage \
    && rm -rf /wheels
WORKDIR /app
COPY deploy/gunicorn.conf.py deploy/gunicorn.conf.py
COPY --from=manual /site /app/site
ENV CRIBBAGE_BIND=0.0.0.0:8000 \
    CRIBBAGE_DOCS_SITE=/app/site \
    PROMETHEUS_MULTIPROC_DIR=/tmp/prometheus
# A numeric user lets Kubernetes check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; port = os.environ['CRIBBAGE_BIND'].rsplit(':', 1)[1]; urllib.request.urlopen(f'http://127.0.0.1:{port}/livez', timeout=4)"]
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]
