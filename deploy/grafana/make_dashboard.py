"""Writes deploy/grafana/cribbage.json, the service's Grafana dashboard, from Grafana's own typed
dashboard model (grafana-foundation-sdk, a test dependency): a field Grafana does not know
cannot be set here. tests/deploy/test_observability.py checks the file is what this makes.

    .venv/bin/python deploy/grafana/make_dashboard.py

Rows: traffic and errors; latency (requests that wait for a game timed apart); saturation
(requests in flight, clients waiting, store latency); games. Every query names only metrics
the service exports (checked against a real /metrics by the same test).
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
    )


def dashboard_json() -> str:
    dashboard = build().build()
    for number, panel in enumerate(dashboard.panels or [], start=1):
        panel.id_val = number
    return json.dumps(dashboard, cls=JSONEncoder, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    OUTPUT.write_text(dashboard_json())
