"""The benchmark's own processes (its servers, py-spy) and what it reads of any process: CPU
time and resident memory, from /proc."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import subprocess
from pathlib import Path
from typing import IO

from _venv import ROOT

NOFILE = 16384  # bench/tables: 10 000 sockets on each side of loopback, plus files and slack


def raise_nofile(limit: int = NOFILE) -> None:
    """Lifts the soft file-descriptor limit (as far as the hard one allows): each socket
    is a descriptor on both sides of loopback."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def _child_setup() -> None:
    """In a server child, before it runs: the same descriptor limit, and death with its
    parent (PR_SET_PDEATHSIG), so even a killed benchmark leaves no server behind. SIGKILL,
    not SIGTERM: a daphne told to stop mid-request can hang at exit (a view thread waiting
    on its stopped event loop), and with its parent gone nobody would kill it after."""
    raise_nofile()
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except OSError:
        pass  # not Linux: the parent's finally still stops it


def spawn(argv: list[str], *, env: dict[str, str] | None = None, out: int | IO[bytes] | None = None) -> subprocess.Popen[bytes]:
    """A server child of this benchmark (see ``_child_setup``)."""
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                            preexec_fn=_child_setup)  # noqa: PLW1509 (setrlimit and prctl only)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Asks the process to end (SIGTERM), and kills it if it has not within ten seconds."""
    for end in (proc.terminate, proc.kill):
        if proc.poll() is not None:
            return
        end()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            continue


def rss_kb(pid: int) -> int:
    """Resident memory of a process, from /proc (kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_s(pid: int) -> float:
    """User plus system CPU time a process has used (s)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
