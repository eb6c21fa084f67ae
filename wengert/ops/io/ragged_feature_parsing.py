"""`tf.io.RaggedFeature` in parse_example and friends: a record's values as a RaggedTensor.

A RaggedFeature reads the values of `value_key` (its own key by default) and of each
partition's int64 feature, then splits the values into rows, innermost partition first, as
TensorFlow's parsing_config.py composes them. One record (parse_single_example) with values v:

    RowSplits(p)    rows v[p[i]:p[i+1]]            RowLengths(p)  splits [0] + cumsum(p)
    RowStarts(p)    splits p + [len(v)]            RowLimits(p)   splits [0] + p
    ValueRowIds(p)  value j in row p[j], p[-1] + 1 rows
    UniformRowLength(n)  rows of n: a uniform dimension (a reshape when innermost)

no partitions giving the dense 1-D values. A batch of B records (parse_example) adds the
batch as the outermost ragged dimension, row splits the running sum of the records' value
counts, and applies each partition to all records at once with the records' offsets added,
so RowLengths [2, 1] / [1] over values [1, 2, 3] / [4] give [[[1, 2], [3]], [[4]]]:

    RowSplits/RowLimits  limits + the record's first value (a RowSplits' leading 0 dropped)
    RowStarts            starts + the record's first value
    RowLengths           unchanged; the record's row count is its number of lengths
    ValueRowIds          ids + the rows of earlier records; a record has max(id) + 1 rows
    UniformRowLength(n)  inner rows of n; the batch's splits divided by n

A partition feature a record lacks holds no rows. `validate=True` checks each partition with
TensorFlow's checks and messages (splits start at 0, never decrease, end at the number of
values; lengths are >= 0; ids are sorted and >= 0); without it a bad partition gives whatever
TensorFlow's composition gives. Everything runs inside the parsing op's kernel (NumPy), so it
works eagerly, in tf.function and in Dataset.map; the op's outputs per feature are the flat
values and the row splits of each ragged level, outermost first, in row_splits_dtype.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .parsing_config import RaggedFeature

__all__ = ["ragged_spec", "check_ragged_keys", "ragged_outputs", "ragged_rule",
           "ragged_result", "output_count", "compose_rows", "compose_one", "column",
           "sequence_outputs"]

_WORD = {"string": "string", "float32": "float", "int64": "int64"}
_UNIFORM = "UniformRowLength"


# -- the configuration ----------------------------------------------------------------------------
def ragged_spec(key, config, single, what):
    """The op attribute of one RaggedFeature: (value_key, ((partition kind, key or length),
    ...), row_splits dtype name, validate, single)."""
    parts = []
    for p in config.partitions:
        if isinstance(p, RaggedFeature.UniformRowLength):
            length = p.length
            if isinstance(length, bool) or not isinstance(length, (int, np.integer)):
                raise TypeError(f"{what}: RaggedFeature '{key}': UniformRowLength takes an int "
                                f"length, got {length!r} ({type(length).__name__}).")
            if length <= 0:
                raise InvalidArgumentError(
                    f"{what}: RaggedFeature '{key}': UniformRowLength({length}) must be "
                    f"positive (Input to reshape ... requested shape has {length}).")
            parts.append((_UNIFORM, int(length)))
        else:
            parts.append((type(p).__name__, p.key))
    value_key = key if config.value_key is None else config.value_key
    return (value_key, tuple(parts), config.row_splits_dtype.name, config.validate, single)


def check_ragged_keys(checked):
    """TensorFlow's ValueErrors for the features' raw keys: a ragged key read with two dtypes
    or two row_splits dtypes, or also read as a dense or sparse feature."""
    ragged, dense, sparse = {}, [], []
    for key, kind, dtype, _, config in checked:
        if kind in ("fixed", "sequence"):
            dense.append(key)
        elif kind == "varlen":
            sparse.append(key)
        elif kind == "sparse":
            index = config.index_key
            sparse += [config.value_key] + (list(index) if isinstance(index, (list, tuple))
                                            else [index])
        else:
            value_key = key if config.value_key is None else config.value_key
            _add_key(ragged, value_key, dtype, config.row_splits_dtype)
            for p in config.partitions:
                if not isinstance(p, RaggedFeature.UniformRowLength):
                    _add_key(ragged, p.key, dtypes.int64, config.row_splits_dtype)
    both = set(dense) & set(ragged)
    if both:
        raise ValueError(f"Dense and ragged keys must not intersect; dense_keys: {dense}, "
                         f"ragged_keys: {list(ragged)}, intersection: {both}")
    both = set(sparse) & set(ragged)
    if both:
        raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: "
                         f"{list(ragged)}, sparse_keys: {sparse}, intersection: {both}")


def _add_key(ragged, key, dtype, splits_dtype):
    if key in ragged:
        old_dtype, old_splits = ragged[key]
        if old_dtype != dtype:
            raise ValueError(f"Conflicting type {old_dtype!r} vs {dtype!r} for feature {key}.")
        if old_splits != splits_dtype:
            raise ValueError(f"Conflicting partition type {old_splits!r} vs {splits_dtype!r} "
                             f"for feature {key}.")
    else:
        ragged[key] = (dtype, splits_dtype)


def _trailing_uniform(parts):
    """The lengths of the innermost UniformRowLength partitions (they reshape the values)."""
    out = []
    for kind, arg in reversed(parts):
        if kind != _UNIFORM:
            break
        out.insert(0, arg)
    return out


def _outer(spec, outer):
    """The ragged levels outside the partitions: the records unless single (examples), and
    the steps too for feature lists (`outer` given)."""
    return (0 if spec[4] else 1) if outer is None else outer


def _levels(spec, outer):
    """The uniform length (or None) of each ragged level of the result, outermost first."""
    parts = spec[1]
    inner = parts[:len(parts) - len(_trailing_uniform(parts))]
    return [None] * outer + [arg if kind == _UNIFORM else None for kind, arg in inner]


def output_count(spec, outer=None):
    """How many op outputs one ragged feature has: its values and one splits per level."""
    return 1 + len(_levels(spec, _outer(spec, outer)))


# -- reading the records -------------------------------------------------------------------------
def column(records, key, dtype, single):
    """(flat values, int64 row splits over the records) of `key`; a record that lacks it
    holds no values; another type is TensorFlow's InvalidArgumentError."""
    rows = []
    for i in range(records.count):
        entry = records.entry(i, key)
        if entry is None or entry[0] is None:
            rows.append(_values([], dtype))
            continue
        kind, values = entry
        if kind != dtype:
            where = f"Key: {key}." if single else (
                f"Name: {_name(records.names, i)}, Key: {key}, Index: {i}.")
            raise InvalidArgumentError(f"{where}  Data types don't match. Expected type: "
                                       f"{_WORD[dtype]}, Actual type: {_WORD[kind]}")
        rows.append(_values(values, dtype))
    splits = np.zeros(len(rows) + 1, np.int64)
    np.cumsum([len(r) for r in rows], out=splits[1:])
    flat = np.concatenate(rows) if rows else _values([], dtype)
    return flat, splits


