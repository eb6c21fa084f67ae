"""keras.io's "Customizing what happens in fit()" (TensorFlow backend) run by wengert's fit.

The programs below are the guide's (`self.optimizer.apply(gradients, trainable_vars)` included),
shrunk to small sizes, with fixed initial weights (set_weights), no shuffling and SGD where the
guide's optimizer would not change what is checked, so that each is deterministic. They run unchanged under TensorFlow 2.21's Keras: the expected loss histories
(the `TF_*` literals) were produced by running this file with TensorFlow's Python:

    /work/tfvenv/bin/python tests/test_keras_train_step.py

which imports `tensorflow as tf` in place of `wengert as tf` and prints every program's numbers.
"""
import sys

import numpy as np

if __name__ == "__main__":  # the reference run, under TensorFlow (see the module docstring)
    import tensorflow as tf
else:
    import pytest

    import wengert as tf
keras = tf.keras
layers = keras.layers


# -- the data and the fixed weights ------------------------------------------------------------
def _data(n=64, features=4, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, features)).astype("float32")
    y = (x @ np.array([[0.5], [-1.0], [0.25], [2.0]], "float32")[:features]
         + 0.1 * rng.standard_normal((n, 1))).astype("float32")
    return x, y


def _weights(model, seed=1):
    rng = np.random.default_rng(seed)
    model.set_weights([(0.3 * rng.standard_normal(w.shape)).astype("float32")
                       for w in model.get_weights()])


def _functional(cls, units=1, features=4):
    inputs = keras.Input(shape=(features,))
    hidden = layers.Dense(8, activation="tanh")(inputs)
    outputs = layers.Dense(units)(hidden)
    model = cls(inputs, outputs)
    _weights(model)
    return model


