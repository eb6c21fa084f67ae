"""A Keras functional model with two inputs and one output, compiled with Adam and
sparse categorical cross-entropy, trained with fit on NumPy arrays, evaluated and used to
predict; weights set from a seeded NumPy generator so every framework starts alike."""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers

rng = np.random.default_rng(3)
n = 256
a = rng.normal(size=(n, 5)).astype("float32")
b = rng.normal(size=(n, 3)).astype("float32")
y = ((a[:, 0] + b[:, 1] > 0).astype("int64") + (a[:, 2] > 1).astype("int64"))

in_a = keras.Input(shape=(5,), name="a")
in_b = keras.Input(shape=(3,), name="b")
h = layers.Concatenate()([layers.Dense(8, activation="relu")(in_a), in_b])
h = layers.Dense(8, activation="tanh")(h)
out = layers.Dense(3, name="logits")(h)
model = keras.Model(inputs=[in_a, in_b], outputs=out)
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3
                   for w in model.get_weights()])
print("params:", model.count_params(), [w.shape for w in model.get_weights()])

model.compile(optimizer=keras.optimizers.Adam(0.01),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
history = model.fit([a, b], y, batch_size=32, epochs=5, shuffle=False, verbose=0)
print("loss:", [round(v, 4) for v in history.history["loss"]])
print("accuracy:", [round(v, 4) for v in history.history["accuracy"]])
loss, acc = model.evaluate([a, b], y, batch_size=64, verbose=0)
print(f"evaluate: loss={loss:.4f} accuracy={acc:.4f}")
print("predict:", np.round(model.predict([a[:2], b[:2]], verbose=0), 4).tolist())
