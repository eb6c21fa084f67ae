"""Keras's categorical preprocessing layers (Keras 3 semantics), computed on the host in NumPy
(through `numpy_function` inside traced functions); none is differentiable, as in Keras:

    StringLookup / IntegerLookup: tokens -> indices. Index 0 is the mask token when one is given,
        then `num_oov_indices` out-of-vocabulary indices, then the vocabulary; `adapt` orders the
        vocabulary by frequency (ties: the larger token first), capped at `max_tokens`;
        `invert=True` maps indices back. output_mode: int, one_hot, multi_hot, count (all int64).
        An adapted vocabulary is kept in the config (and read back from a `.keras` file's
        `assets/<layer path>/vocabulary.txt`, where TensorFlow's Keras writes it). As on Keras's
        TensorFlow backend, the tokens are looked up in a tf.lookup.StaticHashTable (built from
        the vocabulary when first called, again after `set_vocabulary` or `adapt`), so the
        layer traces with its input's shape, runs in `Dataset.map` and saves in a SavedModel;
        an OOV token goes to the OOV index, or with `num_oov_indices` n > 1 to OOV index
        floormod(token, n) (integers) or Fingerprint64(token) mod n (strings), as Keras's.
    CategoryEncoding(num_tokens, output_mode): one_hot / multi_hot / count of integer inputs
        (float32).
    A RaggedTensor input is looked up token by token (its flat values), keeping its rows;
    multi_hot and count of ragged rows are dense [rows, depth].
    Discretization(bin_boundaries or num_bins + adapt): the index of the bin of each value
        (bins closed on the left); adapt estimates the data's num_bins-quantiles batch by
        batch as Keras 3 does: each batch summarized by every (size * epsilon)-th sorted value,
        summaries merged and cut back to 1 / epsilon points, the boundaries interpolated at
        cumulative shares 1/num_bins, 2/num_bins, ....
        The learned boundaries are in the config beside num_bins, as Keras writes them.
"""
import collections
import os

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...data.lookup_tables import StaticHashTable
from ...data.table_initializers import KeyValueTensorInitializer
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import constant, convert_to_tensor
from ...ops import ragged as _ragged_methods  # noqa: F401 (RaggedTensor's methods)
from ...ops.array_ops import where
from ...ops.cast_ops import cast
from ...ops.creation_ops import one_hot
from ...ops.io.script import numpy_function
from ...ops.io.string_hashing import to_hash_bucket_fast
from ...ops.math_ops import equal, floormod, minimum
from ...ops.segment_ops import unsorted_segment_sum
from ...tracing.func_graph import init_scope
from .base import Layer

__all__ = ["StringLookup", "IntegerLookup", "CategoryEncoding", "Discretization",
           "vocabulary_tokens", "encode_ragged_rows"]

_MODES = ("int", "one_hot", "multi_hot", "count")


def _host(fn, x, dtype, output_shape=None):
    """fn(array) eagerly, or as a numpy_function op while tracing, whose static shape is then
    output_shape(the input's shape) when that function is given and the input's rank known.
    A RaggedTensor's flat values go through fn (an element-by-element fn), keeping its rows."""
    if isinstance(x, RaggedTensor):
        return x.with_flat_values(_host(fn, x.flat_values, dtype, output_shape))
    x = convert_to_tensor(x)
    if state.graph is None:
        return constant(np.asarray(fn(x.numpy())), dtype)
    out = numpy_function(fn, [x], dtype)
    if output_shape is not None and x.shape.rank is not None:
        out.set_shape(output_shape(tuple(x.shape)))
    return out


def _same_shape(shape):
    return shape


def _encode(indices, depth, mode):
    """one_hot / multi_hot / count of integer indices (the last axis is one sample's tokens)."""
    indices = np.asarray(indices)
    if mode == "one_hot":
        return np.eye(depth, dtype=np.float32)[indices]
    rows = indices.reshape(-1, indices.shape[-1]) if indices.ndim else indices.reshape(1, 1)
    out = np.zeros((rows.shape[0], depth), np.float32)
    for r, row in enumerate(rows):
        np.add.at(out[r], row, 1.0)
    if mode == "multi_hot":
        out = np.minimum(out, 1.0)
    shape = indices.shape[:-1] if indices.ndim > 1 else ((1,) if indices.ndim else ())
    return out.reshape(tuple(shape) + (depth,)) if indices.ndim > 1 else out[0]


