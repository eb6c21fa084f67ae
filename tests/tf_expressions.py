"""Compare Python expressions over `tf` as wengert and TensorFlow 2.21 evaluate them, for results
NumPy cannot store without pickle (strings, ragged tensors, tuples of them).

Each case is an expression string over `tf` and `np`. Both sides encode its result with the same
function (ENCODER below, run as text in each interpreter) into JSON: a tensor as its dtype,
shape and values (strings as hex bytes), a RaggedTensor as its dtype, row-splits dtype, static
shape, ragged rank, flat values and every level's row splits, a tuple or list item by item, and
an exception as its class name alone (messages are wengert's own). `tf_results(cases)` asks
TensorFlow once per module through keras_tf_eval.tf_eval, so the answers are stored in
tests/references/ and checked without TensorFlow (reference_store.py).
"""
import json

import numpy as np

import wengert
from keras_tf_eval import tf_eval

ENCODER = '''
def encode(x):
    if isinstance(x, (tuple, list)):
        return ["tuple", [encode(v) for v in x]]
    if isinstance(x, tf.RaggedTensor):
        return ["ragged", x.dtype.name, x.row_splits.dtype.name, str(x.shape), x.ragged_rank,
                encode(x.flat_values), [s.numpy().tolist() for s in x.nested_row_splits]]
    a = np.asarray(x.numpy())
    values = a.tolist()
    if a.dtype == object:
        values = np.vectorize(lambda b: b.hex(), otypes=[object])(a).tolist() if a.size else []
    return ["tensor", x.dtype.name, list(a.shape), values]


def evaluate(expr):
    try:
        return encode(eval(expr, {"tf": tf, "np": np}))
    except Exception as exc:
        return ["error", type(exc).__name__]
'''


def _script(cases):
    lines = [ENCODER, f"CASES = {json.dumps(cases)}",
             "for _name, _expr in CASES.items():",
             "    out[_name] = np.array(json.dumps(evaluate(_expr)).encode())"]
    return "import json\n" + "\n".join(lines) + "\n"


def tf_results(cases):
    """{case name: TensorFlow's encoded result} for {case name: expression}."""
    out = tf_eval(_script(cases))
    return {name: json.loads(out[name].item()) for name in cases}


_SCOPE = {"tf": wengert, "np": np}
exec(ENCODER, _SCOPE)  # noqa: S102 - the encoder above, run in wengert's namespace


def wengert_result(expr):
    """wengert's encoded result of `expr` (JSON round trip, as TensorFlow's comes back)."""
    return json.loads(json.dumps(_SCOPE["evaluate"](expr)))