def _name(names, index):
    return names[index] if names is not None and index < len(names) else "<unknown>"


def _values(values, dtype):
    if dtype == "string":
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    return np.asarray(values, dtype=np.float32 if dtype == "float32" else np.int64)


def ragged_outputs(records, key, dtype, spec):
    """The op's outputs for one RaggedFeature over parsed records: (values, *splits)."""
    value_key, parts, splits_dtype, validate, single = spec
    int_dtype = np.dtype(splits_dtype)
    values, splits = column(records, value_key, dtype, single)
    columns = {}
    for kind, arg in parts:
        if kind != _UNIFORM and arg not in columns:
            pv, ps = column(records, arg, "int64", single)
            columns[arg] = (pv.astype(int_dtype), ps.astype(int_dtype))
    partitions = [(kind, arg, None if kind == _UNIFORM else columns[arg]) for kind, arg in parts]
    if single:
        flat, nested = compose_one(values, partitions, validate, int_dtype, key)
    else:
        flat, nested = compose_rows(values, [splits.astype(int_dtype)], partitions, validate,
                                    int_dtype, key)
    return (flat,) + tuple(nested)


def sequence_outputs(value_steps, partition_steps, dtype, spec, key):
    """The op's outputs for a RaggedFeature of feature lists: `value_steps` (and each
    partition key's in `partition_steps`) per record a list of one array per step. The steps
    are the rows the partitions split, TensorFlow's batch composition over all records'
    steps; the records' step counts are the outermost splits unless single."""
    _, parts, splits_dtype, validate, single = spec
    int_dtype = np.dtype(splits_dtype)
    flat, step_splits, record_splits = _flatten_steps(value_steps, dtype)
    partitions = []
    for kind, arg in parts:
        if kind == _UNIFORM:
            partitions.append((kind, arg, None))
            continue
        pv, ps, prs = _flatten_steps(partition_steps[arg], "int64")
        _fail(validate and not np.array_equal(prs, record_splits), f"Feature {key}: values "
              "and partitions are not aligned (records with different step counts)", key, kind,
              arg)
        partitions.append((kind, arg, (pv.astype(int_dtype), ps.astype(int_dtype))))
    flat, nested = compose_rows(flat, [step_splits.astype(int_dtype)], partitions, validate,
                                int_dtype, key)
    outer = [] if single else [record_splits.astype(int_dtype)]
    return (flat,) + tuple(outer + nested)