def encode_ragged_rows(indices, depth, mode, dtype):
    """multi_hot / count of each row of a RaggedTensor of indices (ragged rank 1), as Keras
    encodes ragged inputs: a dense [rows, depth] tensor (one_hot stays per token)."""
    counts = unsorted_segment_sum(one_hot(indices.flat_values, depth, dtype=dtype),
                                  indices.value_rowids(), indices.nrows())
    return minimum(counts, cast(1, dtype)) if mode == "multi_hot" else counts


_UNSUPPORTED = {"sparse": False, "idf_weights": None, "encoding": "utf-8", "salt": None,
                "oov_method": "floormod"}


def _keras_options(name, kwargs):
    """Take the options of Keras 3's lookup config out of `kwargs`: pad_to_max_tokens (returned)
    and the ones wengert has only at their defaults (sparse outputs, tf_idf weights, another
    encoding than UTF-8, salted hashing are refused); vocabulary_size is informational."""
    kwargs.pop("vocabulary_size", None)
    for key, default in _UNSUPPORTED.items():
        value = kwargs.pop(key, default)
        if value != default and not (key == "encoding" and str(value).lower() in ("utf8",)):
            raise NotImplementedError(f"{name}: {key}={value!r} is not available in wengert; "
                                      f"use the default {key}={default!r}.")
    return bool(kwargs.pop("pad_to_max_tokens", False))


def vocabulary_tokens(vocabulary, name):
    """The tokens of a `vocabulary` argument: an array, list or tensor of tokens, or the path of
    a text file with one token a line, as Keras's lookup layers take it (a tf.lookup table is
    not one: Keras 3 does not take a table)."""
    if isinstance(vocabulary, str):
        if not os.path.isfile(vocabulary):
            raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
        with open(vocabulary, "rb") as f:
            lines = f.read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        out = np.empty(len(lines), object)
        out[:] = [line.rstrip(b"\r") for line in lines]
        return out
    if hasattr(vocabulary, "lookup") and hasattr(vocabulary, "key_dtype"):
        raise TypeError(f"{name}: `vocabulary` must be a list or array of tokens or the path of "
                        f"a vocabulary file, not a tf.lookup table ({type(vocabulary).__name__})"
                        f"; pass the table's keys (`table.export()[0]`) instead.")
    return np.asarray(vocabulary.numpy() if hasattr(vocabulary, "numpy") else vocabulary)


