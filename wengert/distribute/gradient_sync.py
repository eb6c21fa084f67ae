"""Gradient synchronisation: the sum (or mean) over ranks of every variable's gradient, in few
large collectives.

A `GradientPlan` is made the first time a list of variables is synchronised, identically on
every rank. Its layout:

- dense gradients are grouped by dtype and walked in reverse variable order (the order in which
  the reverse pass finishes them: the last layer's gradients are ready first), filling buckets of
  at most `bucket_bytes` (4 MiB by default; bench/bench_distribute.py measures the choice). Each
  bucket owns a persistent flat send buffer; a step copies the gradients into their slots (a None
  gradient fills its slot with zeros, so every rank issues the same collectives) and starts ONE
  nonblocking allreduce per bucket into a fresh receive buffer, whose reshaped slices become the
  result tensors (fresh memory each step: tensors never change afterwards);
- a gradient larger than half a bucket is a bucket of its own and is sent from its own array
  without the copy (an MLP's 784x1024 kernel, 3.2 MB: the copy would cost a quarter of the
  allreduce on one host);
- the buckets' allreduces run on the plan's own channel (a duplicate communicator, see
  protocol.py) and start together with the step's header, before it is checked: the step waits
  for one round trip, not one per collective. They are finished after the header has shown that
  every rank runs the same step (else every rank raises ReplicaMismatchError first);
- a mean is the received sum multiplied by 1/N in place (N: the ranks that have not joined, which
  only the header tells);
- sparse gradients (IndexedSlices: embedding rows) are all-gathered, values and indices, as
  TensorFlow does: the result holds every rank's rows (repeated indices are summed when applied).

Before the first step the ranks compare the plan's signature (variable names, shapes, dtypes:
`Collectives.agree`), so ranks whose models differ get an error naming the rank and the variable
instead of reducing mismatched buffers. A gradient that is None on every rank stays None (a
small count of present gradients travels only in steps where some rank lacks one).
"""
import numpy as np

from .protocol import OPS, ReplicaMismatchError

__all__ = ["GradientPlan", "Synchronizer", "DEFAULT_BUCKET_BYTES"]

DEFAULT_BUCKET_BYTES = 4 << 20


class _Bucket:
    """Gradients of one dtype reduced by one allreduce."""

    def __init__(self, dtype, members, shapes):
        self.dtype = np.dtype(dtype)
        self.members = members                     # variable indices, reverse order
        sizes = [int(np.prod(shapes[i], dtype=np.int64)) for i in members]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64).tolist()
        self.total = int(self.offsets[-1])
        self.shapes = [tuple(shapes[i]) for i in members]
        self.direct = len(members) == 1            # sent from its own array when it can be
        self.what = f"gradient allreduce of {self.total} {self.dtype.name} values"
        self._send = None

    def _lone(self, arrays):
        """A lone gradient that can be sent as it is (its own dtype, contiguous), else None."""
        if self.direct:
            array = arrays[self.members[0]]
            if array is not None and array.dtype == self.dtype and array.flags.c_contiguous:
                return array.reshape(-1)
        return None

    def _filled(self, arrays):
        """The persistent send buffer holding the members' gradients (zeros for a None)."""
        if self._send is None:
            self._send = np.empty(self.total, self.dtype)
        send, offsets = self._send, self.offsets
        for k, index in enumerate(self.members):
            slot = send[offsets[k]:offsets[k + 1]]
            array = arrays[index]
            if array is None:
                slot.fill(0)
            else:
                np.copyto(slot, array.reshape(-1), casting="same_kind")
        return send

    def post(self, channel, arrays):
        """Start the sum of this bucket over the ranks: (request, receive buffer)."""
        send = self._lone(arrays)
        if send is None:
            send = self._filled(arrays)
        recv = np.empty(self.total, self.dtype)
        return channel.iallreduce(send, recv, "sum"), recv

    def post_joined(self, channel):
        zeros = np.zeros(self.total, self.dtype)
        return channel.iallreduce(zeros, np.empty_like(zeros), "sum"), None

    def finish(self, recv, scale, out):
        """Results of a finished sum: views of `recv` (scaled in place for a mean)."""
        if scale is not None:
            np.multiply(recv, scale, out=recv)
        offsets = self.offsets
        for k, index in enumerate(self.members):
            out[index] = recv[offsets[k]:offsets[k + 1]].reshape(self.shapes[k])


