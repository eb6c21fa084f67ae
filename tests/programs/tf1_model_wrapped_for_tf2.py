"""A TensorFlow 1 model (variable scopes, get_variable, placeholders, collections) brought into
TensorFlow 2 with tf.compat.v1.wrap_function: trained eagerly with a GradientTape, pruned to
its hidden layer by tensor name, then frozen into a GraphDef and loaded back the classic way
(import_graph_def inside wrap_function, prune by name)."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
rng = np.random.default_rng(0)
W1 = (rng.standard_normal((4, 8)) * 0.5).astype(np.float32)
W2 = (rng.standard_normal((8, 3)) * 0.5).astype(np.float32)
x_train = rng.standard_normal((64, 4)).astype(np.float32)
labels = (x_train[:, 0] + x_train[:, 1] > 0).astype(np.int64) + (x_train[:, 2] > 1)


def tf1_classifier(x):
    """TF 1 style: layers as variable scopes, weights from get_variable."""
    with v1.variable_scope("hidden"):
        w = v1.get_variable("weights", initializer=W1)
        b = v1.get_variable("biases", [8], initializer=v1.zeros_initializer())
        h = tf.nn.relu(tf.matmul(x, w) + b, name="activation")
    with v1.variable_scope("logits"):
        w = v1.get_variable("weights", initializer=W2)
        b = v1.get_variable("biases", [3], initializer=v1.constant_initializer(0.1))
        logits = tf.add(tf.matmul(h, w), b, name="output")
    v1.add_to_collection("logits", logits)
    return logits


model = v1.wrap_function(tf1_classifier, [tf.TensorSpec([None, 4], tf.float32)])
print("graph:", model.graph.name)
for v in sorted(model.variables, key=lambda v: v.name):  # TF orders them by capture
    print(f"  {v.name:22s} {str(v.shape):8s} trainable={v.trainable}")
print("collection:", [t.name for t in model.graph.get_collection("logits")])
print("global variables:", len(model.graph.get_collection(v1.GraphKeys.GLOBAL_VARIABLES)))

optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)
x, y = tf.constant(x_train), tf.constant(labels)
for step in range(1, 31):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=y, logits=model(x)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    if step % 10 == 0:
        accuracy = np.mean(np.argmax(model(x).numpy(), 1) == labels)
        print(f"step {step:2d}  loss {loss.numpy():.4f}  accuracy {accuracy:.3f}")

hidden = model.prune(feeds=model.inputs[0], fetches="hidden/activation:0")
h = hidden(x[:5])
print("hidden layer:", h.shape, "active units per example:", np.sum(h.numpy() > 0, 1).tolist())
both = model.prune(model.inputs[0], {"logits": "logits/output:0",
                                     "hidden": "hidden/activation:0"})
out = both(x[:2])
print("pruned outputs:", sorted(out), [tuple(t.shape) for t in out.values()])

# Freeze: the trained weights as constants of a TF 1 graph, exported as a GraphDef.
trained = {v.name: v.numpy() for v in model.variables}
frozen = tf.Graph()
with frozen.as_default():
    inp = v1.placeholder(tf.float32, [None, 4], name="input")
    hid = tf.nn.relu(tf.matmul(inp, trained["hidden/weights:0"]) + trained["hidden/biases:0"],
                     name="hidden")
    tf.identity(tf.matmul(hid, trained["logits/weights:0"]) + trained["logits/biases:0"],
                name="logits")
graph_def = frozen.as_graph_def()
print("frozen nodes:", len(graph_def.node) > 5, [n.name for n in graph_def.node
                                                  if n.op == "Placeholder"])


def wrap_frozen_graph(graph_def, inputs, outputs):
    def _imports_graph_def():
        v1.import_graph_def(graph_def, name="")
    wrapped_import = v1.wrap_function(_imports_graph_def, [])
    import_graph = wrapped_import.graph
    return wrapped_import.prune(
        tf.nest.map_structure(import_graph.as_graph_element, inputs),
        tf.nest.map_structure(import_graph.as_graph_element, outputs))


frozen_fn = wrap_frozen_graph(graph_def, "input:0", "logits:0")
print("frozen inputs:", [t.name for t in frozen_fn.inputs], "outputs:",
      [t.name for t in frozen_fn.outputs])
same = np.allclose(frozen_fn(x).numpy(), model(x).numpy(), atol=1e-5)
print("frozen graph agrees with the wrapped model:", same)
print("predictions:", np.argmax(frozen_fn(x[:8]).numpy(), 1).tolist())
