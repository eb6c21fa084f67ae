"""`tf.io.parse_sequence_example` and `parse_single_sequence_example`: serialized
tf.train.SequenceExamples to tensors.

A SequenceExample holds `context` features (as an Example holds features) and `feature_lists`:
per name, one Feature per time step. Parsing a batch of B records gives three dicts:

    context      as parse_example gives for the context features
    sequences    FixedLenSequenceFeature(shape): a [B, T] + shape tensor, each step holding
                 exactly prod(shape) values, records with fewer steps (or, with
                 allow_missing, none) padded with 0 or b"" (no default_value, as in TF);
                 VarLenFeature: a SparseTensor of dense shape [B, T, L], entry (b, t, j) the
                 j-th value of step t of record b; RaggedFeature: a RaggedTensor
                 [B, T, (rows...), values], the steps split by its partitions (each a
                 feature list too) as ragged_feature_parsing.py composes them
    lengths      per FixedLenSequenceFeature, the [B] int64 number of steps of each record

`parse_single_sequence_example` parses one record the same way, without the batch dimension,
and returns (context, sequences). One op (no gradient), so it runs in tf.function and
Dataset.map; bad records are InvalidArgumentErrors naming the key and record, as TensorFlow's.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.protos import wire
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor_shape import TensorShape
from ..creation_ops import shape
from ..math_ops import cast
from ..reshape_ops import reshape
from .example_parsing import (PARSE_EXAMPLES, array_of_values, feature_values, names_of,
                              parse_specs, strings, to_dict, type_word, unbatch)
from .parsing_config import FixedLenSequenceFeature, RaggedFeature, check_features
from .ragged_feature_parsing import (check_ragged_keys, output_count, ragged_result,
                                     ragged_rule, ragged_spec, sequence_outputs)

__all__ = ["parse_sequence_example", "parse_single_sequence_example"]


def _split(record):
    """(serialized context Features, {name: [serialized Feature per step]}) of one record."""
    context, lists = b"", {}
    for number, wire_type, value, _, _ in wire.fields(record, "tensorflow.SequenceExample"):
        if wire_type != wire.LEN:
            continue
        if number == 1:
            context += value
        elif number == 2:
            for n, t, entry, _, _ in wire.fields(value, "tensorflow.FeatureLists"):
                if n == 1 and t == wire.LEN:
                    key, steps = _entry(entry)
                    lists[key] = steps
    return context, lists


def _entry(entry):
    key, feature_list = b"", b""
    for n, t, v, _, _ in wire.fields(entry, "tensorflow.FeatureLists.FeatureListEntry"):
        if t == wire.LEN and n == 1:
            key = v
        elif t == wire.LEN and n == 2:
            feature_list += v
    steps = [v for n, t, v, _, _ in wire.fields(feature_list, "tensorflow.FeatureList")
             if n == 1 and t == wire.LEN]
    return key.decode("utf-8", "replace"), steps


def _steps(lists, key, dtype, name, index, required):
    steps = lists.get(key)
    if steps is None:
        if required:
            raise InvalidArgumentError(
                f"Name: {name}, Feature list '{key}' is required but could not be found.  Did "
                f"you mean to include it in feature_list_dense_missing_assumed_empty or "
                f"feature_list_dense_defaults?")
        return []
    out = []
    for step in steps:
        kind, values = feature_values(step)
        if kind is not None and kind != dtype:
            raise InvalidArgumentError(
                f"Name: {name}, Feature list: {key}, Index: {index}.  Data types don't match. "
                f"Expected type: {type_word(dtype)}")
        out.append(array_of_values([] if kind is None else values, dtype))
    return out


def _dense(per_record, key, dtype, shape):
    size = int(np.prod(shape))
    rows = []
    for steps in per_record:
        if any(len(values) != size for values in steps):
            total = sum(len(values) for values in steps)
            raise InvalidArgumentError(
                f"Feature list '{key}' has an unexpected number of values.  Total values size: "
                f"{total} is not consistent with output shape: "
                f"[?,{','.join(str(d) for d in shape)}]")
        rows.append([v.reshape(shape) for v in steps])
    longest = max((len(r) for r in rows), default=0)
    np_dtype = object if dtype == "string" else np.float32 if dtype == "float32" else np.int64
    out = np.empty((len(rows), longest) + tuple(shape), dtype=np_dtype)
    out[...] = b"" if dtype == "string" else 0
    for b, steps in enumerate(rows):
        if steps:
            out[b, :len(steps)] = np.stack(steps)
    return out


def _sparse(per_record, dtype):
    indices, values, steps_max, width = [], [], 0, 0
    for b, steps in enumerate(per_record):
        steps_max = max(steps_max, len(steps))
        for t, row in enumerate(steps):
            width = max(width, len(row))
            indices.extend((b, t, j) for j in range(len(row)))
            values.extend(list(row))
    return (np.asarray(indices, dtype=np.int64).reshape(-1, 3), array_of_values(values, dtype),
            np.array([len(per_record), steps_max, width], dtype=np.int64))


def _sequence_kernel(serialized, names, *, context_specs, sequence_specs):
    records = list(np.asarray(serialized, dtype=object).reshape(-1))
    labels = names_of(names, len(records))
    split = [_split(r) for r in records]
    out = ()
    if context_specs:
        contexts = np.empty(len(records), dtype=object)
        contexts[:] = [wire.field_bytes(1, c) if c else b"" for c, _ in split]
        out += PARSE_EXAMPLES.kernel(contexts, names, specs=context_specs)
    lengths = []
    def steps_of(key, dtype, required=False):
        return [_steps(lists, key, dtype, labels[b], b, required)
                for b, (_, lists) in enumerate(split)]

    for key, kind, dtype, shape, extra in sequence_specs:
        if kind == "ragged":
            partitions = {arg: steps_of(arg, "int64") for part, arg in extra[1]
                          if part != "UniformRowLength"}
            out += sequence_outputs(steps_of(extra[0], dtype), partitions, dtype, extra, key)
            continue
        per_record = steps_of(key, dtype, kind == "sequence" and not extra[1])
        if kind == "sequence":
            lengths.append(np.array([len(s) for s in per_record], dtype=np.int64))
            out += (_dense(per_record, key, dtype, shape),)
        else:
            out += _sparse(per_record, dtype)
    return out + tuple(lengths)


def _sequence_rule(serialized, names, *, context_specs, sequence_specs):
    out = PARSE_EXAMPLES.shape(serialized, names, specs=context_specs) if context_specs else []
    batch = serialized.shape.as_list() if serialized.shape.rank is not None else [None]
    for key, kind, dtype, shape, extra in sequence_specs:
        dt = dtypes.as_dtype(dtype)
        if kind == "sequence":
            out.append((TensorShape(batch + [None] + list(shape)), dt))
        elif kind == "ragged":
            out += ragged_rule(batch, dt, extra, _steps_outer(extra))
        else:
            out += [(TensorShape([None, 3]), dtypes.int64), (TensorShape([None]), dt),
                    (TensorShape([3]), dtypes.int64)]
    dense = sum(1 for spec in sequence_specs if spec[1] == "sequence")
    return out + [(TensorShape(batch), dtypes.int64)] * dense


PARSE_SEQUENCE_EXAMPLES = defop("ParseSequenceExamples", _sequence_kernel,
                                shape=_sequence_rule, grad=None, num_outputs=None)


def _steps_outer(spec):
    """A feature list's ragged levels outside its partitions: records (unless single), steps."""
    return 1 if spec[4] else 2


