"""`keras.utils`: set_random_seed, to_categorical, normalize, pad_sequences, split_dataset,
model_to_dot and plot_model.

pad_sequences pads (value, at the front for padding="pre") or cuts (the front for
truncating="pre") every sequence to maxlen (default: the longest), as a NumPy array of dtype.
normalize divides by the L-order norm along axis: NumPy arrays as NumPy does it (zero norms left
as 1), tensors as keras.ops.normalize (x min(rsqrt(sum x^2), 1 / eps) for order 2).

split_dataset(dataset, left_size, right_size, shuffle, seed) follows Keras 3: the samples of
an array, a tuple/list of arrays (one sample per row of each) or a tf.data Dataset (unbatched
first when it is batched) are listed, shuffled with Python's `random` under `seed` when asked,
and split into the first left_size and the last right_size samples (floats are fractions of the
total, rounded; a missing size is the rest); each side comes back as a Dataset of those
samples, batched again like a batched input.

plot_model draws the model's layer graph with Graphviz: model_to_dot gives the DOT source (a
string; Keras returns a pydot graph), plot_model writes it to `to_file` (".dot" as text, any
other extension rendered by Graphviz's `dot` program, which must be installed).
"""
import os
import random
import shutil
import subprocess

import numpy as np

from ..data.batching import BatchDataset
from ..data.dataset import Dataset
from ..framework.tensor import convert_to_tensor
from ..ops.math_ops import maximum, minimum
from ..ops.random import seeded as random_ops
from ..ops.reduce_ops import reduce_sum
from ..ops.unary_ops import abs as abs_, rsqrt
from ..util import nest
from . import backend, seed_generator
from .data_adapter import pack_x_y_sample_weight, unpack_x_y_sample_weight

__all__ = ["set_random_seed", "to_categorical", "normalize", "pad_sequences", "split_dataset",
           "model_to_dot", "plot_model", "pack_x_y_sample_weight", "unpack_x_y_sample_weight"]


