"""The deployment files say what an operator relies on: probes, non-root, limits, wiring."""

import os
import pathlib
import runpy

import kubernetes_validate
import pytest
import yaml
from gunicorn.config import Config

from service.compute import worker as compute_worker
from service.compute.jobs import PRIORITIES
from service.compute.redis_queue import stream_key
from service.server import hooks as gunicorn_hooks
from service.config import Settings, SettingsError
from service.server.access_log import JsonLogger

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"
LABELS = {"app.kubernetes.io/name": "cribbage", "app.kubernetes.io/component": "api"}
COMPUTE_LABELS = {"app.kubernetes.io/name": "cribbage", "app.kubernetes.io/component": "compute"}
API, COMPUTE = "cribbage-api", "cribbage-compute"
KEDA = K8S / "keda" / "compute-scaledobject.yaml"
KUBERNETES_VERSION = "1.31"

GUNICORN_ENV = (
    "CRIBBAGE_BIND",
    "CRIBBAGE_REDIS_URL",
    "WEB_CONCURRENCY",
    "GUNICORN_THREADS",
    "CRIBBAGE_LOG_LEVEL",
    "GUNICORN_WORKER_CLASS",
    "GUNICORN_WORKER_CONNECTIONS",
)


def k8s_documents():
    documents = []
    for path in sorted(K8S.glob("*.yaml")):
        documents.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    return documents


def k8s_object(kind, name=None):
    (found,) = [doc for doc in k8s_documents()
                if doc["kind"] == kind and name in (None, doc.get("metadata", {}).get("name"))]
    return found


def container_of(deployment):
    (container,) = k8s_object("Deployment", deployment)["spec"]["template"]["spec"]["containers"]
    return container


def api_container():
    return container_of(API)


def compute_container():
    return container_of(COMPUTE)


def settings_in(container, **env):
    """The service's Settings as a container of these manifests reads them: the ConfigMap, its
    own plain values, and `env` for what comes from a Secret."""
    environ = dict(k8s_object("ConfigMap")["data"])
    environ.update({item["name"]: item["value"] for item in container["env"] if "value" in item})
    environ.update(env)
    return Settings.from_env(environ)


def gunicorn_settings(monkeypatch, **env):
    for name in GUNICORN_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    module = runpy.run_path(str(GUNICORN_CONF))
    config = Config()
    settings = {name: value for name, value in module.items() if name in config.settings}
    for name, value in settings.items():
        config.set(name, value)  # gunicorn's own validation rejects a wrong type or value
    return config


def test_every_manifest_parses_with_kind_and_name():
    documents = k8s_documents()
    kinds = sorted(doc["kind"] for doc in documents)
    assert kinds == [
        "ConfigMap",
        "Deployment",
        "Deployment",
        "HorizontalPodAutoscaler",
        "HorizontalPodAutoscaler",
        "Kustomization",
        "PodDisruptionBudget",
        "PodDisruptionBudget",
        "Secret",
        "Secret",
        "Service",
    ]
    for doc in documents:
        if doc["kind"] != "Kustomization":
            assert doc["metadata"]["name"]


