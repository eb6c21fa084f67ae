"""What `fit`, `evaluate` and `predict` walk: NumPy arrays or a `tf.data.Dataset`, cut into the
batches of one pass (keras/loops.py runs the loops over them).

Arrays: x (an array, or a list or dict of arrays, one per input), y and sample_weight are cut
into batches of `batch_size` rows; `y` may be absent when the model computes its own loss. fit's passes go `steps` times, by a permutation of the rows drawn
at the start of each epoch when shuffling (the same on every rank), wrapping around after the
last row; evaluate and predict go through the rows in order. `validation_split` keeps the last
fraction of the rows for validation.

Datasets: each element is one batch, `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)` for fit
and evaluate (x may be a list or dict of inputs), `x` (or a tuple whose first item is x) for
predict.

A model's own `train_step(data)` receives each batch in Keras's layout (`pack_x_y_sample_weight`):
`x` alone when there is neither y nor sample_weight, else `(x, y)` or `(x, y, sample_weight)`;
`unpack_x_y_sample_weight` is its inverse. `class_weight` ({class: weight}) becomes each row's
sample weight: the weight of its label (the argmax of a one-hot row), 1 for unlisted classes. An epoch
is one pass over the dataset, or `steps_per_epoch` batches drawn from one iterator that carries
on across epochs (restarted when it runs out). `validation_data` may be a dataset too.

A SparseTensor x (a model on keras.Input(sparse=True)) is cut by rows too (sparse_inputs.py).

Under a tf.distribute strategy each batch is a global batch, of which each replica keeps its
rows (keras/distributed.py); predict is not split. Floating arrays are cast to the model's
weight dtype before they become tensors.
"""
import numpy as np

from ..data.dataset import Dataset
from ..framework.ragged_tensor import RaggedTensor
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, array_of, constant
from . import backend, distributed
from .ragged_inputs import RaggedRows, ragged_rows_of
from .sparse_inputs import SparseRows, rows_of

__all__ = ["pack_x_y_sample_weight", "unpack_x_y_sample_weight", "class_weights", "is_dataset", "to_numpy", "num_samples", "take", "split_validation", "as_tensors",
           "cast_floats", "unpack_validation", "fit_array_batches", "evaluate_array_batches",
           "predict_array_batches", "dataset_steps", "dataset_total", "fit_dataset_batches",
           "evaluate_dataset_batches", "predict_dataset_batches"]


# -- arrays -------------------------------------------------------------------------------------
def _map(fn, data):
    """fn over each array of data: an array, a list/tuple of them or a dict of them."""
    if data is None:
        return None
    if isinstance(data, dict):
        return {k: _map(fn, v) for k, v in data.items()}
    if isinstance(data, list):
        return [_map(fn, d) for d in data]
    if isinstance(data, tuple):
        return tuple([_map(fn, d) for d in data])
    return fn(data)


def to_numpy(data):
    if isinstance(data, dict) or (isinstance(data, (list, tuple)) and data and isinstance(
            data[0], (np.ndarray, Tensor, dict, SparseTensor, RaggedTensor))):
        return _map(_array, data if isinstance(data, dict) else list(data))  # inputs
    return None if data is None else _array(data)


def _array(data):
    """An input as NumPy (a SparseTensor as its SparseRows: sparse_inputs.py; a RaggedTensor
    as its RaggedRows: ragged_inputs.py)."""
    rows = ragged_rows_of(rows_of(data))
    return rows if isinstance(rows, (SparseRows, RaggedRows)) else np.asarray(data)


def num_samples(x):
    while isinstance(x, (list, tuple, dict)):
        x = next(iter(x.values())) if isinstance(x, dict) else x[0]
    return len(x)


def take(data, index):
    return _map(lambda d: d[index], data)
def split_validation(x, y, sw, split):
    """((x, y, sw) to train on, (x, y, sw) to validate on): the last `split` of the rows."""
    if not 0.0 < split < 1.0:
        raise ValueError(f"validation_split must be in (0, 1), got {split}.")
    n = num_samples(x)
    at = int(n * (1.0 - split))
    if at == 0 or at == n:
        raise ValueError(f"validation_split={split} leaves no training or no validation "
                         f"samples out of {n}.")
    first, last = slice(0, at), slice(at, n)
    return (take(x, first), take(y, first), take(sw, first)), (
        take(x, last), take(y, last), take(sw, last))


