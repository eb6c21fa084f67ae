"""The names a TensorFlow 1 graph gives the constants its op functions make, compared with
TensorFlow 2.21's `tf.compat.v1` building the same graphs (tf1_scenarios.py): an operator or op
function converts a Python operand inside the op's name scope, so `x * 2.0` makes `mul/y` and
`mul`, `2.0 + x` makes `add/x`, `tf.matmul(x, [[1.0]])` makes `MatMul/b`, and small `zeros` /
`ones` are one constant named `zeros` / `ones`; `get_tensor_by_name("mul/y:0")` finds them."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

_NODES = '''
nodes = [n.name for n in tf.get_default_graph().as_graph_def().node]
out["nodes"] = nodes
# a slice's begin, end and strides are attributes here (GraphDef's inputs `strided_slice/stack`)
out["inputs"] = [op.name + " <- " + ",".join(t.name for t in op.inputs if "/stack" not in t.name)
                 for op in tf.get_default_graph().get_operations() if "/stack" not in op.name]
'''

SCENARIOS = {
    "operator_constants": '''
x = tf.placeholder(tf.float32, [None, 3], name="x")
i = tf.placeholder(tf.int32, [None, 3], name="i")
ops = [x * 2.0, 2.0 + x, x - 1, 3 / x, -x, tf.multiply(x, 2.0), tf.add(x, 1.0),
       tf.matmul(x, [[1.], [2.], [3.]]), tf.maximum(x, 0.), tf.minimum(x, 1.), tf.pow(x, 2.),
       x ** 2, x @ [[1.], [2.], [3.]], i // 2, i % 2, tf.subtract(3., x),
       tf.multiply(x, 2.0, name="foo"), x * 2 * 3, tf.add(x, 1.0, name="s/"), x / 2, x > 0.5,
       tf.squared_difference(x, 1.0), tf.divide(x, 4.0), tf.add(x, x), tf.matmul(x, tf.ones([3, 2]))]
with tf.name_scope("sc"):
    ops += [x * 2, x * 2]
with tf.name_scope("mul"):
    ops += [x + 1]
ops += [x * 4]
out["outputs"] = [t.name for t in ops]
out["lookup"] = [tf.get_default_graph().get_tensor_by_name(n).op.type
                 for n in ["mul/y:0", "add/x:0", "MatMul/b:0", "sc/mul_1/y:0"]]
''' + _NODES,
    "variables_and_scopes": '''
tf.disable_resource_variables()  # TF 1's reference variables, read through `<name>/read`
x = tf.placeholder(tf.float32, [None, 3], name="x")
v = tf.Variable(tf.ones([3, 2]), name="v")
b = tf.Variable(tf.zeros([2]), name="b")
out2 = (tf.matmul(x, v) + b) * b
with tf.name_scope("scope"):
    s = out2 + 1.0
    t = tf.matmul(x, v)
    u = tf.ones([2, 2]) * v[0, 0]
out["outputs"] = [s.name, t.name, u.name, v[1].name]
tf.enable_resource_variables()
''' + _NODES,
    "get_variable_mlp": '''
tf.disable_resource_variables()
x = tf.placeholder(tf.float32, [None, 3], name="x")
with tf.variable_scope("layer"):
    w = tf.get_variable("w", [3, 4])
    b = tf.get_variable("b", [4], initializer=tf.zeros_initializer())
    h = tf.nn.relu(tf.matmul(x, w) + b)
    scaled = h * 0.5
with tf.variable_scope("out"):
    w2 = tf.get_variable("w", [4, 1])
    o = tf.matmul(scaled, w2) - 1.0
loss = tf.reduce_mean(tf.square(o))
graph = tf.get_default_graph()
out["lookup"] = [graph.get_tensor_by_name(n).name
                 for n in ["layer/mul/y:0", "out/sub/y:0", "layer/add:0", "out/MatMul:0"]]
# the initializers' inner ops and reductions' axes are left out: they are built differently
out["nodes"] = [op.name for op in graph.get_operations()
                if "/Initializer/" not in op.name and not op.name.startswith("Const")]
out["inputs"] = [op.name + " <- " + ",".join(t.name for t in op.inputs)
                 for op in graph.get_operations()
                 if "/Initializer/" not in op.name and op.type != "Mean"
                 and not op.name.startswith("Const")]
tf.enable_resource_variables()
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_graph_names_agree_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_eager_operands_are_unnamed():
    """Eagerly nothing is named: the same operators give plain tensors."""
    x = tf.constant([1.0, 2.0])
    assert (x * 2.0).numpy().tolist() == [2.0, 4.0]
    assert (2.0 + x).numpy().tolist() == [3.0, 4.0]
    assert tf.matmul([[1.0, 2.0]], tf.ones([2, 1])).numpy().tolist() == [[3.0]]
