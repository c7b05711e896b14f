"""The records of a run, for the scripts beside this file: a results folder (results.jsonl, or
results.jsonl.xz as committed under reports/) or one of those files. A path that is neither exits 2
with a message naming it, as the suite's bad input does."""
import json
import lzma
import os
import sys


def bad_input(script, message):
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(2)


def results_path(script, path):
    """The results file of `path`, a run's folder or the file itself."""
    if os.path.isdir(path):
        for name in ("results.jsonl", "results.jsonl.xz"):
            if os.path.exists(os.path.join(path, name)):
                return os.path.join(path, name)
        bad_input(script, f"no results.jsonl or results.jsonl.xz in {path}")
    if not os.path.isfile(path):
        bad_input(script, f"no results folder or file {path}")
    return path


def records(script, path):
    """Every record of the run at `path`, in file order."""
    path = results_path(script, path)
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)
