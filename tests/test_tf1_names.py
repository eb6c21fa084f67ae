"""Op and tensor names in a TensorFlow 1 graph are TensorFlow's, so code that looks tensors up by
name (`get_tensor_by_name("layer/add:0")`) finds them: operators name their ops "add", "sub",
"mul" (of types AddV2, Sub, Mul), tf.concat/transpose/stack name theirs in lower case, and each
op's gradient ops sit under "gradients/<op name>_grad/"."""
import wengert as tf
import wengert.compat.v1 as v1

# (tensor name, op type) for the tensors built in _graph, as TensorFlow 2.21 names them.
TF_NAMES = [("x:0", "Placeholder"), ("layer/add:0", "AddV2"), ("layer/Relu:0", "Relu"),
            ("sub:0", "Sub"), ("Mean:0", "Mean"), ("Softmax:0", "Softmax"),
            ("concat:0", "ConcatV2"), ("Reshape:0", "Reshape"), ("Cast:0", "Cast"),
            ("transpose:0", "Transpose")]


def _graph():
    x = v1.placeholder(tf.float32, [None, 3], name="x")
    with v1.variable_scope("layer"):
        w = v1.get_variable("w", [3, 2])
        b = v1.get_variable("b", [2], initializer=v1.zeros_initializer())
        h = tf.matmul(x, w) + b
        a = tf.nn.relu(h)
    y = a * 2.0 - 1.0
    z = tf.reduce_mean(tf.square(y))
    c = tf.concat([a, a], axis=1)
    tensors = [x, h, a, y, z, tf.nn.softmax(a), c, tf.reshape(c, [-1]),
               tf.cast(c, tf.float64), tf.transpose(a)]
    return tensors, v1.gradients(z, [w])[0]


def test_names_are_tensorflows():
    graph = tf.Graph()
    with graph.as_default():
        tensors, grad = _graph()
        assert [(t.name, t.op.type) for t in tensors] == TF_NAMES
        assert graph.get_tensor_by_name("layer/add:0") is tensors[1]
        assert graph.get_operation_by_name("mul").type == "Mul"
        assert grad.name.startswith("gradients/layer/MatMul_grad/")
        names = [op.name for op in graph.get_operations()]
        assert "gradients/layer/Relu_grad/ReluGrad" in names
        assert "gradients/Square_grad/SquareGrad" in names
        assert [tf.stack([c, c]).name for c in tensors[2:3]] == ["stack:0"]


def test_eager_operators_stay_unnamed():
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.Variable(3.)
    assert tape.gradient(y, x).numpy().tolist() == [3., 3.]
