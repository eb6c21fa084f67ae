"""tf.io.parse_example and parse_single_example against TensorFlow 2.21 (answers stored in
tests/references/test_parse_example.npz): dense, sequence, variable-length and sparse features
of every dtype, defaults, empty features, the errors for missing, mistyped and miscounted
features, and parsing inside tf.function and Dataset.map."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.framework.errors import DataLossError, InvalidArgumentError

# records: wengert builds and serializes them; TensorFlow parses the same bytes
RECORDS = {
    "full": "{'f': F(float_list=tf.train.FloatList(value=[1.5, -2, 3])), "
            "'i': F(int64_list=tf.train.Int64List(value=[7])), "
            "'s': F(bytes_list=tf.train.BytesList(value=[b'ab', b'c'])), "
            "'seq': F(float_list=tf.train.FloatList(value=[1, 2, 3, 4])), "
            "'vi': F(int64_list=tf.train.Int64List(value=[5, -6, 2**40])), "
            "'idx': F(int64_list=tf.train.Int64List(value=[3, 0])), "
            "'val': F(float_list=tf.train.FloatList(value=[0.5, 0.25]))}",
    "sparse": "{'f': F(float_list=tf.train.FloatList(value=[0, 0, 1])), "
              "'s': F(bytes_list=tf.train.BytesList(value=[b'', b'xyz'])), "
              "'seq': F(float_list=tf.train.FloatList(value=[9, 8])), "
              "'vs': F(bytes_list=tf.train.BytesList(value=[b'q'])), "
              "'vf': F(float_list=tf.train.FloatList(value=[])), "
              "'idx': F(int64_list=tf.train.Int64List(value=[1])), "
              "'val': F(float_list=tf.train.FloatList(value=[7]))}",
    "empty": "{'f': F(float_list=tf.train.FloatList(value=[4, 5, 6])), "
             "'s': F(bytes_list=tf.train.BytesList(value=[b'm', b'n'])), 'i': F(), 'vi': F()}",
}
FEATURES = {
    "dense": "{'f': tf.io.FixedLenFeature([3], tf.float32), "
             "'i': tf.io.FixedLenFeature([], tf.int64, default_value=-1), "
             "'s': tf.io.FixedLenFeature([2], tf.string, default_value=[b'd0', b'd1'])}",
    "varlen": "{'vi': tf.io.VarLenFeature(tf.int64), 'vs': tf.io.VarLenFeature(tf.string), "
              "'vf': tf.io.VarLenFeature(tf.float32)}",
    "sequence": "{'seq': tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, "
                "default_value=-9.0)}",
    "sparse_feature": "{'sp': tf.io.SparseFeature('idx', 'val', tf.float32, 4)}",
    "matrix": "{'f': tf.io.FixedLenFeature([1, 3], tf.float32)}",
}
ERRORS = {  # (records, features): each TensorFlow's InvalidArgumentError
    "missing": (["empty"], "{'i': tf.io.FixedLenFeature([], tf.int64)}"),
    "mistyped": (["full"], "{'i': tf.io.FixedLenFeature([], tf.float32)}"),
    "miscounted": (["full"], "{'f': tf.io.FixedLenFeature([2], tf.float32)}"),
    "stride": (["full", "sparse"], "{'f': tf.io.FixedLenSequenceFeature([2], tf.float32, "
                                   "allow_missing=True)}"),
}


def _env():
    return {"tf": tf, "np": np, "F": tf.train.Feature}


def _serialized(name):
    feature = eval(RECORDS[name], _env())  # noqa: S307 - the test's own sources
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def _flat(parsed):
    out = []
    for key in sorted(parsed):
        value = parsed[key]
        out += ([value.indices, value.values, value.dense_shape]
                if isinstance(value, tf.SparseTensor) else [value])
    return out


def _comparable(tensors):
    """Numbers as they are; each string tensor as its bytes joined by '|' and its lengths."""
    arrays = [np.asarray(t) for t in tensors]
    out = [np.frombuffer(b"|".join(a.reshape(-1).tolist()), np.uint8) if a.dtype == object
           else a for a in arrays]
    lengths = [np.vectorize(len, otypes=[np.int32])(a) if a.size else a.astype(np.int32)
               for a in arrays if a.dtype == object]
    return [tf.constant(a) for a in out + lengths]


TF_COMPARABLE = ("(lambda ts: [tf.io.decode_raw(tf.strings.reduce_join(tf.reshape(t, [-1]), "
                 "separator='|'), tf.uint8) if t.dtype == tf.string else t for t in ts] + "
                 "[tf.strings.length(t) for t in ts if t.dtype == tf.string])"
                 "(tf.nest.flatten({}, expand_composites=True))")


def _case(name, records, features, single=False):
    inputs = [np.frombuffer(_serialized(r), np.uint8) for r in records]
    if single:
        tf_call = f"tf.io.parse_single_example(x0.numpy().tobytes(), {features})"
        mine = lambda *xs: _comparable(_flat(tf.io.parse_single_example(  # noqa: E731
            bytes(np.asarray(xs[0])), eval(features, _env()))))  # noqa: S307
    else:
        joined = ", ".join(f"x{i}.numpy().tobytes()" for i in range(len(records)))
        tf_call = f"tf.io.parse_example(tf.constant([{joined}]), {features})"
        mine = lambda *xs: _comparable(_flat(tf.io.parse_example(  # noqa: E731
            [bytes(np.asarray(x)) for x in xs], eval(features, _env()))))  # noqa: S307
    return TFCase(name, TF_COMPARABLE.format(tf_call), mine, inputs)


CASES = [_case(f"batch_{f}", ["full", "sparse", "empty"] if f in ("dense", "varlen")
               else ["full", "sparse"], FEATURES[f]) for f in FEATURES]
CASES += [_case(f"single_{f}_{r}", [r], FEATURES[f], single=True)
          for f, r in (("dense", "full"), ("dense", "empty"), ("varlen", "full"),
                       ("varlen", "sparse"), ("sequence", "full"), ("sparse_feature", "full"))]
ERROR_CASES = [_case(f"error_{n}", records, features) for n, (records, features) in
               ERRORS.items()]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES + ERROR_CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=0, atol=0)


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c.name for c in ERROR_CASES])
def test_errors_match_tensorflow(case, tf_results):
    theirs = tf_results[case.name]["error"]
    with pytest.raises(InvalidArgumentError) as err:
        case.fn(*[tf.constant(x) for x in case.inputs])
    assert theirs.startswith("InvalidArgumentError")
    key_phrase = str(err.value.message).split(".  ")[-1].split(" Saw")[0].split(" Values")[0]
    assert key_phrase.strip()[:30] in theirs, (str(err.value), theirs)


def test_example_names_in_errors():
    features = {"i": tf.io.FixedLenFeature([], tf.int64)}
    with pytest.raises(InvalidArgumentError, match="Name: second, Feature: i"):
        tf.io.parse_example([_serialized("full"), _serialized("empty")], features,
                            example_names=["first", "second"])


def test_bad_configurations_and_bytes():
    with pytest.raises(ValueError, match="fully defined shape"):
        tf.io.parse_example([_serialized("full")], {"f": tf.io.FixedLenFeature([None],
                                                                                tf.float32)})
    with pytest.raises(ValueError, match="float32, int64 or string"):
        tf.io.parse_example([_serialized("full")], {"f": tf.io.VarLenFeature(tf.int32)})
    with pytest.raises(ValueError, match="requires allow_missing"):
        tf.io.parse_example([_serialized("full")],
                            {"f": tf.io.FixedLenSequenceFeature([], tf.float32)})
    with pytest.raises(ValueError, match="non-empty dict"):
        tf.io.parse_example([_serialized("full")], {})
    with pytest.raises(ValueError, match="scalar string"):
        tf.io.parse_single_example([_serialized("full")], {"f": tf.io.VarLenFeature(tf.float32)})
    with pytest.raises(DataLossError, match="malformed"):
        tf.io.parse_single_example(b"\x0a\x09abc", {"f": tf.io.VarLenFeature(tf.float32)})
    assert tf.io.FixedLenFeature([2], tf.int64) == tf.io.FixedLenFeature([2], tf.int64, None)


def test_parsing_in_function_and_dataset_map():
    records = [_serialized("full"), _serialized("empty")]
    features = eval(FEATURES["dense"], _env())  # noqa: S307

    @tf.function
    def parse(batch):
        return tf.io.parse_example(batch, features)["f"] * 2.0
    np.testing.assert_array_equal(parse(tf.constant(records)).numpy(),
                                  [[3, -4, 6], [8, 10, 12]])
    ds = tf.data.Dataset.from_tensor_slices(records).map(
        lambda r: tf.io.parse_single_example(r, features)).batch(2)
    (batch,) = list(ds)
    assert batch["f"].shape == (2, 3) and list(batch["i"].numpy()) == [7, -1]
    assert batch["s"].numpy().tolist() == [[b"ab", b"c"], [b"m", b"n"]]
