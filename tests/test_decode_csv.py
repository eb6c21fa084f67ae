"""tf.io.decode_csv against TensorFlow 2.21 (answers stored in
tests/references/test_decode_csv.npz): every column dtype, defaults and required columns,
quoting, na_value, select_cols, other delimiters, records of any shape, and the errors for bad
records; and decode_csv inside Dataset.map."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.framework.errors import InvalidArgumentError

RECORDS = np.array(['1,2.5,"a,""q""",7,0.125', '-3,,plain,,1e300', '2147483647,1e-3,,-9,'],
                   dtype=object)
DEFAULTS = ("[tf.constant([], tf.int32), [9.5], ['dflt'], tf.constant([5], tf.int64), "
            "tf.constant([0.0], tf.float64)]")


def _u8(t):
    a = np.asarray(t, dtype=object).reshape(-1)
    return [tf.constant(np.frombuffer(b"|".join(a.tolist()), np.uint8)),
            tf.constant(np.array([len(v) for v in a], np.int32))]


def _flat(outs):
    flat = []
    for o in outs:
        flat += _u8(o.numpy()) if o.dtype == tf.string else [o]
    return flat


TF_FLAT = ("(lambda outs: [u for o in outs for u in ([tf.io.decode_raw(tf.strings.reduce_join("
           "tf.reshape(o, [-1]), separator='|'), tf.uint8), tf.strings.length(tf.reshape(o, "
           "[-1]))] if o.dtype == tf.string else [o])])({})")
CALLS = {
    "mixed": ("tf.io.decode_csv(REC, DEFAULTS)", RECORDS),
    "na_value": ("tf.io.decode_csv(REC, DEFAULTS, na_value='plain')", RECORDS),
    "select": ("tf.io.decode_csv(REC, [[0.0], ['x']], select_cols=[1, 2])", RECORDS),
    "matrix": ("tf.io.decode_csv(tf.reshape(REC, [2, 2]), [[0], tf.constant([1], tf.int64)], "
               "field_delim=';')", np.array(["1;2", "3;", ";4", "5;6"], dtype=object)),
    "no_quotes": ("tf.io.decode_csv(REC, [[''], ['']], use_quote_delim=False)",
                  np.array(['"a,b"', 'c",d'], dtype=object)),
}
ERRORS = {
    "count": ("tf.io.decode_csv(REC, [[0], [0]])", np.array(["1,2", "1,2,3"], dtype=object)),
    "required": ("tf.io.decode_csv(REC, [tf.constant([], tf.int32), [0]])",
                 np.array(["1,2", ",2"], dtype=object)),
    "not_int": ("tf.io.decode_csv(REC, [[0], [0]])", np.array(["1,x"], dtype=object)),
    "not_float": ("tf.io.decode_csv(REC, [[0.0]])", np.array(["abc"], dtype=object)),
    "open_quote": ("tf.io.decode_csv(REC, [[''], ['']])", np.array(['"a,b'], dtype=object)),
    "stray_quote": ("tf.io.decode_csv(REC, [[''], ['']])", np.array(['a"b,c'], dtype=object)),
}


def _case(name, call, records):
    joined = [np.frombuffer(r.encode(), np.uint8) for r in records]
    rec = "tf.constant([" + ", ".join(f"x{i}.numpy().tobytes()" for i in range(len(joined))) \
        + "])"
    expr = TF_FLAT.format(call.replace("REC", rec).replace("DEFAULTS", DEFAULTS))

    def mine(*xs):
        env = {"tf": tf, "REC": tf.constant([bytes(np.asarray(x)) for x in xs])}
        return _flat(eval(call.replace("DEFAULTS", DEFAULTS), env))  # noqa: S307
    return TFCase(name, expr, mine, joined)


CASES = [_case(n, *c) for n, c in CALLS.items()]
ERROR_CASES = [_case(f"error_{n}", *c) for n, c in ERRORS.items()]


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
    mine = err.value.message.split(" (record")[0]
    assert mine in theirs, (mine, theirs)


def test_arguments_checked_before_parsing():
    with pytest.raises(ValueError, match="one character"):
        tf.io.decode_csv(["a"], [[""]], field_delim="::")
    with pytest.raises(TypeError, match="float32, float64, int32, int64 or string"):
        tf.io.decode_csv(["1"], [[True]])
    with pytest.raises(ValueError, match="ascending"):
        tf.io.decode_csv(["1,2"], [[0], [0]], select_cols=[1, 0])


def test_in_dataset_map():
    ds = tf.data.Dataset.from_tensor_slices(["1,a", "2,b"]).map(
        lambda line: tf.io.decode_csv(line, [[0], [""]])).batch(2)
    numbers, letters = next(iter(ds))
    assert numbers.numpy().tolist() == [1, 2] and letters.numpy().tolist() == [b"a", b"b"]
