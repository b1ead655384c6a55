# syntax=docker/dockerfile:1
# Two stages: wheels are built in the first, the second only installs them, so the runtime image
# carries no build tools, no pip cache and no source tree beyond the gunicorn config. The
# dependencies are the lock's (requirements/server.txt), hashes checked in both stages.
#
# The base image is named by tag: its digest could not be looked up where this file was written
# (no access to Docker Hub). To pin it, build with the digest the registry reports for the tag:
#   docker buildx imagetools inspect python:3.11-slim     (the "Digest:" line)
#   docker build --build-arg PYTHON_IMAGE=python:3.11-slim@sha256:<digest> .
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS builder
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY requirements/server.txt pyproject.toml README.md LICENSE ./
COPY service ./service
RUN pip wheel --require-hashes --only-binary=:all: --wheel-dir /wheels -r server.txt \
    && pip wheel --no-deps --wheel-dir /wheels . \
    && cp server.txt /wheels/

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
ENV CRIBBAGE_BIND=0.0.0.0:8000 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/prometheus
# A numeric user lets Kubernetes check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; port = os.environ['CRIBBAGE_BIND'].rsplit(':', 1)[1]; urllib.request.urlopen(f'http://127.0.0.1:{port}/livez', timeout=4)"]
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]
