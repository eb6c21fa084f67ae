"""The variables `tf.compat.v1.get_variable` shares: one store per graph, keyed by full name.

`VariableStore.get_variable(name, ...)` returns the variable stored under `name` when the scope's
`reuse` allows it (True or AUTO_REUSE) and creates it when reuse allows that (False or
AUTO_REUSE), with TensorFlow's errors otherwise: "Variable x already exists, disallowed", "Variable
x does not exist, or was not created with tf.get_variable()", and a shape or dtype that does not
match the stored variable's. Every check runs before anything is added to the graph.

A new variable's initial value is `initializer(shape, dtype=dtype)` built under `<name>/Initializer`
(or the initializer itself when it is a value, whose shape is then the variable's). Without an
initializer a floating variable gets Glorot-uniform values, uniform on [-l, l] with
l = sqrt(6 / (fan_in + fan_out)) (ops/random/v1_initializers.py), and an integer, boolean or
string variable zeros.
A regularizer's loss, `regularizer(variable)`, is built under `<name>/Regularizer/` and added to
REGULARIZATION_LOSSES. A custom getter is called as `custom_getter(getter=..., name=..., shape=...,
...)` with the store's own getter, so it can change any argument or wrap what it returns. With
a `partitioner` the variable is stored as shards (partitioned_variables.py).
"""
import enum
import inspect

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..ops.random.v1_initializers import glorot_uniform_initializer, zeros_initializer
from .collections import GraphKeys
from .graph import get_default_graph, name_scope
from .partitioned_variables import partitioned_variable

__all__ = ["AUTO_REUSE", "VariableStore", "variable_store"]

_STORE_KEY = "__variable_store"


class _ReuseMode(enum.Enum):
    """Reuse modes of `variable_scope` besides True and False."""

    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


def _default_initializer(name, dtype):
    if dtype.is_floating:
        return glorot_uniform_initializer()
    if dtype.is_integer or dtype.is_bool or dtype == dtypes.string:
        return zeros_initializer()
    raise ValueError(f"An initializer for variable {name} of {dtype.name} is required")


def _trainable(trainable, synchronization):
    if trainable is not None:
        return bool(trainable)
    return getattr(synchronization, "name", None) != "ON_READ"


def _initial_value(name, shape, dtype, initializer, partition_info=None):
    """(initial value or a function making it, the variable's dtype or None to infer it)."""
    if initializer is not None and not callable(initializer):
        return initializer, None
    if initializer is None:
        initializer = _default_initializer(name, dtype)
    if inspect.isclass(initializer):
        initializer = initializer()
    if shape is not None and shape.is_fully_defined():
        dims = shape.as_list()
        kwargs = {"dtype": dtype}
        if "partition_info" in _parameters(initializer):
            kwargs["partition_info"] = partition_info

        def make():
            with name_scope("Initializer"):
                return initializer(dims, **kwargs)
        return make, dtype
    if not _parameters(initializer):
        return initializer, None
    raise ValueError("The initializer passed is not valid. It should be a callable with no "
                     "arguments and the shape should not be provided or an instance of "
                     "`tf.keras.initializers.*' and `shape` should be fully defined.")


def _parameters(fn):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