def _flatten_steps(per_record, dtype):
    steps = [step for record in per_record for step in record]
    flat = np.concatenate([_values(s, dtype) for s in steps]) if steps else _values([], dtype)
    step_splits = np.zeros(len(steps) + 1, np.int64)
    np.cumsum([len(s) for s in steps], out=step_splits[1:])
    record_splits = np.zeros(len(per_record) + 1, np.int64)
    np.cumsum([len(r) for r in per_record], out=record_splits[1:])
    return flat, step_splits, record_splits


# -- composing the partitions --------------------------------------------------------------------
def _fail(condition, message, key, kind, arg, cls=InvalidArgumentError):
    if condition:
        arg = arg if kind == _UNIFORM else repr(arg)
        raise cls(f"{message} (RaggedFeature '{key}', partition {kind}({arg}))")


def _count(flat, nested, level):
    """The number of items at `level` of a ragged value (rows there, or flat values)."""
    return len(nested[level]) - 1 if level < len(nested) else len(flat)


def _reshape(flat, length, key):
    if len(flat) % length:
        raise InvalidArgumentError(
            f"Input to reshape is a tensor with {len(flat)} values, but the requested shape "
            f"requires a multiple of {length} (RaggedFeature '{key}', UniformRowLength"
            f"({length}): the values do not fill whole rows)")
    return flat.reshape((-1, length) + flat.shape[1:])


def _uniform_level(count, length, validate, int_dtype, key):
    nrows = count // length
    _fail(validate and nrows * length != count, f"uniform_row_length={length} times "
          f"nrows={nrows} must equal nvals={count}", key, _UNIFORM, length)
    return np.arange(nrows + 1, dtype=int_dtype) * int_dtype.type(length)


def _check_splits(splits, nvals, fn, key, kind, arg, suffix=""):
    _fail(np.any(np.diff(splits) < 0), f"Arguments to {fn} do not form a valid "
          f"RaggedTensor{suffix}: the row splits decrease", key, kind, arg)
    _fail(splits[-1] != nvals, f"Arguments to _from_row_partition do not form a valid "
          f"RaggedTensor: the rows end at {splits[-1]}, there are {nvals} values", key, kind, arg)


