"""`Collectives`: the communicator with the checks that keep a job from hanging or going wrong.

Every collective that wengert issues across processes goes through here. Before its data moves,
each rank contributes a small header to one integer allreduce (a sum, always issued as a
nonblocking MPI_Iallreduce and waited on: MPI never matches a blocking collective with a
nonblocking one):

    [active, op, op^2, key, key^2, size, size^2, absent]

`active` is 1 on a rank still working and 0 on a rank that called `join()`; `op` names the
collective (allreduce, broadcast, gather, grouped gradient allreduce, barrier, agreement...),
`key` its dtype and reduction (or the gradient plan's number), `size` its element count, and
`absent` how many gradients this rank lacks. Sums of values and of their squares tell every rank
at once whether all active ranks called the same collective with the same size: for A values
(sum s, sum of squares q) all are equal exactly when s^2 = A q (Cauchy-Schwarz; computed modulo
2^64, where equal values still satisfy it). A mismatch raises `ReplicaMismatchError` on every
rank, naming what each rank called, instead of letting MPI mix unrelated buffers or wait forever.

A gradient step does not wait for its header before its data moves: its buckets travel on a
channel of their own (`channel()`: a duplicate communicator, one per gradient plan, made by every
rank at the same point), started right after the header and finished after it, so the step costs
one round trip instead of two. The data of one plan always has the same buffers, so it can only
meet its own kind on its channel; when the header reveals that the ranks disagree, every rank
raises before it uses the data, and the plan refuses further steps (its started sums will never
finish: the job must be restarted).

The header also carries `join()`: a rank that has run out of data calls it and then answers the
others' collectives until all ranks have joined, contributing zeros to sums (identity values to
max/min/prod), no rows to gathers, and a received copy to broadcasts; averages divide by the
number of active ranks. `join()` returns the rank that joined last, as Horovod's does.

`agree(entries, what)` checks that every rank holds the same list (variable names, shapes and
dtypes): one allgather of 16-byte digests, and only when they differ a second allgather of the
lists themselves (JSON bytes), so that every rank raises the same error naming the first rank and
entry that differ, within one round trip instead of a hang.

A job of one process skips all of this: its collectives are copies.
"""
import hashlib
import json

import numpy as np

from ..framework.errors import InvalidArgumentError
from .watchdog import Watchdog

__all__ = ["Collectives", "ReplicaMismatchError", "OPS"]

OPS = {"allreduce": 1, "broadcast": 2, "allgather": 3, "barrier": 4, "gradients": 5,
       "agree": 6, "join": 7, "channel": 8}
_OP_NAMES = {v: k for k, v in OPS.items()}
_REDUCE = {"sum": 0, "max": 1, "min": 2, "prod": 3}
_REDUCE_NAMES = {v: k for k, v in _REDUCE.items()}
_DTYPES = [np.dtype(t) for t in ("float32", "float64", "float16", "int32", "int64", "int8",
                                 "int16", "uint8", "uint16", "uint32", "uint64", "bool")]
_DTYPE_CODES = {d: i + 1 for i, d in enumerate(_DTYPES)}
_HEADER = 8
_WRAP = 1 << 64


class ReplicaMismatchError(InvalidArgumentError):
    """The ranks of a job disagree: different variables, or different collectives at one point
    of the program. Raised on every rank, naming the rank and what differs."""


def dtype_code(dtype):
    try:
        return _DTYPE_CODES[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"wengert.distribute cannot communicate dtype {np.dtype(dtype)}; use "
                        f"one of {[d.name for d in _DTYPES]}.") from None


def _identity(dtype, op):
    """The value a joined rank contributes to a reduction: it leaves the result unchanged."""
    dtype = np.dtype(dtype)
    if op == "sum":
        return 0
    if op == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if op == "max" else np.inf
    if dtype.kind == "b":
        return op == "min"
    info = np.iinfo(dtype)
    return info.min if op == "max" else info.max


class Header:
    """The summed header of one collective (see the module docstring)."""

    __slots__ = ("active", "op", "key", "size", "absent", "consistent")

    def __init__(self, sums):
        sums = [int(x) for x in np.asarray(sums).tolist()]
        self.active = a = sums[0]
        self.consistent = all((sums[i] * sums[i] - a * sums[i + 1]) % _WRAP == 0
                              for i in (1, 3, 5))
        n = max(a, 1)
        self.op, self.key, self.size = sums[1] // n, sums[3] // n, sums[5] // n
        self.absent = sums[7]


class _Posted:
    """A header on its way: the started allreduce and what this rank sent."""

    __slots__ = ("request", "mine", "what")

    def __init__(self, request, mine, what):
        self.request, self.mine, self.what = request, mine, what