def _sequence_specs(features, what, single):
    specs, checked = [], check_features(features, what)
    check_ragged_keys(checked)
    for key, kind, dtype, shape, default in checked:
        if kind == "ragged":
            specs.append((key, kind, dtype.name, None, ragged_spec(key, default, single, what)))
            continue
        if kind not in ("sequence", "varlen"):
            raise ValueError(f"{what}: sequence feature '{key}' must be a "
                             f"FixedLenSequenceFeature, VarLenFeature or RaggedFeature, got "
                             f"{kind}.")
        if kind == "sequence":
            if default[0] is not None:
                raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None "
                                 f"({what}: a sequence feature pads with 0 or b'').")
            default = (None, default[1])
        specs.append((key, kind, dtype.name, shape, default))
    return tuple(specs)


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """(context, sequences, lengths) dicts for a vector of serialized SequenceExamples; a scalar
    string is one record, parsed without a batch dimension (lengths are scalars), as
    TensorFlow parses it."""
    what = "parse_sequence_example"
    serialized = strings(serialized, what, "serialized")
    if serialized.shape.rank != 0:
        return _parse(serialized, context_features, sequence_features, example_names, name,
                      what)
    context, sequences = parse_single_sequence_example(
        serialized, context_features, sequence_features, example_names, name)
    lengths = {k: cast(shape(v)[0], dtypes.int64) for k, v in sequences.items()
               if isinstance(sequence_features[k], FixedLenSequenceFeature)}
    return context, sequences, lengths


