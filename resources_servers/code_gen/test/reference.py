"""Our reference of the original code_gen's grading, written independently of runner.py: each test
runs the program as a real `python3` script (with LiveCodeBench's import prelude) fed the test's
stdin, or calls the named function in a fresh interpreter, with no sandbox. Reads
{"timeout": s, "cases": [{"text", "unit_tests", "violation"}]} as its argument; prints [{"reward", "result"}]."""
import json
import subprocess
import sys
from decimal import Decimal

MODULES = "string re datetime collections heapq bisect copy math random statistics itertools functools operator io sys json".split()
PRELUDE = "".join(f"from {m} import *\n" for m in MODULES + ["builtins", "typing"]) + "".join(f"import {m}\n" for m in MODULES) + "sys.setrecursionlimit(50000)\n"
CALL = """
import json, sys
namespace = {}
exec(compile(sys.argv[1], "solution", "exec"), namespace)
target = namespace["Solution"]() if "class Solution" in sys.argv[1] else None
function = getattr(target, sys.argv[2]) if target is not None else namespace[sys.argv[2]]
value = function(*[json.loads(line) for line in sys.argv[3].split("\\n")])
print(json.dumps(list(value) if isinstance(value, tuple) else value))
"""


def last_fenced_block(text):
    lines = text.split("\n")
    fences = [i for i, line in enumerate(lines) if "```" in line]
    return "\n".join(lines[fences[-2] + 1 : fences[-1]]) if len(fences) >= 2 else ""


def same_line(a, b):
    if a == b:
        return True
    try:
        return [Decimal(x) for x in a.split()] == [Decimal(y) for y in b.split()]
    except Exception:
        return False


def run(args, stdin, timeout):
    # The original's limit does not count an interpreter's start-up; ours does, so allow for it.
    try:
        done = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, timeout=timeout + 2)
    except subprocess.TimeoutExpired:
        return -3, None
    return (-4, None) if done.returncode != 0 else (None, done.stdout)


def grade_stdio(code, tests, timeout):
    results = []
    for given, wanted in zip(tests["inputs"], tests["outputs"]):
        failed, out = run(["-c", PRELUDE + code], given, timeout)
        if failed is not None:
            return results + [failed]
        got, want = [l.strip() for l in out.strip().split("\n")], [l.strip() for l in wanted.strip().split("\n")]
        if len(got) != len(want) or not all(same_line(a, b) for a, b in zip(got, want)):
            return results + [-2]
        results.append(True)
    return results


def grade_call(code, tests, timeout):
    results = []
    for given, wanted in zip(tests["inputs"], tests["outputs"]):
        failed, out = run(["-c", CALL, PRELUDE + code, tests["fn_name"], given], None, timeout)
        if failed is not None:
            return results + [failed]
        got, want = json.loads(out), json.loads(wanted)
        same = got == want or json.dumps(got) == json.dumps(want)
        try:
            same = same or abs(float(got) - float(want)) <= 1e-8 + 1e-5 * abs(float(want))
        except Exception:
            pass
        results.append(same)
        if not same:
            return results
    return results


def grade(case, timeout, penalty=0.0):
    text = case["text"]
    if not text.strip():
        return {"reward": 0.0, "result": None}
    code = last_fenced_block(text)
    if not code:
        return {"reward": 0.0, "result": None}
    tests = case["unit_tests"]
    result = grade_call(code, tests, timeout) if tests.get("fn_name") else grade_stdio(code, tests, timeout)
    if case["violation"]:
        return {"reward": penalty, "result": result}
    return {"reward": 1.0 if all(r is True for r in result) else 0.0, "result": result}


request = json.loads(sys.argv[1])
json.dump([grade(c, request["timeout"]) for c in request["cases"]], sys.stdout)
