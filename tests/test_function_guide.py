"""The rest of TensorFlow's tf.function guide (issue 30 items 1 and 4): retracing rules
(Python values by value, traces that cover a call, reduce_retracing's generalization, nested,
string, ragged and sparse input signatures, Python strings and bytes), what a ConcreteFunction
says about itself (function_type, structured_input_signature, structured_outputs, captures),
tf.types.experimental, py_function/numpy_function as decorators, AutoGraph's loop options and
loops over Python lists and dicts, and the errors for a tensor of another graph and a recursion
that never ends. Numbers are compared with TensorFlow 2.21 running the same program text
(tests/traced_snippets.py, answers stored); TensorFlow's printed texts, recorded from it, are
written into the assertions."""
import numpy as np
import pytest

import wengert as tf
from traced_snippets import assert_same, run_here, tensorflow_answers
from wengert.tracing import dispatch

CASES = {
    "python_values_retrace_by_value": """
@tf.function
def scale(x, times):
    return x * times
for times in (2, 3, 2, 2.0, True, 1):
    out["y_" + str(times)] = scale(tf.constant(1.5), times)
out["traces"] = tf.constant(scale.experimental_get_tracing_count())
""",
    "defaults_bound_before_keying": """
@tf.function
def shift(x, y=1, *, z=3):
    return x + y + z
a = tf.constant(1.0)
counts = []
for call in (lambda: shift(a), lambda: shift(a, y=1), lambda: shift(a, 1),
             lambda: shift(x=a), lambda: shift(a, z=3), lambda: shift(a, 2)):
    out["y_" + str(len(counts))] = call()
    counts.append(shift.experimental_get_tracing_count())
out["counts"] = tf.constant(counts)
""",
    "follow_type_hints_has_no_effect": """
@tf.function(experimental_follow_type_hints=True)
def hinted(x: tf.Tensor):
    return x + 1
for i in range(3):
    hinted(i)
out["traces"] = tf.constant(hinted.experimental_get_tracing_count())
""",
    "reduce_retracing_generalizes": """
@tf.function(reduce_retracing=True)
def total(x):
    return tf.reduce_sum(x)
counts = []
for shape in [(2,), (3,), (4,), (2, 3), (5, 6, 7), (2,)]:
    out["sum_" + "x".join(map(str, shape))] = total(tf.ones(shape))
    counts.append(total.experimental_get_tracing_count())
out["counts"] = tf.constant(counts)
ranks = [c.structured_input_signature[0][0].shape.rank for c in
         total._list_all_concrete_functions()]
out["ranks"] = tf.constant([-1 if r is None else r for r in ranks])
""",
    "a_general_trace_covers_calls": """
@tf.function
def f(x):
    return tf.exp(x) * 2.0
f.get_concrete_function(tf.TensorSpec([None], tf.float32))
out["y"] = f(tf.constant([0.0, 1.0]))
out["after_vector"] = tf.constant(f.experimental_get_tracing_count())
f(tf.constant(0.0))
out["after_scalar"] = tf.constant(f.experimental_get_tracing_count())
""",
    "nested_input_signature": """
@tf.function(input_signature=[
    (tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)),
    {"w": tf.TensorSpec([2], tf.float32)}, [tf.TensorSpec(None, tf.float32)]])
def nested(pair, weights, extra):
    return pair[0] * tf.cast(pair[1], tf.float32) + tf.reduce_sum(weights["w"]) + \\
        tf.reduce_sum(extra[0])
out["a"] = nested((tf.constant([1.0, 2.0]), tf.constant(3)), {"w": tf.constant([1.0, 1.0])},
                  [tf.ones((2, 2))])
out["b"] = nested((tf.constant([4.0]), tf.constant(1)), {"w": tf.constant([0.5, 0.5])},
                  [tf.ones((3,))])
out["traces"] = tf.constant(nested.experimental_get_tracing_count())
""",
    "string_ragged_sparse_signatures": """
@tf.function(input_signature=[tf.TensorSpec([], tf.string)])
def length(s):
    return tf.strings.length(s)
@tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
def row_sums(r):
    return tf.reduce_sum(r, axis=1)
@tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
def sparse_rows(s):
    return tf.sparse.reduce_sum(s, axis=1)
out["len"] = tf.stack([length("hello"), length(tf.constant("ab"))])
out["rows"] = row_sums(tf.ragged.constant([[1.0, 2.0], [3.0]]))
out["rows3"] = row_sums(tf.ragged.constant([[1.0], [], [2.0, 3.0, 4.0]]))
out["sparse"] = sparse_rows(tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3]))
out["traces"] = tf.constant([length.experimental_get_tracing_count(),
                             row_sums.experimental_get_tracing_count()])
""",
    "python_strings_and_bytes": """
@tf.function
def pick(x, mode):
    return x * 2 if mode == "double" else x
out["a"] = pick(tf.constant(1.0), "double")
out["b"] = pick(tf.constant(1.0), "same")
out["c"] = pick(tf.constant(1.0), b"double")
pick(tf.constant(5.0), "double")
out["traces"] = tf.constant(pick.experimental_get_tracing_count())
@tf.function
def byte_length(b):
    return tf.strings.length(b)
out["lengths"] = tf.stack([byte_length(b"abc"), byte_length("abcd")])
out["byte_traces"] = tf.constant(byte_length.experimental_get_tracing_count())
""",
    "side_effects_and_eager_switch": """
seen = []
@tf.function
def f(x):
    seen.append(1)
    return x + 1
f(tf.constant(1)); f(tf.constant(2)); f(tf.constant(1.0))
out["traced"] = tf.constant([len(seen), f.experimental_get_tracing_count()])
tf.config.run_functions_eagerly(True)
try:
    f(tf.constant(3)); f(tf.constant(4))
    out["eager"] = tf.constant([len(seen), f.experimental_get_tracing_count()])
finally:
    tf.config.run_functions_eagerly(False)
""",
    "python_functions_as_decorators": """
@tf.py_function(Tout=tf.float32)
def py_double(x):
    return x.numpy() * 2
@tf.numpy_function(Tout=tf.float64)
def np_triple(x):
    return x * 3
@tf.function
def uses_python(x):
    return py_double(x) + 1
out["py"] = py_double(tf.constant(3.0))
out["traced"] = uses_python(tf.constant(3.0))
out["np"] = np_triple(np.float64(2.0))
out["spec"] = tf.py_function(lambda x: x * 2, [tf.constant([1.0, 2.0])],
                             Tout=tf.TensorSpec([None], tf.float32))
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = py_double(x) * x
out["grad"] = tape.gradient(y, x)
""",
    "autograph_loops": """
@tf.function
def bounded(n):
    s = tf.constant(0)
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(parallel_iterations=1, maximum_iterations=3)
        s += i
    return s
@tf.function
def over_list(xs):
    s = 0.0
    for x in xs:
        s += x
    return s
@tf.function
def over_dict(d):
    s = 0.0
    for k in d:
        s += d[k]
    for _, value in d.items():
        s = s * value
    return s
out["bounded"] = bounded(tf.constant(10))
out["list"] = over_list([tf.constant(1.0), tf.constant(2.0), tf.constant(4.0)])
out["dict"] = over_dict({"a": tf.constant(1.5), "b": tf.constant(2.0)})
""",
    "tracing_protocol": """
class FruitTraceType(tf.types.experimental.TraceType):
    def __init__(self, fruit):
        self.fruit_type = type(fruit)
        self.fruit_value = fruit
    def is_subtype_of(self, other):
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type
    def most_specific_common_supertype(self, others):
        return self if all(self == other for other in others) else None
    def placeholder_value(self, placeholder_context=None):
        return self.fruit_value
    def __eq__(self, other):
        return type(other) is FruitTraceType and self.fruit_type == other.fruit_type
    def __hash__(self):
        return hash(self.fruit_type)
class Apple:
    flavor = tf.constant([1, 2])
    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)
class Mango(Apple):
    flavor = tf.constant([3, 4])
@tf.function
def mixed(a, b):
    return a.flavor + b.flavor
out["am"] = mixed(Apple(), Mango())
out["am_again"] = mixed(Apple(), Mango())
out["ma"] = mixed(Mango(), Apple())
out["traces"] = tf.constant(mixed.experimental_get_tracing_count())
""",
    "concrete_function_attributes": """
v = tf.Variable(2.0)
frozen = tf.Variable(1.0, trainable=False)
offset = tf.constant([1.0, 2.0])
@tf.function
def affine(x, y=1):
    return {"a": x * v + frozen, "b": (x + offset, y)}
concrete = affine.get_concrete_function(tf.TensorSpec([2], tf.float32))
flat = tf.nest.flatten(concrete.structured_outputs)
out["counts"] = tf.constant([len(concrete.variables), len(concrete.trainable_variables),
                             len(concrete.captured_inputs), len(flat)])
out["a"] = concrete(tf.constant([1.0, 3.0]))["a"]
out["y"] = concrete(tf.constant([1.0, 3.0]))["b"][1]
""",
}


