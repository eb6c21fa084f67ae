"""A TensorFlow 1 script: train a linear model in a Session, freeze it with
convert_variables_to_constants, write the frozen GraphDef as a .pb, read it back into a new graph
with import_graph_def (its input replaced through input_map) and serve predictions from it."""
import os
import tempfile

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
v1.disable_eager_execution()

rng = np.random.default_rng(3)
features = rng.normal(size=(64, 3)).astype(np.float32)
targets = (features @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype(np.float32)

graph = tf.Graph()
with graph.as_default():
    x = v1.placeholder(tf.float32, [None, 3], name="x")
    y = v1.placeholder(tf.float32, [None, 1], name="y")
    with v1.variable_scope("linear"):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
    pred = tf.add(tf.matmul(x, w), b, name="pred")
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for step in range(60):
            _, value = sess.run([train_op, loss], {x: features, y: targets})
            if step % 20 == 0:
                print(f"step {step} loss {value:.5f}")
        print("trained w", np.round(sess.run(w).ravel(), 4), "b", np.round(sess.run(b), 4))
        frozen = v1.graph_util.convert_variables_to_constants(
            sess, graph.as_graph_def(), ["pred"])

print("frozen op types", sorted(node.op for node in frozen.node))
print("frozen constants", sorted(node.name for node in frozen.node if node.op == "Const"))

workdir = tempfile.mkdtemp()
path = v1.train.write_graph(frozen, workdir, "frozen.pb", as_text=False)
text_path = tf.io.write_graph(frozen, workdir, "frozen.pbtxt")
print("written", os.path.basename(path), os.path.basename(text_path), os.path.exists(text_path))

with tf.io.gfile.GFile(path, "rb") as f:
    graph_def = v1.GraphDef()
    graph_def.ParseFromString(f.read())
print("read back", len(graph_def.node), "nodes")

with tf.Graph().as_default() as serving:
    new_input = v1.placeholder(tf.float32, [None, 3], name="new_input")
    served, = v1.import_graph_def(graph_def, input_map={"x:0": new_input},
                                  return_elements=["pred:0"], name="frozen")
    print("imported", served.name, served.shape.as_list())
    print("constants", sorted(op.name for op in serving.get_operations() if op.type == "Const"))
    w_const = serving.get_tensor_by_name("frozen/linear/w:0")
    with v1.Session(graph=serving) as sess:
        print("predictions", np.round(sess.run(served, {new_input: features[:4]}).ravel(), 4))
        print("w from the frozen graph", np.round(sess.run(w_const).ravel(), 4))
