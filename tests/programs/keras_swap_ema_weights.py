"""Training with an optimizer's moving average of the weights (use_ema=True) and validating
with it through keras.callbacks.SwapEMAWeights, as the Keras 3 docs show."""
import numpy as np
import keras

rng = np.random.default_rng(3)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32") + 0.3).astype("float32")
x_val, y_val = x[:16] * 1.5, y[:16] * 1.5


def make_model():
    model = keras.Sequential([
        keras.Input((4,)),
        keras.layers.Dense(3, activation="tanh", kernel_initializer=keras.initializers.Constant(0.2)),
        keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.Adam(0.05, use_ema=True, ema_momentum=0.8),
                  loss="mse")
    return model


for swap_on_epoch in (False, True):
    model = make_model()
    history = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0,
                        validation_data=(x_val, y_val),
                        callbacks=[keras.callbacks.SwapEMAWeights(swap_on_epoch=swap_on_epoch)])
    print("swap_on_epoch", swap_on_epoch)
    for key in sorted(history.history):
        print(" ", key, [round(float(v), 4) for v in history.history[key]])
    print("  final kernel", np.round(model.layers[-1].kernel.numpy().ravel(), 5).tolist())
    print("  evaluate", round(float(model.evaluate(x_val, y_val, verbose=0)), 5))

model = make_model()
model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
swap = keras.callbacks.SwapEMAWeights()
print("evaluate with swap", round(float(model.evaluate(x_val, y_val, verbose=0, callbacks=[swap])), 5))
print("weights back", np.round(model.layers[-1].kernel.numpy().ravel(), 5).tolist())
try:
    plain = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    plain.compile(optimizer="sgd", loss="mse")
    plain.fit(x, y, epochs=1, verbose=0, validation_data=(x_val, y_val),
              callbacks=[keras.callbacks.SwapEMAWeights()])
except ValueError as err:
    print("no EMA:", str(err).split(".")[0])
