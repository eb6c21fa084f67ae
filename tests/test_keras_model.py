"""keras models: Sequential / functional / subclassed, compile, fit, evaluate, predict, summary,
callbacks, compiled vs eager steps, and custom training loops."""
import sys

import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.keras import layers


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)


def _blobs(n=600, classes=3, dim=8, seed=0):
    """Separable Gaussian blobs: float32 features, int labels."""
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((classes, dim)) * 3
    labels = rng.integers(0, classes, n)
    x = (centers[labels] + rng.standard_normal((n, dim))).astype(np.float32)
    return x, labels


def _mlp(dropout=0.0, dim=8, classes=3):
    return keras.Sequential([layers.Dense(16, activation="relu", input_shape=(dim,)),
                             layers.Dropout(dropout), layers.Dense(classes)])


def test_sequential_builds_from_input_shape_and_summary():
    model = _mlp()
    assert model.built and len(model.weights) == 4
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert 'Model: "sequential"' in text
    assert "dense (Dense)" in text and "(None, 16)" in text and "144" in text
    assert "dropout (Dropout)" in text and "dense_1 (Dense)" in text and "(None, 3)" in text
    assert "Total params: 195" in text and "Trainable params: 195" in text
    assert "Non-trainable params: 0" in text


def test_sequential_without_shape_builds_on_first_call():
    model = keras.Sequential()
    model.add(layers.Dense(4))
    with pytest.raises(ValueError, match="not yet been built"):
        model.summary()
    assert model(np.ones((2, 3), np.float32)).shape == (2, 4)
    lines = []
    model.summary(print_fn=lines.append)
    assert any("(None, 4)" in line for line in lines)
    model.add(layers.Dense(2))
    assert model(np.ones((2, 3), np.float32)).shape == (2, 2)
    assert model.pop().units == 2
    with pytest.raises(TypeError, match="instance of class Layer"):
        model.add("dense")
    with pytest.raises(ValueError, match="unique names"):
        model.add(model.layers[0])


def test_sequential_with_input_and_build():
    model = keras.Sequential([keras.Input(shape=(5,)), layers.Dense(2)])
    assert model.built and model.layers[0].kernel.shape == (5, 2)
    other = keras.Sequential([layers.Dense(3), layers.Dense(1)])
    other.build((None, 7))
    assert other.output_shape == (None, 1) and other.count_params() == 24 + 4


def test_gradients_through_sequential_match_finite_differences():
    model = keras.Sequential([layers.Dense(5, activation="tanh", dtype="float64"),
                              layers.Dense(2, activation="sigmoid", dtype="float64")])
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 3))
    model(x)
    from wengert.autodiff.checker import check_grads
    check_grads(lambda t: model(t), [x], order=2)
    # the weights, one coordinate at a time
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    eps = 1e-6
    for var, grad in zip(model.trainable_variables, grads):
        flat = var.numpy().reshape(-1)
        for i in range(0, flat.size, 3):
            moved = flat.copy()
            moved[i] += eps
            var.assign(moved.reshape(var.shape))
            up = float(tf.reduce_sum(model(x) ** 2))
            moved[i] -= 2 * eps
            var.assign(moved.reshape(var.shape))
            down = float(tf.reduce_sum(model(x) ** 2))
            var.assign(flat.reshape(var.shape))
            np.testing.assert_allclose(grad.numpy().reshape(-1)[i], (up - down) / (2 * eps),
                                       rtol=1e-5, atol=1e-8)


def test_fit_learns_a_classification_problem():
    x, y = _blobs()
    model = _mlp()
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=4, verbose=0, validation_split=0.2)
    assert history is model.history and history.epoch == [0, 1, 2, 3]
    assert set(history.history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    losses = history.history["loss"]
    assert losses[-1] < losses[0] * 0.5
    assert history.history["accuracy"][-1] > 0.95 and history.history["val_accuracy"][-1] > 0.9
    loss, acc = model.evaluate(x, y, verbose=0)
    assert acc > 0.95 and loss < losses[0]
    assert model.metrics_names == ["loss", "compile_metrics"]  # Keras 3's trackers
    probs = model.predict(x, batch_size=50, verbose=0)
    assert probs.shape == (600, 3) and probs.dtype == np.float32
    np.testing.assert_allclose(probs, model(x).numpy(), rtol=1e-5, atol=1e-6)
    assert isinstance(model.evaluate(x, y, verbose=0, return_dict=True), dict)


def test_evaluate_matches_a_direct_computation():
    x, y = _blobs(n=100)
    model = _mlp()
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    direct = keras.losses.SparseCategoricalCrossentropy()(y, tf.nn.softmax(model(x)))
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    result = model.evaluate(x, y, batch_size=100, verbose=0)
    assert isinstance(result, float)
    np.testing.assert_allclose(result, float(direct), rtol=1e-5)


def test_compiled_and_eager_steps_give_the_same_results():
    x, y = _blobs(n=200)
    onehot = keras.utils.to_categorical(y, 3)
    results = []
    for eager in (True, False):
        keras.utils.set_random_seed(42)
        model = _mlp(dropout=0.3)
        model.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9),
                      loss=keras.losses.CategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"], run_eagerly=eager)
        history = model.fit(x, onehot, batch_size=64, epochs=2, verbose=0)
        results.append((history.history, model.get_weights()))
    (h1, w1), (h2, w2) = results
    assert h1 == h2
    for a, b in zip(w1, w2):
        np.testing.assert_array_equal(a, b)