class GradientPlan:
    """The layout of one list of variables' gradients (see the module docstring)."""

    def __init__(self, number, specs, bucket_bytes=DEFAULT_BUCKET_BYTES, channel=None):
        # specs: [(name, shape tuple, numpy dtype, sparse bool)] in variable order
        self.number = number
        self.specs = specs
        self.sparse = [i for i, s in enumerate(specs) if s[3]]
        self.entries = entries(*zip(*[s[:3] for s in specs])) if specs else []
        self.buckets = _layout(specs, bucket_bytes)
        self.size = sum(b.total for b in self.buckets)
        self.channel = channel       # the communicator of this plan's buckets
        self.what = f"gradient allreduce (plan {number})"
        self._broken = None

    def run(self, coll, arrays, average):
        """Reduce `arrays` (per variable: an ndarray, a (values, indices) pair for a sparse
        variable, or None); returns (results, counts) where counts[i] is how many ranks had
        a gradient for variable i (None when every rank had every gradient)."""
        if self._broken:
            raise ReplicaMismatchError(self._broken)
        absent = sum(a is None for a in arrays)
        posted = coll.post_header(OPS["gradients"], self.number, self.size, absent, self.what)
        started = [bucket.post(self.channel, arrays) for bucket in self.buckets]
        try:
            header = coll.finish_header(posted)
        except ReplicaMismatchError as err:  # the buckets' sums never finish: end the job
            self._broken = (f"gradient plan {self.number} cannot be used after the ranks "
                            f"disagreed ({err}); restart the job.")
            raise
        counts = None
        if header.absent:
            flags = np.array([a is not None for a in arrays], np.int32)
            counts = np.empty_like(flags)
            coll._raw("the count of present gradients", coll.comm.allreduce, flags, counts)
        out = [None] * len(arrays)
        for index in self.sparse:
            out[index] = self._gather_sparse(coll, index, arrays[index], average,
                                             header.active)
        for bucket, (request, recv) in zip(self.buckets, started):
            with coll.watchdog.watch(bucket.what):
                request.wait()
            scale = bucket.dtype.type(1.0 / header.active) if average else None
            bucket.finish(recv, scale, out)
        if counts is not None:
            out = [o if c > 0 else None for o, c in zip(out, counts)]
        return out, counts

    def _gather_sparse(self, coll, index, pair, average, active):
        if pair is None:
            _, shape, dtype, _ = self.specs[index]
            values = np.zeros((0,) + tuple(shape[1:]), dtype)
            indices = np.zeros((0,), np.int64)
        else:
            values = np.ascontiguousarray(pair[0])
            indices = np.ascontiguousarray(np.asarray(pair[1], np.int64).reshape(-1))
        with coll.watchdog.watch("allgather of sparse gradient rows"):
            values = coll.comm.allgather(values)
            indices = coll.comm.allgather(indices)
        if average:
            values = values * values.dtype.type(1.0 / active)
        return values, indices

    def serve_joined(self, coll, header):
        """Take part in a step of this plan with zero gradients (a rank that called join)."""
        started = [bucket.post_joined(self.channel) for bucket in self.buckets]
        if header.absent:
            flags = np.zeros(len(self.specs), np.int32)
            coll.comm.allreduce(flags, np.empty_like(flags), "sum")
        for index in self.sparse:
            _, shape, dtype, _ = self.specs[index]
            coll.comm.allgather(np.zeros((0,) + tuple(shape[1:]), dtype))
            coll.comm.allgather(np.zeros((0,), np.int64))
        for request, _ in started:
            request.wait()


def entries(names, shapes, dtypes):
    """The signature of a list of variables: one string per variable."""
    return [f"'{name}' {np.dtype(dtype).name} {list(shape)}"
            for name, shape, dtype in zip(names, shapes, dtypes)]


def _layout(specs, bucket_bytes):
    """Buckets of the dense gradients: per dtype, in reverse variable order, each at most
    bucket_bytes (a gradient of more than half of that alone)."""
    buckets = []
    open_bucket = {}  # dtype -> (members, bytes)
    shapes = [s[1] for s in specs]
    for index in reversed(range(len(specs))):
        _, shape, dtype, sparse = specs[index]
        if sparse:
            continue
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if 2 * nbytes > bucket_bytes:  # too large to share a bucket: its own, sent as it is
            buckets.append(_Bucket(dtype, [index], shapes))
            continue
        members, size = open_bucket.get(dtype, ([], 0))
        if members and size + nbytes > bucket_bytes:
            buckets.append(_Bucket(dtype, members, shapes))
            members, size = [], 0
        open_bucket[dtype] = (members + [index], size + nbytes)
    for dtype, (members, _) in open_bucket.items():
        if members:
            buckets.append(_Bucket(dtype, members, shapes))
    return buckets


class Synchronizer:
    """The plans of one job, found by signature; makes (and checks) a plan on first use."""

    def __init__(self, coll, bucket_bytes=DEFAULT_BUCKET_BYTES):
        self.coll = coll
        self.bucket_bytes = bucket_bytes
        self._plans = {}

    def plan(self, names, shapes, dtypes, kinds):
        """The plan for these variables. kinds[i]: 0 no gradient on this rank, 1 sparse,
        2 dense; the ranks agree (dense wins) when the plan is made."""
        key = (tuple(names), tuple(map(tuple, shapes)), tuple(np.dtype(d).str for d in dtypes))
        plan = self._plans.get(key)
        if plan is None:
            coll = self.coll
            coll.agree(entries(names, shapes, dtypes),
                       "the variables whose gradients are synchronised")
            kinds = np.asarray(kinds, np.int32)
            if coll.size > 1:
                kinds = coll.allreduce(kinds, op="max", what="the kinds of the gradients")
            specs = [(n, tuple(s), np.dtype(d), int(k) == 1)
                     for n, s, d, k in zip(names, shapes, dtypes, kinds)]
            plan = GradientPlan(len(coll.plans), specs, self.bucket_bytes, coll.channel())
            coll.plans.append(plan)
            self._plans[key] = plan
        return plan
