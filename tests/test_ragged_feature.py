"""tf.io.RaggedFeature against TensorFlow 2.21 (answers stored in
tests/references/test_ragged_feature.npz): parse_example and parse_single_example with no
partition and with each partition kind (RowSplits, RowLengths, RowStarts, RowLimits,
ValueRowIds, UniformRowLength, nested), missing features, every dtype and row_splits_dtype,
validate; parse_sequence_example's context and feature-list RaggedFeatures; TensorFlow's errors
for mistyped values, bad partitions and conflicting keys; the traced shapes in tf.function; and
Dataset.map over a TFRecord file, batched (values hand-checked against TensorFlow)."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.framework.errors import InvalidArgumentError

RF = tf.io.RaggedFeature
# int64 features unless listed in FLOATS / STRINGS; TensorFlow parses the bytes wengert writes
FLOATS, STRINGS = {"f"}, {"b"}
RECORDS = [
    {"v": [3, 1, 4, 1, 5, 9], "s1": [0, 2, 3, 3, 6], "s2": [0, 2, 3, 4], "l": [2, 1, 0, 3],
     "i": [0, 0, 1, 3, 3, 3], "st": [0, 2, 3, 3], "lim": [2, 3, 3, 6], "f": [1.5, -2.0],
     "b": [b"x", b"yz"], "w": [1, 2, 3, 4, 5, 6], "ws": [0, 1, 3], "wl": [1, 2, 0, 3]},
    {"v": [2, 7, 1, 8, 2, 8, 1], "s1": [0, 3, 4, 5, 7], "s2": [0, 1, 1, 4], "l": [3, 1, 1, 2],
     "i": [0, 0, 0, 1, 2, 3, 3], "st": [0, 3, 4, 5], "lim": [3, 4, 5, 7], "f": [],
     "w": [7, 8], "ws": [0, 1], "wl": [2, 0]},
    {},
    {"v": [5, 6], "l": [0, 2], "s1": [0, 0, 2], "s2": [0, 2], "i": [1, 1], "st": [0, 0],
     "lim": [0, 2], "b": [b""], "w": [9, 10, 11, 12], "ws": [0, 2], "wl": [4]},
]
FEATURES = {
    "plain": "{'v': RF(tf.int64), 'f': RF(tf.float32, row_splits_dtype=tf.int64), "
             "'b': RF(tf.string)}",
    "splits": "{'f1': RF(tf.int64, 'v'), 'f2': RF(tf.int64, 'v', [RF.RowSplits('s1')]), "
              "'f3': RF(tf.int64, 'v', [RF.RowSplits('s2'), RF.RowSplits('s1')])}",
    "lengths": "{'r': RF(tf.int64, 'v', [RF.RowLengths('l')], tf.int64), "
               "'l': RF(tf.int64, row_splits_dtype=tf.int64)}",
    "rowids": "{'r': RF(tf.int64, 'v', [RF.ValueRowIds('i')])}",
    "starts_limits": "{'a': RF(tf.int64, 'v', [RF.RowStarts('st')]), "
                     "'z': RF(tf.int64, 'v', [RF.RowLimits('lim')], validate=True)}",
    "uniform": "{'u': RF(tf.int64, 'w', [RF.UniformRowLength(2)]), "
               "'uu': RF(tf.int64, 'w', [RF.UniformRowLength(2), RF.UniformRowLength(1)]), "
               "'su': RF(tf.int64, 'w', [RF.RowSplits('ws'), RF.UniformRowLength(2)]), "
               "'ul': RF(tf.int64, 'w', [RF.UniformRowLength(2), RF.RowLengths('wl')])}",
    "mixed": "{'r': RF(tf.int64, 'v', [RF.RowLengths('l')], validate=True), "
             "'b': tf.io.VarLenFeature(tf.string), "
             "'f': tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)}",
}
ERRORS = {  # (records, features, single): TensorFlow's InvalidArgumentError each
    "mistyped": ([0], "{'v': RF(tf.float32)}", False),
    "mistyped_single": ([0], "{'b': RF(tf.int64)}", True),
    "mistyped_partition": ([0], "{'r': RF(tf.int64, 'v', [RF.RowLengths('f')])}", False),
    "lengths_sum": ([0], "{'r': RF(tf.int64, 'v', [RF.RowLengths('ws')], validate=True)}",
                    False),
    "splits_start": ([0], "{'r': RF(tf.int64, 'v', [RF.RowSplits('l')], validate=True)}",
                     True),
    "rowids_unsorted": ([0], "{'r': RF(tf.int64, 'i', [RF.ValueRowIds('v')], "
                             "validate=True)}", False),
    "uniform_rows": ([1], "{'r': RF(tf.int64, 'v', [RF.UniformRowLength(2)])}", False),
}


def _env():
    return {"tf": tf, "np": np, "RF": tf.io.RaggedFeature}


def _feature(key, values):
    if key in FLOATS:
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if key in STRINGS:
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _serialized(index):
    feature = {k: _feature(k, v) for k, v in RECORDS[index].items()}
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def _parts(value):
    if isinstance(value, tf.RaggedTensor):
        return [value.flat_values] + list(value.nested_row_splits)
    if isinstance(value, tf.SparseTensor):
        return [value.indices, value.values, value.dense_shape]
    return [value]


def _comparable(dicts):
    """Each dict's values in key order, ragged ones as flat values and row splits; strings as
    their bytes joined by '|' then their lengths (as TF_COMPARABLE)."""
    arrays = [np.asarray(t) for d in dicts for key in sorted(d) for t in _parts(d[key])]
    out = [np.frombuffer(b"|".join(a.reshape(-1).tolist()), np.uint8) if a.dtype == object
           else a for a in arrays]
    lengths = [np.vectorize(len, otypes=[np.int32])(a) if a.size else a.astype(np.int32)
               for a in arrays if a.dtype == object]
    return [tf.constant(a) for a in out + lengths]


TF_COMPARABLE = ("(lambda ts: [tf.io.decode_raw(tf.strings.reduce_join(tf.reshape(t, [-1]), "
                 "separator='|'), tf.uint8) if t.dtype == tf.string else t for t in ts] + "
                 "[tf.strings.length(t) for t in ts if t.dtype == tf.string])"
                 "(tf.nest.flatten({}, expand_composites=True))")
TF_PRELUDE = "(lambda RF: {})(tf.io.RaggedFeature)"


def _case(name, records, features, single=False):
    inputs = [np.frombuffer(_serialized(r), np.uint8) for r in records]
    if single:
        call = f"tf.io.parse_single_example(x0.numpy().tobytes(), {features})"
        mine = lambda *xs: _comparable([tf.io.parse_single_example(  # noqa: E731
            bytes(np.asarray(xs[0])), eval(features, _env()))])  # noqa: S307
    else:
        joined = ", ".join(f"x{i}.numpy().tobytes()" for i in range(len(records)))
        call = f"tf.io.parse_example(tf.constant([{joined}], tf.string), {features})"
        mine = lambda *xs: _comparable([tf.io.parse_example(  # noqa: E731
            tf.constant([bytes(np.asarray(x)) for x in xs], tf.string),
            eval(features, _env()))])  # noqa: S307
    return TFCase(name, TF_PRELUDE.format(TF_COMPARABLE.format(call)), mine, inputs)


CASES = [_case(f"batch_{f}", [0, 1, 2, 3], FEATURES[f]) for f in FEATURES]
# (an empty record's missing RowSplits is no row splits at all: TensorFlow then fails or builds
# a RaggedTensor it cannot flatten; wengert gives no rows)
CASES += [_case(f"single_{f}_{r}", [r], FEATURES[f], single=True)
          for f in FEATURES for r in (0, 2) if r == 0 or f not in ("splits", "uniform")]
CASES += [_case("batch_of_none_plain", [], FEATURES["plain"])]
ERROR_CASES = [_case(f"error_{n}", records, features, single) for n, (records, features, single)
               in ERRORS.items()]

# SequenceExamples: (context, {feature list: [values per step]})
SEQUENCES = [
    ({"c": [1, 2]}, {"s": [[1, 2, 3, 4], [5, 6]], "p": [[0, 1, 4], [0, 2]],
                     "i": [[0, 0, 1, 1], [3, 3]], "l": [[1, 1, 2], [2]]}),
    ({"c": [3]}, {"s": [[7, 8]], "p": [[0, 2]], "i": [[0, 1]], "l": [[1, 1]]}),
    ({}, {}),
]
SEQUENCE_FEATURES = ("{'s': RF(tf.int64), 'a': RF(tf.int64, 's', [RF.RowSplits('p')]), "
                     "'b': RF(tf.int64, 's', [RF.ValueRowIds('i')]), "
                     "'c2': RF(tf.int64, 's', [RF.UniformRowLength(2)]), "
                     "'d': RF(tf.int64, 's', [RF.UniformRowLength(1), RF.RowSplits('p')]), "
                     "'e': RF(tf.int64, 's', [RF.RowLengths('l')], validate=True)}")
CONTEXT_FEATURES = "{'c': RF(tf.int64)}"


def _sequence_bytes(index):
    context, lists = SEQUENCES[index]
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(k, v) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(k, s) for s in steps])
            for k, steps in lists.items()})).SerializeToString()


def _sequence_case(name, records, single):
    inputs = [np.frombuffer(_sequence_bytes(r), np.uint8) for r in records]
    args = f"context_features={CONTEXT_FEATURES}, sequence_features={SEQUENCE_FEATURES}"
    if single:
        call = f"tf.io.parse_single_sequence_example(x0.numpy().tobytes(), {args})"
        mine = lambda *xs: _comparable(tf.io.parse_single_sequence_example(  # noqa: E731
            bytes(np.asarray(xs[0])), eval(CONTEXT_FEATURES, _env()),  # noqa: S307
            eval(SEQUENCE_FEATURES, _env())))  # noqa: S307
    else:
        joined = ", ".join(f"x{i}.numpy().tobytes()" for i in range(len(records)))
        call = f"tf.io.parse_sequence_example(tf.constant([{joined}]), {args})"
        mine = lambda *xs: _comparable(tf.io.parse_sequence_example(  # noqa: E731
            [bytes(np.asarray(x)) for x in xs], eval(CONTEXT_FEATURES, _env()),  # noqa: S307
            eval(SEQUENCE_FEATURES, _env())))  # noqa: S307
    return TFCase(name, TF_PRELUDE.format(TF_COMPARABLE.format(call)), mine, inputs)


SEQUENCE_CASES = [_sequence_case("sequence_batch", [0, 1, 2], False),
                  _sequence_case("sequence_single_0", [0], True),
                  _sequence_case("sequence_single_empty", [2], True)]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES + ERROR_CASES + SEQUENCE_CASES)


@pytest.mark.parametrize("case", CASES + SEQUENCE_CASES,
                         ids=[c.name for c in CASES + SEQUENCE_CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=0, atol=0)
    mine = case.fn(*[tf.constant(x) for x in case.inputs])
    theirs = tf_results[case.name]["outputs"]
    assert [np.asarray(t).dtype for t in mine] == [t.dtype for t in theirs]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c.name for c in ERROR_CASES])
def test_errors_match_tensorflow(case, tf_results):
    theirs = tf_results[case.name]["error"]
    with pytest.raises(InvalidArgumentError) as err:
        case.fn(*[tf.constant(x) for x in case.inputs])
    assert theirs.startswith("InvalidArgumentError"), theirs
    words = str(err.value.message)
    tf_words = ("Data types don't match", "do not form a valid", "Input to reshape")
    assert any(w in words and w in theirs for w in tf_words), (words, theirs)


def test_values_and_dtypes_as_tensorflow_documents():
    batch = [_serialized(0), _serialized(1)]
    features = eval(FEATURES["splits"], _env())  # noqa: S307
    single = tf.io.parse_single_example(batch[0], features)
    assert isinstance(single["f1"], tf.Tensor) and single["f1"].numpy().tolist() == \
        [3, 1, 4, 1, 5, 9]
    assert single["f2"].to_list() == [[3, 1], [4], [], [1, 5, 9]]
    assert single["f3"].to_list() == [[[3, 1], [4]], [[]], [[1, 5, 9]]]
    parsed = tf.io.parse_example(batch, features)
    assert parsed["f3"].to_list() == [[[[3, 1], [4]], [[]], [[1, 5, 9]]],
                                      [[[2, 7, 1]], [], [[8], [2], [8, 1]]]]
    assert parsed["f1"].row_splits.dtype == tf.int32 and parsed["f3"].ragged_rank == 3
    simple = tf.io.parse_example(
        [_serialized(3), _serialized(2)],
        {"v": RF(tf.int64, row_splits_dtype=tf.int64),
         "r": RF(tf.int64, "v", [RF.RowLengths("l")], tf.int64)})
    assert simple["v"].to_list() == [[5, 6], []] and simple["v"].row_splits.dtype == tf.int64
    assert simple["r"].to_list() == [[[], [5, 6]], []]


def test_configuration_as_tensorflow():
    feature = RF(tf.int64, "v", [RF.RowSplits("s")])
    assert repr(feature) == ("RaggedFeature(dtype=tf.int64, value_key='v', "
                             "partitions=(RowSplits(key='s'),), row_splits_dtype=tf.int32, "
                             "validate=False)")
    assert RF(tf.string).partitions == () and RF(tf.float32).value_key is None
    assert tf.compat.v1.io.RaggedFeature is tf.io.RaggedFeature
    cases = [(ValueError, "must be int64, float32, or bytes", lambda: RF(tf.int32)),
             (ValueError, "int32 or int64", lambda: RF(tf.int64, row_splits_dtype=tf.int16)),
             (TypeError, "list or tuple", lambda: RF(tf.int64, partitions={"a"})),
             (TypeError, "cannot be cast", lambda: RF(tf.int64, partitions=RF.RowSplits("a"))),
             (TypeError, "cannot be cast", lambda: RF(tf.int64, partitions=["a"])),
             (ValueError, "must be a string", lambda: RF(tf.int64, value_key=3)),
             (ValueError, "must not be empty", lambda: RF(tf.int64, value_key="")),
             (TypeError, "must be a bool", lambda: RF(tf.int64, validate=1))]
    for error, words, make in cases:
        with pytest.raises(error, match=words):
            make()


def test_conflicting_keys_as_tensorflow():
    record = [_serialized(0)]
    cases = [("Dense and ragged keys must not intersect",
              {"l": tf.io.FixedLenFeature([4], tf.int64), "r": RF(tf.int64, "v",
                                                                  [RF.RowLengths("l")])}),
             ("Ragged and sparse keys must not intersect",
              {"l": tf.io.VarLenFeature(tf.int64), "r": RF(tf.int64, "v",
                                                           [RF.RowLengths("l")])}),
             ("Conflicting type tf.float32 vs tf.int64 for feature l",
              {"l": RF(tf.float32), "r": RF(tf.int64, "v", [RF.RowLengths("l")])}),
             ("Conflicting partition type tf.int32 vs tf.int64 for feature v",
              {"v": RF(tf.int64), "w": RF(tf.int64, "v", row_splits_dtype=tf.int64)})]
    for words, features in cases:
        with pytest.raises(ValueError, match=words):
            tf.io.parse_example(record, features)
    with pytest.raises(TypeError, match="takes an int length"):
        tf.io.parse_example(record, {"v": RF(tf.int64, partitions=[RF.UniformRowLength(2.5)])})


def test_traced_shapes_match_tensorflow():
    features = eval(FEATURES["uniform"], _env())  # noqa: S307
    features["r"] = RF(tf.float32, "f", [RF.RowLengths("l")], tf.int64)
    seen = {}

    @tf.function
    def batch(records):
        out = tf.io.parse_example(records, features)
        seen.update({k: (v.shape.as_list(), v.ragged_rank, v.row_splits.dtype)
                     for k, v in out.items()})
        return out
    batch.get_concrete_function(tf.TensorSpec([None], tf.string))
    # TensorFlow 2.21's traced shapes, ragged ranks and row_splits dtypes
    assert seen == {"u": ([None, None, 2], 1, tf.int32), "uu": ([None, None, 2, 1], 1, tf.int32),
                    "su": ([None, None, None, 2], 2, tf.int32),
                    "ul": ([None, None, 2, None], 3, tf.int32),
                    "r": ([None, None, None], 2, tf.int64)}

    @tf.function
    def one(record):
        out = tf.io.parse_single_example(record, features)
        seen.update({k: (v.shape.as_list(), getattr(v, "ragged_rank", 0))
                     for k, v in out.items()})
        return out
    one.get_concrete_function(tf.TensorSpec([], tf.string))
    assert seen == {"u": ([None, 2], 0), "uu": ([None, 2, 1], 0), "su": ([None, None, 2], 1),
                    "ul": ([None, 2, None], 2), "r": ([None, None], 1)}
    known = tf.function(lambda r: tf.io.parse_example(r, {"v": RF(tf.int64)})["v"])
    traced = known.get_concrete_function(tf.TensorSpec([3], tf.string)).structured_outputs
    assert traced.shape.as_list() == [3, None] and traced.row_splits.shape.as_list() == [4]
    parsed = batch(tf.constant([_serialized(0), _serialized(1)]))
    assert parsed["ul"].to_list() == [[[[1], [2, 3]], [[], [4, 5, 6]]], [[[7, 8], []]]]


def test_dataset_map_over_tfrecords(tmp_path):
    path = str(tmp_path / "records.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for i in (0, 3, 2):
            writer.write(_serialized(i))
    features = {"v": RF(tf.int64, row_splits_dtype=tf.int64),
                "r": RF(tf.int64, "v", [RF.RowLengths("l")], tf.int64),
                "b": RF(tf.string), "w": RF(tf.int64, partitions=[RF.UniformRowLength(2)])}
    ds = tf.data.TFRecordDataset(path).map(lambda s: tf.io.parse_single_example(s, features))
    spec = ds.element_spec  # as TensorFlow 2.21 gives it
    assert spec["r"] == tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)
    assert spec["v"] == tf.TensorSpec([None], tf.int64) and spec["w"] == tf.TensorSpec(
        [None, 2], tf.int64)
    rows = ds.map(lambda d: d["r"]).batch(2)
    assert rows.element_spec == tf.RaggedTensorSpec([None, None, None], tf.int64, 2, tf.int64)
    assert [x.to_list() for x in rows] == [[[[3, 1], [4], [], [1, 5, 9]], [[], [5, 6]]], [[]]]
    batched = tf.data.TFRecordDataset(path).batch(2).map(
        lambda s: tf.io.parse_example(s, features))
    assert batched.element_spec["w"] == tf.RaggedTensorSpec([None, None, 2], tf.int64, 1,
                                                             tf.int32)
    got = [{k: v.to_list() for k, v in x.items()} for x in batched]
    assert got == [{"v": [[3, 1, 4, 1, 5, 9], [5, 6]], "r": [[[3, 1], [4], [], [1, 5, 9]],
                                                            [[], [5, 6]]],
                    "b": [[b"x", b"yz"], [b""]], "w": [[[1, 2], [3, 4], [5, 6]],
                                                      [[9, 10], [11, 12]]]},
                   {"v": [[]], "r": [[]], "b": [[]], "w": [[]]}]