def test_compiled_train_step_traces_once_per_batch_shape():
    x, y = _blobs(n=100)
    model = _mlp()
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(True))
    model.fit(x, y, batch_size=32, epochs=2, verbose=0)  # batches of 32 and a last one of 4
    assert model._train_step_fn.traced.experimental_get_tracing_count() == 2


def test_untraceable_model_falls_back_to_eager_with_a_warning():
    x, y = _blobs(n=64)
    model = keras.Sequential([layers.Dense(3, input_shape=(8,)),
                              layers.Lambda(lambda t: t * float(np.asarray(t).std() > -1))])
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(True))
    with pytest.warns(UserWarning, match="running it eagerly"):
        history = model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    assert len(history.history["loss"]) == 1


def test_custom_training_loop_matches_fit():
    x, y = _blobs(n=128)
    keras.utils.set_random_seed(1)
    model = _mlp()
    start = model.get_weights()
    optimizer = keras.optimizers.SGD(0.1)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for epoch in range(3):
        for i in range(0, 128, 64):
            with tf.GradientTape() as tape:
                logits = model(x[i:i + 64], training=True)
                loss = loss_fn(y[i:i + 64], logits)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
    manual = model.get_weights()
    model.set_weights(start)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss_fn)
    model.fit(x, y, batch_size=64, epochs=3, shuffle=False, verbose=0)
    for a, b in zip(manual, model.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_functional_and_subclassed_models_train():
    x, y = _blobs(n=200)
    inputs = keras.Input(shape=(8,))
    hidden = layers.Dense(16, activation="relu")(inputs)
    functional = keras.Model(inputs, layers.Dense(3, activation="softmax")(hidden))
    assert [type(layer).__name__ for layer in functional.layers] == ["InputLayer", "Dense",
                                                                     "Dense"]
    # keyed by place in the object graph, as TensorFlow's Keras 3: the graph's operations here
    # ("_operations/<i>", the InputLayer first), attributes below
    assert list(functional._checkpoint_children()) == ["_operations"]
    assert list(functional._checkpoint_children()["_operations"]._checkpoint_children()) == \
        ["0", "1", "2"]

    class Classifier(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = layers.Dense(16, activation="relu")
            self.out = layers.Dense(3, activation="softmax")

        def call(self, inputs, training=None):
            return self.out(self.hidden(inputs))

    subclassed = Classifier()
    for model in (functional, subclassed):
        model.compile(optimizer=keras.optimizers.Adam(0.02),
                      loss="sparse_categorical_crossentropy", metrics=["acc"])
        history = model.fit(x, y, epochs=3, verbose=0)
        assert history.history["acc"][-1] > 0.9
    assert len(subclassed.trainable_variables) == 4
    assert list(subclassed._checkpoint_children()) == ["hidden", "out"]


def test_frozen_layers_do_not_train():
    x, y = _blobs(n=64)
    model = _mlp()
    model.layers[0].trainable = False
    frozen = model.layers[0].get_weights()
    assert len(model.trainable_variables) == 2 and len(model.non_trainable_variables) == 2
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(True))
    model.fit(x, y, epochs=1, verbose=0)
    for a, b in zip(frozen, model.layers[0].get_weights()):
        np.testing.assert_array_equal(a, b)


def test_fit_errors():
    model = _mlp()
    with pytest.raises(RuntimeError, match="compile"):
        model.fit(np.zeros((4, 8)), np.zeros(4), verbose=0)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="cardinality"):
        model.fit(np.zeros((4, 8)), np.zeros((3, 3)), verbose=0)


def test_callbacks_and_early_stopping():
    x, y = _blobs(n=64)
    events = []
    recorder = keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs=None: events.append("train_begin"),
        on_epoch_end=lambda epoch, logs=None: events.append(("epoch", epoch, sorted(logs))),
        on_train_batch_end=lambda batch, logs=None: events.append("batch"))
    model = _mlp()
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss=keras.losses.SparseCategoricalCrossentropy(True))
    stop = keras.callbacks.EarlyStopping(monitor="loss", patience=1)
    history = model.fit(x, y, batch_size=32, epochs=10, verbose=0, callbacks=[recorder, stop],
                        shuffle=False)  # the same batches: lr 0 repeats the loss exactly
    assert events[0] == "train_begin" and events.count("batch") == 2 * len(history.epoch)
    assert ("epoch", 0, ["loss"]) in events
    assert len(history.epoch) == 2 and model.stop_training  # lr 0: no improvement


