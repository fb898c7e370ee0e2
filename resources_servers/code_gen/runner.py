"""Runs one program against its unit tests inside code_gen's sandbox process, as NeMo Gym's
code_gen grades (LiveCodeBench's rules), and prints one JSON line: {"result": [...], "metadata": {...}}.

Reads {"nonce", "code", "inputs", "outputs", "fn_name", "timeout", "memory_bytes", "output_limit"} on
stdin; the result line starts with the nonce, so a line the program prints is not taken for it.
Before the program runs it sets resource limits and an audit hook that refuses processes, network,
native code and writes outside the working directory. The server around it adds the rest: its own
process group and namespaces, a wall-clock kill, an output cap, a temporary directory."""
import ast
import builtins
import io
import json
import os
import resource
import signal
import sys
import time
from decimal import Decimal, InvalidOperation
from types import ModuleType

PRELUDE = "\n".join(
    [f"from {m} import *" for m in "string re datetime collections heapq bisect copy math random statistics itertools functools operator io sys json builtins typing".split()]
    + [f"import {m}" for m in "string re datetime collections heapq bisect copy math random statistics itertools functools operator io sys json".split()]
    + ["sys.setrecursionlimit(50000)", ""]
)
# Imported here, before the hook is armed, so the prelude loads nothing new under it.
exec(PRELUDE, {})

WRONG, TIMEOUT, RUNTIME = -2, -3, -4
BLOCKED_EVENTS = ("os.fork", "os.forkpty", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "socket.", "ctypes.", "sys.remote_exec", "os.chdir", "os.chroot")
BLOCKED_IMPORTS = {"ctypes", "_ctypes", "_posixsubprocess", "subprocess", "multiprocessing", "_multiprocessing", "cffi", "mmap"}
PATH_EVENTS = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.symlink", "os.link", "os.truncate", "os.utime", "shutil.rmtree", "os.removexattr", "os.setxattr")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class TimeLimit(Exception):
    pass


class SandboxViolation(Exception):
    pass


class OutputLimit(Exception):
    pass


def on_alarm(signum, frame):
    raise TimeLimit("Time limit of the test exceeded")


def arm_sandbox(home, memory_bytes):
    for limit, value in ((resource.RLIMIT_AS, memory_bytes), (resource.RLIMIT_FSIZE, 16 << 20), (resource.RLIMIT_CORE, 0)):
        if value is not None:
            try:
                resource.setrlimit(limit, (value, value))
            except (ValueError, OSError):
                pass

    def inside(path):
        try:
            resolved = os.path.realpath(os.fsdecode(path) if not isinstance(path, int) else f"/proc/self/fd/{path}")
        except (TypeError, ValueError):
            return False
        return resolved == home or resolved.startswith(home + os.sep)

    def hook(event, args):
        if event.startswith(BLOCKED_EVENTS):
            raise SandboxViolation(f"blocked in the sandbox: {event}")
        if event == "import" and args[0].split(".")[0] in BLOCKED_IMPORTS:
            raise SandboxViolation(f"blocked in the sandbox: import {args[0]}")
        if event == "open" and len(args) >= 3:
            path, mode, flags = args[0], args[1], args[2]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & WRITE_FLAGS)
            if writing and not inside(path):
                raise SandboxViolation(f"blocked in the sandbox: writing {path!r} outside its directory")
        if event in PATH_EVENTS and args and not all(inside(a) for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))):
            raise SandboxViolation(f"blocked in the sandbox: {event} outside its directory")

    sys.addaudithook(hook)


def shorten(value, length=300):
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= length else text[: length // 2] + "...(truncated) ..." + text[-length // 2 :]


class CappedOutput(io.StringIO):
    """The program's stdout: a huge output stops the test instead of filling memory."""

    def __init__(self, limit):
        super().__init__()
        self.limit = limit

    def write(self, text):
        if self.tell() + len(text) > self.limit:
            raise OutputLimit(f"Output limit of {self.limit} characters exceeded")
        return super().write(text)


class FakeStdin(io.StringIO):
    """The test's input as stdin, as the original mocks it: `readline()` gives the next line without
    its newline (past the end it raises StopIteration), `readlines()` the lines, `.buffer` the bytes."""

    def __init__(self, text):
        super().__init__(text)
        self.buffer = io.BytesIO(text.encode())
        self._lines = iter(text.split("\n"))
        self._text = text

    def readline(self, *args):
        return next(self._lines)

    def readlines(self, *args):
        return self._text.split("\n")

    def read(self, *args):
        return self._text


def without_main_guard(code):
    """A trailing `if __name__ == '__main__':` block runs unconditionally."""
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, ast.If) and ast.unparse(last.test).strip() == "__name__ == '__main__'":
            return ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except Exception:
        pass
    return code


def as_function(code):
    """The script's statements as the body of `wrapped_function()`, its imports kept at module level."""
    try:
        tree = ast.parse(code)
        imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
        body = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
        function = ast.FunctionDef(name="wrapped_function", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=body, decorator_list=[], lineno=-1)
        return PRELUDE + "\n" + ast.unparse(imports) + "\n" + ast.unparse(function)
    except Exception:
        return code