def _rowids_splits(ids, nvals, validate, int_dtype, key, arg):
    """from_value_rowids: row splits of sorted row ids, last id + 1 rows."""
    kind = "ValueRowIds"
    _fail(len(ids) != nvals, f"Shapes ({nvals},) and ({len(ids)},) are incompatible: one row "
          "id per value", key, kind, arg)
    bad = len(ids) and (ids.min() < 0 or np.any(np.diff(ids) < 0))
    _fail(validate and bad, "Arguments to from_value_rowids do not form a valid RowPartition: "
          "the row ids must be sorted and >= 0", key, kind, arg)
    _fail(len(ids) and ids.min() < 0, "Input arr must be non-negative!", key, kind, arg)
    nrows = int(ids[-1]) + 1 if len(ids) else 0
    counts = np.bincount(ids, minlength=nrows)[:nrows] if len(ids) else np.zeros(0, np.int64)
    return np.concatenate([[0], np.cumsum(counts)]).astype(int_dtype)


def _limits(limits, nvals, validate, key, kind, arg):
    splits = np.concatenate([np.zeros(1, limits.dtype), limits])
    if validate:
        _check_splits(splits, nvals, "from_row_limits", key, kind, arg)
    return splits


def _starts(starts, nvals, validate, key, kind, arg):
    if validate and len(starts):
        _fail(starts[0] != 0, "Arguments to from_row_starts do not form a valid RaggedTensor: "
              f"the first row starts at {starts[0]}, not 0", key, kind, arg)
        _fail(np.any(np.diff(starts) < 0), "Arguments to from_row_starts do not form a valid "
              "RaggedTensor: the row starts decrease", key, kind, arg)
        _fail(starts[-1] > nvals, "Arguments to from_row_starts do not form a valid "
              f"RaggedTensor: a row starts at {starts[-1]}, past the {nvals} values", key, kind,
              arg)
    return np.concatenate([starts, np.array([nvals], starts.dtype)])


def _lengths(lengths, nvals, validate, key, kind, arg):
    _fail(validate and np.any(lengths < 0), "Arguments to from_row_lengths do not form a valid "
          "RowPartition: a row length is negative", key, kind, arg)
    splits = np.concatenate([np.zeros(1, lengths.dtype), np.cumsum(lengths, dtype=lengths.dtype)])
    if validate:
        _check_splits(splits, nvals, "from_row_lengths", key, kind, arg)
    return splits


def compose_one(flat, partitions, validate, int_dtype, key):
    """One record's values and partitions [(kind, key or length, (values, _) or None)] as
    (flat values, nested row splits), innermost partition applied first."""
    nested = []
    for kind, arg, part in reversed(partitions):
        if kind == _UNIFORM:
            if nested:
                nested.insert(0, _uniform_level(len(nested[0]) - 1, arg, validate, int_dtype,
                                                key))
            else:
                flat = _reshape(flat, arg, key)
            continue
        p, n = part[0], _count(flat, nested, 0)
        if kind == "RowSplits":
            _fail(validate and not len(p), "slice index 0 of dimension 0 out of bounds: "
                  "RowSplits needs at least one split", key, kind, arg)
            if validate:
                _fail(p[0] != 0, "Arguments to from_row_splits do not form a valid "
                      f"RaggedTensor:zero: the splits start at {p[0]}", key, kind, arg)
                _check_splits(p, n, "from_row_splits", key, kind, arg, ":monotonic")
            splits = p if len(p) else np.zeros(1, int_dtype)
        elif kind == "RowLimits":
            splits = _limits(p, n, validate, key, kind, arg)
        elif kind == "RowStarts":
            splits = _starts(p, n, validate, key, kind, arg)
        elif kind == "RowLengths":
            splits = _lengths(p, n, validate, key, kind, arg)
        else:
            splits = _rowids_splits(p, n, validate, int_dtype, key, arg)
        nested.insert(0, splits)
    return flat, nested


