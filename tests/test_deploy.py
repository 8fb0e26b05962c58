"""deploy/ checked offline: no Docker engine, no cluster, no network.

* every YAML file parses; every Kubernetes manifest validates (strict) against the schemas
  shipped inside kubernetes-validate, for a pinned Kubernetes version and the oldest one
  the manifests claim; the kustomization lists exactly the manifest files;
* the manifests fit together: selectors, probes, ports, ConfigMap/Secret references, the
  autoscaler's target, Redis' volume, AOF and Service;
* the compose file: Redis with AOF on a volume, two referee replicas sharing one token
  secret source, Envoy with its config mounted; and envoy.yaml: HTTP/2 upstream, gRPC
  health checks, no route timeout, the listener on the published port;
* the Dockerfile's text: stages, non-root user, health check, no compilers in the image,
  exposed ports, what it copies exists and is not ignored;
* every environment variable these files set is one the service reads (or a planned one);
* the health-check script against a live referee, and the Redis sizing script, run.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml
from kubernetes_validate.utils import all_versions  # type: ignore[import-untyped]

from service.domain.auth import TokenSigner
from service.process.server import Running
from service.settings import DEFAULTS, Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DOCKERFILE = ROOT / "Dockerfile"

# Kubernetes versions the manifests are validated for: a pinned recent one and the oldest
# they claim (1.27: gRPC probes are GA). Both have schemas inside kubernetes-validate.
KUBERNETES_VERSION = "1.33.0"
OLDEST_KUBERNETES = "1.27.0"

GRPC_PORT = 50051
METRICS_PORT = 9464
HEALTH_SERVICE = "referee.v1.RefereeService"
CLUSTER_SCOPED = {"Namespace"}

# Settings planned for the service in the deployment issue (metrics port, tracing, Redis
# Cluster): allowed, and required in deploy/README.md, whether or not service/ reads them
# yet (it does now). OTEL_* are OpenTelemetry's standard names.
PLANNED_NAMES = {"REFEREE_METRICS_PORT", "REFEREE_TRACING", "REDIS_CLUSTER"}
STANDARD_PREFIXES = ("OTEL_",)
# The image's own runtime variables, not settings of the referee.
RUNTIME_NAMES = {"PATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"}
# Setting names: any quoted REFEREE_*/REDIS_* name in service/settings.py (the
# configuration module), and elsewhere in service/ those read from the environment.
SETTING_NAME = re.compile(r"""["'](REFEREE_[A-Z0-9_]+|REDIS_[A-Z0-9_]+)["']""")
ENV_READ = re.compile(
    r"""(?:getenv|environ\.get|environ\[|env\.get|env\[)\(?\s*["'](REFEREE_[A-Z0-9_]+|REDIS_[A-Z0-9_]+)["']"""
)

COMPILERS = re.compile(
    r"\b(gcc|g\+\+|cc|clang|make|build-essential|python3?-dev|libc6?-dev)\b|apt-get\s+install"
)


# --- reading the files --------------------------------------------------------------------


def _yaml_files() -> list[Path]:
    return sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])


def _load_all(path: Path) -> list[Any]:
    with path.open(encoding="utf-8") as stream:
        return [doc for doc in yaml.safe_load_all(stream) if doc is not None]


def _load(path: Path) -> dict[str, Any]:
    (doc,) = _load_all(path)
    assert isinstance(doc, dict), path
    return doc


def _manifest_files() -> list[Path]:
    return sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def _objects() -> list[dict[str, Any]]:
    return [doc for path in _manifest_files() for doc in _load_all(path)]


def _one(kind: str, name: str | None = None) -> dict[str, Any]:
    found = [o for o in _objects() if o["kind"] == kind and name in (None, o["metadata"]["name"])]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def _referee_deployment() -> dict[str, Any]:
    return _one("Deployment", "referee")


def _container(workload: dict[str, Any], name: str) -> dict[str, Any]:
    containers = workload["spec"]["template"]["spec"]["containers"]
    (container,) = [c for c in containers if c["name"] == name]
    assert isinstance(container, dict)
    return container


def _pod_labels(workload: dict[str, Any]) -> dict[str, str]:
    labels: dict[str, str] = workload["spec"]["template"]["metadata"]["labels"]
    return labels


def _selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(key) == value for key, value in selector.items())


def _port(container: dict[str, Any], name: str) -> int:
    (port,) = [p["containerPort"] for p in container["ports"] if p["name"] == name]
    assert isinstance(port, int)
    return port


