"""Writes deploy/grafana/cribbage.json, the service's Grafana dashboard, from Grafana's own typed
dashboard model (grafana-foundation-sdk, a test dependency): a field Grafana does not know
cannot be set here. tests/deploy/test_observability.py checks the file is what this makes.

    .venv/bin/python deploy/grafana/make_dashboard.py

Rows: traffic and errors; latency (requests that wait for a game timed apart); saturation
(requests in flight, clients waiting, store latency); games; compute (the jobs the compute
workers answer: queues, waits, run time and CPU by kind, refusals, timeouts). Every query names
only metrics the service exports (checked against a real /metrics by the same test).
"""
from __future__ import annotations

import json
from pathlib import Path

from grafana_foundation_sdk.builders.dashboard import (DatasourceVariable, Dashboard, Row,
                                                       QueryVariable)
from grafana_foundation_sdk.builders.prometheus import Dataquery
from grafana_foundation_sdk.builders.stat import Panel as Stat
from grafana_foundation_sdk.builders.timeseries import Panel as Timeseries
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models.dashboard import DataSourceRef

OUTPUT = Path(__file__).with_name("cribbage.json")
DATASOURCE = DataSourceRef(type_val="prometheus", uid="${datasource}")
SELECTOR = 'job="$job"'


def query(expr: str, legend: str) -> Dataquery:
    return Dataquery().expr(expr).legend_format(legend)


def timeseries(title: str, unit: str, description: str, *queries: Dataquery) -> Timeseries:
    panel = (Timeseries().title(title).description(description).unit(unit).datasource(DATASOURCE)
             .height(8).span(12))
    for letter, target in zip("ABCDEFGH", queries):
        panel = panel.with_target(target.ref_id(letter))
    return panel


def stat(title: str, target: Dataquery) -> Stat:
    return (Stat().title(title).datasource(DATASOURCE).height(8).span(6)
            .with_target(target.ref_id("A")))


def quantiles(metric: str) -> list[Dataquery]:
    return [query(f"histogram_quantile({q}, sum by (le) "
                  f"(rate({metric}_bucket{{{SELECTOR}}}[$__rate_interval])))", f"p{round(q * 100)}")
            for q in (0.5, 0.95, 0.99)]


def quantiles_by(metric: str, label: str, qs: tuple[float, ...]) -> list[Dataquery]:
    return [query(f"histogram_quantile({q}, sum by ({label}, le) "
                  f"(rate({metric}_bucket{{{SELECTOR}}}[$__rate_interval])))",
                  f"p{round(q * 100)} {{{{{label}}}}}")
            for q in qs]