def compose_rows(flat, nested, partitions, validate, int_dtype, key):
    """A batch's values with row splits `nested` (the batch outermost) and each partition's
    (values, row splits over the batch), composed as TensorFlow composes a batch."""
    for kind, arg, part in reversed(partitions):
        if kind == _UNIFORM:
            outer = nested[0] // int_dtype.type(arg)
            if len(nested) > 1:
                inner = _uniform_level(len(nested[1]) - 1, arg, validate, int_dtype, key)
                nested = [outer, inner] + nested[1:]
            else:
                flat, nested = _reshape(flat, arg, key), [outer]
            continue
        p, ps = part
        _fail(len(ps) != len(nested[0]), f"values and partitions are not aligned: {len(ps) - 1} "
              f"rows of partitions for {len(nested[0]) - 1} rows of values", key, kind, arg)
        counts, starts = np.diff(ps), nested[0][:-1]
        n = _count(flat, nested, 1)
        if kind == "RowSplits":
            p, ps, counts = _drop_first(p, ps, counts)
            kind_fn = "RowLimits"
        else:
            kind_fn = kind
        if kind_fn == "RowLimits":
            inner = _limits(p + np.repeat(starts, counts), n, validate, key, kind, arg)
        elif kind_fn == "RowStarts":
            inner = _starts(p + np.repeat(starts, counts), n, validate, key, kind, arg)
        elif kind_fn == "RowLengths":
            inner = _lengths(p, n, validate, key, kind, arg)
        else:
            ps, inner = _batched_rowids(p, ps, counts, n, validate, int_dtype, key, arg)
        nested = [ps, inner] + nested[1:]
    return flat, nested


def _drop_first(p, ps, counts):
    """`p[:, 1:]` of a ragged batch of row splits (each record's leading 0 dropped)."""
    keep = np.ones(len(p), bool)
    keep[ps[:-1][counts > 0]] = False
    counts = np.maximum(counts - 1, 0).astype(ps.dtype)
    ps = np.concatenate([np.zeros(1, ps.dtype), np.cumsum(counts, dtype=ps.dtype)])
    return p[keep], ps, counts


def _batched_rowids(p, ps, counts, nvals, validate, int_dtype, key, arg):
    nrows = np.zeros(len(counts), int_dtype)
    for r in np.flatnonzero(counts):
        nrows[r] = max(int(p[ps[r]:ps[r + 1]].max()) + 1, 0)
    offsets = np.concatenate([np.zeros(1, int_dtype), np.cumsum(nrows, dtype=int_dtype)])
    inner = _rowids_splits(p + np.repeat(offsets[:-1], counts), nvals, validate, int_dtype,
                           key, arg)
    if validate:
        _check_splits(offsets, len(inner) - 1, "from_row_lengths", key, "ValueRowIds", arg)
    return offsets, inner


# -- shapes and results --------------------------------------------------------------------------
def ragged_rule(batch, dtype, spec, outer=None):
    """(shape, dtype) of each op output of one RaggedFeature; `batch` the records' static
    count (a list of one dim, [None] when unknown)."""
    splits_dtype = dtypes.as_dtype(spec[2])
    values = TensorShape([None] + _trailing_uniform(spec[1]))
    out = [(values, dtypes.as_dtype(dtype))]
    for i, _ in enumerate(_levels(spec, _outer(spec, outer))):
        rows = batch[0] if i == 0 and not spec[4] and batch and batch[0] is not None else None
        out.append((TensorShape([None if rows is None else rows + 1]), splits_dtype))
    return out


def ragged_result(spec, outputs, outer=None):
    """The RaggedTensor (or, with no ragged level, the Tensor) of one feature's outputs."""
    result = outputs[0]
    levels = _levels(spec, _outer(spec, outer))
    for splits, length in reversed(list(zip(outputs[1:], levels))):
        width = None if length is None else convert_to_tensor(
            np.array(length, splits.dtype.as_numpy_dtype))
        result = RaggedTensor(result, splits, internal=True, uniform_row_length=width)
    return result
