"""Jobs run where they are sent give what the domain gives, refusals included."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from service.bots.side_race import layout_position_value
from service.bots.win_probability import PositionError
from service.compute import jobs
from service.compute.jobs import JobTimedOut, execute
from service.config import SettingsError


def test_a_job_gives_the_domain_value_and_its_cost():
    outcome = execute("position_value", ((100, 90), 0, 2, None, 121, "standard"))
    assert outcome.result() == layout_position_value((100, 90), 0, 2, None, 121, "standard")
    assert outcome.refusal is None and not outcome.timed_out
    assert outcome.cpu_seconds > 0 and outcome.run_seconds > 0


def test_a_refusal_crosses_with_its_class_code_field_and_params():
    outcome = execute("position_value", ((121, 90), 0, 2, None, 121, "standard"))
    with pytest.raises(PositionError) as raised:
        outcome.result()
    assert raised.value.code == "game_already_won"
    assert raised.value.field == "scores"
    assert str(raised.value) == str(outcome.refusal.message)


def spin():
    while True:
        time.sleep(0.01)


def swallowing_spin():
    """A search that passes by every Exception it meets (as the table shelf does)."""
    while True:
        try:
            time.sleep(0.01)
        except Exception:  # noqa: BLE001
            pass


@pytest.mark.parametrize("kind", ["spin", "swallowing_spin"])
def test_a_job_past_its_time_limit_is_stopped(monkeypatch, kind):
    monkeypatch.setitem(jobs.KINDS, kind, f"tests.compute.test_jobs:{kind}")
    started = time.monotonic()
    outcome = execute(kind, (), time_limit=0.2)
    assert outcome.timed_out
    assert 0.2 <= time.monotonic() - started < 2
    with pytest.raises(JobTimedOut):
        outcome.result()


PRIORITY_OF = ("import os; from service.compute.jobs import yield_the_cpu; "
               "yield_the_cpu(os.environ); print(os.sched_getscheduler(0), os.nice(0))")


@pytest.mark.parametrize("setting, policy, niceness", [
    (None, os.SCHED_IDLE, 0), ("", os.SCHED_IDLE, 0), ("idle", os.SCHED_IDLE, 0),
    ("7", os.SCHED_OTHER, 7), ("19", os.SCHED_OTHER, 19)])
def test_a_compute_process_gives_web_workers_the_cpu(setting, policy, niceness):
    env = {name: value for name, value in os.environ.items() if name != "CRIBBAGE_COMPUTE_NICE"}
    if setting is not None:
        env["CRIBBAGE_COMPUTE_NICE"] = setting
    printed = subprocess.run([sys.executable, "-c", PRIORITY_OF], env=env, check=True,
                             capture_output=True, text=True).stdout.split()
    assert printed == [str(policy), str(niceness + os.nice(0))]


@pytest.mark.parametrize("setting", ["20", "-1", "low", "1.5"])
def test_a_priority_that_is_neither_idle_nor_a_niceness_is_refused(setting):
    with pytest.raises(SettingsError, match="CRIBBAGE_COMPUTE_NICE.*idle or a niceness"):
        jobs.yield_the_cpu({"CRIBBAGE_COMPUTE_NICE": setting})
