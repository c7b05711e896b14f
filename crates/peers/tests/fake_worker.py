"""A peer worker that speaks the protocol (docs/peers.md) but misbehaves on purpose, for the
protocol tests: it serves `numpy-convolve` correctly, except for conv1d problems with n == 13,
where it does what argv[1] says at `run` (crash, hang, garbage) or at `download` (wrong-shape).
Every start appends a line to the file argv[2], so tests can count fresh workers."""
import json
import sys
import time

import numpy as np

MODE, STARTS = sys.argv[1], sys.argv[2]
with open(STARTS, "a") as f:
    f.write("start\n")

plans = {}


def reply(**fields):
    sys.stdout.write(json.dumps({"ok": True, **fields}) + "\n")
    sys.stdout.flush()


def refuse(kind, error):
    sys.stdout.write(json.dumps({"ok": False, "kind": kind, "error": error}) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    req = json.loads(line)
    op, pid = req["op"], req.get("id")
    if op == "hello":
        reply(protocol=1, python="fake", executable=sys.executable, numpy=np.__version__, cores=1,
              variants={"numpy-convolve": {"ready": True, "library": "numpy (fake worker)"}}, gpu=None,
              gpu_reason="fake worker")
    elif op == "plan":
        plans[pid] = {"problem": req["problem"], "y": None}
        reply(threads=1, details={"peer": "true", "call": "fake"})
    elif op == "upload":
        plans[pid]["x"] = np.load(req["inputs"]["signal"])
        plans[pid]["h"] = np.load(req["inputs"]["filter"])
        reply(transfer_ms=None)
    elif op == "run":
        plan = plans[pid]
        awkward = plan["problem"]["n"] == 13
        if awkward and MODE == "crash":
            sys.stderr.write("fake worker: boom\n")
            sys.stderr.flush()
            sys.exit(3)
        if awkward and MODE == "hang":
            time.sleep(3600)
        if awkward and MODE == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        start = time.perf_counter_ns()
        for _ in range(req["calls"]):
            plan["y"] = np.convolve(plan["x"], plan["h"])
        reply(ms=(time.perf_counter_ns() - start) / 1e6)
    elif op == "download":
        plan = plans[pid]
        y = plan["y"]
        if plan["problem"]["n"] == 13 and MODE == "wrong-shape":
            y = y[:-1]
        np.save(req["path"], y)
        reply(transfer_ms=None)
    elif op == "settle":
        reply(waited_ms=0.0)
    elif op == "free":
        plans.pop(pid, None)
        reply()
    else:
        refuse("input", f"unknown op {op}")
