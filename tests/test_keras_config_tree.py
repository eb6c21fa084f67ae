"""keras.config, keras.tree and Keras 3's top-level names (the program
tests/programs/keras3_top_level_api.py checks them against TensorFlow's Keras as a whole)."""
import collections

import numpy as np
import pytest

import wengert as tf

keras = tf.keras


@pytest.fixture
def caps():
    yield keras.config
    keras.config.set_max_epochs(None)
    keras.config.set_max_steps_per_epoch(None)


def test_fit_honours_max_epochs_and_max_steps_per_epoch(caps):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = np.ones((40, 2), np.float32), np.ones((40, 1), np.float32)
    caps.set_max_epochs(2)
    caps.set_max_steps_per_epoch(3)
    with pytest.warns(UserWarning, match="Limiting epochs to 2"):
        history = model.fit(x, y, batch_size=4, epochs=5, verbose=0)
    assert len(history.history["loss"]) == 2
    assert int(model.optimizer.iterations.numpy()) == 6  # 2 epochs of 3 steps, not 10
    with pytest.raises(ValueError, match="positive int or None"):
        caps.set_max_epochs(0)
    assert caps.max_epochs() == 2


def test_config_names_the_backend_and_policy():
    assert keras.config.backend() == "tensorflow"
    with pytest.raises(ValueError, match="tensorflow"):
        keras.config.set_backend("jax")
    keras.config.set_dtype_policy("mixed_float16")
    try:
        assert keras.config.dtype_policy().name == "mixed_float16"
    finally:
        keras.config.set_dtype_policy("float32")


def test_tree_traverse_top_down_and_bottom_up():
    seen = []
    assert keras.tree.traverse(seen.append, [(1, 2), {"a": 3}]) == [(1, 2), {"a": 3}]
    assert seen == [[(1, 2), {"a": 3}], (1, 2), 1, 2, {"a": 3}, 3]
    doubled = keras.tree.traverse(lambda n: n * 2 if isinstance(n, int) else None, [1, (2,)],
                                  top_down=False)
    assert doubled == [2, (4,)]
    cut = keras.tree.traverse(lambda n: keras.tree.MAP_TO_NONE if n == (2,) else None,
                              [1, (2,)])
    assert cut == [1, None]


def test_tree_structures_and_errors():
    point = collections.namedtuple("Point", "x y")
    assert keras.tree.map_structure(lambda a, b: a + b, point(1, 2), point(10, 20)) == \
        point(11, 22)
    assert keras.tree.lists_to_tuples([1, [2, [3]]]) == (1, (2, (3,)))
    assert keras.tree.map_shape_structure(len, {"a": (None, 3), "b": [(1,), (2, 2)]}) == \
        {"a": 2, "b": [1, 2]}
    with pytest.raises(ValueError):
        keras.tree.assert_same_structure([1, 2], [1, [2]])
    with pytest.raises(ValueError, match="only in the first"):
        keras.tree.assert_same_paths({"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match="shallow structure"):
        keras.tree.map_structure_up_to([None, [None, None]], str, [1, 2])


def test_name_scope_places_variables_and_checks_its_name():
    with keras.name_scope("outer"):
        with keras.name_scope("inner"):
            v = keras.Variable(1.0, name="v")
    assert (v.name, v.path) == ("v", "outer/inner/v")
    with pytest.raises(ValueError, match="non-empty string"):
        keras.name_scope("")
    with keras.device("gpu:0"):  # no GPU: soft placement on the CPU, as TensorFlow's Keras
        assert float(keras.ops.add(1.0, 2.0)) == 3.0


def test_on_batch_hooks_are_keras_2_names_for_the_train_batch_hooks():
    seen = []

    class Old(keras.callbacks.Callback):
        def on_batch_begin(self, batch, logs=None):
            seen.append(("begin", batch))

        def on_batch_end(self, batch, logs=None):
            seen.append(("end", batch, sorted(logs)))

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), batch_size=2,
              verbose=0, callbacks=[Old()])
    assert seen == [("begin", 0), ("end", 0, ["loss"]), ("begin", 1), ("end", 1, ["loss"])]
