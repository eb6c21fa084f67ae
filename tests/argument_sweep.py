"""The argument sweep's machinery: cases built from TensorFlow 2.21's stored signatures
(tests/references/tf_api.json) and the tables (argument_sweep_*_table.py), evaluated by wengert
and by TensorFlow, encoded the same way on both sides, and compared.

A case is one call `tf.<module>.<function>(<base arguments>, <parameter>=<value>)`: the base
arguments are a small valid input (the table's), the parameter one of TensorFlow's optional
parameters set to a value other than its default (the table's for that function, or
VALUE_BY_NAME's for that parameter name), one parameter at a time; every function also gets its
base call alone (`<function>()`). Inputs are the arrays of INPUTS, text executed in both
interpreters, so that both evaluate the same expression over the same values.

Results are encoded (ENCODER) as JSON: a tensor as dtype, shape and values (complex as real and
imaginary parts, strings as hex), a ragged or sparse tensor by its parts, tuples and lists item
by item, a Python scalar by its repr, and an exception by its class name.
"""
import hashlib
import json
import pathlib
import sys

import numpy as np

import reference_store
import tf_subprocess

sys.path.insert(0, str(pathlib.Path(__file__).parent / "references"))
import tf_api  # noqa: E402

MODULES = ("tf", "tf.math", "tf.nn", "tf.linalg", "tf.signal", "tf.image", "tf.strings")

INPUTS = '''
f32 = np.float32
X = np.array([[0.5, -1.25, 2.0], [3.5, 0.25, -0.75]], f32)
Y = np.array([[1.5, 2.0, -0.5], [0.75, -3.0, 1.25]], f32)
POS = np.array([[0.5, 1.25, 2.0], [3.5, 0.25, 0.75]], f32)
UNIT = np.array([[0.1, 0.3, 0.5], [0.7, 0.9, 0.2]], f32)
X3 = (np.arange(24).reshape(2, 3, 4) * 0.37 % 2 - 1).astype(f32)
I = np.array([[3, -1, 4], [1, -5, 9]], np.int32)
IP = np.array([[3, 1, 4], [1, 5, 9]], np.int32)
B = np.array([[True, False, True], [False, False, True]])
C = (X + 1j * Y).astype(np.complex64)
M = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], f32)
N = np.array([[1.0, 2.0, 0.5], [-1.0, 0.5, 3.0], [2.0, -0.5, 1.0]], f32)
CM = (M + 1j * N).astype(np.complex64)
V3 = np.array([1.0, -2.0, 0.5], f32)
IMG = ((np.arange(48).reshape(1, 4, 4, 3) * 7 % 23) / 22.0).astype(f32)
IMG16 = ((np.arange(768).reshape(1, 16, 16, 3) * 11 % 31) / 30.0).astype(f32)
IMG6 = ((np.arange(108).reshape(1, 6, 6, 3) * 5 % 29) / 28.0).astype(f32)
IMG8 = (IMG * 255).astype(np.uint8)
VOL = ((np.arange(2 * 4 * 4 * 4 * 2).reshape(2, 4, 4, 4, 2) * 3 % 11) / 10.0).astype(f32)
SEQ = ((np.arange(2 * 6 * 3).reshape(2, 6, 3) * 5 % 13) / 12.0 - 0.5).astype(f32)
K2 = ((np.arange(2 * 2 * 3 * 2).reshape(2, 2, 3, 2) * 3 % 7) / 6.0 - 0.5).astype(f32)
K1 = ((np.arange(2 * 3 * 2).reshape(2, 3, 2) * 3 % 7) / 6.0 - 0.5).astype(f32)
K3 = ((np.arange(2 * 2 * 2 * 2 * 2).reshape(2, 2, 2, 2, 2) * 3 % 7) / 6.0 - 0.5).astype(f32)
DW = ((np.arange(2 * 2 * 3 * 2).reshape(2, 2, 3, 2) * 5 % 9) / 8.0 - 0.5).astype(f32)
SIG = np.sin(np.arange(16) * 0.7).astype(f32)
SIG2 = np.stack([SIG, np.cos(np.arange(16) * 0.3).astype(f32)])
S = np.array([b"Hello World", b"a,b,,c", b"  tf Ops  "])
S2 = np.array([[b"ab", b"cd", b"ef"], [b"gh", b"ij", b"kl"]])
US = np.array(["h\\u00e9llo".encode(), "\\u00fc\\u00df!".encode()])
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                  [0, 10.1, 1, 11.1], [0, 100, 1, 101]], f32)
TRI = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 0.0]], f32)
TRI_SEQ = (np.array([1.0, 2.0, 0.0], f32), np.array([3.0, 4.0, 5.0], f32),
           np.array([0.0, 6.0, 7.0], f32))
SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], f32)
'''
INPUTS_ID = hashlib.sha1(INPUTS.encode()).hexdigest()[:12]