class VariableStore:
    """The variables a graph's `get_variable` made, by full name."""

    def __init__(self):
        self.variables = {}
        self.partitioned = {}

    def get_variable(self, name, shape=None, dtype=dtypes.float32, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None,
                     synchronization=None, aggregation=None):
        """The variable `name` (a full name), created or shared as `reuse` says."""
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
        dtype = dtypes.as_dtype(dtype)
        trainable = _trainable(trainable, synchronization)
        arguments = dict(shape=shape, dtype=dtype, initializer=initializer,
                         regularizer=regularizer, reuse=reuse, trainable=trainable,
                         collections=collections, caching_device=caching_device,
                         partitioner=partitioner, validate_shape=validate_shape,
                         use_resource=use_resource, synchronization=synchronization,
                         aggregation=aggregation)
        if custom_getter is None:
            return self._true_getter(name, constraint=constraint, **arguments)
        parameters = _parameters(custom_getter)
        if "constraint" in parameters or any(p.kind is p.VAR_KEYWORD
                                             for p in parameters.values()):
            arguments["constraint"] = constraint
        return custom_getter(getter=self._true_getter, name=name, **arguments)

    def _true_getter(self, name, shape=None, dtype=dtypes.float32, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, constraint=None, synchronization=None,
                     aggregation=None):
        is_scalar = shape is not None and not isinstance(shape, TensorShape) and \
            isinstance(shape, (list, tuple)) and not shape
        if caching_device is not None and not isinstance(caching_device, str):
            raise TypeError(f"get_variable('{name}'): caching_device must be a device string, "
                            f"got {caching_device!r}.")
        trainable = _trainable(trainable, synchronization)

        def make_shard(shard_name, shard_shape, shard_initializer, partition_info, shard_dtype):
            return self._single_variable(shard_name, shard_shape, shard_dtype,
                                         shard_initializer, regularizer, reuse, trainable,
                                         collections, validate_shape, constraint,
                                         partition_info)
        if (partitioner is not None and not is_scalar) or (
                reuse is True and partitioner is None and name in self.partitioned):
            if partitioner is not None and not callable(partitioner):
                raise ValueError(f"Partitioner must be callable, but received: {partitioner}")
            return partitioned_variable(self, name, partitioner, shape, dtype, initializer,
                                        reuse, make_shard)
        if f"{name}/part_0" in self.variables:
            raise ValueError("No partitioner was provided, but a partitioned version of the "
                             f"variable was found: {name}/part_0. Perhaps a variable of the "
                             "same name was already created with partitioning?")
        return make_shard(name, shape, initializer, None, dtype)

    def _single_variable(self, name, shape, dtype, initializer, regularizer, reuse, trainable,
                         collections, validate_shape, constraint, partition_info=None):
        if shape is not None and initializer is not None and not callable(initializer):
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = dtypes.as_dtype(dtype)
        shape = None if shape is None else TensorShape(shape)
        if name in self.variables:
            return self._shared(name, shape, dtype, reuse)
        if reuse is True:
            raise ValueError(f"Variable {name} does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                             "VarScope?")
        if initializer is None and shape is None:
            raise ValueError(f"Variable {name} did not get an initializer, so its `shape` "
                             "argument must be specified.")
        value, variable_dtype = _initial_value(name, shape, dtype, initializer, partition_info)
        with name_scope(""):
            variable = Variable(value, trainable=trainable, validate_shape=validate_shape,
                                name=name, dtype=variable_dtype, shape=shape,
                                constraint=constraint, **_collections(collections))
        if state.graph is not None:
            self.variables[name] = variable
        _regularize(name, variable, regularizer)
        return variable

    def _shared(self, name, shape, dtype, reuse):
        found = self.variables[name]
        if reuse is False:
            raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        if shape is not None and not shape.is_compatible_with(found.shape):
            raise ValueError(f"Trying to share variable {name}, but specified shape {shape} "
                             f"and found shape {found.shape}.")
        if dtype != found.dtype:
            raise ValueError(f"Trying to share variable {name}, but specified dtype "
                             f"{dtype.name} and found dtype {found.dtype.name}.")
        return found


def _collections(collections):
    """Variable(...)'s `collections` argument: graph variables join them; eagerly none."""
    if state.graph is None or getattr(state.graph, "lifts_variables", False):
        return {}
    return {"collections": collections}


def _regularize(name, variable, regularizer):
    """Add `regularizer(variable)` to REGULARIZATION_LOSSES, built under `<name>/Regularizer/`.
    (TensorFlow calls the regularizer once more at the root scope to see whether it gives a
    loss; so does this, so that op names agree with TensorFlow's.)"""
    if not regularizer:
        return
    with name_scope(""):
        if regularizer(variable) is None:
            return
    with name_scope(name + "/Regularizer/"):
        loss = regularizer(variable)
    get_default_graph().add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)


def variable_store(graph):
    """The `VariableStore` of `graph` (kept in one of its collections, as TensorFlow keeps it);
    eagerly, a fresh store (eager variables are never shared)."""
    if graph is None:
        return VariableStore()
    stores = graph.get_collection_ref(_STORE_KEY)
    if not stores:
        stores.append(VariableStore())
    return stores[0]