# -- the guide's models ------------------------------------------------------------------------
class BasicModel(keras.Model):
    """"A first simple example": compute_loss, the optimizer, the metrics of self.metrics."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


class LowLevelModel(keras.Model):
    """"Going lower-level": its own loss function and Mean / MAE trackers, compile() bare."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
        self.loss_fn = keras.losses.MeanSquaredError()

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.loss_fn(y, y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


class WeightedModel(keras.Model):
    """"Supporting sample_weight & class_weight": data may be (x, y, sample_weight)."""

    def train_step(self, data):
        if len(data) == 3:
            x, y, sample_weight = data
        else:
            sample_weight = None
            x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return {m.name: m.result() for m in self.metrics}


class EvalModel(keras.Model):
    """"Providing your own evaluation step"."""

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss = self.compute_loss(y=y, y_pred=y_pred)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


class ActivityModel(keras.Model):
    """add_loss inside call during fit, with the default step and no compiled loss."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(3, activity_regularizer=keras.regularizers.L2(0.01))
        self.out = layers.Dense(1)

    def call(self, inputs):
        hidden = self.dense(inputs)
        self.add_loss(tf.reduce_mean(tf.square(hidden)) * 0.1)
        return self.out(hidden)


# -- the programs (each gives the numbers it is checked by) ------------------------------------
def basic_program():
    x, y = _data()
    model = _functional(BasicModel)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    return history.history


def low_level_program():
    x, y = _data()
    model = _functional(LowLevelModel)
    model.compile(optimizer=keras.optimizers.Adam(0.01))
    history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    return history.history


def weighted_program():
    x, y = _data()
    sample_weight = np.linspace(0.1, 2.0, len(x)).astype("float32")
    model = _functional(WeightedModel)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    history = model.fit(x, y, sample_weight=sample_weight, batch_size=16, epochs=3,
                        shuffle=False, verbose=0)
    return history.history


def evaluate_program():
    x, y = _data()
    model = _functional(EvalModel)
    model.compile(loss="mse", metrics=["mae"])
    return model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)


def activity_program():
    x, y = _data()
    model = ActivityModel()
    model(x[:1])
    _weights(model)
    model.compile(optimizer=keras.optimizers.SGD(0.05))
    history = model.fit(x, batch_size=16, epochs=3, shuffle=False, verbose=0)
    return history.history


def class_weight_program():
    x, _ = _data()
    labels = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0).astype("int32")
    model = _functional(keras.Model, units=3)
    model.compile(optimizer=keras.optimizers.SGD(0.1), metrics=["accuracy"],
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, labels, class_weight={0: 2.0, 1: 0.5, 2: 1.0}, batch_size=16,
                        epochs=3, shuffle=False, verbose=0)
    return history.history


PROGRAMS = {"basic": basic_program, "low_level": low_level_program,
            "weighted": weighted_program, "evaluate": evaluate_program,
            "activity": activity_program, "class_weight": class_weight_program}

if __name__ == "__main__":  # print TensorFlow's numbers; the tests below need pytest
    for name, program in PROGRAMS.items():
        result = program()
        print(name, {k: [float(v) for v in np.atleast_1d(vals)] for k, vals in result.items()})
    sys.exit(0)

# -- TensorFlow's numbers (see the module docstring for how they were produced) ----------------
TF_RESULTS = {
    "basic": {"mae": [1.4415589570999146, 0.8482874035835266, 0.4875863790512085],
              "loss": [3.1813340187072754, 1.2219325304031372, 0.4887404441833496]},
    "low_level": {"loss": [3.933016777038574, 3.4002394676208496, 2.858039140701294],
                  "mae": [1.5989983081817627, 1.4784437417984009, 1.3470889329910278]},
    "weighted": {"mae": [1.5079610347747803, 0.7771803140640259, 0.4124904274940491],
                 "loss": [4.004677772521973, 1.268617868423462, 0.46363145112991333]},
    "evaluate": {"mae": [1.6431747674942017], "loss": [4.154690742492676]},
    "activity": {"loss": [0.019996900111436844, 0.019298596307635307, 0.018626844510436058]},
    "class_weight": {"accuracy": [0.34375, 0.390625, 0.40625],
                     "loss": [1.0528508424758911, 0.9728333353996277, 0.9106928110122681]},
}


@pytest.mark.parametrize("name", sorted(TF_RESULTS))
def test_guide_programs_match_tensorflow(name):
    keras.backend.clear_session()
    result = PROGRAMS[name]()
    expected = TF_RESULTS[name]
    assert set(result) == set(expected)
    for key, values in expected.items():
        np.testing.assert_allclose(np.atleast_1d(result[key]), values, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{name}: {key}")


def test_the_custom_step_is_traced_and_run_eagerly_on_request():
    x, y = _data()
    histories = []
    for eager in (False, True):
        model = _functional(BasicModel)
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"],
                      run_eagerly=eager)
        histories.append(model.fit(x, y, batch_size=16, epochs=2, shuffle=False,
                                   verbose=0).history)
        traced = model._user_steps.train.traced
        assert (traced is None) == eager
        if not eager:  # one shape of batch: traced once, plus the retrace after creating slots
            assert traced.experimental_get_tracing_count() <= 2
    for key in histories[0]:
        np.testing.assert_allclose(histories[0][key], histories[1][key], rtol=1e-6)


def test_metrics_lists_the_loss_tracker_and_the_compiled_metrics():
    x, y = _data()
    model = _functional(keras.Model)
    assert model.metrics == []
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    assert [m.name for m in model.metrics] == ["loss", "compile_metrics"]
    model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    result = model.get_metrics_result()
    assert set(result) == {"loss", "mae"}
    logs = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    np.testing.assert_allclose(float(model.metrics[0].result()), logs["loss"], rtol=1e-6)
    model.reset_metrics()
    assert float(model.metrics[0].result()) == 0.0
    assert float(model.metrics[1].result()["mae"]) == 0.0


def test_attribute_trackers_are_listed_and_reset_every_epoch():
    x, y = _data()

    class Tracked(keras.Model):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.batches = keras.metrics.Sum(name="batches")

        def train_step(self, data):
            logs = super().train_step(data)
            self.batches.update_state(1.0)
            return {**logs, "batches": self.batches.result()}

    model = _functional(Tracked)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    assert [m.name for m in model.metrics] == ["loss", "batches"]
    history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert history.history["batches"] == [4.0, 4.0]


def test_logs_may_be_python_numbers_and_reach_the_callbacks():
    x, y = _data()
    seen = []

    class Numbers(keras.Model):
        def train_step(self, data):
            x, y, _ = keras.utils.unpack_x_y_sample_weight(data)
            with tf.GradientTape() as tape:
                loss = self.compute_loss(x, y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss, "constant": 3}

    class Record(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(dict(logs))

    model = _functional(Numbers)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(x, y, batch_size=32, epochs=2, verbose=0, callbacks=[Record()])
    assert len(seen) == 4 and all(set(s) == {"loss", "constant"} for s in seen)
    assert all(isinstance(v, float) for s in seen for v in s.values())
    assert history.history["constant"] == [3.0, 3.0]
    assert history.history["loss"] == [seen[1]["loss"], seen[3]["loss"]]  # the last batch's


@pytest.mark.parametrize("eager", [False, True])
def test_a_train_step_returning_a_non_dict_is_refused(eager):
    x, y = _data()

    class Bad(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = self.compute_loss(x, y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return loss

    model = _functional(Bad)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", run_eagerly=eager)
    before = model.get_weights()
    with pytest.raises(TypeError, match=r"Model\.train_step must return a dict.*m\.result"):
        model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    if not eager:  # refused after tracing, before the step ran
        for a, b in zip(before, model.get_weights()):
            np.testing.assert_array_equal(a, b)


def test_compile_without_a_loss_needs_a_loss_from_somewhere():
    x, y = _data()
    model = _functional(keras.Model)
    model.compile(optimizer="sgd")
    before = model.get_weights()
    with pytest.raises(ValueError, match="no loss to compute"):
        model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_unpack_and_pack_x_y_sample_weight():
    x, y, w = np.ones((2, 1)), np.zeros((2, 1)), np.ones(2)
    unpack, pack = keras.utils.unpack_x_y_sample_weight, keras.utils.pack_x_y_sample_weight
    assert unpack(x)[0] is x and unpack(x)[1:] == (None, None)
    assert unpack((x,))[1:] == (None, None) and unpack([x, y])[1] is y
    assert unpack((x, y, w))[2] is w
    assert pack(x) is x and pack(x, y) == (x, y) and len(pack(x, y, w)) == 3
    assert pack([x, x]) == ([x, x],)
    with pytest.raises(ValueError, match="unpack_x_y_sample_weight"):
        unpack((x, y, w, w))


def test_fit_passes_dicts_and_datasets_in_keras_layout():
    x, y = _data()
    layouts = []

    class Dicts(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)

        def call(self, inputs):
            return self.dense(tf.concat([inputs["a"], inputs["b"]], axis=-1))

        def train_step(self, data):
            layouts.append(type(data).__name__ + ":" + type(data[0]).__name__)
            x, y = data
            with tf.GradientTape() as tape:
                loss = self.compute_loss(x, y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}

    model = Dicts()
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    inputs = {"a": x[:, :2], "b": x[:, 2:]}
    history = model.fit(inputs, y, batch_size=16, epochs=2, verbose=0)
    dataset = tf.data.Dataset.from_tensor_slices((inputs, y)).batch(16)
    history2 = model.fit(dataset, epochs=1, verbose=0)
    assert set(layouts) == {"tuple:dict"}
    assert history2.history["loss"][0] < history.history["loss"][0]


def _gan(latent_dim=4, size=8):
    discriminator = keras.Sequential([
        keras.Input(shape=(size, size, 1)),
        layers.Conv2D(4, (3, 3), strides=(2, 2), padding="same"),
        layers.LeakyReLU(negative_slope=0.2),
        layers.GlobalMaxPooling2D(),
        layers.Dense(1)], name="discriminator")
    generator = keras.Sequential([
        keras.Input(shape=(latent_dim,)),
        layers.Dense(4 * 4 * 4),
        layers.LeakyReLU(negative_slope=0.2),
        layers.Reshape((4, 4, 4)),
        layers.Conv2DTranspose(4, (4, 4), strides=(2, 2), padding="same"),
        layers.LeakyReLU(negative_slope=0.2),
        layers.Conv2D(1, (3, 3), padding="same", activation="sigmoid")], name="generator")
    return discriminator, generator


class GAN(keras.Model):
    """The guide's GAN, with tf.random in place of keras.random."""

    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    def train_step(self, real_images):
        if isinstance(real_images, tuple):
            real_images = real_images[0]
        batch_size = tf.shape(real_images)[0]
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
        generated_images = self.generator(random_latent_vectors)
        combined_images = tf.concat([generated_images, real_images], axis=0)
        labels = tf.concat([tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0)
        labels += 0.05 * tf.random.uniform(tf.shape(labels))
        with tf.GradientTape() as tape:
            predictions = self.discriminator(combined_images)
            d_loss = self.loss_fn(labels, predictions)
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
        misleading_labels = tf.zeros((batch_size, 1))
        with tf.GradientTape() as tape:
            predictions = self.discriminator(self.generator(random_latent_vectors))
            g_loss = self.loss_fn(misleading_labels, predictions)
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


def test_the_guide_gan_trains_on_a_dataset_of_images_without_labels():
    rng = np.random.default_rng(0)
    images = rng.random((32, 8, 8, 1)).astype("float32")
    dataset = tf.data.Dataset.from_tensor_slices(images).shuffle(buffer_size=32).batch(8)
    discriminator, generator = _gan()
    gan = GAN(discriminator=discriminator, generator=generator, latent_dim=4)
    gan.compile(d_optimizer=keras.optimizers.Adam(learning_rate=0.0003),
                g_optimizer=keras.optimizers.Adam(learning_rate=0.0003),
                loss_fn=keras.losses.BinaryCrossentropy(from_logits=True))
    d_before, g_before = discriminator.get_weights(), generator.get_weights()
    history = gan.fit(dataset, epochs=2, verbose=0)
    assert set(history.history) == {"d_loss", "g_loss"}
    assert all(np.isfinite(v) for vals in history.history.values() for v in vals)
    assert gan._user_steps.train.traced is not None  # traced, with fresh noise per batch
    assert not np.allclose(d_before[0], discriminator.get_weights()[0])
    assert not np.allclose(g_before[0], generator.get_weights()[0])
    history = gan.fit(images, epochs=1, batch_size=8, verbose=0)  # arrays: fit(x) with no y
    assert len(history.history["d_loss"]) == 1


def test_custom_test_step_and_predict_step_are_traced():
    x, y = _data()
    traces = []

    class Steps(EvalModel):
        def predict_step(self, data):
            traces.append("predict")
            return self(data, training=False) * 2.0

    model = _functional(Steps)
    model.compile(loss="mse", metrics=["mae"])
    logs = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["loss"], TF_RESULTS["evaluate"]["loss"][0], rtol=1e-5)
    assert model._user_steps.test.traced is not None
    out = model.predict(x, batch_size=16, verbose=0)
    np.testing.assert_allclose(out, 2.0 * model(x).numpy(), rtol=1e-5)
    assert traces == ["predict"]


def test_compute_loss_adds_the_model_losses():
    x, y = _data()
    model = ActivityModel()
    y_pred = model(x[:16])
    model.compile(optimizer="sgd", loss="mse")
    total = float(model.compute_loss(x[:16], y[:16], y_pred))
    mse = float(keras.losses.MeanSquaredError()(y[:16], y_pred))
    extra = sum(float(v) for v in model.losses)
    assert len(model.losses) == 2 and extra > 0
    np.testing.assert_allclose(total, mse + extra, rtol=1e-5)


def test_class_weight_is_the_sample_weight_of_each_row_label():
    x, _ = _data()
    labels = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0).astype("int32")
    onehot = np.eye(3, dtype="float32")[labels]
    table = {0: 2.0, 1: 0.5}  # class 2 unlisted: weight 1
    histories = []
    for y, kwargs in ((labels, {"class_weight": table}), (onehot, {"class_weight": table}),
                      (labels, {"sample_weight": np.array([table.get(c, 1.0) for c in labels],
                                                           "float32")})):
        model = _functional(keras.Model, units=3)
        loss = keras.losses.CategoricalCrossentropy(from_logits=True) if y.ndim == 2 else \
            keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss)
        histories.append(model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0,
                                   **kwargs).history["loss"])
    np.testing.assert_allclose(histories[0], histories[2], rtol=1e-6)
    np.testing.assert_allclose(histories[1], histories[2], rtol=1e-5)
    model = _functional(keras.Model, units=3)
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="either class_weight or sample_weight"):
        model.fit(x, labels, class_weight=table, sample_weight=np.ones(len(x)), verbose=0)