@pytest.fixture(scope="module")
def answers():
    return tensorflow_answers(CASES, {})


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, answers):
    assert_same(name, run_here(name, CASES[name], {}), answers[name])


def test_function_type_and_signatures_print_as_tensorflow():
    @tf.function
    def f(x, n, s="a", *rest, k=2):
        return {"a": x, "b": (x, [x]), "c": None}

    concrete = f.get_concrete_function(tf.TensorSpec([2]), 4, k=5)
    spec = "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    output = (f"Dict[['a', {spec}], ['b', Tuple[{spec}, List[{spec}]]], ['c', "
              "Literal[None]]]")
    assert repr(concrete.function_type) == (
        f"(x: {spec}, n: Literal[4], s: Literal['a'], /, *, k: Literal[5]) -> {output}")
    assert concrete.pretty_printed_signature(verbose=False) == repr(concrete.function_type)
    assert repr(concrete.function_type.parameters["x"]) == (
        f"Parameter(name=x, kind=POSITIONAL_ONLY, optional=False, type_constraint={spec})")
    assert repr(concrete.function_type.output) == output
    args, kwargs = concrete.structured_input_signature
    assert args == (tf.TensorSpec([2], tf.float32, "x"), 4, "a") and kwargs == {"k": 5}
    assert isinstance(concrete.function_type, tf.types.experimental.FunctionType)


def test_nested_arguments_name_their_inputs_as_tensorflow():
    @tf.function
    def g(t, d):
        return t[0]

    concrete = g.get_concrete_function((tf.constant(1.0), tf.constant(2)),
                                       {"u": tf.constant([1.0])})
    assert repr(concrete.structured_input_signature) == (
        "(((TensorSpec(shape=(), dtype=tf.float32, name='t_0'), TensorSpec(shape=(), "
        "dtype=tf.int32, name='t_1')), {'u': TensorSpec(shape=(1,), dtype=tf.float32, "
        "name='d_u')}), {})")
    assert repr(concrete.function_type) == (
        "(t: Tuple[TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), "
        "dtype=tf.int32, name=None)], d: Dict[['u', TensorSpec(shape=(1,), dtype=tf.float32, "
        "name=None)]]) -> TensorSpec(shape=(), dtype=tf.float32, name=None)")


def test_pretty_printed_signature_verbose():
    v = tf.Variable(1.0, name="weight")

    @tf.function
    def f(x, n=2):
        return x * v * n

    f(tf.ones([2]))
    assert f.get_concrete_function(tf.ones([2])).pretty_printed_signature().splitlines() == [
        "Input Parameters:",
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
        "  n (POSITIONAL_OR_KEYWORD): Literal[2]",
        "Output Type:",
        "  TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
        "Captures:",
        "  weight:0"]


def test_types_experimental():
    kinds = tf.types.experimental

    @tf.function
    def f(x):
        return x

    concrete = f.get_concrete_function(tf.constant(1.0))
    assert isinstance(concrete, kinds.ConcreteFunction) and isinstance(concrete, kinds.Callable)
    assert isinstance(f, kinds.GenericFunction) and kinds.GenericFunction is \
        kinds.PolymorphicFunction
    assert not isinstance(f, kinds.ConcreteFunction)
    for spec in (tf.TensorSpec([2]), tf.RaggedTensorSpec([2, None]),
                 tf.SparseTensorSpec([2, 3], tf.float32)):
        assert isinstance(spec, kinds.TraceType)
    assert all(isinstance(x, kinds.TensorLike) for x in (tf.constant(1.0), np.ones(2),
                                                          np.float32(1), 3, 2.5, "s", [1]))
    assert not isinstance(object(), kinds.TensorLike)


def test_py_function_tout_structures_as_tensorflow():
    with pytest.raises(TypeError, match=r"^Cannot convert the argument `type_value`: "
                                        r"\{'a': tf.float32\} to a TensorFlow DType.$"):
        tf.py_function(lambda x: x, [tf.constant(1.0)], Tout={"a": tf.float32})
    with pytest.raises(TypeError, match=r"`type_value`: \(tf.float32,\)"):
        tf.py_function(lambda x: (x, (x,)), [tf.constant(1.0)], Tout=(tf.float32, (tf.float32,)))
    pair = tf.py_function(lambda x: (x, x * 2), [tf.constant(1.0)], Tout=(tf.float32, tf.float32))
    assert isinstance(pair, list) and [float(t) for t in pair] == [1.0, 2.0]


def test_capture_of_another_graphs_tensor_is_tensorflows_type_error():
    graph = tf.Graph()
    with graph.as_default():
        foreign = tf.constant(1.0)

    @tf.function
    def f(x):
        return x + foreign

    with pytest.raises(TypeError, match=r"^<tf.Tensor 'Const:0' shape=\(\) dtype=float32> is "
                                        "out of scope and cannot be used here"):
        f(tf.constant(1.0))


def test_endless_recursion_is_a_staging_error_naming_the_line():
    @tf.function
    def endless(n):
        return endless(n - 1) + 1

    with pytest.raises(Exception) as info:
        endless(tf.constant(3))
    assert type(info.value).__name__ == "StagingError"
    text = str(info.value)
    assert text.startswith("in user code:")
    assert "return endless(n - 1) + 1" in text and "RecursionError" in text
    assert text.count("return endless(n - 1) + 1") == 1  # once, with how often it recurred
    assert endless.experimental_get_tracing_count() == 0


def test_dispatch_keys():
    f32 = np.dtype("float32")
    assert dispatch.covers(((f32, (None,)),), ((f32, (3,)),))
    assert not dispatch.covers(((f32, (3,)),), ((f32, (None,)),))
    assert dispatch.covers(((f32, None),), ((f32, (3, 4)),))
    assert not dispatch.covers(((f32, None), ("literal", 1)), ((f32, (3,)), ("literal", 2)))
    assert dispatch.common_key(((f32, (2,)),), ((f32, (3,)),)) == ((f32, (None,)),)
    assert dispatch.common_key(((f32, (2,)),), ((f32, (2, 3)),)) == ((f32, None),)
    assert dispatch.common_key((("literal", 1),), (("literal", 2),)) is None
    traced = [((f32, (2,)),), ((f32, (None,)),), ((f32, None),)]
    assert dispatch.most_specific_cover(((f32, (5,)),), traced) == ((f32, (None,)),)
    assert dispatch.most_specific_cover(((f32, (2,)),), traced) == ((f32, (2,)),)
    assert dispatch.generalize(((f32, (7,)),), traced[:1]) == ((f32, (None,)),)
    assert dispatch.tensor_shapes((("x", ((f32, (1,)), (f32, None))), (f32, ()))) == [
        (1,), None, ()]


def test_a_function_before_tracing_describes_its_parameters():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(x):
        return x

    @tf.function
    def f(x, *a, y=2, **k):
        return x

    assert repr(g.function_type) == "(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None))"
    assert repr(f.function_type) == "(x, *a, y=<captured_default_value>, **k)"
    assert g.name == "g"
    concrete = g.get_concrete_function()
    assert concrete.output_dtypes == tf.float32
    assert concrete.output_shapes == tf.TensorShape([None])
    with pytest.raises(NotImplementedError, match="XLA"):
        g.experimental_get_compiler_ir(tf.constant([1.0]))


def test_placeholders_named_after_parameters_and_printed_as_tensorflow():
    seen = []

    @tf.function
    def double(a):
        seen.append(str(a))
        return a + a

    concrete = double.get_concrete_function(tf.constant("a"))
    assert seen == ['Tensor("a:0", shape=(), dtype=string)']
    assert [n.name for n in concrete.graph.as_graph_def().node][:2] == ["a", "add"]
    assert str(concrete).startswith("ConcreteFunction Input Parameters:\n  a (POSITIONAL_OR_")


def test_concrete_function_binds_keywords_and_checks_python_values():
    @tf.function
    def power(a, b):
        return a ** b

    square = power.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    assert float(square(tf.constant(10.0))) == 100.0
    assert float(square(a=tf.constant(3.0))) == 9.0
    assert float(square(tf.constant(4.0), b=2)) == 16.0
    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to `Can not "
                                        r"cast 3 to Literal\[2\]`"):
        square(tf.constant(10.0), b=3)
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(\), dtype=tf.int32, "
                                        r"name=None\) to TensorSpec\(shape=<unknown>, "
                                        r"dtype=tf.float32"):
        square(tf.constant(1))
