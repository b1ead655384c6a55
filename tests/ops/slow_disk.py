"""A slow disk for redis-server: tests/ops/slow_fsync.c, built with the system's C compiler and
loaded with LD_PRELOAD, makes every fsync and fdatasync wait the given milliseconds first."""

from __future__ import annotations

import atexit
import functools
import pathlib
import shutil
import subprocess
import tempfile

SOURCE = pathlib.Path(__file__).with_name("slow_fsync.c")


@functools.cache
def library() -> pathlib.Path:
    """The shared library, built once per process."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler (cc or gcc) to build tests/ops/slow_fsync.c; "
                           "install one with `apt-get install -y gcc`")
    directory = tempfile.mkdtemp(prefix="slow-fsync-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    built = pathlib.Path(directory) / "slow_fsync.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(SOURCE), "-ldl"],
                   check=True, capture_output=True)
    return built


def slow_fsync_env(milliseconds: int) -> dict[str, str]:
    """The environment that gives a process a disk whose fsync takes `milliseconds` longer."""
    return {"LD_PRELOAD": str(library()), "SLOW_FSYNC_MS": str(milliseconds)}
