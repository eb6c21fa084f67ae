"""A text classifier as Keras tutorials build it: Embedding with mask_zero, a bidirectional
LSTM, Dense; trained on integer sequences with padding, fixed weights, Adam, and predictions."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

rng = np.random.default_rng(22)
lengths = rng.integers(3, 10, size=64)
sequences = [list(rng.integers(1, 50, size=n)) for n in lengths]
labels = np.array([int(sum(s) % 2) for s in sequences])
padded = tf.keras.utils.pad_sequences(sequences, maxlen=10, padding="post")
print("padded:", padded.shape, padded[0].tolist())

model = tf.keras.Sequential([
    tf.keras.Input((10,), dtype="int32"),
    layers.Embedding(50, 8, mask_zero=True),
    layers.Bidirectional(layers.LSTM(6)),
    layers.Dense(1, activation="sigmoid"),
])
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3 for w in model.get_weights()])
print("weights:", [tuple(w.shape) for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="binary_crossentropy",
              metrics=["accuracy"])
history = model.fit(padded, labels, epochs=3, batch_size=16, shuffle=False, verbose=0)
print("loss:", [round(v, 4) for v in history.history["loss"]])
print("predictions:", np.round(model.predict(padded[:3], verbose=0).ravel(), 4).tolist())
