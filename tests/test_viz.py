"""viz.draw: DOT pictures of forward and gradient graphs; SVG through Graphviz when installed."""
import shutil

import pytest

import wengert as tf
from wengert import viz

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` not installed")


def _tutorial_graph():
    """C = sum(relu(W x + b)), and the gradient nodes for dC/dW and dC/db."""
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3, 1], name="x")
        w = tf.Variable(tf.ones([2, 3]), name="W")
        b = tf.Variable(tf.zeros([2, 1]), name="b")
        c = tf.reduce_sum(tf.nn.relu(tf.matmul(w, x) + b), name="C")
        tf.gradients(c, [w, b])
    return g


def _kinds(drawing):
    return {nid: kind for nid, (label, kind) in drawing.nodes.items()}


def test_graph_forward_and_gradient_nodes():
    d = viz.draw(_tutorial_graph())
    kinds = _kinds(d)
    assert kinds["x"] == "placeholder"
    assert kinds["var:W:0"] == "variable" and kinds["var:b:0"] == "variable"
    assert kinds["MatMul"] == "forward" and kinds["Relu"] == "forward" and kinds["C"] == "forward"
    assert kinds["gradients/Relu_grad/ReluGrad"] == "gradient"
    assert all(kind == "gradient" for nid, kind in kinds.items() if nid.startswith("gradients/"))
    edges = {(s, t): (label, grad) for s, t, label, grad in d.edges}
    assert edges[("x", "MatMul")] == ("float32[3,1]", False)
    assert edges[("W/read", "MatMul")] == ("float32[2,3]", False)
    assert edges[("var:W:0", "W/read")] == ("float32[2,3]", False)
    assert edges[("Relu", "C")] == ("float32[2,1]", False)
    assert edges[("Relu", "gradients/Relu_grad/ReluGrad")] == ("float32[2,1]", True)
    src = d.source
    assert src.startswith("digraph wengert {") and src.rstrip().endswith("}")
    assert '"x" -> "MatMul" [label="float32[3,1]"];' in src
    assert '"Relu" -> "gradients/Relu_grad/ReluGrad" [label="float32[2,1]", color="#e69138", ' \
           'style=dashed];' in src
    assert 'shape=cylinder' in src and 'shape=invhouse' in src
    assert 'style="filled,dashed,rounded"' in src  # gradient nodes look different


def test_graph_without_gradients():
    d = viz.draw(_tutorial_graph(), gradients=False)
    assert not any(nid.startswith("gradients/") for nid in d.nodes)
    assert all(not grad for *_, grad in d.edges)
    assert "MatMul" in d.nodes


def test_traced_function():
    w = tf.Variable([[1.0, 2.0]], name="w")

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.matmul(w, x))
    with pytest.raises(ValueError, match="not been traced"):
        viz.draw(f)
    f(tf.constant([[1.0], [2.0]]))
    d = viz.draw(f)
    kinds = _kinds(d)
    assert "placeholder" in kinds.values() and kinds["MatMul"] == "forward"
    assert any(kind == "variable" for kind in kinds.values())
    assert viz.draw(f.get_concrete_function(tf.constant([[1.0], [2.0]]))).source == d.source


def test_tape_with_gradient_nodes():
    w = tf.Variable([1.0, 2.0], name="w")
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * w)
    d = viz.draw(tape)
    kinds = _kinds(d)
    forward = [d.nodes[n][0] for n, k in kinds.items() if k == "forward"]
    assert forward == ["ReadVariableOp", "Mul", "Sum"]
    grads = [d.nodes[n][0] for n, k in kinds.items() if k == "gradient"]
    assert grads and all("for op" in label for label in grads)
    assert any(label.startswith("Mul\nfor op1") for label in grads)  # Mul's rule made Muls
    assert "variable" in kinds.values() and "placeholder" in kinds.values()
    assert any(grad for *_, grad in d.edges) and any(not grad for *_, grad in d.edges)
    assert any(label == "float32[2]" for _, _, label, _ in d.edges)
    # drawing ran the reverse pass without using up or changing the tape
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 2.0]
    assert viz.draw(tape, gradients=False).source.count("gradient") == 0


def test_released_tape_cannot_be_drawn():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        viz.draw(tape)


def test_bad_object():
    with pytest.raises(TypeError, match="expects a Graph"):
        viz.draw(42)


def test_save_dot_needs_nothing(tmp_path):
    path = viz.draw(_tutorial_graph()).save(tmp_path / "g.dot")
    assert open(path).read().startswith("digraph")


def test_save_without_dot_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    d = viz.draw(_tutorial_graph())
    with pytest.raises(RuntimeError, match="install Graphviz|Install Graphviz"):
        d.save(tmp_path / "g.svg")
    assert d._repr_svg_() is None


@needs_dot
def test_renders_svg(tmp_path):
    d = viz.draw(_tutorial_graph())
    path = d.save(tmp_path / "g.svg")
    text = open(path).read()
    assert "<svg" in text and "gradients/Relu_grad/ReluGrad" in text
    assert d._repr_svg_().lstrip().startswith("<?xml") or "<svg" in d._repr_svg_()


@needs_dot
def test_renders_png(tmp_path):
    path = viz.draw(_tutorial_graph()).save(tmp_path / "g.png")
    assert open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
