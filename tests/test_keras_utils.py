"""keras.utils.split_dataset (sizes, shuffling, arrays / tuples / Datasets, against TensorFlow
2.21's Keras in a subprocess, skipped without it) and keras.utils.plot_model / model_to_dot
(DOT source always; a PNG when Graphviz's `dot` is installed; a clear error naming Graphviz when
it is not)."""
import json
import shutil

import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.keras import utils

from keras_tf_eval import tf_eval

X = np.arange(20, dtype=np.float32).reshape(10, 2)
Y = np.arange(10) * 10


def _rows(ds):
    return [tuple(np.asarray(c).tolist() for c in tf.nest.flatten(e)) for e in ds]


def test_split_sizes_and_structures():
    left, right = utils.split_dataset(X, left_size=0.8)
    assert [np.asarray(e).tolist() for e in left] == X[:8].tolist()
    assert [np.asarray(e).tolist() for e in right] == X[8:].tolist()
    left, right = utils.split_dataset((X, Y), left_size=3, right_size=2)
    assert _rows(left) == [(X[i].tolist(), int(Y[i])) for i in range(3)]
    assert _rows(right) == [(X[i].tolist(), int(Y[i])) for i in (8, 9)]
    left, right = utils.split_dataset((X, Y), right_size=0.25, shuffle=True, seed=3)
    ids = [int(y) // 10 for _, y in _rows(left)] + [int(y) // 10 for _, y in _rows(right)]
    assert sorted(ids) == list(range(10)) and ids != list(range(10))
    assert len(_rows(left)) == 8 and len(_rows(right)) == 2  # round(2.5) == 2
    batched = tf.data.Dataset.from_tensor_slices({"x": X, "y": Y}).batch(4)
    left, right = utils.split_dataset(batched, left_size=6)
    sizes = [int(np.asarray(e["y"]).shape[0]) for e in left]
    assert sizes == [4, 2] and np.asarray(next(iter(right))["y"]).tolist() == [60, 70, 80, 90]


@pytest.mark.parametrize("kwargs, match", [
    ({}, "at least one"), ({"left_size": 10}, "left_size"), ({"left_size": 1.5}, "left_size"),
    ({"left_size": 0.6, "right_size": 0.6}, "greater than 1"),
    ({"left_size": 6, "right_size": 6}, "more than"), ({"left_size": "5"}, "int"),
])
def test_split_rejects_bad_sizes(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        utils.split_dataset(X, **kwargs)


SPLIT_CASES = [  # (case name, kwargs, input kind)
    ("array_left", {"left_size": 0.7}, "array"),
    ("array_both", {"left_size": 2, "right_size": 5}, "array"),
    ("tuple_shuffle", {"left_size": 0.45, "shuffle": True, "seed": 11}, "tuple"),
    ("tuple_right_shuffle", {"right_size": 3, "shuffle": True, "seed": 123}, "tuple"),
    ("dataset", {"left_size": 0.5, "shuffle": True, "seed": 5}, "dataset"),
    ("batched", {"right_size": 0.35}, "batched"),
]

_TF_SCRIPT = """
import json
for name, kwargs, kind in json.loads(A["cases"].item()):
    data = {"array": A["x"], "tuple": (A["x"], A["y"]),
            "dataset": tf.data.Dataset.from_tensor_slices((A["x"], A["y"])),
            "batched": tf.data.Dataset.from_tensor_slices((A["x"], A["y"])).batch(3)}[kind]
    left, right = keras.utils.split_dataset(data, **kwargs)
    for side, ds in (("left", left), ("right", right)):
        rows = [[np.asarray(c).tolist() for c in tf.nest.flatten(e)] for e in ds]
        out[f"{name}/{side}"] = np.asarray(json.dumps(rows))
"""


@pytest.fixture(scope="module")
def tf_splits():
    arrays = {"cases": np.asarray(json.dumps(SPLIT_CASES)), "x": X, "y": Y}
    return tf_eval(_TF_SCRIPT, arrays)


@pytest.mark.parametrize("name, kwargs, kind", SPLIT_CASES, ids=[c[0] for c in SPLIT_CASES])
def test_split_matches_tensorflow(tf_splits, name, kwargs, kind):
    data = {"array": X, "tuple": (X, Y),
            "dataset": tf.data.Dataset.from_tensor_slices((X, Y)),
            "batched": tf.data.Dataset.from_tensor_slices((X, Y)).batch(3)}[kind]
    left, right = utils.split_dataset(data, **kwargs)
    for side, ds in (("left", left), ("right", right)):
        rows = [[np.asarray(c).tolist() for c in tf.nest.flatten(e)] for e in ds]
        assert rows == json.loads(str(tf_splits[f"{name}/{side}"])), side


def _functional_model():
    keras.backend.clear_session()
    x = keras.Input((4,), name="features")
    h = keras.layers.Dense(3, activation="relu", name="hidden")(x)
    out = keras.layers.Concatenate(name="joined")([x, h])
    return keras.Model(x, out, name="joiner")


def test_model_to_dot_lists_layers_and_edges(tmp_path):
    model = _functional_model()
    source = utils.model_to_dot(model, show_shapes=True, show_layer_activations=True)
    assert source.startswith('digraph "joiner" {')
    for text in ("features (InputLayer)", "hidden (Dense)", "joined (Concatenate)",
                 "Output shape: (None, 7)", "Activation: relu"):
        assert text in source, text
    assert source.count("->") == 3  # features -> hidden, features -> joined, hidden -> joined
    seq = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)), keras.layers.Dense(1)])
    assert utils.model_to_dot(seq).count("->") == 1
    path = tmp_path / "model.dot"
    assert utils.plot_model(model, to_file=str(path)) is None
    assert path.read_text().startswith("digraph")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_plot_model_renders_png(tmp_path):
    path = tmp_path / "model.png"
    utils.plot_model(_functional_model(), to_file=str(path), show_shapes=True, dpi=50)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_model_without_graphviz_names_it(tmp_path, monkeypatch):
    monkeypatch.setattr("wengert.keras.utils.model_visualization.shutil.which", lambda name: None)
    with pytest.raises(ImportError, match="Graphviz"):
        utils.plot_model(_functional_model(), to_file=str(tmp_path / "m.png"))


