"""Keras's "Writing your own callbacks" guide: a callback that records every hook's order and
the logs it sees in fit, evaluate and predict, stops training from on_epoch_end, and reads
model.stop_training; LambdaCallback; the History object's params."""
import numpy as np
import keras

events = []


class Recorder(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        events.append("train_begin")

    def on_epoch_begin(self, epoch, logs=None):
        events.append(f"epoch_begin {epoch}")

    def on_train_batch_end(self, batch, logs=None):
        events.append(f"batch_end {batch} loss {logs['loss']:.4f}")

    def on_epoch_end(self, epoch, logs=None):
        events.append(f"epoch_end {epoch} keys {sorted(logs)}")
        if logs["loss"] < 0.7:
            self.model.stop_training = True

    def on_test_end(self, logs=None):
        events.append(f"test_end keys {sorted(logs)}")

    def on_predict_end(self, logs=None):
        events.append("predict_end")


rng = np.random.default_rng(59)
x = rng.normal(size=(32, 3)).astype("float32")
y = x.sum(axis=1, keepdims=True).astype("float32")
model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
model.set_weights([np.zeros((3, 1), "float32"), np.zeros(1, "float32")])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
ends = []
history = model.fit(x, y, batch_size=16, epochs=10, verbose=0, shuffle=False,
                    validation_data=(x[:8], y[:8]),
                    callbacks=[Recorder(), keras.callbacks.LambdaCallback(
                        on_epoch_end=lambda epoch, logs: ends.append(round(logs["loss"], 4)))])
model.evaluate(x, y, verbose=0, callbacks=[Recorder()])
model.predict(x, verbose=0, callbacks=[Recorder()])
for event in events:
    print(event)
print("lambda saw:", ends)
print("epochs run:", len(history.history["loss"]), "params:", history.params)