class _Lookup(Layer):
    _kind = None  # "string" or "int"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, invert=False, output_mode="int", **kwargs):
        kwargs.pop("vocabulary_dtype", None)
        self.pad_to_max_tokens = _keras_options(type(self).__name__, kwargs)
        super().__init__(**kwargs)
        if output_mode not in _MODES:
            raise ValueError(f"{type(self).__name__}: output_mode {output_mode!r} is not "
                             f"supported; use one of {list(_MODES)}.")
        if invert and output_mode != "int":
            raise ValueError(f"{type(self).__name__}: invert=True needs output_mode='int'.")
        if self.pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"{type(self).__name__}: pad_to_max_tokens=True needs max_tokens "
                             "(the width of the encoded outputs).")
        self.max_tokens, self.num_oov_indices = max_tokens, int(num_oov_indices)
        self.mask_token, self.oov_token = mask_token, oov_token
        self.invert, self.output_mode = invert, output_mode
        self._vocab = []
        self._table, self._table_vocab = None, None
        self._input_vocabulary = vocabulary is not None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    # -- the vocabulary ---------------------------------------------------------------------------
    def _key(self, token):
        return token.encode() if isinstance(token, str) else token

    def set_vocabulary(self, vocabulary):
        """Set the tokens (index order). A vocabulary that starts with the mask and OOV tokens
        in the layer's order (what `get_vocabulary()` returns) has them taken off, as Keras 3
        does; anywhere else they are an error."""
        name = type(self).__name__
        vocabulary = vocabulary_tokens(vocabulary, name)
        tokens = [self._key(t) for t in vocabulary.reshape(-1).tolist()]
        if not tokens:
            raise ValueError(f"{name}: cannot set an empty vocabulary.")
        special = [self._key(t) for t in ([self.mask_token] if self.mask_token is not None
                                          else []) + [self.oov_token] * self.num_oov_indices]
        if tokens[:len(special)] == special:
            tokens = tokens[len(special):]
        if len(set(tokens)) != len(tokens):
            raise ValueError(f"{name}: the vocabulary has repeated tokens.")
        for token, what, applies in ((self.mask_token, "mask", True),
                                     (self.oov_token, "OOV", self.invert)):
            if token is not None and applies and self._key(token) in tokens:
                raise ValueError(f"{name}: the {what} token {token!r} is in the vocabulary "
                                 f"after its start; leave the mask and OOV tokens out, or put "
                                 f"them first in this order: {special}.")
        if self.max_tokens is not None and len(special) + len(tokens) > self.max_tokens:
            raise ValueError(f"{name}: a vocabulary of {len(special) + len(tokens)} entries "
                             f"is larger than max_tokens={self.max_tokens}.")
        self._vocab = tokens

    def load_vocabulary_asset(self, text):
        """Take the vocabulary from a `.keras` file's `vocabulary.txt` (one token a line, the
        mask and OOV tokens first), where Keras keeps an adapted layer's vocabulary; a layer
        given its vocabulary in its config keeps that one."""
        if self._input_vocabulary:
            return
        lines = text.splitlines()
        while lines and lines[-1] == "" and len(lines) > self._reserved():
            lines.pop()
        tokens = lines if self._kind == "string" else [int(t) for t in lines]
        if len(tokens) > self._reserved():
            self.set_vocabulary(np.asarray(tokens, dtype=object))

    def adapt(self, data, batch_size=None, steps=None):
        arrays = [np.asarray(data.numpy() if hasattr(data, "numpy") else data)] \
            if not hasattr(data, "element_spec") else [np.asarray(b) for b in data]
        counts = collections.Counter()
        for a in arrays:
            counts.update(self._key(t) for t in a.reshape(-1).tolist())
        counts.pop(self._key(self.mask_token), None) if self.mask_token is not None else None
        ordered = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
        room = None if self.max_tokens is None else self.max_tokens - self._reserved()
        self._vocab = [t for t, _ in ordered][:room]

    def _reserved(self):
        return (self.mask_token is not None) + self.num_oov_indices

    def get_vocabulary(self):
        head = ([] if self.mask_token is None else [self.mask_token]) + \
            [self.oov_token] * self.num_oov_indices
        # as Keras's: tokens come out of its table as NumPy scalars, special tokens as given
        body = [np.str_(t.decode() if isinstance(t, bytes) else t) if self._kind == "string"
                else np.int64(t) for t in self._vocab]
        return head + body

    def vocabulary_size(self):
        return self._reserved() + len(self._vocab)

    # -- calling ------------------------------------------------------------------------------------
    def _indices(self, array):
        table = {t: i + self._reserved() for i, t in enumerate(self._vocab)}
        oov = int(self.mask_token is not None)
        mask = self._key(self.mask_token) if self.mask_token is not None else None
        flat = [0 if mask is not None and t == mask else table.get(t, oov)
                for t in np.asarray(array).reshape(-1).tolist()]
        return np.asarray(flat, np.int64).reshape(np.shape(array))

    def _inverse(self, array):
        tokens = [self._key(t) for t in self.get_vocabulary()]
        out = np.empty(np.shape(array), object if self._kind == "string" else np.int64)
        flat = out.reshape(-1)
        for k, i in enumerate(np.asarray(array).reshape(-1).astype(np.int64).tolist()):
            flat[k] = tokens[i] if 0 <= i < len(tokens) else tokens[int(self.mask_token
                                                                           is not None)]
        return out

    def _lookup_table(self):
        """The StaticHashTable of the current vocabulary (tokens -> indices, or indices ->
        tokens when inverting); made outside any trace, once per vocabulary."""
        if self._table is not None and self._table_vocab is self._vocab:
            return self._table
        token_dtype = dtypes.string if self._kind == "string" else dtypes.int64
        tokens = np.empty(len(self._vocab), object if self._kind == "string" else np.int64)
        tokens[:] = self._vocab
        indices = np.arange(len(self._vocab), dtype=np.int64) + self._reserved()
        with init_scope():
            if self.invert:
                default = self._key(self.oov_token if self.oov_token is not None else "")
                init = KeyValueTensorInitializer(indices, tokens, dtypes.int64, token_dtype)
            else:
                default = int(self.mask_token is not None) if self.num_oov_indices == 1 else -1
                init = KeyValueTensorInitializer(tokens, indices, token_dtype, dtypes.int64)
            self._table = StaticHashTable(init, default)
        self._table_vocab = self._vocab
        return self._table

    def _lookup_ops(self, inputs):
        """Keras's lookup of tokens (or, inverting, of indices) as table ops (a RaggedTensor's
        flat values, keeping its rows)."""
        if isinstance(inputs, RaggedTensor):
            return inputs.with_flat_values(self._lookup_ops(inputs.flat_values))
        x = convert_to_tensor(inputs)
        if self._kind == "int" or self.invert:
            x = cast(x, dtypes.int64)
        found = self._lookup_table().lookup(x)
        if self.mask_token is not None:
            mask = self._key(self.mask_token) if not self.invert else 0
            value = 0 if not self.invert else self._key(self.mask_token)
            found = where(equal(x, mask), value, found)
        if self.invert or self.num_oov_indices <= 1:
            return found
        n, start = self.num_oov_indices, int(self.mask_token is not None)
        oov = floormod(x, n) if self._kind == "int" else to_hash_bucket_fast(x, n)
        return where(equal(found, -1), oov + start, found)

    def compute_output_shape(self, input_shape):
        """Indices (or tokens) have the input's shape; the encoded modes are probed."""
        if self.output_mode == "int":
            return input_shape
        return super().compute_output_shape(input_shape)

    @property
    def _symbolic_output_dtype(self):
        """What call returns, for the KerasTensor of a functional model (not the layer's float
        dtype): tokens when inverting, else int64 indices or counts, as Keras 3."""
        return dtypes.string if self.invert and self._kind == "string" else dtypes.int64

    def call(self, inputs):
        if self.output_mode == "int" and (self.invert or self.num_oov_indices > 0):
            return self._lookup_ops(inputs)
        if self.invert:
            return _host(self._inverse, inputs, dtypes.string if self._kind == "string"
                         else dtypes.int64, _same_shape)
        if self.output_mode == "int":  # no OOV index: an OOV token is an error
            return _host(self._indices, inputs, dtypes.int64, _same_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        mode = self.output_mode  # int64 counts, as Keras 3
        if isinstance(inputs, RaggedTensor) and mode != "one_hot":
            return encode_ragged_rows(_host(self._indices, inputs, dtypes.int64, _same_shape),
                                      depth, mode, dtypes.int64)
        return _host(lambda a: _encode(self._indices(a), depth, mode).astype(np.int64), inputs,
                     dtypes.int64)

    def get_config(self):
        config = super().get_config()
        config.update(max_tokens=self.max_tokens, num_oov_indices=self.num_oov_indices,
                      mask_token=self.mask_token, oov_token=self.oov_token,
                      invert=self.invert, output_mode=self.output_mode,
                      pad_to_max_tokens=self.pad_to_max_tokens,
                      vocabulary=[t.item() if hasattr(t, "item") else t  # plain, as Keras's
                                  for t in self.get_vocabulary()[self._reserved():]])
        return config


class StringLookup(_Lookup):
    _kind = "string"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, invert=False, output_mode="int", **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         invert, output_mode, **kwargs)


