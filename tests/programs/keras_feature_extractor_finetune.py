"""Transfer learning as TensorFlow's guide writes it: train a base model, build a feature
extractor from an intermediate layer's output, freeze the base (trainable=False keeps batch
norm in inference mode), train a new head, then unfreeze and fine-tune with a lower rate."""
import numpy as np
import keras

rng = np.random.default_rng(13)
x = rng.normal(size=(128, 12)).astype("float32")
y = (x[:, :3].sum(axis=1) > 0).astype("float32")

base_in = keras.Input(shape=(12,))
h = keras.layers.Dense(16, activation="relu", name="features_1")(base_in)
h = keras.layers.BatchNormalization(name="bn")(h)
h = keras.layers.Dense(8, activation="relu", name="features_2")(h)
base_out = keras.layers.Dense(1, activation="sigmoid", name="base_head")(h)
base = keras.Model(base_in, base_out, name="base")
base.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3 if i not in (3, 5) else
                  np.ones(w.shape, "float32") for i, w in enumerate(base.get_weights())])
base.compile(optimizer=keras.optimizers.SGD(0.05), loss="binary_crossentropy",
             metrics=["accuracy"])
hist = base.fit(x, y, batch_size=32, epochs=2, shuffle=False, verbose=0)
print("base:", [round(v, 5) for v in hist.history["loss"]])

extractor = keras.Model(base.inputs, base.get_layer("features_2").output)
print("extractor layers:", [layer.name for layer in extractor.layers])
extractor.trainable = False
head_in = keras.Input(shape=(12,))
features = extractor(head_in, training=False)
head_out = keras.layers.Dense(1, activation="sigmoid", name="new_head")(features)
model = keras.Model(head_in, head_out)
model.get_layer("new_head").set_weights([np.full((8, 1), 0.1, "float32"), np.zeros(1, "float32")])
print("trainable weights frozen:", len(model.trainable_weights),
      "non-trainable:", len(model.non_trainable_weights))
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="binary_crossentropy",
              metrics=["accuracy"])
hist = model.fit(x, y, batch_size=32, epochs=2, shuffle=False, verbose=0)
print("head:", [round(v, 5) for v in hist.history["loss"]],
      [round(v, 4) for v in hist.history["accuracy"]])

extractor.trainable = True
model.compile(optimizer=keras.optimizers.SGD(1e-3), loss="binary_crossentropy")
print("trainable weights unfrozen:", len(model.trainable_weights))
hist = model.fit(x, y, batch_size=32, epochs=1, shuffle=False, verbose=0)
print("fine-tune:", [round(v, 5) for v in hist.history["loss"]])
print("moving mean:", np.round(base.get_layer("bn").moving_mean.numpy()[:4], 5).tolist())