def set_random_seed(seed):
    """Seed Python's `random`, NumPy's global generator, `tf.random`'s global seed (random ops
    and `Dataset.shuffle` without a seed of their own), Keras's own generator (initializers,
    Dropout and fit's shuffling draw from it), and forget keras.random's global SeedGenerator,
    so a run can be repeated exactly."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("keras.utils.set_random_seed: expected `seed` argument to be an "
                         f"integer. Received: seed={seed!r} (of type {type(seed).__name__}); "
                         "pass int(seed).")
    random.seed(seed)
    np.random.seed(seed)
    random_ops.set_seed(seed)
    backend.reseed(seed)
    seed_generator.reset_global_seed_generator()


def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot rows for integer class labels."""
    y = np.asarray(y, dtype="int64")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    y = y.reshape(-1)
    num_classes = num_classes or int(y.max()) + 1
    out = np.zeros((y.size, num_classes), dtype=dtype)
    out[np.arange(y.size), y] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """x divided by its L-`order` norm along `axis`."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"normalize: `order` must be an int >= 1. Received: order={order}")
    x = convert_to_tensor(x)
    eps = backend.epsilon()
    if order == 2:
        inv = rsqrt(reduce_sum(x * x, axis, keepdims=True))
        return x * minimum(inv, x.dtype.as_numpy_dtype(1.0 / eps))
    norm = reduce_sum(abs_(x) ** order, axis, keepdims=True) ** (1.0 / order)
    return x / maximum(norm, x.dtype.as_numpy_dtype(eps))


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """A [len(sequences), maxlen, ...] array of the sequences, padded or cut to maxlen."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("pad_sequences: `sequences` must be iterable.")
    lengths, sample_shape = [], None
    for i, seq in enumerate(sequences):
        if not hasattr(seq, "__len__"):
            raise ValueError("pad_sequences: `sequences` must be a list of iterables. Found "
                             f"non-iterable: {seq!r} at index {i}.")
        lengths.append(len(seq))
        if sample_shape is None and len(seq):
            sample_shape = np.asarray(seq).shape[1:]
    sample_shape = sample_shape or ()
    maxlen = int(np.max(lengths)) if maxlen is None and lengths else (maxlen or 0)
    is_str = dtype is not object and np.issubdtype(np.dtype(dtype), np.str_)
    if isinstance(value, str) and dtype is not object and not is_str:
        raise ValueError(f"pad_sequences: `dtype` {dtype} is not compatible with `value`'s type "
                         f"{type(value)}; use dtype=object for variable length strings.")
    out = np.full((len(sequences), maxlen) + tuple(sample_shape), value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating not in ("pre", "post"):
            raise ValueError(f'pad_sequences: truncating type "{truncating}" not understood; '
                             'use "pre" or "post".')
        cut = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if cut.shape[1:] != tuple(sample_shape):
            raise ValueError(f"pad_sequences: shape of sample {cut.shape[1:]} of sequence at "
                             f"position {i} differs from the expected {tuple(sample_shape)}.")
        if padding == "post":
            out[i, :len(cut)] = cut
        elif padding == "pre":
            out[i, -len(cut):] = cut
        else:
            raise ValueError(f'pad_sequences: padding type "{padding}" not understood; use '
                             '"pre" or "post".')
    return out


# -- split_dataset ----------------------------------------------------------------------------
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


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    """Split a dataset (arrays, a tuple of arrays, or a Dataset) into two Datasets."""
    samples, structure, batch = _samples(dataset)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.Random(seed).shuffle(samples)  # the order Keras's random.seed + shuffle gives
    left, right = _split_sizes(left_size, right_size, len(samples))
    return (_restore(samples[:left], structure, batch),
            _restore(samples[-right:], structure, batch))


# -- plot_model -------------------------------------------------------------------------------
def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _graph(model):
    """(layers in order, edges between layers) of a Sequential or functional model."""
    nodes = getattr(model, "_nodes", None)
    if getattr(model, "_is_functional", False) and nodes:
        layers, edges = [], []
        for node in nodes:
            if node.layer not in layers:
                layers.append(node.layer)
            for t in node.input_tensors:
                edge = (t.node.layer, node.layer)
                if edge not in edges:
                    edges.append(edge)
        return layers, edges
    layers = list(model.layers)
    return layers, list(zip(layers[:-1], layers[1:]))


def _label(layer, show_shapes, show_dtype, show_layer_names, show_layer_activations,
           show_trainable):
    lines = [f"{layer.name} ({type(layer).__name__})" if show_layer_names
             else type(layer).__name__]
    activation = getattr(layer, "activation", None)
    if show_layer_activations and activation is not None:
        lines.append(f"Activation: {getattr(activation, '__name__', activation)}")
    if show_shapes:
        shape = getattr(layer, "_output_shape", None)
        if shape is None and hasattr(layer, "_batch_input_shape"):
            shape = layer._batch_input_shape
        text = "multiple" if shape is None else (
            str([tuple(s) for s in shape]) if isinstance(shape, list) else str(tuple(shape)))
        lines.append(f"Output shape: {text}")
    if show_dtype:
        lines.append(f"Output dtype: {getattr(layer, 'dtype', None)}")
    if show_trainable:
        lines.append(f"Trainable: {'Y' if layer.trainable else 'N'}")
    return "\\n".join(lines)


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", expand_nested=False, dpi=200, subgraph=False,
                 show_layer_activations=False, show_trainable=False, **kwargs):
    """The DOT source (a string) of the model's layer graph."""
    if not model.layers:
        raise ValueError("model_to_dot: the model has no layers; build it first.")
    layers, edges = _graph(model)
    lines = [f"digraph {_quote(model.name)} {{", f"  rankdir={rankdir};", f"  dpi={dpi};",
             "  concentrate=true;", "  node [shape=record];"]
    for layer in layers:
        label = _label(layer, show_shapes, show_dtype, show_layer_names,
                       show_layer_activations, show_trainable)
        lines.append(f"  {_quote(id(layer))} [label={_quote(label)}];")
    for a, b in edges:
        lines.append(f"  {_quote(id(a))} -> {_quote(id(b))};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=False, rankdir="TB", expand_nested=False, dpi=200,
               show_layer_activations=False, show_trainable=False, **kwargs):
    """Write the model's layer graph to `to_file`: DOT text for ".dot", otherwise an image
    rendered by Graphviz's `dot` (its format from the extension: png, svg, pdf, ...)."""
    source = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                          show_layer_names=show_layer_names, rankdir=rankdir,
                          expand_nested=expand_nested, dpi=dpi,
                          show_layer_activations=show_layer_activations,
                          show_trainable=show_trainable)
    extension = os.path.splitext(to_file)[1][1:].lower() or "png"
    if extension in ("dot", "gv"):
        with open(to_file, "w") as f:
            f.write(source)
        return None
    dot = shutil.which("dot")
    if dot is None:
        raise ImportError("plot_model: Graphviz's `dot` program was not found; install "
                          "Graphviz (e.g. `apt-get install graphviz`, see "
                          "https://graphviz.gitlab.io/download/) or write the DOT source with "
                          "to_file='model.dot'.")
    done = subprocess.run([dot, f"-T{extension}", "-o", to_file], input=source.encode(),
                          capture_output=True)
    if done.returncode != 0:
        raise ValueError(f"plot_model: Graphviz could not render {to_file!r} as "
                         f"{extension!r}: {done.stderr.decode(errors='replace').strip()}")
    return None
