"""`tf.compat.v1.wrap_function`: TensorFlow 1 code (placeholders, get_variable, collections,
import_graph_def) traced once and run eagerly, and `prune` of its graph, compared with
TensorFlow 2.21 running the same programs eagerly (keras_tf_eval / reference_store): values,
the variables it owns and their names, what a call runs, and the errors of bad calls."""
import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval
from tf1_scenarios import PRELUDE, assert_same

SCENARIOS = {
    "docstring": '''
def f(x, do_add):
    v = tf.Variable(5.0)
    if do_add:
        op = v.assign_add(x)
    else:
        op = v.assign_sub(x)
    with tf.control_dependencies([op]):
        return v.read_value()
f_add = tf.compat.v1.wrap_function(f, [tf.TensorSpec((), tf.float32), True])
f_sub = tf.compat.v1.wrap_function(f, [tf.TensorSpec((), tf.float32), False])
out["values"] = [float(f_add(1.0)), float(f_add(1.0)), float(f_sub(1.0)), float(f_sub(2.0))]
out["variables"] = names(f_add.variables) + names(f_sub.variables)
out["numpy"] = [v.numpy() for v in f_add.variables + f_sub.variables]
out["graph"] = [f_add.graph.name, str(f_add.name.decode().startswith("__inference_wrapped"))]
''',
    "tf1_model": '''
v1 = tf.compat.v1
def model():
    x = v1.placeholder(tf.float32, [None, 2], name="x")
    with v1.variable_scope("dense"):
        w = v1.get_variable("kernel", [2, 1], initializer=v1.constant_initializer(2.0))
        b = v1.get_variable("bias", [1], initializer=v1.zeros_initializer())
    steps = v1.get_variable("steps", [], tf.int32, initializer=v1.zeros_initializer(),
                            trainable=False)
    y = tf.identity(tf.matmul(x, w) + b, name="y")
    z = tf.reduce_sum(y, name="z")
    v1.add_to_collection("outs", z)
wrapped = v1.wrap_function(model, [])
g = wrapped.graph
out["unpruned"] = [str(wrapped.structured_outputs), str(len(wrapped.outputs))]
out["variables"] = names(wrapped.variables)
out["collections"] = (names(g.get_collection(v1.GraphKeys.GLOBAL_VARIABLES)) +
                      names(g.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES)) +
                      names(g.get_collection("outs")))
p = wrapped.prune("x:0", "y:0")
out["pruned"] = p(tf.constant([[1., 2.]])).numpy()
out["pruned_io"] = (names(p.inputs[:1]) + names(p.outputs) + [p.graph.name] +
                    names(p.variables) + [str(p.structured_outputs.shape)])
both = wrapped.prune(g.get_tensor_by_name("x:0"), {"y": "y:0", "z": g.get_tensor_by_name("z:0")})
res = both(tf.constant([[1., 2.], [3., 4.]]))
out["dict_keys"] = list(res)
out["dict_y"], out["dict_z"] = res["y"].numpy(), res["z"].numpy()
out["keyword"] = both(x=tf.constant([[1., 1.]]))["z"].numpy()
ops = wrapped.prune([g.get_tensor_by_name("x:0")], [g.get_operation_by_name("z")])
out["op_fetch"] = [str(ops(tf.constant([[1., 2.]]))), str(ops.structured_outputs)]
w, b = wrapped.variables[:2]
w.assign([[1.], [-1.]])
b.assign_add([0.5])
out["after_assign"] = p(tf.constant([[3., 1.]])).numpy()
''',
    "frozen_graph": '''
v1 = tf.compat.v1
graph = tf.Graph()
with graph.as_default():
    x = v1.placeholder(tf.float32, [None, 2], name="input")
    h = tf.matmul(x, tf.constant([[1., 0.5], [-1., 2.]]), name="hidden")
    y = tf.nn.relu(h, name="output")
graph_def = graph.as_graph_def()
def imports():
    v1.import_graph_def(graph_def, name="")
wrapped = v1.wrap_function(imports, [])
ig = wrapped.graph
frozen = wrapped.prune(tf.nest.map_structure(ig.as_graph_element, "input:0"),
                       tf.nest.map_structure(ig.as_graph_element, ["output:0", "hidden:0"]))
got = frozen(tf.constant([[3., 1.], [1., 3.]]))
out["values"] = np.stack([t.numpy() for t in got])
out["io"] = names(frozen.inputs) + names(frozen.outputs) + [str(wrapped.structured_outputs)]
out["elements"] = [ig.as_graph_element("hidden").type, ig.as_graph_element("hidden:0").name,
                   error_of(lambda: ig.as_graph_element("nope:0")),
                   error_of(lambda: ig.as_graph_element("hidden", allow_operation=False)),
                   error_of(lambda: ig.as_graph_element("hidden:0", allow_tensor=False))]
''',
    "gradients": '''
v1 = tf.compat.v1
def loss_fn(x, t):
    w = v1.get_variable("w", [3, 1], initializer=v1.constant_initializer(0.5))
    return tf.reduce_mean(tf.square(tf.matmul(x, w) - t))
loss = v1.wrap_function(loss_fn, [tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([None, 1], tf.float32)])
x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
t = tf.constant([[1.], [0.], [2.], [1.]])
opt = tf.keras.optimizers.SGD(0.1)
losses = []
for _ in range(3):
    with tf.GradientTape() as tape:
        value = loss(x, t)
    grads = tape.gradient(value, loss.trainable_variables)
    opt.apply_gradients(zip(grads, loss.trainable_variables))
    losses.append(float(value))
out["losses"] = np.array(losses)
out["w"] = loss.variables[0].numpy()
''',
    "errors": '''
v1 = tf.compat.v1
def f(a, b):
    return a * b
w = v1.wrap_function(f, [tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32, name="bee")])
out["inputs"] = names(w.inputs)
out["keywords"] = error_of(lambda: w(a=tf.ones([2]), b=tf.ones([2])))
out["dtype"] = error_of(lambda: w(tf.ones([2], tf.int32), tf.ones([2])))
out["count"] = error_of(lambda: w(tf.ones([2]))).split(".")[0]
out["lists"] = w([1., 2.], np.array([3., 4.], np.float32)).numpy()
def returns_op():
    v = v1.get_variable("c", [], initializer=v1.zeros_initializer())
    return v1.assign_add(v, 1.0).op
out["op"] = error_of(lambda: v1.wrap_function(returns_op, []))[:120]
def model():
    x = v1.placeholder(tf.float32, [None, 2], name="x")
    return tf.identity(x * 2.0, name="y")
m = v1.wrap_function(model, [])
out["unlifted"] = error_of(lambda: m.prune([], "y:0"))
out["unfed"] = error_of(m).split(":")[0]
out["missing"] = error_of(lambda: m.prune("x:0", "nope:0"))
out["not_tensor"] = error_of(lambda: m.prune(m.graph.get_operation_by_name("x"), "y:0")
                            ).split(" Got")[0]
out["pruned_dtype"] = __import__("re").sub(  # TensorFlow numbers its functions
    "pruned_[0-9]+", "pruned", error_of(lambda: m.prune("x:0", "y:0")(tf.constant([[1, 2]]))))
''',
}


def _eager_driver(scenarios):
    return (f"SCENARIOS = {scenarios!r}\nPRELUDE = {PRELUDE!r}\nexec(PRELUDE)\n"
            "for _name, _body in SCENARIOS.items():\n"
            "    _got = {}\n"
            "    exec(PRELUDE + _body, {'tf': tf, 'np': np, 'out': _got})\n"
            "    for _key, _value in _got.items():\n"
            "        out[_name + '.' + _key] = plain(_value)\n")


@pytest.fixture(scope="module")
def theirs():
    flat = tf_eval(_eager_driver(SCENARIOS))
    result = {name: {} for name in SCENARIOS}
    for key, value in flat.items():
        name, _, item = key.partition(".")
        result[name][item] = value
    return result


def _mine(body):
    got, helpers = {}, {"np": np}
    exec(PRELUDE, helpers)  # noqa: S102 (test code)
    exec(PRELUDE + body, {"tf": tf, "np": np, "out": got})  # noqa: S102 (test code)
    return {key: helpers["plain"](value) for key, value in got.items()}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_wrapped_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(_mine(SCENARIOS[name]), theirs[name])
