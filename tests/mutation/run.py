"""Apply each mutant of `mutants.py` to a copy of the tree and run its engine's scenario tests (`make mutate`).

    python -m tests.mutation.run               every mutant, two at a time
    python -m tests.mutation.run -j 1 dg-stun  only the mutants whose id starts with one of the prefixes
    python -m tests.mutation.run --list        the mutants, without running anything

The tree (tracked and untracked files, ignored ones left out) is copied once per worker into a temporary
folder, so the working tree is never changed, even by an interrupted run. The unmutated tests must pass
first. Then, for each mutant, its edits are applied to the copy (each `old` text must occur exactly once in
its file, else the mutant is *stale*: the code it breaks has changed and the mutant must be rewritten), the
engine's scenario tests run with `-x`, and the file is put back. A failing run kills the mutant; a run that
passes lets it survive. A mutant marked `equivalent` is expected to survive and is not counted in the ratio.

Exit status 0 only when every mutant that is not documented as equivalent was killed and none was stale.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

from .mutants import MUTANTS, TESTS, Mutant

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed, survived, stale, error
    seconds: float
    detail: str = ""


def tree_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                         capture_output=True).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def copy_tree(dest: Path, files: list[str]) -> None:
    for name in files:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)


def pytest_command(engine: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-x", "-q", "--no-header", "-p", "no:cacheprovider", *TESTS[engine]]


def run_tests(tree: Path, engine: str, timeout: float) -> tuple[int | None, str]:
    """(pytest's exit code, or None on a time-out; its output)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    try:
        done = subprocess.run(pytest_command(engine), cwd=tree, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, done.stdout + done.stderr


def first_failure(output: str) -> str:
    found = re.search(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)
    return found.group(1) if found else ""


def mutated(text: str, m: Mutant) -> str | None:
    """The file's text with the mutant's edits, or None if an edit's text does not occur exactly once."""
    for old, new in m.edits:
        if text.count(old) != 1:
            return None
        text = text.replace(old, new)
    return text


def try_mutant(tree: Path, m: Mutant, timeout: float) -> Outcome:
    start = time.monotonic()
    path = tree / m.path
    original = path.read_text(encoding="utf-8")
    text = mutated(original, m)
    if text is None:
        return Outcome(m, "stale", 0.0, "an edit's text no longer occurs exactly once")
    try:
        compile(text, str(path), "exec")
    except SyntaxError as exc:
        return Outcome(m, "error", 0.0, f"the mutant does not compile: {exc}")
    path.write_text(text, encoding="utf-8")
    try:
        code, output = run_tests(tree, m.engine, timeout)
    finally:
        path.write_text(original, encoding="utf-8")
    seconds = time.monotonic() - start
    if code is None:
        return Outcome(m, "killed", seconds, f"time-out after {timeout:.0f} s")
    if code == 0:
        return Outcome(m, "survived", seconds)
    if code == 1:
        return Outcome(m, "killed", seconds, first_failure(output))
    return Outcome(m, "error", seconds, f"pytest exit {code}: {output.strip().splitlines()[-1:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefixes", nargs="*", help="run only the mutants whose id starts with one of these")
    parser.add_argument("-j", "--jobs", type=int, default=int(os.environ.get("MUTATE_JOBS", "2")))
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.prefixes or any(m.id.startswith(p) for p in args.prefixes)]
    if args.list:
        for m in chosen:
            print(f"{m.id:32} {m.rule:10} {m.path}: {m.what}")
        return 0
    if not chosen:
        print("no mutant matches", file=sys.stderr)
        return 2
    started = time.monotonic()
    jobs = max(1, min(args.jobs, len(chosen)))
    files = tree_files()
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        trees: Queue[Path] = Queue()
        for i in range(jobs):
            tree = Path(tmp) / str(i)
            copy_tree(tree, files)
            trees.put(tree)
        # The unmutated tests must pass, and their time bounds each mutant's (a mutant may loop forever).
        tree = trees.get()
        timeout = 0.0
        for engine in sorted({m.engine for m in chosen}):
            t0 = time.monotonic()
            code, output = run_tests(tree, engine, 900)
            if code != 0:
                print(output[-3000:])
                print(f"The {engine} tests fail without any mutant: fix them first.", file=sys.stderr)
                return 2
            timeout = max(timeout, 10 * (time.monotonic() - t0) + 30)
        trees.put(tree)

        def work(m: Mutant) -> Outcome:
            tree = trees.get()
            try:
                outcome = try_mutant(tree, m, timeout)
            finally:
                trees.put(tree)
            mark = outcome.status + (" (equivalent)" if m.equivalent and outcome.status == "survived" else "")
            print(f"{mark:24} {m.id:32} {m.rule:10} {outcome.seconds:5.1f}s {outcome.detail}", flush=True)
            return outcome

        with ThreadPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(work, chosen))
    return report(outcomes, time.monotonic() - started)


def report(outcomes: list[Outcome], seconds: float) -> int:
    counted = [o for o in outcomes if not o.mutant.equivalent and o.status in ("killed", "survived")]
    killed = sum(o.status == "killed" for o in counted)
    survivors = [o for o in counted if o.status == "survived"]
    equivalent = [o for o in outcomes if o.mutant.equivalent]
    broken = [o for o in outcomes if o.status in ("stale", "error")]
    print()
    for o in survivors:
        print(f"SURVIVED   {o.mutant.id} ({o.mutant.rule}, {o.mutant.path}): {o.mutant.what}")
    for o in equivalent:
        note = "survived, as documented" if o.status == "survived" else f"{o.status}: no longer equivalent?"
        print(f"EQUIVALENT {o.mutant.id} ({note}): {o.mutant.equivalent}")
    for o in broken:
        print(f"{o.status.upper():10} {o.mutant.id} ({o.mutant.path}): {o.detail}")
    ratio = killed / len(counted) if counted else 1.0
    print(f"\nKill ratio: {killed}/{len(counted)} = {ratio:.1%} ({len(equivalent)} equivalent mutants not counted, "
          f"{len(broken)} stale or broken) in {seconds / 60:.1f} min")
    surprise = [o for o in equivalent if o.status != "survived"]
    return 0 if not survivors and not broken and not surprise else 1


if __name__ == "__main__":
    sys.exit(main())
