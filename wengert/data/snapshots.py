"""Datasets on disk: `Dataset.save`, `Dataset.load` and `Dataset.snapshot`.

The format is wengert's own directory format, not TensorFlow's (whose snapshot files are
TFRecord-framed protobufs of its internal tensor encoding): a directory holding
`element_spec.json` (the element structure and each component's dtype and shape) and one
`shard_<k>.npz` per shard, read back with NumPy's `allow_pickle=False`. Inside a shard, component
j of its n elements is stored column-wise: `c<j>_shapes` (n x rank), and the flattened values of
all n elements one after another: `c<j>_values` for numbers and bools, or `c<j>_lengths` and
`c<j>_bytes` for strings (any bytes, NULs included). `compression="GZIP"` writes the shards
deflated (np.savez_compressed); loading reads either.

`save(path, compression, shard_func)` runs one pass and writes it; `shard_func(element)` (an int64
scalar) picks each element's shard (default: all in shard 0). `load(path, element_spec,
compression, reader_func)` reads the shards in order, or hands `reader_func` the dataset of
shard datasets (elements that are datasets) and returns what it makes of it.
`snapshot(path)` passes elements through on the first full pass, writing them when the pass
completes, and reads them back on later passes (and in later programs); a pass cut short writes
nothing. Sparse and ragged components are not supported (TypeError).
"""
import json
import os

import numpy as np

from ..framework import dtypes
from ..framework.errors import NotFoundError
from ..framework.tensor_shape import TensorShape
from ..tracing.signatures import TensorSpec
from ..util import nest
from . import structure as st
from .dataset import UNKNOWN, Dataset, Stage
from .functional import TracedFunction
from .iterator import without_recording
from .type_specs import DatasetSpec

__all__ = ["save", "load", "SnapshotDataset"]

_SPEC_FILE = "element_spec.json"


def _spec_json(structure, specs):
    leaves = iter(specs)

    def encode(node):
        if isinstance(node, dict):
            return {"dict": [[k, encode(node[k])] for k in sorted(node, key=nest._sort_key)]}
        if isinstance(node, tuple):
            return {"tuple": [encode(v) for v in node]}
        spec = next(leaves)
        if not isinstance(spec, TensorSpec):
            raise TypeError(f"Dataset.save: only dense tensor components can be saved, got "
                            f"{spec}.")
        return {"dtype": spec.dtype.name, "shape": spec.shape.as_list()
                if spec.shape.rank is not None else None}
    return encode(structure)


def _spec_from_json(node):
    if "dict" in node:
        return {k: _spec_from_json(v) for k, v in node["dict"]}
    if "tuple" in node:
        return tuple(_spec_from_json(v) for v in node["tuple"])
    return TensorSpec(TensorShape(node["shape"]), dtypes.as_dtype(node["dtype"]))


def _columns(elements, n_components):
    out = {}
    for j in range(n_components):
        parts = [np.asarray(e[j]) for e in elements]
        out[f"c{j}_shapes"] = np.array([p.shape for p in parts], np.int64).reshape(
            len(parts), -1 if parts else 0)
        if parts and parts[0].dtype == object:
            flat = [bytes(v) if isinstance(v, bytes) else str(v).encode()
                    for p in parts for v in p.reshape(-1)]
            out[f"c{j}_lengths"] = np.array([len(v) for v in flat], np.int64)
            out[f"c{j}_bytes"] = np.frombuffer(b"".join(flat), np.uint8)
        else:
            out[f"c{j}_values"] = (np.concatenate([p.reshape(-1) for p in parts]) if parts
                                   else np.zeros(0))
    return out


def _elements(data, specs):
    n = len(data["c0_shapes"]) if specs else 0
    columns = []
    for j, spec in enumerate(specs):
        shapes = data[f"c{j}_shapes"]
        sizes = [int(np.prod(s)) for s in shapes]
        if f"c{j}_bytes" in data:
            raw, lengths = data[f"c{j}_bytes"].tobytes(), data[f"c{j}_lengths"]
            ends = np.cumsum(lengths)
            flat = np.empty(len(lengths), dtype=object)
            flat[:] = [raw[e - k:e] for e, k in zip(ends.tolist(), lengths.tolist())]
        else:
            flat = data[f"c{j}_values"].astype(spec.dtype.as_numpy_dtype, copy=False)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        columns.append([flat[starts[i]:starts[i + 1]].reshape(shapes[i]) for i in range(n)])
    return [tuple(c[i] for c in columns) for i in range(n)]