ENCODER = '''
def encode(x):
    if isinstance(x, BaseException):
        return ["error", type(x).__name__]
    if isinstance(x, tf.DType):
        return ["dtype", x.name]
    if isinstance(x, tf.TensorShape):
        return ["shape", repr(x.as_list() if x.rank is not None else None)]
    if isinstance(x, (tuple, list)):
        return ["tuple", [encode(v) for v in x]]
    if isinstance(x, dict):
        return ["dict", {str(k): encode(v) for k, v in sorted(x.items())}]
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return ["py", repr(x)]
    if isinstance(x, tf.RaggedTensor):
        return ["ragged", x.dtype.name, x.row_splits.dtype.name, x.ragged_rank,
                encode(x.flat_values), [encode(s) for s in x.nested_row_splits]]
    if isinstance(x, tf.SparseTensor):
        return ["sparse", encode(x.indices), encode(x.values), encode(x.dense_shape)]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    dtype = x.dtype.name if hasattr(x.dtype, "name") and not isinstance(x, np.ndarray) else str(a.dtype)
    if a.dtype == object or a.dtype.kind == "S":
        values = [v.hex() for v in a.ravel().tolist()]
    elif a.dtype.kind == "c":
        values = [a.real.astype(np.float64).ravel().tolist(), a.imag.astype(np.float64).ravel().tolist()]
    else:
        values = a.astype(np.float64).ravel().tolist() if a.dtype.kind == "f" else a.ravel().tolist()
    return ["tensor", dtype, list(a.shape), values]


def evaluate(expr):
    try:
        return encode(eval(expr, SCOPE))
    except Exception as exc:
        return ["error", type(exc).__name__]


def evaluate_in_function(expr):
    try:
        return encode(tf.function(lambda: eval(expr, SCOPE), autograph=False)())
    except Exception as exc:
        return ["error", type(exc).__name__]
'''


class Skip(str):
    """A parameter (or function) the sweep does not call, and why."""


class ChannelsFirst(str):
    """A data_format case TensorFlow's CPU kernels refuse: wengert runs the channels-first call
    (this argument text, the input already transposed) and transposes its result back by
    `perm`; TensorFlow runs the base (channels-last) call. The answers must agree."""

    def __new__(cls, args, perm):
        made = super().__new__(cls, args)
        made.perm = perm
        return made


class Args(str):
    """A parameter's case given as the whole argument text (other inputs than the base call's,
    which the parameter's non-default value needs)."""


def scope(tf_module):
    """The namespace cases are evaluated in: `tf`, `np`, the INPUTS and the ENCODER."""
    space = {"tf": tf_module, "np": np}
    exec(INPUTS, space)  # noqa: S102 - the fixed inputs above
    space["SCOPE"] = space
    exec(ENCODER, space)  # noqa: S102 - the encoder above
    return space


def build_cases(tables, value_by_name, skip_by_name):
    """(cases, skipped): cases as [(case name, wengert's expression, TensorFlow's)], skipped as [(function(param),
    reason)], for every function of MODULES in TensorFlow's stored API with a table entry."""
    api = json.loads(tf_api.API.read_text())["modules"]
    cases, skipped = [], []
    for module in MODULES:
        for name, entry in sorted(api[module].items()):
            if entry["kind"] != "function":
                continue
            path = f"{module}.{name}"
            spec = tables.get(path, tables.get(name))
            if spec is None or isinstance(spec, Skip):
                skipped.append((f"{path}()", spec or "no table entry"))
                continue
            base, values = spec
            cases.append((f"{path}()", f"{path}({base})", f"{path}({base})"))
            for param, kind, has_default in entry["params"] or []:
                if not has_default or kind.startswith("VAR") or param == "name":
                    continue
                value = values.get(param, value_by_name.get(param))
                value = skip_by_name.get(param, value) if param not in values else value
                if value is None or isinstance(value, Skip):
                    skipped.append((f"{path}({param})", value or "no value chosen"))
                    continue
                sep = ", " if base else ""
                choices = value if isinstance(value, list) else [value]
                for k, choice in enumerate(choices):
                    suffix = f"#{k}" if k else ""
                    cases.append((f"{path}({param}){suffix}",) + _expressions(
                        path, base, param, choice))
    return cases, skipped