class Collectives:
    """The checked collectives of one job over a Communicator (see the module docstring)."""

    def __init__(self, comm):
        self.comm = comm
        self.rank, self.size = comm.rank, comm.size
        self.local_rank, self.local_size = comm.local_rank, comm.local_size
        self.watchdog = Watchdog(comm)
        self.joined = False
        self.plans = []          # gradient plans by number (gradient_sync.py), equal on all ranks
        self.channels = []       # communicators of their own (gradient plans' data)
        self._header = np.zeros(_HEADER, np.int64)
        self._sums = np.zeros(_HEADER, np.int64)

    # -- the header ---------------------------------------------------------------------------
    def _raw(self, description, fn, *args):
        with self.watchdog.watch(description):
            return fn(*args)

    def header(self, op, key=0, size=0, absent=0, what=""):
        """Sum this rank's header with the others'; raises if the active ranks disagree."""
        return self.finish_header(self.post_header(op, key, size, absent, what))

    def post_header(self, op, key=0, size=0, absent=0, what=""):
        """Start the header's allreduce (collectives on other channels may start before it is
        finished: a gradient plan's data does)."""
        active = 0 if self.joined else 1
        size_squared = size * size * active % _WRAP
        self._header[:] = (active, op * active, op * op * active, key * active,
                           key * key * active, size * active,
                           size_squared - _WRAP if size_squared >> 63 else size_squared,
                           absent * active)
        request = self.comm.iallreduce(self._header, self._sums)
        return _Posted(request, (op, key, size, active), what or _OP_NAMES.get(op, op))

    def finish_header(self, posted):
        """The summed header of a posted one; raises if the active ranks disagree."""
        with self.watchdog.watch(f"the header of {posted.what}"):
            posted.request.wait()
        header = Header(self._sums)
        if not header.consistent:
            self._explain_mismatch(*posted.mine, posted.what)
        return header

    def _explain_mismatch(self, op, key, size, active, what):
        mine = np.array([[active, op, key, size]], np.int64)
        every = self._raw("the mismatch report", self.comm.allgather, mine)
        lines = []
        for rank, (act, r_op, r_key, r_size) in enumerate(every):
            if not act:
                lines.append(f"rank {rank}: joined")
                continue
            lines.append(f"rank {rank}: {_OP_NAMES.get(int(r_op), r_op)} of {int(r_size)} "
                         f"elements ({_describe_key(int(r_op), int(r_key))})")
        raise ReplicaMismatchError(
            "The ranks called different collectives at the same point of the program (this "
            f"rank: {what or _OP_NAMES.get(op, op)}): " + "; ".join(lines) + ". Every rank must "
            "issue the same collectives in the same order with the same shapes: check for "
            "rank-dependent branches, different batch shapes, or different models.")

    # -- collectives over arrays ----------------------------------------------------------------
    def allreduce(self, array, op="sum", average=False, what="allreduce"):
        """A new array: the reduction of `array` over the active ranks (their mean if
        `average`, which needs op="sum")."""
        array = np.require(array, requirements="C")  # keeps a scalar's shape ()
        if self.size == 1:
            return np.array(array, copy=True)
        header = self.header(OPS["allreduce"], dtype_code(array.dtype) * 4 + _REDUCE[op],
                             array.size, what=what)
        out = self._allreduce_body(array, op, what)
        if average:
            if out.dtype.kind != "f":
                out //= header.active
            else:
                out *= out.dtype.type(1.0 / header.active)
        return out

    def _allreduce_body(self, array, op, what):
        out = np.empty_like(array)
        self._raw(what, self.comm.allreduce, array, out, op)
        return out

    def broadcast(self, array, root=0, what="broadcast"):
        """A new array: root's `array` on every rank (shapes and dtypes must agree)."""
        array = np.array(array, copy=True, order="C")
        if self.size == 1:
            return array
        self.header(OPS["broadcast"], dtype_code(array.dtype) * 4096 + int(root), array.size,
                    what=what)
        self._raw(what, self.comm.broadcast, array, int(root))
        return array

    def allgather(self, array, what="allgather"):
        """The ranks' arrays stacked along axis 0 in rank order (first dimensions may differ)."""
        array = np.ascontiguousarray(array)
        if array.ndim == 0:
            array = array.reshape(1)
        if self.size == 1:
            return np.array(array, copy=True)
        row = int(np.prod(array.shape[1:], dtype=np.int64))
        self.header(OPS["allgather"], dtype_code(array.dtype), row, what=what)
        return self._raw(what, self.comm.allgather, array)

    def barrier(self):
        if self.size > 1:
            self.header(OPS["barrier"], what="barrier")
            self._raw("barrier", self.comm.barrier)

    def broadcast_bytes(self, payload, root=0, what="broadcast of an object"):
        """Root's bytes on every rank (the others pass anything, e.g. None)."""
        if self.size == 1:
            return bytes(payload)
        length = np.array([len(payload) if self.rank == root else 0], np.int64)
        length = self.broadcast(length, root, what=f"{what} (its length)")
        buffer = (np.frombuffer(payload, np.uint8).copy() if self.rank == root
                  else np.zeros(int(length[0]), np.uint8))
        return self.broadcast(buffer, root, what=what).tobytes()

    def channel(self):
        """A communicator of its own over the same ranks (Comm_dup), made by every rank at
        the same point: collectives issued on it never match those of another channel."""
        if self.size > 1:
            self.header(OPS["channel"], len(self.channels), what="the creation of a channel")
        self.channels.append(self.comm.dup())
        return self.channels[-1]

    # -- agreement ------------------------------------------------------------------------------
    def agree(self, entries, what, noun="variable"):
        """Check that every active rank holds the same list of strings `entries` (see the module
        docstring); raises ReplicaMismatchError on every rank naming the difference."""
        if self.size == 1:
            return
        self.header(OPS["agree"], what=f"the check of {what}")
        self._agree_body(list(entries), what, noun)

    def _agree_body(self, entries, what, noun):
        """entries None: a joined rank taking part without a list of its own."""
        payload = json.dumps(entries).encode()
        mine = np.zeros((1, 17), np.uint8)
        if entries is not None:
            mine[0, 0] = 1
            mine[0, 1:] = np.frombuffer(hashlib.sha256(payload).digest()[:16], np.uint8)
        every = self._raw(f"the check of {what}", self.comm.allgather, mine)
        active = [r for r in range(self.size) if every[r, 0]]
        if all((every[r] == every[active[0]]).all() for r in active):
            return
        sent = np.frombuffer(payload, np.uint8).copy()
        data = self._raw(f"the report on {what}", self.comm.allgather, sent)
        lengths = self._raw(f"the report on {what}", self.comm.allgather,
                            np.array([sent.size], np.int64))
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        lists = {r: json.loads(data[offsets[r]:offsets[r + 1]].tobytes()) for r in active}
        raise ReplicaMismatchError(_difference(lists, active, what, noun))

    # -- join -----------------------------------------------------------------------------------
    def join(self):
        """Answer the active ranks' collectives until every rank has joined (see the module
        docstring); returns the rank that joined last."""
        if self.size == 1:
            return 0
        self.joined = True
        joined_at = self.watchdog.sequence
        try:
            while True:
                header = self.header(OPS["join"], what="join")
                if header.active == 0:
                    break
                self._serve(header)
        finally:
            self.joined = False
        last = np.array([joined_at * self.size + self.rank], np.int64)
        self._raw("join", self.comm.allreduce, last, None, "max")
        return int(last[0] % self.size)

    def _serve(self, header):
        """Take part, with neutral data, in the collective the active ranks announced."""
        op, key, size = header.op, header.key, header.size
        if op == OPS["allreduce"]:
            dtype, reduce = _DTYPES[key // 4 - 1], _REDUCE_NAMES[key % 4]
            self._allreduce_body(np.full(size, _identity(dtype, reduce), dtype), reduce,
                                 "allreduce (joined)")
        elif op == OPS["broadcast"]:
            self._raw("broadcast (joined)", self.comm.broadcast,
                      np.empty(size, _DTYPES[key // 4096 - 1]), key % 4096)
        elif op == OPS["allgather"]:
            self._raw("allgather (joined)", self.comm.allgather,
                      np.empty((0, size), _DTYPES[key - 1]))
        elif op == OPS["barrier"]:
            self._raw("barrier (joined)", self.comm.barrier)
        elif op == OPS["agree"]:
            self._agree_body(None, "the variables (joined)", "variable")
        elif op == OPS["channel"]:
            self.channels.append(self.comm.dup())
        elif op == OPS["gradients"]:
            if key >= len(self.plans):
                raise ReplicaMismatchError(
                    f"join: rank {self.rank} joined before the first step of gradient plan "
                    f"{key}, so it cannot take part in it; call join() only after every rank "
                    "has run at least one training step.")
            self.plans[key].serve_joined(self, header)


def _describe_key(op, key):
    if op == OPS["allreduce"]:
        return f"{_DTYPES[key // 4 - 1].name}, {_REDUCE_NAMES[key % 4]}"
    if op == OPS["broadcast"]:
        return f"{_DTYPES[key // 4096 - 1].name}, root {key % 4096}"
    if op == OPS["allgather"]:
        return f"{_DTYPES[key - 1].name} rows"
    if op == OPS["gradients"]:
        return f"gradient plan {key}"
    if op == OPS["channel"]:
        return f"channel {key}"
    return "no data"


def _difference(lists, active, what, noun):
    """The message naming, for the first rank that differs from the lowest active rank, the
    first entry that differs."""
    base_rank = active[0]
    base = lists[base_rank]
    problems = []
    for rank in active[1:]:
        other = lists[rank]
        if other == base:
            continue
        for index in range(max(len(base), len(other))):
            theirs = other[index] if index < len(other) else None
            ours = base[index] if index < len(base) else None
            if theirs != ours:
                break
        if theirs is None:
            problems.append(f"rank {rank} has no {noun} {ours} (it has {len(other)} {noun}s, "
                            f"rank {base_rank} has {len(base)})")
        elif ours is None:
            problems.append(f"rank {rank} has an extra {noun} {theirs} (it has {len(other)} "
                            f"{noun}s, rank {base_rank} has {len(base)})")
        else:
            problems.append(f"rank {rank}'s {noun} #{index} is {theirs} where rank "
                            f"{base_rank}'s is {ours}")
    return (f"The ranks disagree on {what}: " + "; ".join(problems) + ". Every rank must "
            "build the same model (same layers, shapes and dtypes, created in the same order).")