class IntegerLookup(_Lookup):
    _kind = "int"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, invert=False, output_mode="int", **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         invert, output_mode, **kwargs)

    def _key(self, token):
        return int(token)


class CategoryEncoding(Layer):
    def __init__(self, num_tokens=None, output_mode="multi_hot", **kwargs):
        super().__init__(**kwargs)
        if output_mode not in _MODES[1:]:
            raise ValueError(f"CategoryEncoding: output_mode {output_mode!r} is not supported; "
                             "use 'one_hot', 'multi_hot' or 'count'.")
        self.num_tokens, self.output_mode = int(num_tokens), output_mode

    def _encode(self, array):
        array = np.asarray(array)
        if array.size and (array.min() < 0 or array.max() >= self.num_tokens):
            raise ValueError(f"CategoryEncoding: input values must be in [0, {self.num_tokens})"
                             f", got values in [{array.min()}, {array.max()}].")
        return _encode(array.astype(np.int64), self.num_tokens, self.output_mode)

    def call(self, inputs):
        if isinstance(inputs, RaggedTensor) and self.output_mode != "one_hot":
            return encode_ragged_rows(inputs, self.num_tokens, self.output_mode,
                                      dtypes.float32)
        return _host(self._encode, inputs, dtypes.float32)

    def get_config(self):
        config = super().get_config()
        config.update(num_tokens=self.num_tokens, output_mode=self.output_mode)
        return config


