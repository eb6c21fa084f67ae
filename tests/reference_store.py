"""TensorFlow's answers, stored in the repository so that tests compare with them without
TensorFlow (as in CI), and checked against a live TensorFlow where one is installed.

Every comparison with TensorFlow in these tests sends a request to a script run by TensorFlow's
interpreter: a list of named cases (JSON), the cases' input arrays keyed `"<case>/<key>"`, and
gets back result arrays keyed the same way (`python runner.py request.json arrays.npz
results.npz`). `answers(request, arrays, python, runner)` is the one door they all go through:

- TensorFlow installed (`tf_python()` finds it): the runner runs live, and the live answer must
  agree with the one stored for the case (a case not stored yet, or stored for other inputs or
  by another TensorFlow, fails the test, saying how to record it), so that nothing lands that
  CI cannot check.
- TensorFlow absent: each case's stored answer is returned, after checking that the case is the
  one that was recorded (the same request entry and inputs equal to 1e-6); a case with no stored
  answer, or changed since it was recorded, fails with the command that records it again.
- `WENGERT_TF_REFERENCES=record` (set by tests/references/regenerate.py): live, and the answers
  are written to the store.

The store holds one NumPy `.npz` file per test module, tests/references/<module>.npz, with
`<case>/in/<key>` (inputs), `<case>/out/<key>` (TensorFlow's results) and one JSON text
`__cases__` mapping each case to its request entry; the TensorFlow version that answered is kept
under `__tensorflow__`. Files load with `allow_pickle=False`: nothing in them is executed.
"""
import json
import os
import pathlib
import tempfile

import numpy as np

import tf_subprocess

STORE = pathlib.Path(__file__).parent / "references"
RECORD = "record"
REGENERATE = "python tests/references/regenerate.py"


class ReferenceError(AssertionError):
    """A stored reference is missing, stale, or disagrees with the live TensorFlow."""


