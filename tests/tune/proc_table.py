"""The process table as the no-orphan and lost-worker tests read it (Linux /proc),
and the counted polls they wait with."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

#: s, pause between two looks.
POLL_S = 0.02
#: Looks before giving up: generous (15,000 x 0.02 s, 5 minutes of an idle machine).
POLLS = 15000
#: The tests read /proc, which Linux has.
HAS_PROC = Path("/proc/self/stat").exists()


def stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state letter, start time in clock ticks) of ``pid``, None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], int(fields[19])


def title(pid: int) -> str:
    """The command line of ``pid`` as one string (Ray's workers set it to
    ``ray::TASK`` while they run a task); empty if gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()
    except OSError:
        return ""


def descendants(root: int) -> set[tuple[int, int]]:
    """(pid, start time) of every live process below ``root``."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := stat(int(entry.name))) is not None:
            table[int(entry.name)] = found
    below, frontier = set(), [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, state, start) in table.items():
            if ppid == parent and state != "Z":
                below.add((pid, start))
                frontier.append(pid)
    return below


def alive(process: tuple[int, int]) -> bool:
    """The same process (pid and start time) still runs (a zombie has ended)."""
    found = stat(process[0])
    return found is not None and found[2] == process[1] and found[1] != "Z"


def poll(condition: Callable[[], bool], polls: int = POLLS) -> bool:
    """Look up to ``polls`` times, :data:`POLL_S` apart, until ``condition()``."""
    for _ in range(polls):
        if condition():
            return True
        time.sleep(POLL_S)
    return condition()