def test_progress_bar_with_and_without_tqdm(capsys, monkeypatch):
    x, y = _blobs(n=64)
    model = _mlp()
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(True))
    model.fit(x, y, batch_size=32, epochs=1, verbose=1)
    err = capsys.readouterr().err
    assert "Epoch 1/1" in err and "2/2" in err and "loss" in err
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import fails: plain text line
    model.fit(x, y, batch_size=32, epochs=1, verbose=1)
    err = capsys.readouterr().err
    assert "Epoch 1/1 2/2" in err and "loss" in err
    model.fit(x, y, batch_size=32, epochs=1, verbose=2)
    assert "Epoch 1/1" in capsys.readouterr().err


def test_train_on_batch_and_weights_round_trip():
    x, y = _blobs(n=32)
    model = _mlp()
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(True), metrics=["accuracy"])
    loss, acc = model.train_on_batch(x, y)
    assert np.isfinite(loss) and 0 <= acc <= 1
    saved = model.get_weights()
    model.train_on_batch(x, y)
    model.set_weights(saved)
    np.testing.assert_allclose(model.predict_on_batch(x), model(x).numpy(), rtol=1e-6)
    assert [k for k in model._checkpoint_children()] == ["_functional"]  # as Keras 3's
    assert list(model.layers[0]._checkpoint_children()) == ["_kernel", "bias"]


def test_checkpoint_round_trip_into_an_unbuilt_model(tmp_path):
    train = pytest.importorskip("wengert.train")
    x, y = _blobs(n=64)
    model = _mlp()
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(True))
    model.fit(x, y, epochs=1, verbose=0)
    path = train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    names = [name for name, _ in train.list_variables(path)]
    assert {f"model/_functional/_operations/{p}/.ATTRIBUTES/VARIABLE_VALUE"
            for p in ("1/_kernel", "3/bias")} <= set(names)
    keras.backend.clear_session()  # the same layer names again
    fresh = keras.Sequential([layers.Dense(16, activation="relu"), layers.Dropout(0.0),
                              layers.Dense(3)])
    train.Checkpoint(model=fresh).restore(path)  # no weights yet: restored when built
    np.testing.assert_allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0))
    fresh.layers[0].kernel.assign(np.zeros((8, 16), np.float32))
    model.save_weights(str(tmp_path / "weights"))
    fresh.load_weights(str(tmp_path / "weights"))
    np.testing.assert_array_equal(fresh.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())


def test_functional_model_with_two_inputs():
    a, b = keras.Input(shape=(3,)), keras.Input(shape=(2,))
    joined = layers.Concatenate()([layers.Dense(4)(a), b])
    assert joined.shape == (None, 6)
    out = layers.Add()([layers.Dense(1)(joined), layers.Dense(1)(a)])
    model = keras.Model(inputs=[a, b], outputs=out)
    rng = np.random.default_rng(0)
    xa, xb = rng.standard_normal((40, 3)), rng.standard_normal((40, 2))
    y = xa.sum(1, keepdims=True) - xb[:, :1]
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    history = model.fit([xa, xb], y, batch_size=8, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.predict([xa, xb], verbose=0).shape == (40, 1)
    with pytest.raises(ValueError, match="expects 2 input"):
        model(xa)


def test_overridden_train_step_is_used_by_fit():
    x, y = _blobs(n=64)
    calls = []

    class Custom(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(3)

        def call(self, inputs, training=None):
            return self.dense(inputs)

        def train_step(self, data):
            calls.append(len(data))
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compiled_loss(y, y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.compiled_metrics.update_state(y, y_pred)
            return {"loss": loss, **{m.name: m.result() for m in self.metrics}}

    model = Custom()
    model.compile(optimizer=keras.optimizers.SGD(0.1), metrics=["accuracy"],
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=32, epochs=2, verbose=0)
    # traced like the default step: train_step runs while tracing, not once per batch
    assert calls and set(calls) == {2} and set(history.history) == {"loss", "accuracy"}
    assert history.history["loss"][1] < history.history["loss"][0]


def test_overridden_test_step_and_predict_step_are_used():
    """Keras's customizing-evaluate and -predict hooks (issue 19 item 4), arrays and datasets."""
    x, y = _blobs(n=64)
    seen = {"test": 0, "predict": 0}

    class Custom(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(3)

        def call(self, inputs, training=None):
            return self.dense(inputs)

        def test_step(self, data):
            seen["test"] += 1
            x, y = data
            y_pred = self(x, training=False)
            hits = tf.cast(tf.equal(tf.argmax(y_pred, axis=1, output_type=tf.int32),
                                    tf.cast(y, tf.int32)), tf.float32)
            return {"hit_rate": tf.reduce_mean(hits)}

        def predict_step(self, data):
            seen["predict"] += 1
            return tf.nn.softmax(self(data, training=False))

    model = Custom()
    model.compile(optimizer=keras.optimizers.SGD(0.1), run_eagerly=True,  # count every batch
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    logs = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    assert seen["test"] == 2 and set(logs) == {"hit_rate"} and 0.0 <= logs["hit_rate"] <= 1.0
    probs = model.predict(x, batch_size=16, verbose=0)
    assert seen["predict"] == 4 and probs.shape == (64, 3)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
    model.evaluate(dataset, verbose=0)
    model.predict(tf.data.Dataset.from_tensor_slices(x).batch(32), verbose=0)
    assert seen == {"test": 4, "predict": 6}