SEQS = [[1], [2, 3], [4, 5, 6, 7], [], [8, 9]]
PAD_CASES = [  # (case name, kwargs)
    ("default", {}), ("maxlen", {"maxlen": 3}), ("post", {"padding": "post", "value": -1}),
    ("truncate_post", {"maxlen": 2, "truncating": "post", "padding": "post"}),
    ("float", {"dtype": "float32", "value": 0.5, "maxlen": 5}),
]
NORM_X = np.array([[3.0, -4.0, 0.0], [0.0, 0.0, 0.0], [1.0, 2.0, 2.0]], np.float32)


@pytest.fixture(scope="module")
def tf_utils():
    return tf_eval("""
import json
for name, kwargs in json.loads(A["cases"].item()):
    out["pad/" + name] = keras.utils.pad_sequences(json.loads(A["seqs"].item()), **kwargs)
for axis in (-1, 0):
    for order in (1, 2):
        out[f"norm/{axis}/{order}"] = keras.utils.normalize(A["x"], axis=axis, order=order)
        out[f"tnorm/{axis}/{order}"] = np.asarray(keras.utils.normalize(
            tf.constant(A["x"]), axis=axis, order=order))
""", {"cases": np.asarray(json.dumps(PAD_CASES)), "seqs": np.asarray(json.dumps(SEQS)),
      "x": NORM_X})


@pytest.mark.parametrize("name, kwargs", PAD_CASES, ids=[c[0] for c in PAD_CASES])
def test_pad_sequences_matches_tensorflow(tf_utils, name, kwargs):
    out = utils.pad_sequences(SEQS, **kwargs)
    expected = tf_utils["pad/" + name]
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


@pytest.mark.filterwarnings("ignore:divide by zero")
@pytest.mark.parametrize("axis, order", [(-1, 1), (-1, 2), (0, 1), (0, 2)])
def test_normalize_matches_tensorflow(tf_utils, axis, order):
    np.testing.assert_allclose(utils.normalize(NORM_X, axis=axis, order=order),
                               tf_utils[f"norm/{axis}/{order}"], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(utils.normalize(tf.constant(NORM_X), axis, order)),
                               tf_utils[f"tnorm/{axis}/{order}"], rtol=1e-6)


def test_pad_sequences_documented_examples():
    seqs = [[1], [2, 3], [4, 5, 6]]
    assert utils.pad_sequences(seqs).tolist() == [[0, 0, 1], [0, 2, 3], [4, 5, 6]]
    assert utils.pad_sequences(seqs, maxlen=2).tolist() == [[0, 1], [2, 3], [5, 6]]
    words = utils.pad_sequences([["a"], ["b", "c"]], dtype=object, value="")
    assert words.tolist() == [["", "a"], ["b", "c"]]
    with pytest.raises(ValueError, match="padding"):
        utils.pad_sequences(seqs, padding="middle")