def load(code, timeout):
    signal.alarm(timeout)
    try:
        module = ModuleType("tmp_sol", "")
        exec(code, module.__dict__)
        return module.Solution() if "class Solution" in code else module
    finally:
        signal.alarm(0)


def decimals(line):
    try:
        return [Decimal(part) for part in line.split()]
    except (InvalidOperation, ValueError):
        return None


def lines_of(text):
    return [line.strip() for line in text.strip().split("\n")]


def failure(results, code, message, case_input, expected, error=None, output=None):
    results.append(code)
    metadata = {"error_code": code, "error_message": message, "inputs": shorten(case_input), "expected": shorten(expected)}
    if output is not None:
        metadata["output"] = shorten(output)
    if error is not None:
        metadata["error"] = repr(error)
    return results, metadata


def error_result(results, error, case_input, expected):
    if isinstance(error, TimeLimit):
        return failure(results, TIMEOUT, "Time Limit Exceeded", case_input, expected, error)
    return failure(results, RUNTIME, "Runtime Error", case_input, expected, error)


def grade_stdio(code, inputs, outputs, timeout, output_limit):
    main = getattr(load(as_function(without_main_guard(code)), timeout), "wrapped_function")
    results, elapsed = [], 0.0
    for case_input, expected in zip(inputs, outputs):
        text = "\n".join(case_input) if isinstance(case_input, list) else case_input
        captured = CappedOutput(output_limit)
        real_stdin, real_stdout, real_open = sys.stdin, sys.stdout, builtins.open
        sys.stdin, sys.stdout = FakeStdin(text), captured
        builtins.open = lambda *args, **kwargs: io.StringIO(text)
        signal.alarm(timeout)
        try:
            start = time.time()
            try:
                main()
            except SystemExit:
                pass
            elapsed += time.time() - start
        except BaseException as error:
            signal.alarm(0)
            sys.stdin, sys.stdout, builtins.open = real_stdin, real_stdout, real_open
            return error_result(results, error, text, expected)
        finally:
            signal.alarm(0)
            sys.stdin, sys.stdout, builtins.open = real_stdin, real_stdout, real_open
        output = captured.getvalue()
        got, want = lines_of(output), lines_of(expected)
        if len(got) != len(want):
            return failure(results, WRONG, "Wrong answer: mismatched output length", text, expected, output=output)
        for index, (a, b) in enumerate(zip(got, want)):
            if a == b:
                continue
            da, db = decimals(a), decimals(b)
            if da is None or db is None or da != db:
                return failure(results, WRONG, f"Wrong answer at output_line_idx={index}: {shorten(a)} != {shorten(b)}", text, expected, output=output)
        results.append(True)
    return results, {"execution time": elapsed}


def close_floats(a, b):
    try:
        x, y = float(a), float(b)
    except Exception:
        return False
    return abs(x - y) <= 1e-8 + 1e-5 * abs(y)


def grade_call(code, inputs, outputs, fn_name, timeout):
    method = getattr(load(PRELUDE + "\n\n" + code, timeout), fn_name, None)
    if method is None:
        raise LookupError(f"no function named {fn_name!r}")
    arguments = [[json.loads(line) for line in case.split("\n")] for case in inputs]
    expected_values = [json.loads(output) for output in outputs]
    results, elapsed = [], 0.0
    for args, expected in zip(arguments, expected_values):
        signal.alarm(timeout)
        try:
            start = time.time()
            got = method(*args)
            elapsed += time.time() - start
            signal.alarm(0)
        except BaseException as error:
            signal.alarm(0)
            return error_result(results, error, args, expected)
        if isinstance(got, tuple):
            got = list(got)
        same = got == expected
        try:
            same = same or json.dumps(got) == json.dumps(expected)
        except Exception:
            pass
        same = same or close_floats(got, expected)
        results.append(same)
        if not same:
            return results, {"output": shorten(got), "inputs": shorten(args), "expected": shorten(expected), "error_code": WRONG, "error_message": "Wrong Answer"}
    return results, {"execution time": elapsed}


def main():
    job = json.loads(sys.stdin.read())
    nonce = job.pop("nonce")
    out = sys.stdout
    signal.signal(signal.SIGALRM, on_alarm)
    arm_sandbox(os.path.realpath(os.getcwd()), job["memory_bytes"])
    try:
        if job.get("fn_name") is None:
            results, metadata = grade_stdio(job["code"], job["inputs"], job["outputs"], job["timeout"], job["output_limit"])
        else:
            results, metadata = grade_call(job["code"], job["inputs"], job["outputs"], job["fn_name"], job["timeout"])
    except BaseException as error:
        results, metadata = [RUNTIME], {"error_code": RUNTIME, "error_message": f"Error during testing: {error}"}
    out.write("\n" + nonce + json.dumps({"result": results, "metadata": metadata}, default=repr) + "\n")
    out.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