def _summary(values, epsilon):
    """Keras's quantile summary of one batch: [values, weights], every step-th of the sorted
    values (step = size * epsilon, at least 1), each standing for `step` values."""
    values = np.sort(np.asarray(values, np.float32).reshape(-1))
    step = max(values.size * epsilon, 1)
    kept = values[int(step - 1)::int(step)]
    return np.stack([kept, np.ones_like(kept) * step])


def _compress(summary, epsilon):
    """A summary (sorted by value) cut to about 1 / epsilon entries: the values at cumulative
    weight shares epsilon, 2 epsilon, ..., 1 (interpolated), with the weights between them."""
    if summary.shape[1] * epsilon < 1:
        return summary
    targets = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    shares = cumulative / cumulative[-1]
    values = np.interp(targets, shares, summary[0])
    at = np.interp(targets, shares, cumulative)
    return np.stack([values, at - np.concatenate(([0], at[:-1]))]).astype(np.float32)


class Discretization(Layer):
    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 **kwargs):
        super().__init__(**kwargs)
        if (bin_boundaries is None) == (num_bins is None):
            raise ValueError("Discretization: give exactly one of `bin_boundaries` and "
                             "`num_bins` (then call adapt()).")
        self.bin_boundaries = None if bin_boundaries is None else list(bin_boundaries)
        self.num_bins, self.epsilon, self.output_mode = num_bins, epsilon, output_mode

    def adapt(self, data, batch_size=None, steps=None):
        """Learn num_bins - 1 boundaries from the data's quantiles, estimated batch by batch
        within `epsilon` as Keras 3 does (see _summary)."""
        if self.num_bins is None:
            raise ValueError("Discretization.adapt: this layer was given `bin_boundaries`; make "
                             "it with `num_bins` to learn them.")
        batches = data if hasattr(data, "element_spec") else [data]
        summary = np.zeros((2, 0), np.float32)
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            merged = np.concatenate([_summary(np.asarray(batch), self.epsilon), summary], axis=1)
            summary = _compress(np.take(merged, np.argsort(merged[0]), axis=1), self.epsilon)
        self.bin_boundaries = _compress(summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(f"Discretization layer {self.name!r}: call adapt() first.")
        edges = np.asarray(self.bin_boundaries)
        return _host(lambda a: np.searchsorted(edges, a, side="right").astype(np.int64),
                     inputs, dtypes.int64)

    def get_config(self):
        """Keras's keys only (its Discretization takes no `trainable`)."""
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode, "sparse": False,
                "name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """An adapted layer's config names both `num_bins` and the learned `bin_boundaries`
        (Keras writes both): the layer is made from num_bins and given the boundaries."""
        config = dict(config)
        boundaries = config.pop("bin_boundaries", None)
        if config.get("num_bins") is None:
            config["bin_boundaries"] = boundaries
            boundaries = None
        config.pop("sparse", None)
        layer = super().from_config(config)
        if boundaries is not None:
            layer.bin_boundaries = [float(b) for b in boundaries]
        return layer