def build() -> Dashboard:
    requests = f"cribbage_http_requests_total{{{SELECTOR}}}"
    return (
        Dashboard("Cribbage service")
        .uid("cribbage-service")
        .description("Traffic, errors, latency and saturation of the cribbage HTTP service")
        .tags(["cribbage"])
        .refresh("30s")
        .time("now-3h", "now")
        .with_variable(DatasourceVariable("datasource").label("Data source").type("prometheus"))
        .with_variable(QueryVariable("job").label("Job").datasource(DATASOURCE)
                       .query("label_values(cribbage_http_requests_total, job)"))
        .with_row(Row("Traffic and errors"))
        .with_panel(timeseries(
            "Requests by status", "reqps", "Requests answered per second, by HTTP status",
            query(f"sum by (status) (rate({requests}[$__rate_interval]))", "{{status}}")))
        .with_panel(timeseries(
            "Errors and refusals", "percentunit",
            "Share of requests answered 5xx, and refused by the rate limits (429)",
            query(f'sum(rate(cribbage_http_requests_total{{{SELECTOR},status=~"5.."}}'
                  f'[$__rate_interval])) / sum(rate({requests}[$__rate_interval]))', "5xx"),
            query(f'sum(rate(cribbage_http_requests_total{{{SELECTOR},status="429"}}'
                  f'[$__rate_interval])) / sum(rate({requests}[$__rate_interval]))',
                  "429 rate limited")))
        .with_row(Row("Latency"))
        .with_panel(timeseries(
            "Request latency", "s", "Requests that do not wait for a game to change",
            *quantiles("cribbage_http_request_duration_seconds")))
        .with_panel(timeseries(
            "Waiting request duration", "s",
            "Long polls with `wait` and the start of event streams, timed apart",
            *quantiles("cribbage_http_wait_duration_seconds")))
        .with_row(Row("Saturation"))
        .with_panel(timeseries(
            "In flight and waiting", "short",
            "Requests being answered now (waiting ones included), and clients waiting for a "
            "game to change (long polls and open streams), by instance",
            query(f"sum by (instance) (cribbage_http_requests_in_flight{{{SELECTOR}}})",
                  "in flight {{instance}}"),
            query(f"sum by (instance) (cribbage_waiting_clients{{{SELECTOR}}})",
                  "waiting {{instance}}")))
        .with_panel(timeseries(
            "Game store latency", "s", "Time each game store (Redis) operation takes",
            *quantiles("cribbage_store_operation_duration_seconds")))
        .with_panel(timeseries(
            "Game store errors", "reqps",
            "Requests answered 503 because the store was unreachable or full",
            query(f"sum(rate(cribbage_store_errors_total{{{SELECTOR}}}[$__rate_interval]))",
                  "unreachable"),
            query(f"sum(rate(cribbage_store_full_total{{{SELECTOR}}}[$__rate_interval]))",
                  "full")))
        .with_row(Row("Games"))
        .with_panel(stat("Games created (range)", query(
            f"sum(increase(cribbage_games_created_total{{{SELECTOR}}}[$__range]))", "created")))
        .with_panel(stat("Games finished (range)", query(
            f"sum(increase(cribbage_games_finished_total{{{SELECTOR}}}[$__range]))",
            "finished")))
        .with_row(Row("Compute"))
        .with_panel(timeseries(
            "Compute queue depth", "short",
            "Jobs queued or running, by priority: every API pod reports the same streams, so "
            "this is their max. The compute autoscaler scales on the sum",
            query(f"max by (priority) (cribbage_compute_queue_depth{{{SELECTOR}}})",
                  "{{priority}}")))
        .with_panel(timeseries(
            "Compute job wait", "s",
            "Time a job waited for a compute worker (queue and transport), by priority",
            *quantiles_by("cribbage_compute_job_wait_seconds", "priority", (0.5, 0.99))))
        .with_panel(timeseries(
            "Compute job run time (p99)", "s", "Time a job ran in its worker, by kind",
            *quantiles_by("cribbage_compute_job_run_seconds", "kind", (0.99,))))
        .with_panel(timeseries(
            "CPU per compute job", "s", "Mean CPU seconds one job took, by kind",
            query(f"sum by (kind) (rate(cribbage_compute_job_cpu_seconds_sum{{{SELECTOR}}}"
                  f"[$__rate_interval])) / sum by (kind) "
                  f"(rate(cribbage_compute_job_cpu_seconds_count{{{SELECTOR}}}"
                  f"[$__rate_interval]))", "{{kind}}")))
        .with_panel(timeseries(
            "Compute refusals", "ops",
            "Jobs refused or unanswered per second, by reason and priority: queue_full (503), "
            "cpu_budget (a client over its analysis budget, 429), no_answer (no worker answered "
            "in time: 503, or a move left to the sweeper)",
            query(f"sum by (reason, priority) "
                  f"(rate(cribbage_compute_refusals_total{{{SELECTOR}}}[$__rate_interval]))",
                  "{{reason}} {{priority}}")))
        .with_panel(timeseries(
            "Compute jobs timed out", "ops",
            "Jobs stopped at their time limit (CRIBBAGE_COMPUTE_TIME_LIMIT) per second, by kind",
            query(f'sum by (kind) (rate(cribbage_compute_jobs_total{{{SELECTOR},'
                  f'outcome="timed_out"}}[$__rate_interval]))', "{{kind}}")))
    )


def dashboard_json() -> str:
    dashboard = build().build()
    for number, panel in enumerate(dashboard.panels or [], start=1):
        panel.id_val = number
    return json.dumps(dashboard, cls=JSONEncoder, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    OUTPUT.write_text(dashboard_json())