def _expressions(path, base, param, choice):
    """(wengert's expression, TensorFlow's) of a parameter's case."""
    if isinstance(choice, ChannelsFirst):
        return f"tf.transpose({path}({choice}), {choice.perm})", f"{path}({base})"
    if isinstance(choice, Args):
        return f"{path}({choice})", f"{path}({choice})"
    call = f"{path}({base}{', ' if base else ''}{param}={choice})"
    return call, call


def _tf_script(cases):
    lines = ["SCOPE = {'tf': tf, 'np': np}", f"exec({INPUTS!r}, SCOPE)", ENCODER,
             f"CASES = {json.dumps(cases)}",
             "for _name, _mine, _expr in CASES:",
             "    out[_name + '/json'] = np.array(json.dumps(evaluate(_expr)).encode())"]
    return "import json\n" + "\n".join(lines) + "\n"


def tf_answers(cases, python):
    """{case name: TensorFlow's encoded result}: live under `python`, else stored."""
    import keras_tf_eval  # imported when first needed: it imports wengert's Keras
    request = [{"name": name, "expr": expr, "inputs": INPUTS_ID} for name, _, expr in cases]
    script = _tf_script(cases)
    data = reference_store.answers(request, {}, python,
                                   lambda py: keras_tf_eval._run(py, script, {}))
    return {name: json.loads(data[f"{name}/json"].item()) for name, _, _ in cases}


def same(mine, theirs, rtol=1e-4, atol=1e-5):
    """None when the encoded results agree, else a text saying where they differ."""
    stack = [("result", mine, theirs)]
    while stack:
        where, a, b = stack.pop()
        if a[0] != b[0]:
            return f"{where}: wengert gives {_short(a)}, TensorFlow {_short(b)}"
        if a[0] == "tuple":
            if len(a[1]) != len(b[1]):
                return f"{where}: {len(a[1])} items, TensorFlow {len(b[1])}"
            stack.extend((f"{where}[{i}]", x, y) for i, (x, y) in enumerate(zip(a[1], b[1])))
        elif a[0] == "tensor":
            problem = _tensor_difference(a, b, rtol, atol)
            if problem:
                return f"{where}: {problem}"
        elif a[0] in ("ragged", "sparse", "dict"):
            parts_a, parts_b = _parts(a), _parts(b)
            if len(parts_a) != len(parts_b) or (a[0] == "ragged" and a[1:4] != b[1:4]):
                return f"{where}: wengert gives {_short(a)}, TensorFlow {_short(b)}"
            stack.extend((f"{where}.{i}", x, y) for i, (x, y) in enumerate(zip(parts_a, parts_b)))
        elif a != b:
            return f"{where}: wengert gives {_short(a)}, TensorFlow {_short(b)}"
    return None


def _parts(encoded):
    if encoded[0] == "ragged":
        return [encoded[4], *encoded[5]]
    if encoded[0] == "dict":
        return [encoded[1][k] for k in sorted(encoded[1])] + [["py", repr(sorted(encoded[1]))]]
    return encoded[1:]


def _tensor_difference(a, b, rtol, atol):
    _, dtype_a, shape_a, values_a = a
    _, dtype_b, shape_b, values_b = b
    if dtype_a != dtype_b:
        return f"dtype {dtype_a}, TensorFlow {dtype_b}"
    if shape_a != shape_b:
        return f"shape {shape_a}, TensorFlow {shape_b}"
    x, y = np.asarray(values_a), np.asarray(values_b)
    if x.dtype.kind in "fc" or y.dtype.kind in "fc":
        ok = np.allclose(np.asarray(x, float), np.asarray(y, float), rtol=rtol, atol=atol,
                         equal_nan=True)
    else:
        ok = np.array_equal(x, y)
    return None if ok else f"values {_clip(values_a)}, TensorFlow {_clip(values_b)}"


def _clip(values):
    text = json.dumps(values)
    return text if len(text) < 300 else text[:300] + "..."


def _short(encoded):
    text = json.dumps(encoded)
    return text if len(text) < 400 else text[:400] + "..."


def json_round_trip(encoded):
    """An encoded result as TensorFlow's comes back (through JSON text)."""
    return json.loads(json.dumps(encoded))
