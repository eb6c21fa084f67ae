"""`MirroredStrategy` and `OneDeviceStrategy`: replicas in one process, one per device.

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])   # or (): every logical CPU
    strategy.num_replicas_in_sync                                       # 2

With one device this is the one-replica strategy of strategy.py. With N devices (the CPU split
into N logical devices, as TensorFlow's CPU-only programs and tests do) there are N replicas in
this process, run as mirrored_run.py says: `run(fn, args)` calls fn once per replica and returns
PerReplica values (values.py); `experimental_distribute_dataset` splits each global batch of B
rows into N parts along the first axis (np.array_split's rule: the first B mod N replicas get a
row more, and a replica may get none), eagerly and inside tf.function (mirrored_input.py);
`distribute_datasets_from_function` calls the function once (one input pipeline,
InputContext(0 of 1)) and hands consecutive elements to the replicas in turn; variables made
in `scope()` are mirrored (values.py: how assignments inside `run` combine); `reduce(SUM | MEAN, v, axis)` adds (averages) the replicas' values, with `axis` also
over that axis of each (MEAN then divides by the total count along it). A value that is not
per-replica is the same on every replica: it counts once per replica in an `axis` reduction,
MEAN without an axis returns it, and SUM without an axis raises TensorFlow's ValueError.
"""
import contextlib

from ..framework import dtypes
from ..framework.config import list_logical_devices
from ..framework.device import parse_device
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..ops.array_ops import concat, identity
from ..ops.creation_ops import shape as shape_of
from ..ops.broadcast_ops import add_n
from ..ops.math_ops import cast
from ..ops.reduce_ops import reduce_sum
from ..util import nest
from . import context as ctx
from . import mirrored_run
from .input import InputContext, ValueContext
from .mirrored_input import LocalDistributedDataset
from .strategy import Strategy, StrategyExtended
from .values import DistributedValues, Mirrored, PerReplica, mirror_variable, select

__all__ = ["MirroredStrategy", "OneDeviceStrategy", "canonical_device"]

_PREFIX = "/job:localhost/replica:0/task:0/device:"


def canonical_device(name):
    """TensorFlow's full name of a device ("/cpu:1" -> "/job:localhost/.../device:CPU:1")."""
    kind, index = parse_device(name)
    return f"{_PREFIX}{kind or 'CPU'}:{index or 0}"


class _MirroredExtended(StrategyExtended):
    @property
    def worker_devices(self):
        return self._strategy._devices

    parameter_devices = worker_devices

    def reduce_to(self, reduce_op, value, destinations=None, options=None):
        """The replicas' values reduced; a Mirrored value towards distributed destinations (a
        per-replica value or a mirrored variable), one tensor towards a device."""
        reduced = self._strategy.reduce(reduce_op, value, axis=None)
        if isinstance(destinations, DistributedValues) or \
                getattr(destinations, "_mirrored_by", None) is not None:
            return self._mirrored(reduced)
        return reduced

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        return [self._mirrored(self._strategy.reduce(reduce_op, v, axis=None))
                for v, _ in value_destination_pairs]

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """fn(var, *args) once (the replicas' copies are one variable; per-replica arguments:
        replica 0's); group=True: a Mirrored of its result, else one result per replica."""
        result = fn(var, *select(0, args), **select(0, kwargs or {}))
        if isinstance(result, Variable):
            result = result.read_value()
        return self._mirrored(result) if group else (result,) * len(self.worker_devices)

    def _mirrored(self, value):
        n = len(self.worker_devices)
        return Mirrored([value] + [identity(value) for _ in range(n - 1)])


