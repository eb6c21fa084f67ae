"""Datasets over placeholders, as TensorFlow 1 programs feed NumPy arrays to a pipeline:

    x = tf.placeholder(tf.float32, [None, 3])
    it = tf.data.Dataset.from_tensor_slices(x).batch(2).make_initializable_iterator()
    sess.run(it.initializer, feed_dict={x: array})

Datasets hold values, so a source built from graph tensors of a TF 1 graph (`FedDataset`) holds
the tensors instead: its element spec comes from their static shapes, and its values are read
when a pass starts. The iterator's initializer op takes the tensors as inputs (graph_iterators.py),
so the Session evaluates them (reading the feed) each time the initializer runs and starts the
pass with their values in `feeding(...)` (fed_values.py). A pass started any other way
refuses with TensorFlow's advice. Inside a traced function the pass starts in the function's
AnonymousIteratorV3 op, which takes the tensors as inputs (iterator.py), so a dataset of a
function's tensors is iterated, reduced and looped over as TensorFlow's is. `Dataset.range`
with bounds that are graph tensors (`range(n)` of a function's argument) is built the same way.
"""
from ..framework.context import state
from ..framework.errors import FailedPreconditionError
from ..framework.tensor import Tensor
from ..tracing.signatures import TensorSpec
from ..util import nest
from . import structure as st
from .dataset import FED_RANGE, FED_SOURCE, UNKNOWN, Dataset
from .fed_values import current_values

__all__ = ["FedDataset", "FedRangeDataset", "has_fed_tensors"]


def _symbolic(leaf):
    return isinstance(leaf, Tensor) and getattr(leaf, "_value", None) is None


def has_fed_tensors(tensors):
    """True when `tensors` holds graph tensors of a graph being built (a TF 1 graph, or a
    function being traced)."""
    if state.graph is None:
        return False
    return any(_symbolic(leaf) for leaf in nest.flatten(tensors))


def _shape_and_dtype(leaf):
    """(TensorShape, dtype) of a graph tensor or of a value beside one."""
    if isinstance(leaf, Tensor):
        return leaf.shape, leaf.dtype
    spec = st.specs_of(st.normalize(leaf, "Dataset")[1])[0]
    return spec.shape, spec.dtype


class FedDataset(Dataset):
    """from_tensor_slices / from_tensors over graph tensors (see the module docstring)."""

    def __init__(self, tensors, slices):
        self._template, self._slices = tensors, slices
        leaves = nest.flatten(tensors)
        self._fed = [leaf for leaf in leaves if _symbolic(leaf)]
        shapes = [_shape_and_dtype(leaf) for leaf in leaves]
        if slices and any(shape.rank == 0 for shape, _ in shapes):
            raise ValueError("Dataset.from_tensor_slices: every component needs a first "
                             "dimension to slice; got a scalar (use from_tensors).")
        specs = [TensorSpec(shape[1:] if slices and shape.rank is not None else shape, dtype)
                 for shape, dtype in shapes]
        rows = [shape[0] for shape, _ in shapes if shape.rank and shape[0] is not None]
        cardinality = (rows[0] if rows else UNKNOWN) if slices else 1
        structure, _ = st.normalize(nest.map_structure(lambda _: 0, tensors), "Dataset")
        super().__init__(structure, specs, cardinality)

    def _stage(self):
        values = nest.map_structure(_fed_value(self._fed), self._template)
        source = Dataset.from_tensor_slices(values) if self._slices else \
            Dataset.from_tensors(values)
        return source._stage()


def _fed_value(fed):
    """The function from a leaf to its value in the pass that starts now."""
    table = current_values()
    if table is None or any(id(t) not in table for t in fed):
        raise FailedPreconditionError(
            "This dataset reads placeholders of a TF 1 graph: iterate it with "
            "tf.compat.v1.data.make_initializable_iterator(dataset) and run the "
            "iterator's initializer with a feed_dict for them.")
    return lambda leaf: table[id(leaf)] if _symbolic(leaf) else leaf


class FedRangeDataset(Dataset):
    """Dataset.range whose bounds are graph tensors: its length is known when a pass starts."""

    def __init__(self, args, output_type):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"Dataset.range takes 1 to 3 arguments (stop, or start, stop, step), "
                            f"got {len(args)}.")
        self._args, self._output_type = list(args), output_type
        self._fed = [a for a in args if _symbolic(a)]
        super().__init__(None, [TensorSpec([], output_type)], UNKNOWN)

    def _stage(self):
        values = [_fed_value(self._fed)(a) for a in self._args]
        return Dataset.range(*values, output_type=self._output_type)._stage()


FED_SOURCE.append(lambda tensors, slices: FedDataset(tensors, slices)
                  if has_fed_tensors(tensors) else None)
FED_RANGE.append(lambda args, output_type: FedRangeDataset(args, output_type)
                 if has_fed_tensors(args) else None)
