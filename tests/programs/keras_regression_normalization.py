"""TensorFlow's "Basic regression" tutorial on synthetic fuel-efficiency-like data: a
Normalization layer adapted to the features, a linear model and a small DNN trained with
validation_split, evaluate and predict, and the adapted statistics."""
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(17)
features = np.column_stack([rng.uniform(3, 8, 200), rng.uniform(60, 230, 200),
                            rng.uniform(1600, 5000, 200), rng.uniform(8, 25, 200)]).astype("float32")
labels = (45 - 2.1 * features[:, 0] - 0.03 * features[:, 1] - 0.004 * features[:, 2]
          + 0.2 * features[:, 3] + rng.normal(0, 1, 200)).astype("float32")

normalizer = keras.layers.Normalization(axis=-1)
normalizer.adapt(features)
print("mean:", np.round(normalizer.mean.numpy().ravel(), 3).tolist())
print("variance:", np.round(normalizer.variance.numpy().ravel(), 2).tolist())
first = np.array(features[:1])
print("normalized first row:", np.round(normalizer(first).numpy(), 4).tolist())

linear_model = keras.Sequential([keras.Input(shape=(4,)), normalizer, keras.layers.Dense(units=1)])
linear_model.layers[-1].set_weights([np.full((4, 1), 0.5, "float32"), np.zeros(1, "float32")])
linear_model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.1),
                     loss="mean_absolute_error")
history = linear_model.fit(features, labels, epochs=5, verbose=0, validation_split=0.2,
                           shuffle=False)
print("linear loss:", [round(v, 4) for v in history.history["loss"]])
print("linear val_loss:", [round(v, 4) for v in history.history["val_loss"]])

dnn = keras.Sequential([keras.Input(shape=(4,)), normalizer, keras.layers.Dense(16, activation="relu"),
                        keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
dnn.set_weights([w if i < 3 else rng.normal(size=w.shape).astype("float32") * 0.3
                 for i, w in enumerate(dnn.get_weights())])
dnn.compile(loss="mean_absolute_error", optimizer=keras.optimizers.Adam(0.01))
dnn.fit(features, labels, epochs=5, verbose=0, validation_split=0.2, shuffle=False)
print("dnn evaluate:", round(dnn.evaluate(features, labels, verbose=0), 4))
print("dnn predict:", np.round(dnn.predict(features[:4], verbose=0).ravel(), 3).tolist())
print("count params:", linear_model.count_params(), dnn.count_params())