class MirroredStrategy(Strategy):
    """Synchronous training on the devices given (default: every logical CPU); see the module
    docstring."""

    def __init__(self, devices=None, cross_device_ops=None):
        if devices is None:
            devices = [d.name for d in list_logical_devices("CPU")]
        if isinstance(devices, str):
            devices = [devices]
        devices = tuple(dict.fromkeys(canonical_device(d) for d in devices))
        if not devices:
            raise ValueError("MirroredStrategy: got no devices; pass device names such as "
                             "['/cpu:0', '/cpu:1'] or None for every logical CPU.")
        super().__init__(0, 1)
        self._devices = devices
        self.extended = _MirroredExtended(self)

    @property
    def num_replicas_in_sync(self):
        return len(self._devices)

    @contextlib.contextmanager
    def scope(self):
        """Variables created here are mirrored (values.py): assignments inside `run` go by
        their aggregation."""
        with super().scope():
            hooks = state.variable_hooks
            if len(self._devices) > 1 and self._mirror_new_variable not in hooks:
                state.variable_hooks = hooks + (self._mirror_new_variable,)
            try:
                yield self
            finally:
                state.variable_hooks = hooks

    def _mirror_new_variable(self, variable):
        mirror_variable(self, variable)

    @property
    def _local_replicas(self):
        return len(self._devices)

    def run(self, fn, args=(), kwargs=None, options=None):
        """fn once per replica (mirrored_run.py); PerReplica values where the results differ."""
        if len(self._devices) == 1:
            return super().run(fn, args, kwargs, options)
        entry = ctx.current_entry()
        if entry is not None and entry[0] is not self:
            raise ValueError("strategy.run was called inside another strategy's scope.")
        return mirrored_run.run(self, fn, args, kwargs)

    # -- values across replicas -----------------------------------------------------------------
    def reduce(self, reduce_op, value, axis=None):
        """The replicas' values combined: SUM or MEAN; with `axis`, also over that axis."""
        reduce_op = ctx.check_reduce_op(reduce_op)
        if len(self._devices) == 1:
            return super().reduce(reduce_op, value, axis)
        return nest.map_structure(lambda v: self._reduce_one(reduce_op, v, axis), value)

    def _reduce_one(self, reduce_op, value, axis):
        parts = value.values if isinstance(value, PerReplica) else None
        if axis is None:
            if parts is not None:
                return mirrored_run.reduce_values(reduce_op, value)
            if reduce_op == ctx.ReduceOp.SUM:
                raise ValueError(f"A non-DistributedValues value {value} cannot be reduced "
                                 "with the given reduce op ReduceOp.SUM.")
            return convert_to_tensor(value)
        parts = [convert_to_tensor(v) for v in (parts or (value,) * len(self._devices))]
        total = add_n([reduce_sum(v, axis) for v in parts]) if len(parts) > 1 \
            else reduce_sum(parts[0], axis)
        if reduce_op == ctx.ReduceOp.SUM:
            return total
        counts = [shape_of(v, out_type=dtypes.int64)[axis] for v in parts]
        count = add_n(counts) if len(counts) > 1 else counts[0]
        return total / cast(count, total.dtype)

    def experimental_local_results(self, value):
        """The replicas' values of `value` (a value they share: once)."""
        if isinstance(value, PerReplica):
            return value.values
        return (value,)

    def gather(self, value, axis):
        """Every replica's `value` concatenated along `axis`, in replica order."""
        return nest.map_structure(
            lambda v: concat(list(v.values), axis) if isinstance(v, PerReplica)
            else convert_to_tensor(v), value)

    # -- input ----------------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """Each global batch of `dataset` split among the replicas (PerReplica values)."""
        if len(self._devices) == 1:
            return super().experimental_distribute_dataset(dataset, options)
        return LocalDistributedDataset(dataset, len(self._devices), split=True)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """dataset_fn(InputContext(0 of 1)) once; its elements go to the replicas in turn."""
        if len(self._devices) == 1:
            return super().distribute_datasets_from_function(dataset_fn, options)
        context = InputContext(1, 0, len(self._devices))
        return LocalDistributedDataset(dataset_fn(context), len(self._devices), split=False)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        n = len(self._devices)
        if n == 1:
            return super().experimental_distribute_values_from_function(value_fn)
        return PerReplica([value_fn(ValueContext(r, n)) for r in range(n)])

    def __repr__(self):
        return f"<MirroredStrategy: {len(self._devices)} replicas on {list(self._devices)}>"


class OneDeviceStrategy(MirroredStrategy):
    """One replica on one device."""

    def __init__(self, device="/cpu:0"):
        super().__init__([device])
