"""`keras.utils.split_dataset`: two datasets from one.

split_dataset(dataset, left_size, right_size, shuffle, seed) follows Keras 3: the samples of
an array, a tuple/list of arrays (one sample per row of each) or a tf.data Dataset (unbatched
first when it is batched) are listed, shuffled with Python's `random` under `seed` when asked,
and split into the first left_size and the last right_size samples (floats are fractions of the
total, rounded; a missing size is the rest); each side comes back as a Dataset of those
samples, batched again like a batched input. preferred_backend may only be "tensorflow" (or
None): torch datasets are not available.
"""
import random

import numpy as np

from ...data.batching import BatchDataset
from ...data.dataset import Dataset
from ...util import nest

__all__ = ["split_dataset"]


def _numpy(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def _samples(dataset):
    """(list of samples, structure of one sample or None for plain rows, batch size)."""
    if isinstance(dataset, (tuple, list)):
        if not dataset:
            raise ValueError("split_dataset: received an empty list/tuple; pass a non-empty "
                             "tuple of arrays of the same length.")
        arrays = [_numpy(a) for a in dataset]
        lengths = {len(a) for a in arrays}
        if len(lengths) != 1:
            raise ValueError("split_dataset: the arrays have different lengths "
                             f"{[len(a) for a in arrays]}; they must share their first "
                             "dimension.")
        return list(zip(*arrays)), tuple(range(len(arrays))), None
    if isinstance(dataset, Dataset):
        batch = dataset._size if isinstance(dataset, BatchDataset) else None
        source = dataset.unbatch() if batch is not None else dataset
        samples = [nest.map_structure(_numpy, s) for s in source]
        if not samples:
            raise ValueError("split_dataset: received an empty dataset.")
        return samples, samples[0], batch
    if isinstance(dataset, np.ndarray) or hasattr(dataset, "numpy"):
        return list(_numpy(dataset)), None, None
    raise TypeError("split_dataset: `dataset` must be a tf.data.Dataset, a NumPy array or a "
                    f"list/tuple of arrays. Received: {type(dataset).__name__}.")


def _split_sizes(left_size, right_size, total):
    """Keras's _rescale_dataset_split_sizes: the two sizes as ints."""
    for size, side in ((left_size, "left"), (right_size, "right")):
        if size is not None and type(size) not in (int, float):
            raise TypeError(f"split_dataset: `{side}_size` must be an int, a float or None. "
                            f"Received: {type(size).__name__}.")
        if (type(size) is int and not 0 < size < total) or (
                type(size) is float and not 0 < size < 1):
            raise ValueError(f"split_dataset: `{side}_size` must be a positive integer smaller "
                             f"than {total}, or a float in (0, 1). Received: {size}.")
    if left_size is None and right_size is None:
        raise ValueError("split_dataset: at least one of `left_size` and `right_size` must be "
                         "given.")
    if type(left_size) is float and type(right_size) is float and left_size + right_size > 1:
        raise ValueError("split_dataset: the sum of `left_size` and `right_size` is greater "
                         "than 1.")
    left = round(left_size * total) if type(left_size) is float else left_size
    right = round(right_size * total) if type(right_size) is float else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"split_dataset: left_size + right_size = {left + right} is more than "
                         f"the {total} samples.")
    for size, side in ((left, "left"), (right, "right")):
        if size == 0:
            raise ValueError(f"split_dataset: with {total} samples, left_size={left} and "
                             f"right_size={right}, the {side} split would be empty.")
    return int(left), int(right)


def _restore(samples, structure, batch):
    if structure is None:
        data = np.stack(samples)
    else:
        columns = [np.stack(c) for c in zip(*[nest.flatten(s) for s in samples])]
        data = nest.pack_sequence_as(structure, columns)
        if isinstance(data, list):
            data = tuple(data)
    ds = Dataset.from_tensor_slices(data)
    return ds.batch(batch) if batch is not None else ds


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None,
                  preferred_backend=None):
    """Split a dataset (arrays, a tuple of arrays, or a Dataset) into two Datasets."""
    if preferred_backend not in (None, "tensorflow"):
        raise ValueError(f"split_dataset: preferred_backend={preferred_backend!r} is not "
                         "available; wengert gives tf.data Datasets (preferred_backend=None "
                         "or 'tensorflow').")
    samples, structure, batch = _samples(dataset)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.Random(seed).shuffle(samples)  # the order Keras's random.seed + shuffle gives
    left, right = _split_sizes(left_size, right_size, len(samples))
    return (_restore(samples[:left], structure, batch),
            _restore(samples[-right:], structure, batch))

