"""`tf.data.Options` and its groups: settings a dataset carries, accepted and stored.

An options object has a fixed set of fields, each of one type (bool, int, float, an enum) or a
nested group of options; every field starts unset (None) except nested groups and the
distribute auto-shard policy (AUTO). Setting a field of the wrong type is TensorFlow's
TypeError, setting an unknown one its AttributeError. `a.merge(b)` is a copy of `a` with
every field that `b` sets taken from `b` (groups merged field by field);
`dataset.with_options(o)` attaches `o`, and `dataset.options()` merges the options of the
whole pipeline. wengert runs every pipeline in Python, so the fields are stored and reported,
not acted on (a deterministic map is deterministic either way).
"""
import enum

__all__ = ["Options", "AutotuneOptions", "DistributeOptions", "OptimizationOptions",
           "ThreadingOptions", "ServiceOptions", "AutoShardPolicy", "ExternalStatePolicy",
           "AutotuneAlgorithm"]


class AutoShardPolicy(enum.IntEnum):
    """How a distributed dataset is split among workers (stored only)."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """What to do with state outside the dataset when it is saved (stored only)."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneAlgorithm(enum.Enum):
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class _OptionsBase:
    """Fields declared in `_FIELDS`: name -> (type, default factory or None)."""

    _FIELDS = {}
    _ALIASES = {}

    def __init__(self):
        for name, (kind, default) in self._FIELDS.items():
            object.__setattr__(self, name, default() if default else None)

    def __setattr__(self, name, value):
        name = self._ALIASES.get(name, name)
        if name not in self._FIELDS:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = self._FIELDS[name][0]
        if value is not None and not isinstance(value, kind) or (
                kind is int and isinstance(value, bool)):
            raise TypeError(f"Property \"{name}\" must be of type {kind}, got: {value!r} "
                            f"(type: {type(value)})")
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        if name in type(self)._ALIASES:
            return getattr(self, type(self)._ALIASES[name])
        raise AttributeError(f"{type(self).__name__} has no option {name!r}.")

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._FIELDS
                           if getattr(self, n) is not None)
        return f"{type(self).__name__}({fields})"

    def merge(self, options):
        """A copy of these options with every field that `options` sets taken from it."""
        if not isinstance(options, type(self)):
            raise TypeError(f"{type(self).__name__}.merge: expected {type(self).__name__}, got "
                            f"{type(options).__name__}.")
        out = type(self)()
        for name in self._FIELDS:
            mine, theirs = getattr(self, name), getattr(options, name)
            if isinstance(mine, _OptionsBase):
                object.__setattr__(out, name, mine.merge(theirs))
            else:
                object.__setattr__(out, name, mine if theirs is None else theirs)
        return out


class AutotuneOptions(_OptionsBase):
    _FIELDS = {"enabled": (bool, None), "cpu_budget": (int, None), "ram_budget": (int, None),
               "autotune_algorithm": (AutotuneAlgorithm, None),
               "initial_parallelism": (int, None), "min_parallelism": (int, None)}


class DistributeOptions(_OptionsBase):
    _FIELDS = {"auto_shard_policy": (AutoShardPolicy, lambda: AutoShardPolicy.AUTO),
               "num_devices": (int, None)}

    def merge(self, options):
        out = super().merge(options)
        if options.auto_shard_policy is AutoShardPolicy.AUTO:
            object.__setattr__(out, "auto_shard_policy", self.auto_shard_policy)
        return out


class OptimizationOptions(_OptionsBase):
    _FIELDS = {name: (bool, None) for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
        "map_parallelization", "noop_elimination", "parallel_batch", "seq_interleave_prefetch",
        "shuffle_and_repeat_fusion")}


class ThreadingOptions(_OptionsBase):
    _FIELDS = {"max_intra_op_parallelism": (int, None), "private_threadpool_size": (int, None)}


class ServiceOptions(_OptionsBase):
    _FIELDS = {"pinned": (bool, None)}


class Options(_OptionsBase):
    """`tf.data.Options()`: deterministic, autotune, threading, experimental_optimization,
    experimental_distribute, experimental_external_state_policy, ... (see the module
    docstring)."""
    _FIELDS = {"autotune": (AutotuneOptions, AutotuneOptions), "dataset_name": (str, None),
               "deterministic": (bool, None),
               "experimental_distribute": (DistributeOptions, DistributeOptions),
               "experimental_external_state_policy": (ExternalStatePolicy, None),
               "experimental_optimization": (OptimizationOptions, OptimizationOptions),
               "experimental_service": (ServiceOptions, ServiceOptions),
               "experimental_slack": (bool, None),
               "experimental_symbolic_checkpoint": (bool, None),
               "experimental_warm_start": (bool, None), "framework_type": (list, None),
               "threading": (ThreadingOptions, ThreadingOptions)}
    _ALIASES = {"experimental_deterministic": "deterministic",
                "experimental_threading": "threading"}
