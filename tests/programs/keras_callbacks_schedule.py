"""Training with Keras callbacks as tutorials combine them: LearningRateScheduler, a
LambdaCallback logging the learning rate, CSVLogger, ModelCheckpoint keeping the best weights,
and History; then the best checkpoint reloaded."""
import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(21)
x = rng.normal(size=(120, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")
model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(3, activation="relu"),
                             tf.keras.layers.Dense(1)])
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.5 for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
folder = tempfile.mkdtemp()
rates = []
callbacks = [
    tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch >= 2 else lr),
    tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: rates.append(
        float(model.optimizer.learning_rate))),
    tf.keras.callbacks.CSVLogger(os.path.join(folder, "log.csv")),
    tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "best.weights.h5"),
                                       monitor="val_loss", save_best_only=True,
                                       save_weights_only=True),
]
history = model.fit(x, y, epochs=5, batch_size=30, validation_split=0.25, shuffle=False,
                    callbacks=callbacks, verbose=0)
print("rates:", rates)
print("val_loss:", [round(v, 4) for v in history.history["val_loss"]])
with open(os.path.join(folder, "log.csv")) as f:
    print("csv header:", f.readline().strip())
best = int(np.argmin(history.history["val_loss"]))
model.load_weights(os.path.join(folder, "best.weights.h5"))
print("best epoch:", best + 1, "reloaded val loss:",
      round(float(model.evaluate(x[90:], y[90:], verbose=0)), 4))
