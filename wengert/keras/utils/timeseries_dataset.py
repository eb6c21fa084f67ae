"""`keras.utils.timeseries_dataset_from_array`: sliding windows over an array as a Dataset.

With s = start_index (default 0) and e = end_index (default len(data)), window i starts at
position p_i = i * sequence_stride of data[s:e] and holds data[s + p_i + k * sampling_rate] for
k < sequence_length; its target (when targets is given) is targets[s + p_i]. There are
min(e - s - (sequence_length - 1) * sampling_rate, len(targets)) candidate positions, every
sequence_stride-th one used. With shuffle, the start positions are permuted by NumPy's
RandomState(seed).shuffle and the windows pass a shuffle buffer of 8 * batch_size under seed,
as Keras's do; windows come in batches of batch_size (None: one at a time).
"""
import numpy as np

from ...data.dataset import Dataset
from ...data.methods import assert_cardinality
from ...tracing.signatures import TensorSpec

__all__ = ["timeseries_dataset_from_array"]


def _check(data, start_index, end_index, sampling_rate, sequence_stride, format):
    n = len(data)
    if start_index and not 0 <= start_index < n:
        raise ValueError(f"`start_index` must be 0 or greater and lower than the length of the "
                         f"data. Received: start_index={start_index}, for data of length {n}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError(f"`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index}")
        if not 0 < end_index < n:
            raise ValueError(f"`end_index` must be higher than 0 and lower than the length of "
                             f"the data. Received: end_index={end_index}, for data of length {n}")
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if not 0 < value < n:
            raise ValueError(f"`{name}` must be higher than 0 and lower than the length of the "
                             f"data. Received: {name}={value}, for data of length {n}")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" (grain is not available). Received: '
                         f"format={format}")


def _array(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None, format="tf"):
    """A Dataset of windows of `data` (with their targets); see the module docstring."""
    _check(data, start_index, end_index, sampling_rate, sequence_stride, format)
    data = _array(data)
    start, end = start_index or 0, end_index or len(data)
    count = end - start - (sequence_length - 1) * sampling_rate
    if targets is not None:
        targets = _array(targets)
        count = min(count, len(targets))
    positions = np.arange(0, max(count, 0), sequence_stride,
                          dtype="int32" if count < 2147483647 else "int64")
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(positions)
    offsets = np.arange(sequence_length) * sampling_rate

    def windows():
        for p in positions:
            window = data[start + p + offsets]
            yield window if targets is None else (window, targets[start + p])

    spec = TensorSpec((sequence_length,) + data.shape[1:], data.dtype.name)
    if targets is not None:
        spec = (spec, TensorSpec(targets.shape[1:], targets.dtype.name))
    dataset = Dataset.from_generator(windows, output_signature=spec).apply(
        assert_cardinality(len(positions)))
    if shuffle:
        dataset = dataset.shuffle(8 * batch_size if batch_size is not None else 1024, seed=seed)
    return dataset if batch_size is None else dataset.batch(batch_size)