def as_tensors(data):
    return _map(lambda d: d.to_tensor() if isinstance(d, (SparseRows, RaggedRows))
                else constant(d), data)


def cast_floats(data, dtype):
    return _map(lambda d: d.astype(dtype) if d.dtype.kind == "f" and d.dtype != dtype else d,
                data)


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """A batch in Keras's layout: x alone (a tuple or list x as `(x,)`), else (x, y) or
    (x, y, sample_weight)."""
    if y is None:
        return (x,) if isinstance(x, (list, tuple)) else x
    return (x, y) if sample_weight is None else (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """(x, y, sample_weight) of a batch `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)`, with
    None for what it lacks."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) in (1, 2, 3):
        return tuple(data) + (None,) * (3 - len(data))
    raise ValueError("unpack_x_y_sample_weight: data must be a tuple of the form (x,), (x, y) "
                     f"or (x, y, sample_weight); got a tuple of length {len(data)}.")


def class_weights(y, class_weight, sample_weight):
    """fit's class_weight as one weight per row of y (arrays): the weight of each row's class,
    its integer label or the argmax of a one-hot row (1 for classes not listed)."""
    if class_weight is None:
        return sample_weight
    if sample_weight is not None:
        raise ValueError("fit: pass either class_weight or sample_weight, not both (Keras "
                         "refuses both at once); fold the class weights into sample_weight.")
    if not isinstance(class_weight, dict) or y is None or isinstance(y, (list, dict)):
        raise ValueError("fit: class_weight must be a dict {class index: weight} and needs a "
                         f"single array y; got class_weight={type(class_weight).__name__}.")
    labels = np.asarray(y)
    if labels.ndim > 1:
        labels = np.argmax(labels, -1) if labels.shape[-1] != 1 else labels[..., 0]
    labels = np.round(labels).astype(np.int64).reshape(-1)
    table = {int(k): float(v) for k, v in class_weight.items()}
    return np.array([table.get(int(c), 1.0) for c in labels], np.dtype(backend.floatx()))


def unpack_validation(data):
    if isinstance(data, (list, tuple)) and len(data) in (2, 3):
        x, y = data[0], data[1]
        return x, y, data[2] if len(data) == 3 else None
    raise ValueError("validation_data must be a tuple (x_val, y_val) or (x_val, y_val, "
                     f"val_sample_weight); got {type(data).__name__}.")


def fit_array_batches(x, y, sample_weight, batch_size, steps, shuffle, strategy):
    """A function giving one fit epoch's (x, y, sample_weight) batches of arrays: `steps`
    batches, in a shuffled order drawn when the epoch starts (when `shuffle`)."""
    n = num_samples(x)

    def epoch():
        order = distributed.shared_order(strategy, backend.rng(), n) if shuffle else None
        for step in range(steps):
            start = (step * batch_size) % n
            index = slice(start, min(start + batch_size, n)) if order is None else \
                order[start:start + batch_size]
            index = distributed.local_index(index, strategy)
            yield take(x, index), take(y, index), take(sample_weight, index)
    return epoch


def _in_order(n, batch_size, total):
    for step in range(total):
        yield slice(step * batch_size, min((step + 1) * batch_size, n))


def evaluate_array_batches(model, x, y, sample_weight, batch_size, total):
    """evaluate's batches of arrays, in order, as tensors (this replica's rows)."""
    for index in _in_order(num_samples(x), batch_size, total):
        index = distributed.local_index(index, distributed.strategy_of(model))
        yield (as_tensors(take(x, index)), as_tensors(take(y, index)),
               as_tensors(take(sample_weight, index)))


def predict_array_batches(x, batch_size, total):
    """predict's batches of x, in order, as tensors (every row on every replica)."""
    for index in _in_order(num_samples(x), batch_size, total):
        yield as_tensors(take(x, index))


# -- datasets -----------------------------------------------------------------------------------
def is_dataset(x):
    return isinstance(x, Dataset)