def _compose() -> dict[str, Any]:
    return _load(DEPLOY / "compose.yaml")


def _envoy() -> dict[str, Any]:
    return _load(DEPLOY / "envoy.yaml")


def _referee_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Compose services built from the repository's Dockerfile."""
    services: dict[str, dict[str, Any]] = compose["services"]
    return {name: s for name, s in services.items() if "build" in s}


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {str(key): str(value) for key, value in env.items()}


def _env_files(service: dict[str, Any]) -> list[str]:
    files = service.get("env_file") or []
    if isinstance(files, str | dict):
        files = [files]
    return [f if isinstance(f, str) else f["path"] for f in files]


def _env_file_names(path: Path) -> dict[str, str]:
    pairs = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value.strip()
    return pairs


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair of a nested YAML document."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key), value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def args(self, keyword: str) -> list[str]:
        return [args for kw, args in self.instructions if kw == keyword]


def _dockerfile_stages() -> list[Stage]:
    text = DOCKERFILE.read_text(encoding="utf-8")
    logical = re.sub(r"\\\n(\s*#[^\n]*\n)*", " ", text)  # continuation lines (and comments in them)
    stages: list[Stage] = []
    global_args: dict[str, str] = {}
    for line in logical.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, args = line.partition(" ")
        keyword, args = keyword.upper(), args.strip()
        if keyword == "FROM":
            words = [w for w in args.split() if not w.startswith("--")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            base = re.sub(r"\$\{(\w+)\}", lambda m: global_args.get(m[1], m[0]), words[0])
            stages.append(Stage(base, name))
        elif stages:
            stages[-1].instructions.append((keyword, args))
        elif keyword == "ARG":
            arg, _, default = args.partition("=")
            global_args[arg] = default
    return stages


def _env_pairs(args: str) -> dict[str, str]:
    words = shlex.split(args)
    if len(words) >= 2 and "=" not in words[0]:  # legacy "ENV NAME value"
        return {words[0]: " ".join(words[1:])}
    return dict(word.split("=", 1) for word in words)


def _dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _ignored(path: str, patterns: list[str]) -> bool:
    """.dockerignore semantics, simplified: the last pattern matching the path or one of its
    parent folders decides; ``!`` re-includes."""
    parts = path.strip("/").split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        glob = pattern.lstrip("!").strip("/")
        globs = {glob, glob.removeprefix("**/")}
        if any(fnmatch(prefix, g) for prefix in prefixes for g in globs):
            ignored = not negate
    return ignored


def _service_reads() -> set[str]:
    """The environment variables the service reads."""
    settings = ROOT / "service" / "settings.py"
    names = set(SETTING_NAME.findall(settings.read_text(encoding="utf-8")))
    for path in (ROOT / "service").rglob("*.py"):
        names.update(ENV_READ.findall(path.read_text(encoding="utf-8")))
    return names


# --- YAML and Kubernetes ------------------------------------------------------------------


@pytest.mark.parametrize("path", _yaml_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_every_yaml_file_parses(path: Path) -> None:
    assert _load_all(path), f"{path} is empty"


def test_the_pinned_kubernetes_versions_ship_with_kubernetes_validate() -> None:
    shipped = {".".join(v.split(".")[:2]) for v in all_versions()}
    for version in (KUBERNETES_VERSION, OLDEST_KUBERNETES):
        assert ".".join(version.split(".")[:2]) in shipped, (version, sorted(shipped))


@pytest.mark.parametrize("version", [OLDEST_KUBERNETES, KUBERNETES_VERSION])
def test_every_manifest_is_valid_kubernetes(version: str) -> None:
    objects = _objects()
    assert len(objects) >= 10
    for obj in objects:
        label = f"{obj.get('kind')}/{obj.get('metadata', {}).get('name')}"
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            pytest.fail(f"{label} is not valid for Kubernetes {version}: {error.message}")


def test_the_kustomization_lists_every_manifest_and_one_namespace() -> None:
    kustomization = _load(K8S / "kustomization.yaml")
    listed = kustomization["resources"]
    assert len(listed) == len(set(listed)), "a resource is listed twice"
    assert set(listed) == {p.name for p in _manifest_files()}
    namespace = kustomization["namespace"]
    assert _one("Namespace")["metadata"]["name"] == namespace
    for obj in _objects():
        if obj["kind"] not in CLUSTER_SCOPED:
            assert obj["metadata"].get("namespace") == namespace, obj["metadata"]["name"]
    (image,) = kustomization["images"]
    container = _container(_referee_deployment(), "referee")
    assert container["image"].split(":")[0] == image["name"]


def test_the_deployment_runs_safe_probed_replicas() -> None:
    deployment = _referee_deployment()
    spec = deployment["spec"]
    pod = spec["template"]["spec"]
    assert spec["replicas"] >= 2
    assert _selects(spec["selector"]["matchLabels"], _pod_labels(deployment))

    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    container = _container(deployment, "referee")
    security = container["securityContext"]
    assert security["allowPrivilegeEscalation"] is False
    assert security["readOnlyRootFilesystem"] is True
    assert security["capabilities"]["drop"] == ["ALL"]

    assert {"cpu", "memory"} <= set(container["resources"]["requests"])
    assert "memory" in container["resources"]["limits"]

    grpc_port = _port(container, "grpc")
    assert grpc_port == GRPC_PORT
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["grpc"]["port"] == grpc_port, probe
    assert container["readinessProbe"]["grpc"].get("service", "") in ("", HEALTH_SERVICE)

    # The pod gets SIGTERM after preStop; both must fit in the grace period with room for
    # the referee's own graceful stop (and 5 s to close up).
    pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep"
    config = _one("ConfigMap", container["envFrom"][0]["configMapRef"]["name"])["data"]
    grace = float(config.get("REFEREE_SHUTDOWN_GRACE_SECONDS", DEFAULTS.shutdown_grace_seconds))
    assert pod["terminationGracePeriodSeconds"] >= int(pre_stop[1]) + grace + 5

    annotations = spec["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert int(annotations["prometheus.io/port"]) == _port(container, "metrics") == METRICS_PORT


def test_the_deployment_reads_its_settings_from_the_configmap_and_secret() -> None:
    container = _container(_referee_deployment(), "referee")
    (source,) = container["envFrom"]
    config = _one("ConfigMap", source["configMapRef"]["name"])
    assert config["data"]["REDIS_URL"]
    assert int(config["data"]["REFEREE_PORT"]) == GRPC_PORT
    assert int(config["data"]["REFEREE_METRICS_PORT"]) == METRICS_PORT
    secret_refs = [e["valueFrom"]["secretKeyRef"] for e in container["env"] if "valueFrom" in e]
    assert [e["name"] for e in container["env"]] == ["REFEREE_TOKEN_SECRET"]
    for ref in secret_refs:
        secret = _one("Secret", ref["name"])
        assert ref["key"] in {**secret.get("stringData", {}), **secret.get("data", {})}
    assert "REFEREE_TOKEN_SECRET" not in config["data"], "the secret is not a ConfigMap value"


def test_the_services_reach_the_pods_on_grpc_and_metrics() -> None:
    deployment = _referee_deployment()
    labels = _pod_labels(deployment)
    container = _container(deployment, "referee")
    named = {p["name"]: p["containerPort"] for p in container["ports"]}
    services = [
        o for o in _objects() if o["kind"] == "Service" and _selects(o["spec"]["selector"], labels)
    ]
    assert {s["metadata"]["name"] for s in services} == {"referee", "referee-headless"}
    for service in services:
        ports = {p["name"]: p for p in service["spec"]["ports"]}
        assert ports["grpc"]["appProtocol"] == "grpc"
        assert named[ports["grpc"]["targetPort"]] == GRPC_PORT
    main = _one("Service", "referee")
    metrics = {p["name"]: p for p in main["spec"]["ports"]}["metrics"]
    assert named[metrics["targetPort"]] == METRICS_PORT
    assert _one("Service", "referee-headless")["spec"]["clusterIP"] == "None"


def test_the_autoscaler_and_disruption_budget_fit_the_deployment() -> None:
    deployment = _referee_deployment()
    hpa = _one("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        deployment["apiVersion"],
        deployment["kind"],
        deployment["metadata"]["name"],
    )
    assert 2 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    assert "cpu" in _container(deployment, "referee")["resources"]["requests"]

    pdb = _one("PodDisruptionBudget")
    assert pdb["apiVersion"] == "policy/v1"
    assert _selects(pdb["spec"]["selector"]["matchLabels"], _pod_labels(deployment))
    # Drains must be able to proceed with the minimum replica count.
    if "maxUnavailable" in pdb["spec"]:
        assert pdb["spec"]["maxUnavailable"] >= 1
    else:
        assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_redis_is_a_persistent_aof_statefulset_behind_a_headless_service() -> None:
    redis = _one("StatefulSet", "redis")
    container = _container(redis, "redis")
    assert container["image"].startswith("redis:")
    args = [str(a) for a in container["args"]]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    (mount,) = container["volumeMounts"]
    assert mount["name"] == claim["metadata"]["name"]
    assert mount["mountPath"] == args[args.index("--dir") + 1] == "/data"
    assert redis["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True

    service = _one("Service", redis["spec"]["serviceName"])
    assert service["spec"]["clusterIP"] == "None"
    assert _selects(service["spec"]["selector"], _pod_labels(redis))
    (port,) = service["spec"]["ports"]

    config = _one("ConfigMap", "referee-config")
    url = re.fullmatch(r"redis://([^:/]+):(\d+)/\d+", config["data"]["REDIS_URL"])
    assert url, config["data"]["REDIS_URL"]
    assert (url[1], int(url[2])) == (service["metadata"]["name"], port["port"])

    policy = _one("NetworkPolicy")
    assert _selects(policy["spec"]["podSelector"]["matchLabels"], _pod_labels(redis))
    (rule,) = policy["spec"]["ingress"]
    (peer,) = rule["from"]
    assert _selects(peer["podSelector"]["matchLabels"], _pod_labels(_referee_deployment()))
    assert [p["port"] for p in rule["ports"]] == [port["port"]]


def test_the_token_secret_placeholders_cannot_be_used_by_accident() -> None:
    k8s = _one("Secret", "referee-token")["stringData"]["REFEREE_TOKEN_SECRET"]
    example = _env_file_names(DEPLOY / "referee.env.example")["REFEREE_TOKEN_SECRET"]
    for placeholder in (k8s, example):
        with pytest.raises(ValueError, match="at least 16 bytes"):
            TokenSigner(placeholder.encode())


# --- compose and Envoy --------------------------------------------------------------------


def test_compose_runs_redis_two_referees_and_envoy() -> None:
    compose = _compose()
    services = compose["services"]
    referees = _referee_services(compose)
    assert {"redis", "envoy"} <= set(services)
    assert sum(int(s.get("deploy", {}).get("replicas", 1)) for s in referees.values()) >= 2
    for name, referee in referees.items():
        context = (DEPLOY / referee["build"]["context"]).resolve()
        assert context == ROOT, name
        assert (context / referee["build"].get("dockerfile", "Dockerfile")) == DOCKERFILE
        depends = referee["depends_on"]
        assert depends["redis"]["condition"] == "service_healthy"
        grace = Settings.from_env(_environment(referee)).shutdown_grace_seconds
        assert referee["stop_signal"] == "SIGTERM"
        assert int(referee["stop_grace_period"].removesuffix("s")) >= grace + 5
    assert services["envoy"]["depends_on"]


def test_compose_redis_keeps_an_append_only_file_on_a_volume() -> None:
    compose = _compose()
    redis = compose["services"]["redis"]
    assert redis["image"].startswith("redis:")
    command = [str(word) for word in redis["command"]]
    assert command[command.index("--appendonly") + 1] == "yes"
    volume, _, target = redis["volumes"][0].partition(":")
    assert target.split(":")[0] == "/data"
    assert volume in compose["volumes"], "a named volume, declared at the top level"
    for referee in _referee_services(compose).values():
        assert _environment(referee)["REDIS_URL"].startswith("redis://redis:")


def test_compose_replicas_share_one_token_secret_source() -> None:
    referees = list(_referee_services(_compose()).values())
    sources = {tuple(_env_files(r)) for r in referees}
    assert len(sources) == 1, "every replica reads the same env file"
    (files,) = sources
    assert files, "the token secret comes from an env file"
    for referee in referees:
        assert "REFEREE_TOKEN_SECRET" not in _environment(referee)
    ignored = (DEPLOY / ".gitignore").read_text(encoding="utf-8").split()
    for name in files:
        assert name in ignored, f"{name} holds a secret: it must be git-ignored"
        example = DEPLOY / f"{name}.example"
        assert "REFEREE_TOKEN_SECRET" in _env_file_names(example)


def test_compose_services_have_health_checks() -> None:
    services = _compose()["services"]
    for name, service in services.items():
        assert service["healthcheck"]["test"], name
    for referee in _referee_services(_compose()).values():
        assert "referee-healthcheck" in referee["healthcheck"]["test"]


def test_envoy_gets_its_config_and_publishes_the_listener() -> None:
    envoy = _compose()["services"]["envoy"]
    assert envoy["image"].startswith("envoyproxy/envoy:")
    mounts = {}
    for volume in envoy["volumes"]:
        source, target = volume.split(":")[:2]
        mounts[target] = source
    config_path = envoy["command"][envoy["command"].index("-c") + 1]
    assert (DEPLOY / mounts[config_path]).resolve() == DEPLOY / "envoy.yaml"

    (listener,) = _envoy()["static_resources"]["listeners"]
    port = listener["address"]["socket_address"]["port_value"]
    published = {}
    for mapping in envoy["ports"]:
        *_, host, container = str(mapping).split(":")
        published[int(container)] = int(host)
    assert published[port] == 8080


def test_envoy_balances_grpc_calls_over_http2_with_grpc_health_checks() -> None:
    config = _envoy()
    for key, value in _walk(config):
        if key == "@type":
            assert value.startswith("type.googleapis.com/envoy."), value
            assert ".v3." in value, f"Envoy v3 API only: {value}"

    (cluster,) = config["static_resources"]["clusters"]
    assert cluster["type"] == "STRICT_DNS"
    assert cluster.get("lb_policy", "ROUND_ROBIN") == "ROUND_ROBIN"
    options = cluster.get("typed_extension_protocol_options", {}).get(
        "envoy.extensions.upstreams.http.v3.HttpProtocolOptions", {}
    )
    http2 = "http2_protocol_options" in options.get("explicit_http_config", {})
    assert http2 or "http2_protocol_options" in cluster, "gRPC upstreams need HTTP/2"

    (check,) = cluster["health_checks"]
    assert check["grpc_health_check"].get("service_name", "") in ("", HEALTH_SERVICE)

    compose = _compose()
    referees = _referee_services(compose)
    addresses = {
        (
            e["endpoint"]["address"]["socket_address"]["address"],
            e["endpoint"]["address"]["socket_address"]["port_value"],
        )
        for group in cluster["load_assignment"]["endpoints"]
        for e in group["lb_endpoints"]
    }
    expected = {(name, int(_environment(s)["REFEREE_PORT"])) for name, s in referees.items()}
    assert addresses == expected

    routes = [
        route
        for _, hcm in _walk(config)
        if isinstance(hcm, dict) and "route_config" in hcm
        for host in hcm["route_config"]["virtual_hosts"]
        for route in host["routes"]
    ]
    assert routes
    for route in routes:
        assert route["route"]["cluster"] == cluster["name"]
        # WatchGame streams outlive any fixed route timeout: none, or at least an hour.
        timeout = route["route"]["timeout"]
        assert timeout == "0s" or int(timeout.removesuffix("s")) >= 3600


# --- Dockerfile ---------------------------------------------------------------------------


def test_the_dockerfile_is_multi_stage_with_a_non_root_final_stage() -> None:
    stages = _dockerfile_stages()
    assert len(stages) >= 2
    final = stages[-1]
    (user,) = final.args("USER")
    assert user.split(":")[0] not in ("root", "0")
    assert user.split(":")[0].isdigit(), "numeric, so runAsNonRoot can verify it"
    deployment_uid = _referee_deployment()["spec"]["template"]["spec"]["securityContext"]
    assert int(user.split(":")[0]) == deployment_uid["runAsUser"]
    copies_from = [args for args in final.args("COPY") if args.startswith("--from=")]
    assert copies_from, "the final stage takes the built virtualenv from an earlier stage"
    for stage in stages[:-1]:
        assert stage.name, "earlier stages are named"


def test_the_final_image_has_no_build_tools() -> None:
    final = _dockerfile_stages()[-1]
    for keyword, args in final.instructions:
        if keyword == "RUN":
            assert not COMPILERS.search(args), args
    assert "slim" in final.base, f"a slim base image, not {final.base}"


def test_the_dockerfile_health_checks_exposes_and_stops_gracefully() -> None:
    final = _dockerfile_stages()[-1]
    (healthcheck,) = final.args("HEALTHCHECK")
    assert "referee-healthcheck" in healthcheck
    copies = final.args("COPY")
    assert any("deploy/healthcheck.py" in c and "referee-healthcheck" in c for c in copies)
    exposed = {int(port.split("/")[0]) for args in final.args("EXPOSE") for port in args.split()}
    assert {GRPC_PORT, METRICS_PORT} <= exposed
    env: dict[str, str] = {}
    for args in final.args("ENV"):
        env.update(_env_pairs(args))
    assert int(env["REFEREE_PORT"]) == GRPC_PORT
    assert int(env["REFEREE_METRICS_PORT"]) == METRICS_PORT
    assert env["REFEREE_HOST"] == "0.0.0.0"
    assert final.args("STOPSIGNAL") == ["SIGTERM"]
    assert json.loads(final.args("ENTRYPOINT")[-1]) == ["referee", "serve"]


def test_what_the_dockerfile_copies_exists_and_is_not_dockerignored() -> None:
    patterns = _dockerignore()
    for stage in _dockerfile_stages():
        for args in stage.args("COPY"):
            words = [w for w in args.split() if not w.startswith("--")]
            if any(w.startswith("--from=") for w in args.split()):
                continue
            for source in words[:-1]:
                assert (ROOT / source).exists(), source
                assert not _ignored(source, patterns), f"{source} is in .dockerignore"
    for private in (".venv", ".data", ".git", "deploy/referee.env", "tests"):
        assert _ignored(private, patterns), private


def test_the_dockerfile_installs_exactly_the_declared_dependencies(tmp_path: Path) -> None:
    """The one-liner that turns pyproject.toml into the dependency layer's requirements."""
    text = DOCKERFILE.read_text(encoding="utf-8")
    match = re.search(r'python -c "([^"]+)" > requirements\.txt', text)
    assert match, "the dependency layer is made from pyproject.toml"
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    result = subprocess.run(
        [sys.executable, "-c", match[1]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert result.stdout.splitlines() == declared


# --- settings -----------------------------------------------------------------------------


def _names_set_by_deploy_files() -> dict[str, set[str]]:
    """Every environment variable name each deploy file sets, by file."""
    final = _dockerfile_stages()[-1]
    found: dict[str, set[str]] = {"Dockerfile": set()}
    for args in final.args("ENV"):
        found["Dockerfile"] |= set(_env_pairs(args))
    found["compose.yaml"] = {
        name for s in _referee_services(_compose()).values() for name in _environment(s)
    }
    found["referee.env.example"] = set(_env_file_names(DEPLOY / "referee.env.example"))
    found["k8s"] = set(_one("ConfigMap", "referee-config")["data"])
    found["k8s"] |= {e["name"] for e in _container(_referee_deployment(), "referee")["env"]}
    found["k8s"] |= set(_one("Secret", "referee-token")["stringData"])
    return found


def test_every_variable_the_deploy_files_set_is_read_by_the_service() -> None:
    reads = _service_reads()
    assert {"REDIS_URL", "REFEREE_PORT", "REFEREE_TOKEN_SECRET"} <= reads
    known = reads | PLANNED_NAMES | RUNTIME_NAMES
    for where, names in _names_set_by_deploy_files().items():
        unknown = {n for n in names if n not in known and not n.startswith(STANDARD_PREFIXES)}
        assert not unknown, f"{where} sets variables the service does not read: {unknown}"


def test_the_deploy_readme_documents_every_setting() -> None:
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for name in sorted(_service_reads() | PLANNED_NAMES):
        assert f"`{name}`" in readme, f"deploy/README.md does not document {name}"


# --- the scripts --------------------------------------------------------------------------


async def _run_healthcheck(*args: str, port: int) -> tuple[int, str]:
    env = {**os.environ, "REFEREE_PORT": str(port)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(DEPLOY / "healthcheck.py"),
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode is not None
    return proc.returncode, output.decode()


async def test_the_health_check_script_passes_on_a_serving_referee(
    referee_server: Running,
) -> None:
    code, output = await _run_healthcheck(port=referee_server.port)
    assert code == 0, output
    assert output.strip().splitlines()[-1] == f"127.0.0.1:{referee_server.port}: SERVING"
    code, _ = await _run_healthcheck("--service", HEALTH_SERVICE, port=referee_server.port)
    assert code == 0


async def test_the_health_check_script_fails_without_a_referee() -> None:
    code, output = await _run_healthcheck("--timeout", "0.5", port=1)
    assert code == 1, output


def test_the_redis_sizing_script_runs() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(DEPLOY / "measure_redis_size.py"),
            "--games=4",
            "--finished=1",
            "--partial-moves=5",
            "--settle-seconds=0.05",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(result.stdout[result.stdout.index("\n{") :])
    games = {g["game"]: g for g in figures["games"]}
    assert set(games) == {"the_gang", "gang_of_four", "pinched"}
    for game in games.values():
        assert (game["finished_games"], game["partial_games"]) == (1, 3)
        assert game["moves_per_partial_game"] == 5
        finished = sum(game["finished_key_bytes"].values())
        partial = sum(game["partial_key_bytes"].values())
        assert finished > partial > 0