def module_name():
    """The test module running now (from pytest's PYTEST_CURRENT_TEST), e.g. 'test_fft'."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    path = current.split("::", 1)[0]
    return pathlib.Path(path).stem if path else None


def answers(request, arrays, python, runner):
    """TensorFlow's results for `request` (a list of {"name": ...} dicts) with inputs `arrays`.

    python: TensorFlow's interpreter, None when TensorFlow is not installed. runner: the script
    that answers a request in that interpreter, or a function(python) that returns the answers."""
    module = module_name()
    names = [case["name"] for case in request]
    if any("/" in n for n in names):
        raise ReferenceError(f"{module}: a case name holds '/': {[n for n in names if '/' in n]}")
    if len(set(names)) != len(names):
        raise ReferenceError(f"{module}: case names repeat in one request: {sorted(names)}")
    mode = os.environ.get("WENGERT_TF_REFERENCES", "")
    if python is None:
        if mode == RECORD:
            raise ReferenceError("recording references needs TensorFlow (TF_PYTHON)")
        return _stored_answers(module, request, arrays)
    if mode == RECORD:
        results = _live(python, runner, request, arrays)
        if module is not None:
            _record(module, request, arrays, results)
        return results
    try:
        results = _live(python, runner, request, arrays)
        if module is not None:
            _agree_with_store(module, request, arrays, results)
    except (ReferenceError, RuntimeError):
        # TensorFlow's shared worker (tf_subprocess.py) ran it: ask a fresh process before
        # reporting, so that nothing an earlier script left there can fail this test
        with tf_subprocess.fresh():
            results = _live(python, runner, request, arrays)
        if module is not None:
            _agree_with_store(module, request, arrays, results)
    return results


def _live(python, runner, request, arrays):
    return runner(python) if callable(runner) else run_script(python, runner, request, arrays)


def run_script(python, runner, request, arrays):
    """Run `runner` under `python` on the request and arrays; its result arrays."""
    with tempfile.TemporaryDirectory() as tmp:
        req, arr, res = (os.path.join(tmp, n) for n in ("r.json", "a.npz", "o.npz"))
        with open(req, "w") as f:
            json.dump(request, f)
        np.savez(arr, **arrays)
        returncode, stderr = tf_subprocess.run(python, [runner, req, arr, res])
        if returncode != 0:
            raise RuntimeError(f"TensorFlow runner {runner} failed:\n{stderr[-3000:]}")
        with np.load(res, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}


def _path(module):
    return STORE / f"{module}.npz"


def _load(module):
    path = _path(module)
    if not path.exists():
        return {}, {}
    with np.load(path, allow_pickle=False) as data:
        stored = {k: data[k] for k in data.files}
    cases = json.loads(str(stored.pop("__cases__")))
    stored.pop("__tensorflow__", None)
    return cases, stored


def _split(case, stored, part):
    prefix = f"{case}/{part}/"
    return {f"{case}/{k[len(prefix):]}": v for k, v in stored.items() if k.startswith(prefix)}


def _of_case(case, arrays):
    prefix = f"{case}/"
    return {k: v for k, v in arrays.items() if k.startswith(prefix)}


def _fix(module, case, why):
    return ReferenceError(
        f"{module}: the stored TensorFlow answer for case {case!r} {why}. Record it again where "
        f"TensorFlow 2.21 is installed: {REGENERATE} tests/{module}.py")


def _stored_answers(module, request, arrays):
    cases, stored = _load(module)
    results = {}
    for entry in request:
        results.update(_recorded(module, cases, stored, entry, arrays))
    return results


def _recorded(module, cases, stored, entry, arrays):
    """The stored results of the request's case `entry`, after checking that the case is stored
    and was recorded for this request and these inputs."""
    name = entry["name"]
    if name not in cases:
        raise _fix(module, name, "is missing")
    if _normal(cases[name]) != _normal(entry):
        raise _fix(module, name, f"was recorded for another request ({cases[name]} vs "
                                 f"{_normal(entry)})")
    _same_inputs(module, name, _split(name, stored, "in"), _of_case(name, arrays))
    return _split(name, stored, "out")


def _normal(entry):
    return json.loads(json.dumps(entry, sort_keys=True))


def _same_inputs(module, name, recorded, given):
    if sorted(recorded) != sorted(given):
        raise _fix(module, name, f"has inputs {sorted(recorded)}, the test gives {sorted(given)}")
    for key, want in recorded.items():
        got = np.asarray(given[key])
        if got.shape != want.shape or got.dtype != want.dtype or not _close(got, want, 1e-6):
            raise _fix(module, name, f"was recorded for other inputs ({key})")


def _close(a, b, rtol):
    if a.dtype.kind in "fc":
        return np.allclose(a, b, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)
    return np.array_equal(a, b)


def _agree_with_store(module, request, arrays, results):
    cases, stored = _load(module)
    for entry in request:
        name = entry["name"]
        want = _recorded(module, cases, stored, entry, arrays)
        got = _of_case(name, results)
        if sorted(want) != sorted(got):
            raise _fix(module, name, f"has results {sorted(want)}, TensorFlow now gives "
                                     f"{sorted(got)}")
        for key, w in want.items():
            g = np.asarray(got[key])
            if g.shape != w.shape or g.dtype != w.dtype or not _close(g, w, 1e-5):
                raise _fix(module, name, f"disagrees with the live TensorFlow at {key}")


def _record(module, request, arrays, results):
    cases, stored = _load(module)
    for entry in request:
        name = entry["name"]
        if name in cases and _normal(cases[name]) != _normal(entry):
            raise ReferenceError(f"{module}: two requests name their case {name!r}; give each "
                                 f"case of a test module its own name")
        for key in [k for k in stored if k.startswith(f"{name}/")]:
            del stored[key]
        cases[name] = _normal(entry)
        for key, value in _of_case(name, arrays).items():
            stored[f"{name}/in/{key[len(name) + 1:]}"] = np.asarray(value)
        for key, value in _of_case(name, results).items():
            stored[f"{name}/out/{key[len(name) + 1:]}"] = np.asarray(value)
    STORE.mkdir(exist_ok=True)
    stored["__cases__"] = np.array(json.dumps(cases, sort_keys=True))
    stored["__tensorflow__"] = np.array(os.environ.get("WENGERT_TF_VERSION", "unknown"))
    np.savez_compressed(_path(module), **stored)
