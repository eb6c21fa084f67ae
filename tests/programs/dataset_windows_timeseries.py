"""Time-series input pipelines from TensorFlow's tf.data and forecasting guides: window with
shift and drop_remainder, flat_map of batched windows, split into inputs and labels, batch and
prefetch, zip and enumerate, timeseries_dataset_from_array, and a small model trained on it."""
import numpy as np
import tensorflow as tf
import keras

series = np.sin(np.arange(60, dtype="float32") * 0.3) + np.arange(60, dtype="float32") * 0.01

ds = tf.data.Dataset.range(10).window(4, shift=2, drop_remainder=True)
print("windows:", [list(w.as_numpy_iterator()) for w in ds])
ds = tf.data.Dataset.from_tensor_slices(series).window(6, shift=1, drop_remainder=True)
ds = ds.flat_map(lambda w: w.batch(6)).map(lambda w: (w[:-1], w[-1:]))
first_x, first_y = next(iter(ds))
print("first window:", np.round(first_x.numpy(), 4).tolist(), np.round(first_y.numpy(), 4).tolist())
print("cardinality known:", int(ds.cardinality()) >= 0 or int(ds.cardinality()))
print("windows in total:", sum(1 for _ in ds))

pairs = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)))
print("zip:", [(int(a), int(b)) for a, b in pairs])
print("enumerate:", [(int(i), int(v)) for i, v in tf.data.Dataset.range(5, 8).enumerate()])

data = keras.utils.timeseries_dataset_from_array(series[:-5], targets=series[5:],
                                                 sequence_length=5, batch_size=8)
batches = list(data)
print("timeseries batches:", len(batches), "first shapes:", batches[0][0].shape.as_list(),
      batches[0][1].shape.as_list())
print("first targets:", np.round(batches[0][1].numpy(), 4).tolist())

model = keras.Sequential([keras.Input(shape=(5,)), keras.layers.Dense(8, activation="tanh"),
                          keras.layers.Dense(1)])
rng = np.random.default_rng(37)
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3 for w in model.get_weights()])
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
train = ds.map(lambda x, y: (x[:5], y)).batch(8).prefetch(tf.data.AUTOTUNE)
history = model.fit(train, epochs=3, verbose=0)
print("loss:", [round(v, 5) for v in history.history["loss"]])
print("mae:", [round(v, 5) for v in history.history["mae"]])