def _write(path, structure, specs, shards, compression):
    os.makedirs(path, exist_ok=True)
    writer = np.savez_compressed if compression == "GZIP" else np.savez
    for old in os.listdir(path):
        if old.startswith("shard_") and old.endswith(".npz"):
            os.unlink(os.path.join(path, old))
    for k, elements in sorted(shards.items()):
        writer(os.path.join(path, f"shard_{k}.npz"), **_columns(elements, len(specs)))
    with open(os.path.join(path, _SPEC_FILE), "w") as f:
        json.dump({"element_spec": _spec_json(structure, specs),
                   "shards": sorted(shards)}, f)


def _compression(value, what):
    if value in (None, "", "NONE", "AUTO", "GZIP"):
        return "GZIP" if value == "GZIP" else ""
    raise ValueError(f"{what}: compression must be None, 'GZIP' (or 'AUTO' for snapshot), got "
                     f"{value!r}; wengert's format supports no other.")


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """Write every element of one pass of `dataset` under the directory `path`."""
    if checkpoint_args is not None:
        raise NotImplementedError("Dataset.save: checkpoint_args (saving in steps that a "
                                  "CheckpointManager resumes) is not supported; save in one go.")
    compression = _compression(compression, "Dataset.save")
    _spec_json(dataset._structure, dataset._specs)
    key = None if shard_func is None else TracedFunction(
        shard_func, dataset._structure, dataset._specs, "Dataset.save shard_func")
    shards = {}
    with without_recording():
        for components in dataset._stage():
            k = 0 if key is None else int(np.asarray(key(components)[0]))
            shards.setdefault(k, []).append(components)
    _write(os.fspath(path), dataset._structure, dataset._specs, shards or {0: []}, compression)


class _ShardDataset(Dataset):
    def __init__(self, file, structure, specs):
        self._file = file
        super().__init__(structure, specs, UNKNOWN)

    def _stage(self):
        with np.load(self._file, allow_pickle=False) as data:
            return iter(_elements(data, self._specs))


class _ListDataset(Dataset):
    def __init__(self, structure, specs, elements):
        self._elements = list(elements)
        super().__init__(structure, specs, len(self._elements))

    def _stage(self):
        return iter(self._elements)


def load(path, element_spec=None, compression=None, reader_func=None):
    """The dataset saved under `path` by Dataset.save."""
    path = os.fspath(path)
    _compression(compression, "Dataset.load")
    meta_file = os.path.join(path, _SPEC_FILE)
    if not os.path.exists(meta_file):
        raise NotFoundError(f"Dataset.load: no saved dataset at '{path}' (its {_SPEC_FILE} is "
                            f"missing).")
    with open(meta_file) as f:
        meta = json.load(f)
    spec = element_spec if element_spec is not None else _spec_from_json(meta["element_spec"])
    structure, specs = st.structure_of(spec), nest.flatten(spec)
    shards = [_ShardDataset(os.path.join(path, f"shard_{k}.npz"), structure, specs)
              for k in meta["shards"]]
    if reader_func is not None:
        out = reader_func(_ListDataset(None, [DatasetSpec(spec)], [(s,) for s in shards]))
        if not isinstance(out, Dataset):
            raise TypeError(f"Dataset.load: reader_func must return a Dataset, got "
                            f"{type(out).__name__}.")
        return out
    out = shards[0]
    for shard in shards[1:]:
        out = out.concatenate(shard)
    return out


class _SnapshotStage(Stage):
    def __init__(self, dataset):
        self._ds, self._up, self._seen = dataset, dataset._input._stage(), []

    def __next__(self):
        try:
            item = next(self._up)
        except StopIteration:
            ds = self._ds
            _write(ds._path, ds._structure, ds._specs, {0: self._seen}, ds._compression)
            raise
        self._seen.append(item)
        return item


class SnapshotDataset(Dataset):
    """`dataset.snapshot(path, compression='AUTO', reader_func=None, shard_func=None)`."""

    def __init__(self, dataset, path, compression="AUTO", reader_func=None, shard_func=None):
        if shard_func is not None:
            raise NotImplementedError("Dataset.snapshot: shard_func is not supported; a "
                                      "snapshot is written as one shard.")
        _spec_json(dataset._structure, dataset._specs)
        self._input, self._path = dataset, os.fspath(path)
        self._compression = _compression(compression, "Dataset.snapshot")
        self._reader_func = reader_func
        super().__init__(dataset._structure, dataset._specs, dataset._cardinality, (dataset,))

    def _stage(self):
        if os.path.exists(os.path.join(self._path, _SPEC_FILE)):
            saved = load(self._path, self.element_spec, reader_func=self._reader_func)
            return saved._stage()
        return _SnapshotStage(self)
