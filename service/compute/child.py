"""A compute process beside a web worker: `python -m service.compute.child`.

It reads jobs from its standard input and writes their outcomes to its standard output, one at
a time, until its web worker closes the pipe. Anything else that would be printed goes to
standard error, so that it cannot corrupt the pipe.
"""
from __future__ import annotations

import os
import sys

from service.bots import shelf
from service.config import Settings

from .framing import read_message, write_message
from .jobs import execute, warm_up, yield_the_cpu
from .shelves import shelf_for


def main() -> None:
    jobs = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    outcomes = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    yield_the_cpu(os.environ)
    shelf.use(shelf_for(Settings.from_env()))
    warm_up()
    while True:
        try:
            kind, args, time_limit = read_message(jobs)
        except EOFError:
            return
        write_message(outcomes, execute(kind, args, time_limit))


if __name__ == "__main__":
    main()
