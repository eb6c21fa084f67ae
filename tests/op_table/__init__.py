"""The op table: one row per public op, driving forward, gradient and coverage tests.

A row says how to call the op (`fn`, with tensors), what NumPy computes for the same inputs
(`ref`, with arrays), and sample inputs (`samples`: Sample(args, kwargs) with float64 arrays, ints,
or other plain values). tests/test_op_table.py then checks every row:
- forward against `ref` in float64 (and the dtype is kept in float32);
- the shape rule against the eager result;
- first- and second-order reverse-mode gradients against finite differences (float64);
and that every registered op type was exercised by some row.

Rows live in one module per op family (`*_rows.py`), each exporting ROWS.
"""
import dataclasses
import sys
import zlib
from typing import Any, Callable

import numpy as np

_STREAMS = {}


def _stream():
    """The random stream of the `*_rows.py` module asking (found up the call stack): one stream
    per module, seeded by its name, so rows added to one family never shift another family's
    samples."""
    frame = sys._getframe(1)
    while frame is not None and not frame.f_globals.get("__name__", "").endswith("_rows"):
        frame = frame.f_back
    name = frame.f_globals["__name__"].rsplit(".", 1)[-1] if frame is not None else ""
    if name not in _STREAMS:
        _STREAMS[name] = np.random.default_rng(zlib.crc32(name.encode()))
    return _STREAMS[name]


@dataclasses.dataclass
class Sample:
    args: tuple
    kwargs: dict = dataclasses.field(default_factory=dict)
    wrt: Any = None           # indices of args to differentiate (default: all float arrays)
    name: str = ""


@dataclasses.dataclass
class OpInfo:
    name: str
    fn: Callable
    ref: Callable
    samples: list
    grad: bool = True          # check first-order gradients
    grad2: bool = True         # check second-order gradients
    float32: bool = True       # also run in float32 and check the dtype is kept
    rtol: float = 1e-5
    atol: float = 1e-6
    fwd_rtol: float = 1e-7
    eps: float = 1e-6          # finite-difference step
    notes: str = ""

    def __repr__(self):
        return f"OpInfo({self.name})"


def rand(*shape, low=-2.0, high=2.0):
    """Random float64 array in [low, high)."""
    return np.asarray(_stream().uniform(low, high, size=shape))


def rand_away(*shape, low=-2.0, high=2.0, gap=0.1, points=(0.0,)):
    """Random float64 values at least `gap` away from each of `points` (e.g. kinks of relu)."""
    x = rand(*shape, low=low, high=high)
    for p in points:
        near = np.abs(x - p) < gap
        x = np.where(near, p + np.sign(x - p + 1e-12) * gap * 2, x)
    return x


def positive(*shape, low=0.5, high=2.0):
    return rand(*shape, low=low, high=high)


def ints(*shape, low=0, high=5):
    return _stream().integers(low, high, size=shape).astype(np.int32)


# Broadcasting shape pairs used by binary elementwise rows.
BROADCAST_PAIRS = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 4), (3, 1)), ((), (2, 3))]


def all_rows():
    """Every row of every `*_rows.py` module in this package, in module order."""
    import importlib
    import pkgutil
    rows = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.endswith("_rows"):
            rows.extend(importlib.import_module(f"{__name__}.{info.name}").ROWS)
    return rows
