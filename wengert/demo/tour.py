"""The demo's program (wengert/demo/__init__.py says what it shows): the classic GradientTape
examples, the picture of a graph with its gradient nodes, then the MNIST training examples.
"""
import importlib.util
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

import wengert as tf

EXAMPLES = ("mnist_softmax_tf1", "mnist_softmax_tf2", "mnist_mlp_keras", "mnist_cnn_keras")
LOG_DIR = os.path.join("demo_output", "logs")


def classic_examples():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    print(f"y = x^2 at x = 3:             y = {float(y):g}, dy/dx = {float(tape.gradient(y, x)):g}")

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    print(f"z = (x*x)^2, persistent tape: dz/dx = {float(tape.gradient(z, x)):g}, "
          f"dy/dx = {float(tape.gradient(y, x)):g}")
    del tape

    x = tf.ones((2, 2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x)
        z = y * y
    print(f"x = ones((2,2)), y = sum(x), z = y*y: dz/dy = {float(tape.gradient(z, y)):g}")

    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.relu(tf.matmul(w, w) - 10.0))
    print("d/dw sum(relu(w @ w - 10)) =", tape.gradient(loss, w).numpy().tolist())


def examples_dir():
    """The repository's examples/ folder (beside the package, or in the current directory)."""
    for directory in (Path(__file__).resolve().parents[2] / "examples", Path.cwd() / "examples"):
        if all((directory / f"{name}.py").is_file() for name in EXAMPLES):
            return directory
    return None


def load_example(name, directory=None):
    """Import examples/<name>.py as a module (the examples are scripts, not a package)."""
    directory = directory or examples_dir()
    if directory is None:
        raise FileNotFoundError(f"examples/{name}.py not found: run the demo from the repository.")
    spec = importlib.util.spec_from_file_location(f"wengert_examples.{name}",
                                                  directory / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def heading(text):
    print(f"\n== {text} " + "=" * max(0, 76 - len(text)))


def training_examples():
    directory = examples_dir()
    if directory is None:
        print("\n(The MNIST training examples live in the repository's examples/ folder; run "
              "the demo from a checkout of the repository to see them.)")
        return {}
    split = tf.datasets.mnist.load_split()
    heading("Data")
    print(split.source)
    titles = {"mnist_softmax_tf1": "MNIST softmax regression, TensorFlow 1 style (Session)",
              "mnist_softmax_tf2": "The same model, TensorFlow 2 style (GradientTape + SGD)",
              "mnist_mlp_keras": "A multilayer perceptron with Keras Sequential.fit",
              "mnist_cnn_keras": "A convolutional network (two conv + pool blocks) with fit"}
    results = {}
    for name in EXAMPLES:
        heading(titles[name])
        if name == "mnist_cnn_keras" and split[0][0].shape[1:] != (28, 28):
            print("(skipped: the CNN is sized for 28x28 MNIST images; these are "
                  f"{split[0][0].shape[1]}x{split[0][0].shape[2]})")
            continue
        start = time.perf_counter()
        extra = {"log_dir": LOG_DIR} if name == "mnist_mlp_keras" else {}
        results[name] = load_example(name, directory).main(split=split, verbose=True, **extra)
        print(f"({time.perf_counter() - start:.1f} s; examples/{name}.py)")
        if extra:
            print(f"TensorBoard log of this run: {LOG_DIR}/ (train/ and validation/); see it "
                  f"with `pip install tensorboard && tensorboard --logdir {LOG_DIR}`, then open "
                  "http://localhost:6006")
        sys.stdout.flush()
    heading("Summary")
    print(f"data: {split.source}")
    for name, accuracy in results.items():
        print(f"  examples/{name + '.py':22s} test accuracy {accuracy:.2%}")
    print("(The TF1 and TF2 softmax runs see the same batches in the same order, so they agree:\n"
          " minimize() in a Session and tape.gradient + apply_gradients compute the same steps.)")
    return results


def gradient_graph_picture(directory="demo_output"):
    """TensorFlow's classic picture: C = sum(relu(W x + b)) and the gradient nodes that
    tf.gradients adds to the graph, drawn to demo_output/ (SVG when Graphviz is installed)."""
    v1 = tf.compat.v1
    heading("The graph of C = sum(relu(W x + b)) with its gradient nodes")
    with v1.Graph().as_default() as graph:
        x = v1.placeholder(v1.float32, [None, 3], name="x")
        W = v1.Variable(np.ones((3, 2), np.float32), name="W")
        b = v1.Variable(np.zeros(2, np.float32), name="b")
        C = v1.reduce_sum(v1.nn.relu(v1.matmul(x, W) + b), name="C")
        v1.gradients(C, [W, b])
    drawing = tf.viz.draw(graph, title="C = sum(relu(W x + b)) and dC/dW, dC/db")
    os.makedirs(directory, exist_ok=True)
    written = [drawing.save(os.path.join(directory, "tutorial_gradients.dot"))]
    if shutil.which("dot"):
        written.append(drawing.save(os.path.join(directory, "tutorial_gradients.svg")))
    ops = graph.get_operations()
    added = sum(op.name.startswith("gradients/") for op in ops)
    print(f"{len(ops) - added} forward ops, {added} gradient ops added by tf.gradients; "
          f"written: {', '.join(written)}")


def main():
    heading("GradientTape")
    classic_examples()
    gradient_graph_picture()
    training_examples()

