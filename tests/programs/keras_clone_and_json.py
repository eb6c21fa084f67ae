import numpy as np
import keras

rng = np.random.default_rng(1)
inputs = {"a": keras.Input((3,), name="a"), "b": keras.Input((2,), name="b")}
shared = keras.layers.Dense(4, name="shared", activation="relu")
h = keras.layers.Concatenate(name="cat")([shared(inputs["a"]), keras.layers.Dense(4, name="db")(inputs["b"])])
out = keras.layers.Dense(1, name="out")(h)
model = keras.Model(inputs, out, name="two_in")
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
clone = keras.models.clone_model(model)
print("names:", clone.name, [l.name for l in clone.layers])
print("weights are new:", all(a is not b for a, b in zip(model.weights, clone.weights)))
clone.set_weights(model.get_weights())
x = {"a": rng.normal(size=(5, 3)).astype("float32"), "b": rng.normal(size=(5, 2)).astype("float32")}
print("same outputs:", np.allclose(model.predict(x, verbose=0), clone.predict(x, verbose=0)))
print("compiled:", clone.optimizer.__class__.__name__, float(clone.optimizer.learning_rate))
seq = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="h"), keras.layers.Dropout(0.5, name="drop"), keras.layers.Dense(2, name="o")], name="seq")
renamed = keras.models.clone_model(seq, clone_function=lambda l: l.__class__.from_config({**l.get_config(), "name": l.name + "_c"}))
print("sequential clone:", renamed.name, [l.name for l in renamed.layers], renamed.count_params())
text = seq.to_json()
back = keras.models.model_from_json(text)
print("from json:", back.name, [l.name for l in back.layers], back.count_params(), type(back).__name__)
fun_json = keras.models.model_from_json(model.to_json())
print("functional from json:", [l.name for l in fun_json.layers], fun_json.count_params())
