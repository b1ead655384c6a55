"""The dashboard, the alert rules and the ServiceMonitor hold together with what the service
exports: Grafana's own model reads the dashboard whole, promtool checks and unit-tests the rules,
every query parses and names only metrics a real /metrics serves."""

import json
import pathlib
import re
import runpy
import subprocess

import pytest
import yaml
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models.dashboard import Dashboard
from prometheus_client.parser import text_string_to_metric_families

from service.api import create_app
from service.config import Settings

ROOT = pathlib.Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "cribbage.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yaml"
ALERT_TESTS = ROOT / "deploy" / "prometheus" / "alerts_test.yaml"
SERVICE_MONITOR = ROOT / "deploy" / "k8s" / "monitoring" / "servicemonitor.yaml"
ADAPTER = ROOT / "deploy" / "prometheus" / "prometheus-adapter.yaml"
COMPUTE_HPA = ROOT / "deploy" / "k8s" / "compute-hpa.yaml"
METRIC = re.compile(r"\bcribbage_[a-z_]+")
HISTOGRAM_SERIES = re.compile(r"_(bucket|sum|count)$")


def dashboard_queries() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel.get("targets", [])]


def alert_queries() -> list[str]:
    return [rule["expr"] for group in yaml.safe_load(ALERTS.read_text())["groups"]
            for rule in group["rules"]]


def promtool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["promtool", *args], capture_output=True, text=True, cwd=ALERTS.parent)


def test_the_dashboard_is_what_its_script_makes():
    make = runpy.run_path(str(ROOT / "deploy" / "grafana" / "make_dashboard.py"))
    assert DASHBOARD.read_text() == make["dashboard_json"]()


def test_grafanas_dashboard_model_reads_every_field_of_the_dashboard():
    data = json.loads(DASHBOARD.read_text())
    read = Dashboard.from_json(data)
    assert json.loads(json.dumps(read, cls=JSONEncoder)) == data  # it drops what it does not know
    ids = [panel["id"] for panel in data["panels"]]
    assert ids == list(range(1, len(ids) + 1))
    for panel in data["panels"]:
        refs = [target["refId"] for target in panel.get("targets", [])]
        assert len(set(refs)) == len(refs) and "" not in refs, panel["title"]


def test_the_alert_rules_pass_promtool_check_and_their_unit_tests():
    checked = promtool("check", "rules", ALERTS.name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS: 12 rules found" in checked.stdout
    tested = promtool("test", "rules", ALERT_TESTS.name)
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_every_dashboard_query_is_valid_promql(tmp_path):
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:query_{number}",
         "expr": expr.replace("$__rate_interval", "5m").replace("$__range", "1h")
                     .replace("$job", "cribbage")}
        for number, expr in enumerate(dashboard_queries())]}]}
    path = tmp_path / "dashboard_rules.yaml"
    path.write_text(yaml.safe_dump(rules))
    checked = promtool("check", "rules", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture(scope="module")
def exported_metrics() -> set[str]:
    """The metric families a real app serves at /metrics after a game and a long poll."""
    app = create_app({"SETTINGS": Settings.from_env({})})
    client = app.test_client()
    created = client.post("/v1/games", json={"seats": [
        {"kind": "human"}, {"kind": "computer", "level": "easy"}]}).get_json()
    client.get(f"/v1/games/{created['game_id']}/events?after=0&wait=1",
               headers={"Authorization": f"Bearer {created['token']}"})
    text = client.get("/metrics").get_data(as_text=True)
    return {family.name + ("_total" if family.type == "counter" else "")
            for family in text_string_to_metric_families(text)
            if family.name.startswith("cribbage_")}


@pytest.mark.parametrize("source", ["dashboard", "alerts"])
def test_every_metric_queried_is_one_the_service_exports(source, exported_metrics):
    queries = dashboard_queries() if source == "dashboard" else alert_queries()
    named = {HISTOGRAM_SERIES.sub("", name) for expr in queries for name in METRIC.findall(expr)}
    assert named and named <= exported_metrics, named - exported_metrics


def test_the_service_monitor_scrapes_the_service_with_the_metrics_token():
    monitor = yaml.safe_load(SERVICE_MONITOR.read_text())
    k8s = ROOT / "deploy" / "k8s"
    service = yaml.safe_load((k8s / "service.yaml").read_text())
    secrets = [doc for doc in yaml.safe_load_all((k8s / "secret.yaml").read_text()) if doc]
    assert monitor["spec"]["selector"]["matchLabels"] == service["metadata"]["labels"]
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] in [port["name"] for port in service["spec"]["ports"]]
    assert endpoint["path"] == "/metrics"
    credentials = endpoint["authorization"]["credentials"]
    (secret,) = [doc for doc in secrets if doc["metadata"]["name"] == credentials["name"]]
    assert credentials["key"] in secret["stringData"]
    # the job label the alerts and the dashboard select: the value of app.kubernetes.io/name
    assert service["metadata"]["labels"][monitor["spec"]["jobLabel"]] == "cribbage"
    assert 'job="cribbage"' in ALERTS.read_text()


def adapter_query(namespace: str) -> tuple[str, str]:
    """The compute autoscaler's External metric, and the PromQL prometheus-adapter makes of its
    rule for the HPA's selector in `namespace`."""
    (rule,) = yaml.safe_load(ADAPTER.read_text())["externalRules"]
    (metric,) = yaml.safe_load(COMPUTE_HPA.read_text())["spec"]["metrics"]
    name = metric["external"]["metric"]["name"]
    assert rule["name"]["as"] == name
    assert METRIC.findall(rule["seriesQuery"]) == [name]
    selector = metric["external"]["metric"]["selector"]["matchLabels"]
    matchers = ",".join([f'{label}="{value}"' for label, value in selector.items()]
                        + [f'namespace="{namespace}"'])
    return name, (rule["metricsQuery"].replace("<<.Series>>", name)
                  .replace("<<.LabelMatchers>>", matchers))


def test_the_adapter_serves_the_compute_autoscalers_metric_from_one_the_service_exports(
        exported_metrics):
    name, _ = adapter_query("cribbage")
    assert name in exported_metrics


def test_the_adapters_query_adds_the_priorities_each_seen_once_however_many_pods(tmp_path):
    """Every API pod reports the same stream lengths: the metric is their max per priority,
    added up, in the HPA's namespace only."""
    _, expr = adapter_query("cribbage")
    series = [("cribbage", pod, priority, depth)
              for pod in ("pod-a:8000", "pod-b:8000")
              for priority, depth in (("move", 7), ("analysis", 3), ("background", 1))]
    series.append(("staging", "pod-c:8000", "move", 100))
    tests = {"rule_files": [], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": [
            {"series": f'cribbage_compute_queue_depth{{job="cribbage",namespace="{namespace}",'
                       f'instance="{pod}",priority="{priority}"}}',
             "values": f"{depth}x5"}
            for namespace, pod, priority, depth in series],
        "promql_expr_test": [{"expr": expr, "eval_time": "2m",
                              "exp_samples": [{"labels": "{}", "value": 11}]}]}]}
    path = tmp_path / "adapter_test.yaml"
    path.write_text(yaml.safe_dump(tests))
    tested = promtool("test", "rules", str(path))
    assert tested.returncode == 0, tested.stdout + tested.stderr
