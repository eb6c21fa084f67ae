"""tf.io.parse_sequence_example and parse_single_sequence_example against TensorFlow 2.21
(answers stored in tests/references/test_parse_sequence_example.npz): context features, dense
sequence features padded across the batch, variable-length sequence features as SparseTensors,
the lengths, and TensorFlow's errors for missing, mistyped and miscounted feature lists."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.framework.errors import InvalidArgumentError

RECORDS = {
    "two_steps": ("{'len': F(int64_list=tf.train.Int64List(value=[2])), "
                  "'name': F(bytes_list=tf.train.BytesList(value=[b'first']))}",
                  "{'tok': [F(int64_list=tf.train.Int64List(value=[1, 2])), "
                  "F(int64_list=tf.train.Int64List(value=[3]))], "
                  "'emb': [F(float_list=tf.train.FloatList(value=[1, 2])), "
                  "F(float_list=tf.train.FloatList(value=[3, 4]))], "
                  "'word': [F(bytes_list=tf.train.BytesList(value=[b'a'])), "
                  "F(bytes_list=tf.train.BytesList(value=[b'bc']))]}"),
    "one_step": ("{'len': F(int64_list=tf.train.Int64List(value=[1]))}",
                 "{'tok': [F(int64_list=tf.train.Int64List(value=[9]))], "
                 "'emb': [F(float_list=tf.train.FloatList(value=[5, 6]))], "
                 "'word': [F(bytes_list=tf.train.BytesList(value=[b'z']))]}"),
    "no_lists": ("{'len': F(int64_list=tf.train.Int64List(value=[0]))}", "{}"),
}
CONTEXT = ("{'len': tf.io.FixedLenFeature([], tf.int64), "
           "'name': tf.io.FixedLenFeature([], tf.string, default_value='?')}")
SEQUENCE = ("{'tok': tf.io.VarLenFeature(tf.int64), "
            "'emb': tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True), "
            "'word': tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)}")
ERRORS = {
    "missing": "{'nope': tf.io.FixedLenSequenceFeature([2], tf.float32)}",
    "miscounted": "{'emb': tf.io.FixedLenSequenceFeature([3], tf.float32)}",
    "mistyped": "{'emb': tf.io.FixedLenSequenceFeature([2], tf.int64)}",
}


def _env():
    return {"tf": tf, "np": np, "F": tf.train.Feature}


def _serialized(name):
    context, lists = (eval(s, _env()) for s in RECORDS[name])  # noqa: S307
    return tf.train.SequenceExample(
        context=tf.train.Features(feature=context),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=v) for k, v in lists.items()})).SerializeToString()


def _flat(dicts):
    out = []
    for d in dicts:
        for key in sorted(d):
            v = d[key]
            out += [v.indices, v.values, v.dense_shape] if isinstance(v, tf.SparseTensor) \
                else [v]
    arrays = [np.asarray(t) for t in out]
    flat = [np.frombuffer(b"|".join(a.reshape(-1).tolist()), np.uint8) if a.dtype == object
            else a for a in arrays]
    return [tf.constant(a) for a in flat]


TF_FLAT = ("[tf.io.decode_raw(tf.strings.reduce_join(tf.reshape(t, [-1]), separator='|'), "
           "tf.uint8) if t.dtype == tf.string else t for t in tf.nest.flatten(list({}), "
           "expand_composites=True)]")


def _case(name, records, context, sequence, single=False):
    inputs = [np.frombuffer(_serialized(r), np.uint8) for r in records]
    if single:
        call = f"tf.io.parse_single_sequence_example(x0.numpy().tobytes(), {context}, " \
               f"{sequence})"

        def mine(*xs):
            return _flat(tf.io.parse_single_sequence_example(
                bytes(np.asarray(xs[0])), eval(context, _env()),  # noqa: S307
                eval(sequence, _env())))  # noqa: S307
    else:
        joined = ", ".join(f"x{i}.numpy().tobytes()" for i in range(len(records)))
        call = f"tf.io.parse_sequence_example(tf.constant([{joined}]), {context}, {sequence})"

        def mine(*xs):
            return _flat(tf.io.parse_sequence_example(
                [bytes(np.asarray(x)) for x in xs], eval(context, _env()),  # noqa: S307
                eval(sequence, _env())))  # noqa: S307
    return TFCase(name, TF_FLAT.format(call), mine, inputs)


CASES = [_case("batch", ["two_steps", "one_step", "no_lists"], CONTEXT, SEQUENCE),
         _case("batch_sequence_only", ["one_step", "two_steps"], "None", SEQUENCE),
         _case("single", ["two_steps"], CONTEXT, SEQUENCE, single=True),
         _case("single_empty", ["no_lists"], CONTEXT, SEQUENCE, single=True)]
ERROR_CASES = [_case(f"error_{n}", ["two_steps"], "None", s) for n, s in ERRORS.items()]


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
    assert err.value.message[:60] in theirs, (err.value.message, theirs)


def test_configuration_errors():
    with pytest.raises(ValueError, match="must be None"):
        tf.io.parse_sequence_example([_serialized("one_step")], sequence_features={
            "emb": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                                 default_value=-1.0)})
    with pytest.raises(ValueError, match="context_features or sequence_features"):
        tf.io.parse_sequence_example([_serialized("one_step")])


def test_in_dataset_map():
    records = [_serialized("two_steps"), _serialized("one_step")]
    sequence = {"emb": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)}
    ds = tf.data.Dataset.from_tensor_slices(records).map(
        lambda r: tf.io.parse_single_sequence_example(r, sequence_features=sequence)[1]["emb"])
    assert [x.shape for x in ds] == [(2, 2), (1, 2)]


def test_a_scalar_string_is_one_record():
    """TensorFlow 2.21: parse_sequence_example of a scalar string parses one record, without a
    batch dimension: context c = 3 (shape ()), f = [1, 2] (shape (2,)), lengths f = 2 (int64
    scalar)."""
    ex = tf.train.SequenceExample()
    ex.context.feature["c"].int64_list.value.append(3)
    steps = ex.feature_lists.feature_list["f"]
    for v in (1, 2):
        steps.feature.add().int64_list.value.append(v)
    context, sequences, lengths = tf.io.parse_sequence_example(
        tf.constant(ex.SerializeToString()),
        context_features={"c": tf.io.FixedLenFeature([], tf.int64)},
        sequence_features={"f": tf.io.FixedLenSequenceFeature([], tf.int64)})
    assert context["c"].shape == () and int(context["c"]) == 3
    assert sequences["f"].numpy().tolist() == [1, 2]
    assert lengths["f"].shape == () and lengths["f"].dtype == tf.int64 and int(lengths["f"]) == 2