def test_every_manifest_is_valid_for_kubernetes_with_no_unknown_field():
    for doc in k8s_documents():
        if doc["kind"] != "Kustomization":
            kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_kustomization_lists_every_manifest():
    listed = set(k8s_object("Kustomization")["resources"])
    on_disk = {path.name for path in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == on_disk


def test_deployment_probes_livez_and_readyz_on_the_http_port():
    container = api_container()
    assert container["livenessProbe"]["httpGet"] == {"path": "/livez", "port": "http"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["startupProbe"]["httpGet"] == {"path": "/livez", "port": "http"}
    assert container["ports"] == [{"name": "http", "containerPort": 8000, "protocol": "TCP"}]


@pytest.mark.parametrize("name", [API, COMPUTE])
def test_deployment_runs_as_non_root_with_a_read_only_root_file_system(name):
    deployment = k8s_object("Deployment", name)
    pod = deployment["spec"]["template"]["spec"]
    container = container_of(name)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == 10001
    assert container["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}


@pytest.mark.parametrize("name", [API, COMPUTE])
def test_writable_directories_are_empty_dirs_including_the_metrics_directory(name):
    # A compute worker serves no metrics, but importing the metrics module with
    # PROMETHEUS_MULTIPROC_DIR set fails unless that directory exists.
    pod = k8s_object("Deployment", name)["spec"]["template"]["spec"]
    volumes = {volume["name"]: volume for volume in pod["volumes"]}
    mounts = {mount["mountPath"]: mount["name"] for mount in container_of(name)["volumeMounts"]}
    metrics_dir = k8s_object("ConfigMap")["data"]["PROMETHEUS_MULTIPROC_DIR"]
    assert set(mounts) == {"/tmp", metrics_dir}
    for volume in mounts.values():
        assert "emptyDir" in volumes[volume]


def test_deployment_sets_resources_and_outlasts_gunicorns_graceful_timeout(monkeypatch):
    pod = k8s_object("Deployment", API)["spec"]["template"]["spec"]
    resources = api_container()["resources"]
    assert set(resources["requests"]) == {"cpu", "memory"}
    assert set(resources["limits"]) == {"cpu", "memory"}
    graceful = gunicorn_settings(monkeypatch).graceful_timeout
    pre_stop = int(api_container()["lifecycle"]["preStop"]["exec"]["command"][1])
    assert pod["terminationGracePeriodSeconds"] > graceful + pre_stop


def test_secrets_come_from_their_own_secrets_and_settings_from_the_config_map():
    container = api_container()
    secret = k8s_object("Secret", "cribbage-redis")
    config_map = k8s_object("ConfigMap")
    env = {item["name"]: item for item in container["env"]}
    assert env["CRIBBAGE_REDIS_URL"]["valueFrom"]["secretKeyRef"] == {
        "name": "cribbage-redis",
        "key": "CRIBBAGE_REDIS_URL",
    }
    assert set(secret["stringData"]) == {"CRIBBAGE_REDIS_URL"}
    # Prometheus reads the metrics token's Secret, so it holds nothing else.
    assert env["CRIBBAGE_METRICS_TOKEN"]["valueFrom"]["secretKeyRef"] == {
        "name": "cribbage-metrics",
        "key": "token",
    }
    assert set(k8s_object("Secret", "cribbage-metrics")["stringData"]) == {"token"}
    assert container["envFrom"] == [{"configMapRef": {"name": config_map["metadata"]["name"]}}]
    assert {"CRIBBAGE_REDIS_CLUSTER", "WEB_CONCURRENCY", "CRIBBAGE_RATE_LIMIT"} <= set(
        config_map["data"]
    )
    assert all(isinstance(value, str) for value in config_map["data"].values())
    assert config_map["data"]["CRIBBAGE_DURABILITY"] == "fsync"


def test_service_pdb_and_deployment_select_the_same_pods():
    deployment = k8s_object("Deployment", API)
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == LABELS
    assert LABELS.items() <= pod_labels.items()
    assert k8s_object("PodDisruptionBudget", API)["spec"]["selector"]["matchLabels"] == LABELS
    assert k8s_object("PodDisruptionBudget", API)["apiVersion"] == "policy/v1"
    service = k8s_object("Service")
    assert service["spec"]["selector"] == LABELS
    assert service["spec"]["ports"][0]["targetPort"] == "http"


def test_compute_pdb_selects_the_compute_pods_and_the_service_does_not():
    deployment = k8s_object("Deployment", COMPUTE)
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == COMPUTE_LABELS
    assert COMPUTE_LABELS.items() <= pod_labels.items()
    pdb = k8s_object("PodDisruptionBudget", COMPUTE)
    assert pdb["apiVersion"] == "policy/v1"
    assert pdb["spec"]["selector"]["matchLabels"] == COMPUTE_LABELS
    assert not k8s_object("Service")["spec"]["selector"].items() <= pod_labels.items()
    # One pod at a time, and the autoscaler never goes below two: a drain always proceeds and
    # leaves a worker answering moves.
    assert pdb["spec"]["maxUnavailable"] == 1
    assert k8s_object("HorizontalPodAutoscaler", COMPUTE)["spec"]["minReplicas"] == 2


def test_hpa_scales_the_deployment_on_cpu():
    hpa = k8s_object("HorizontalPodAutoscaler", API)
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": API,
    }
    assert hpa["spec"]["minReplicas"] >= 2
    assert hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"] == {"type": "Utilization", "averageUtilization": 70}
    # minAvailable 1 with at least two replicas: a node drain can always proceed.
    pdb = k8s_object("PodDisruptionBudget", API)
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_compute_deployment_runs_the_compute_worker_with_the_apis_image_and_settings():
    api, compute = api_container(), compute_container()
    assert compute["command"] == ["python", "-m", "service.compute"]
    assert compute["image"] == api["image"]
    assert compute["envFrom"] == api["envFrom"]
    # The Redis URL and nothing else: a worker serves no /metrics, so it has no token.
    assert compute["env"] == [{"name": "CRIBBAGE_REDIS_URL", "valueFrom": {"secretKeyRef": {
        "name": "cribbage-redis", "key": "CRIBBAGE_REDIS_URL"}}}]
    settings = settings_in(compute, CRIBBAGE_REDIS_URL="redis://redis:6379/0")
    assert settings.compute == "redis"
    assert settings.redis_cluster == settings_in(
        api, CRIBBAGE_REDIS_URL="redis://redis:6379/0").redis_cluster


def test_the_api_leaves_every_search_to_the_compute_deployment():
    env = {item["name"]: item.get("value") for item in api_container()["env"]}
    assert env["CRIBBAGE_COMPUTE"] == "redis"
    assert env["CRIBBAGE_COMPUTE_PROCESSES"] == "0"
    settings = settings_in(api_container(), CRIBBAGE_REDIS_URL="redis://redis:6379/0")
    assert (settings.compute, settings.compute_processes) == ("redis", 0)


def test_compute_workers_finish_the_job_in_hand_before_they_are_killed():
    pod = k8s_object("Deployment", COMPUTE)["spec"]["template"]["spec"]
    time_limit = settings_in(compute_container(),
                             CRIBBAGE_REDIS_URL="redis://redis:6379/0").compute_time_limit
    assert time_limit == 30
    # SIGTERM lets the job in hand run to its time limit, after a wait for Redis at most.
    assert pod["terminationGracePeriodSeconds"] > time_limit + compute_worker.BLOCK_MS / 1000


def test_compute_workers_get_one_whole_cpu_never_throttled():
    resources = compute_container()["resources"]
    assert resources["requests"]["cpu"] == resources["limits"]["cpu"] == "1"
    assert set(resources["requests"]) == set(resources["limits"]) == {"cpu", "memory"}


def test_compute_workers_listen_on_no_port_and_have_no_probe():
    container = compute_container()
    for field in ("ports", "livenessProbe", "readinessProbe", "startupProbe"):
        assert field not in container, field


def test_compute_hpa_scales_on_the_queue_depth_fast_up_and_slowly_down():
    hpa = k8s_object("HorizontalPodAutoscaler", COMPUTE)
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1", "kind": "Deployment", "name": COMPUTE}
    assert hpa["spec"]["metrics"] == [{"type": "External", "external": {
        "metric": {"name": "cribbage_compute_queue_depth",
                   "selector": {"matchLabels": {"job": "cribbage"}}},
        "target": {"type": "AverageValue", "averageValue": "2"}}}]
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (2, 20)
    behavior = hpa["spec"]["behavior"]
    assert behavior["scaleUp"]["stabilizationWindowSeconds"] == 0
    assert behavior["scaleDown"]["stabilizationWindowSeconds"] == 300


def test_the_keda_alternative_scales_the_compute_deployment_on_the_compute_streams():
    documents = {doc["kind"]: doc for doc in yaml.safe_load_all(KEDA.read_text()) if doc}
    assert sorted(documents) == ["ScaledObject", "Secret", "TriggerAuthentication"]
    scaled, hpa = documents["ScaledObject"]["spec"], k8s_object("HorizontalPodAutoscaler", COMPUTE)
    assert scaled["scaleTargetRef"] == {"name": COMPUTE}
    assert (scaled["minReplicaCount"], scaled["maxReplicaCount"]) == (
        hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"])
    behavior = scaled["advanced"]["horizontalPodAutoscalerConfig"]["behavior"]
    assert behavior == hpa["spec"]["behavior"]
    triggers = scaled["triggers"]
    assert [trigger["metadata"]["stream"] for trigger in triggers] == [
        stream_key(priority) for priority in PRIORITIES]
    target = hpa["spec"]["metrics"][0]["external"]["target"]["averageValue"]
    for trigger in triggers:
        assert trigger["type"] == "redis-streams"
        # No consumerGroup: the stream's length (queued and running), not the jobs in hand.
        assert "consumerGroup" not in trigger["metadata"]
        assert trigger["metadata"]["streamLength"] == target
        assert trigger["authenticationRef"] == {
            "name": documents["TriggerAuthentication"]["metadata"]["name"]}
    (reference,) = documents["TriggerAuthentication"]["spec"]["secretTargetRef"]
    secret = documents["Secret"]
    assert reference["name"] == secret["metadata"]["name"]
    assert set(secret["stringData"]) == {reference["key"]}
    kubernetes_validate.validate(secret, KUBERNETES_VERSION, strict=True)
    # Not applied with the rest: its HPA and compute-hpa.yaml would fight over the replicas.
    assert not any("keda" in path for path in k8s_object("Kustomization")["resources"])


def test_compose_runs_two_api_replicas_behind_a_healthy_redis():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    redis, api = compose["services"]["redis"], compose["services"]["api"]
    assert api["deploy"]["replicas"] == 2
    assert api["depends_on"] == {"redis": {"condition": "service_healthy"}}
    assert api["environment"]["CRIBBAGE_REDIS_URL"] == "redis://redis:6379/0"
    assert api["environment"]["CRIBBAGE_DURABILITY"] == "fsync"
    assert api["build"] == {"context": "..", "dockerfile": "Dockerfile"}
    assert "/readyz" in " ".join(api["healthcheck"]["test"])
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert "./redis.conf:/usr/local/etc/redis/redis.conf:ro" in redis["volumes"]


def test_compose_gives_the_api_gunicorns_graceful_timeout_to_stop(monkeypatch):
    api = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["api"]
    graceful = gunicorn_settings(monkeypatch).graceful_timeout
    assert int(api["stop_grace_period"].removesuffix("s")) > graceful


def test_compose_runs_two_compute_workers_on_the_apis_image_and_redis():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    api, compute = compose["services"]["api"], compose["services"]["compute"]
    assert compute["command"] == ["python", "-m", "service.compute"]
    assert compute["deploy"]["replicas"] == 2
    assert (compute["build"], compute["image"]) == (api["build"], api["image"])
    for name in ("CRIBBAGE_REDIS_URL", "CRIBBAGE_REDIS_CLUSTER"):
        assert compute["environment"][name] == api["environment"][name], name
    assert api["environment"]["CRIBBAGE_COMPUTE_PROCESSES"] == "0"
    assert compute["depends_on"] == {"redis": {"condition": "service_healthy"}}
    assert "ports" not in compute
    assert compute["healthcheck"] == {"disable": True}  # the image's asks /livez
    assert compute["read_only"] is True
    assert compute["environment"]["PROMETHEUS_MULTIPROC_DIR"] in compute["tmpfs"]
    time_limit = Settings.from_env(compute["environment"]).compute_time_limit
    grace = int(compute["stop_grace_period"].removesuffix("s"))
    assert grace > time_limit + compute_worker.BLOCK_MS / 1000


def test_redis_conf_puts_a_write_on_disk_before_replying_and_never_evicts_games():
    directives = {}
    for line in (DEPLOY / "redis.conf").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.strip().partition(" ")
            directives.setdefault(name, []).append(value)
    assert directives["appendonly"] == ["yes"]
    assert directives["appendfsync"] == ["always"]
    assert directives["maxmemory-policy"] == ["noeviction"]


def test_gunicorn_defaults_to_one_gevent_worker_on_loopback_with_the_embedded_store(monkeypatch):
    config = gunicorn_settings(monkeypatch)
    assert config.worker_class_str == "service.server.worker.CribbageWorker"
    assert config.workers == 1
    assert config.worker_connections == 10000
    assert config.address == [("127.0.0.1", 8000)]
    assert config.accesslog == "-"
    assert config.errorlog == "-"


def test_gunicorn_timeouts_suit_the_25_second_events_long_poll(monkeypatch):
    config = gunicorn_settings(monkeypatch)
    assert config.timeout == 60
    assert config.graceful_timeout == 30
    assert config.timeout > 25 and config.graceful_timeout > 25


def test_gunicorn_sizes_workers_from_the_cores_when_redis_is_configured(monkeypatch):
    cores = len(os.sched_getaffinity(0))
    config = gunicorn_settings(monkeypatch, CRIBBAGE_REDIS_URL="redis://127.0.0.1:6379/0")
    assert config.workers == min(2 * cores + 1, 12)


def test_gunicorn_reads_bind_workers_and_threads_from_the_environment(monkeypatch):
    config = gunicorn_settings(
        monkeypatch, CRIBBAGE_BIND="0.0.0.0:9000", WEB_CONCURRENCY="5", GUNICORN_THREADS="3"
    )
    assert config.address == [("0.0.0.0", 9000)]
    assert config.workers == 5
    assert config.threads == 3


@pytest.mark.parametrize("name", ["WEB_CONCURRENCY", "GUNICORN_THREADS"])
def test_gunicorn_refuses_a_count_below_one_as_the_service_does(monkeypatch, name):
    with pytest.raises(SettingsError) as raised:
        gunicorn_settings(monkeypatch, **{name: "0"})
    assert str(raised.value) == f"{name}='0': expected a whole number of 1 or more"


def test_gunicorn_reads_the_worker_class_from_the_environment(monkeypatch):
    config = gunicorn_settings(monkeypatch, GUNICORN_WORKER_CLASS="gevent")
    assert config.worker_class_str == "gevent"


def test_gunicorn_config_holds_settings_and_takes_its_hooks_and_logger_from_service(monkeypatch):
    for name in GUNICORN_ENV:
        monkeypatch.delenv(name, raising=False)
    module = runpy.run_path(str(GUNICORN_CONF))
    assert {name: module[name] for name in ("on_starting", "child_exit", "on_exit")} == {
        "on_starting": gunicorn_hooks.on_starting,
        "child_exit": gunicorn_hooks.child_exit,
        "on_exit": gunicorn_hooks.on_exit,
    }
    assert gunicorn_settings(monkeypatch).logger_class is JsonLogger
    assert not [value for value in module.values() if isinstance(value, type)]


def test_gunicorn_config_defines_no_setting_gunicorn_does_not_know(monkeypatch):
    for name in GUNICORN_ENV:
        monkeypatch.delenv(name, raising=False)
    module = runpy.run_path(str(GUNICORN_CONF))
    public = {
        name
        for name, value in module.items()
        if not name.startswith("_") and not isinstance(value, type)
    }
    assert public <= set(Config().settings)


def dockerfile_instructions():
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    instructions = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, rest = line.strip().partition(" ")
            instructions.append((keyword.upper(), " ".join(rest.split())))
    return instructions


def test_dockerfile_is_multi_stage_slim_and_non_root():
    instructions = dockerfile_instructions()
    stages = [rest for keyword, rest in instructions if keyword == "FROM"]
    assert stages == ["${PYTHON_IMAGE} AS builder", "${PYTHON_IMAGE} AS manual",
                      "${PYTHON_IMAGE} AS runtime"]
    assert ("ARG", "PYTHON_IMAGE=python:3.11-slim") in instructions
    assert any(k == "COPY" and rest.startswith("--from=builder") for k, rest in instructions)
    users = [rest for keyword, rest in instructions if keyword == "USER"]
    assert users == ["10001:10001"]
    # The last USER comes after every RUN: nothing in the final image runs as root.
    last_run = max(i for i, (k, _) in enumerate(instructions) if k == "RUN")
    assert instructions.index(("USER", "10001:10001")) > last_run


def test_dockerfile_serves_with_the_gunicorn_config_and_checks_livez():
    instructions = dict(dockerfile_instructions())
    assert instructions["CMD"] == (
        '["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]'
    )
    assert instructions["EXPOSE"] == "8000"
    healthcheck = instructions["HEALTHCHECK"]
    assert "/livez" in healthcheck and "urllib.request" in healthcheck
    text = (ROOT / "Dockerfile").read_text()
    assert "CRIBBAGE_BIND=0.0.0.0:8000" in text


def test_everything_the_dockerfile_copies_exists_and_is_in_the_build_context():
    kept = {line[1:].rstrip("/") for line in (ROOT / ".dockerignore").read_text().splitlines()
            if line.startswith("!")}
    copied = []
    for keyword, rest in dockerfile_instructions():
        if keyword == "COPY" and not rest.startswith("--from="):
            copied += rest.split()[:-1]
    assert copied == ["requirements/server.txt", "pyproject.toml", "README.md", "LICENSE",
                      "service", "requirements/docs.txt", "mkdocs.yml", "openapi.yaml", "docs",
                      "service", "deploy/gunicorn.conf.py"]
    for source in copied:
        assert (ROOT / source).exists(), source
        assert source in kept, source


def test_dockerfile_installs_the_locked_dependencies_with_their_hashes():
    runs = [rest for keyword, rest in dockerfile_instructions() if keyword == "RUN"]
    # The builder has a C compiler, so the wheel carries the play search's compiled deals.
    assert runs[0] == ("apt-get update && apt-get install -y --no-install-recommends gcc "
                       "libc6-dev && rm -rf /var/lib/apt/lists/*")
    assert runs[1] == ("pip wheel --require-hashes --only-binary=:all: --wheel-dir /wheels "
                       "-r server.txt && pip wheel --no-deps --wheel-dir /wheels . "
                       "&& cp server.txt /wheels/")
    assert runs[-1] == ("pip install --no-index --find-links=/wheels --require-hashes "
                        "-r /wheels/server.txt && pip install --no-index "
                        "--find-links=/wheels --no-deps cribbage && rm -rf /wheels")


def test_the_image_builds_the_documentation_site_from_its_lock_and_serves_it():
    instructions = dockerfile_instructions()
    runs = [rest for keyword, rest in instructions if keyword == "RUN"]
    assert runs[2:4] == ["pip install --require-hashes -r docs.txt",
                         "python -m mkdocs build --strict --site-dir /site"]
    assert ("COPY", "--from=manual /site /app/site") in instructions
    assert "CRIBBAGE_DOCS_SITE=/app/site" in (ROOT / "Dockerfile").read_text()


def test_dockerignore_keeps_the_build_context_to_what_the_image_needs():
    lines = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()]
    assert "*" in lines
    assert {"!pyproject.toml", "!service/", "!deploy/gunicorn.conf.py"} <= set(lines)