def _parse(serialized, context_features, sequence_features, example_names, name, what):
    single = what == "parse_single_sequence_example"
    serialized = strings(serialized, what, "serialized")
    if not context_features and not sequence_features:
        raise ValueError(f"{what}: give context_features or sequence_features (or both).")
    context_specs = parse_specs(context_features, what, single) if context_features else ()
    sequence_specs = _sequence_specs(sequence_features, what, single) \
        if sequence_features else ()
    names = strings([] if example_names is None else example_names, what, "example_names")
    outputs = execute(PARSE_SEQUENCE_EXAMPLES, (serialized, names),
                      {"context_specs": context_specs, "sequence_specs": sequence_specs}, name)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    n_context = sum(1 if s[1] in ("fixed", "sequence") else output_count(s[4])
                    if s[1] == "ragged" else 3 for s in context_specs)
    context = to_dict(context_specs, outputs[:n_context])
    dense = [s[0] for s in sequence_specs if s[1] == "sequence"]
    rest = outputs[n_context:len(outputs) - len(dense)]
    sequences = dict(_sequence_outputs(sequence_specs, rest))
    lengths = dict(zip(dense, outputs[len(outputs) - len(dense):]))
    return context, sequences, lengths


def _sequence_outputs(specs, outputs):
    k = 0
    for key, kind, _, _, extra in specs:
        if kind == "sequence":
            yield key, outputs[k]
            k += 1
        elif kind == "ragged":
            count = output_count(extra, _steps_outer(extra))
            yield key, ragged_result(extra, outputs[k:k + count], _steps_outer(extra))
            k += count
        else:
            yield key, SparseTensor(*outputs[k:k + 3])
            k += 3


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """(context, sequences) dicts for one serialized SequenceExample (a scalar string)."""
    what = "parse_single_sequence_example"
    serialized = strings(serialized, what, "serialized")
    if serialized.shape.rank not in (None, 0):
        raise ValueError(f"{what}: serialized must be a scalar string, got shape "
                         f"{serialized.shape}; use parse_sequence_example for a batch.")
    names = None if example_name is None else reshape(strings(example_name, what,
                                                              "example_name"), [1])
    context, sequences, _ = _parse(reshape(serialized, [1]), context_features,
                                   sequence_features, names, name, what)
    return ({k: v if isinstance(context_features[k], RaggedFeature) else unbatch(v)
             for k, v in context.items()},
            {k: v if isinstance(sequence_features[k], RaggedFeature) else unbatch(v)
             for k, v in sequences.items()})