def _numpy(value, keep_dicts=False):
    """value's arrays; a dict becomes the list of its values in sorted key order unless
    keep_dicts (a model's own step receives dicts as they are)."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [_numpy(v, keep_dicts) for v in value]
    if isinstance(value, dict):
        if keep_dicts:
            return {k: _numpy(v, True) for k, v in value.items()}
        return [np.asarray(value[k]) for k in sorted(value)]
    if isinstance(value, (RaggedTensor, SparseTensor)):  # a batch of ragged or sparse rows
        return _array(value)
    return np.asarray(array_of(value) if isinstance(value, Tensor) else value)


def _keeps_dicts(model, what):
    """Whether the batches keep dicts: for a model's own step, a model with per-output
    losses and metrics, or a functional model whose inputs are a dict."""
    return model._user_step(what) or model._keras_steps() or isinstance(
        getattr(model, "_nested_inputs", None), dict)


def _unpack(element, what, keep_dicts):
    if isinstance(element, tuple) and len(element) > 3:
        raise ValueError(f"Model.{what}: each element of the dataset must be x, (x,), (x, y) "
                         f"or (x, y, sample_weight), got a tuple of {len(element)} items.")
    return tuple(_numpy(part, keep_dicts) for part in unpack_x_y_sample_weight(element))


def _model_batch(model, element, what):
    """(x, y, sample_weight) arrays of one dataset element: this replica's rows, the model
    built on them if it was not, floats cast to the model's dtype."""
    x, y, sw = _unpack(element, what, _keeps_dicts(model, what))
    x, y, sw = distributed.shard(distributed.strategy_of(model), x, y, sw)
    model._prepare(x)
    dtype = model._data_dtype()
    return cast_floats(x, dtype), cast_floats(y, dtype), sw


def dataset_steps(dataset, steps):
    """fit's batches per epoch: `steps`, else the dataset's length (None when unknown)."""
    if steps is not None:
        return steps
    count = dataset._cardinality
    if count == -1:
        raise ValueError("Model.fit: the dataset is infinite (repeat()); pass steps_per_epoch.")
    return count if count >= 0 else None


def dataset_total(dataset, steps):
    """evaluate's and predict's number of batches: `steps`, else the dataset's length."""
    if steps is not None:
        return steps
    return dataset._cardinality if dataset._cardinality >= 0 else None


class _Batches:
    """Batches for each epoch: whole passes, or `steps` batches from one running iterator."""

    def __init__(self, dataset, steps):
        self._dataset, self._steps, self._iterator = dataset, steps, None

    def epoch(self):
        if self._steps is None:
            yield from iter(self._dataset)
            return
        for _ in range(self._steps):
            if self._iterator is None:
                self._iterator = iter(self._dataset)
            try:
                yield next(self._iterator)
            except StopIteration:
                self._iterator = iter(self._dataset)
                try:
                    yield next(self._iterator)
                except StopIteration:
                    return


def fit_dataset_batches(model, dataset, steps_per_epoch, class_weight=None):
    """A function giving one fit epoch's (x, y, sample_weight) batches of a dataset."""
    batches = _Batches(dataset, steps_per_epoch)

    def epoch():
        for element in batches.epoch():
            x, y, sw = _model_batch(model, element, "fit")
            yield x, y, class_weights(y, class_weight, sw)
    return epoch


def _elements(dataset, steps):
    for step, element in enumerate(iter(dataset)):
        if steps is not None and step >= steps:
            return
        yield element


def evaluate_dataset_batches(model, dataset, steps):
    """evaluate's batches of a dataset (at most `steps`), as tensors."""
    for element in _elements(dataset, steps):
        x, y, sw = _model_batch(model, element, "evaluate")
        yield as_tensors(x), as_tensors(y), as_tensors(sw)


def predict_dataset_batches(model, dataset, steps):
    """predict's batches of x from a dataset (at most `steps`), as tensors."""
    for element in _elements(dataset, steps):
        x = _numpy(element[0] if isinstance(element, tuple) else element,
                   _keeps_dicts(model, "predict"))
        model._prepare(x)
        yield as_tensors(cast_floats(x, model._data_dtype()))
