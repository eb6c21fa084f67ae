"""Keras's "The Functional API" guide, multi-input and multi-output: a ticket-ranking model with
named inputs and outputs, losses and loss weights per output as dicts, metrics per output, fit
on dicts keyed by name, and the history keys Keras names."""
import numpy as np
import keras

rng = np.random.default_rng(53)
num_tags, num_departments = 6, 3
title_input = keras.Input(shape=(8,), name="title")
tags_input = keras.Input(shape=(num_tags,), name="tags")
x = keras.layers.concatenate([keras.layers.Dense(8, activation="relu", name="title_features")(title_input),
                              tags_input])
priority = keras.layers.Dense(1, name="priority")(x)
department = keras.layers.Dense(num_departments, name="department")(x)
model = keras.Model(inputs=[title_input, tags_input], outputs={"priority": priority,
                                                             "department": department})
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3 for w in model.get_weights()])
model.compile(optimizer=keras.optimizers.RMSprop(1e-2),
              loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
              loss_weights={"priority": 1.0, "department": 0.2},
              metrics={"department": ["accuracy"]})
title = rng.normal(size=(64, 8)).astype("float32")
tags = rng.integers(0, 2, size=(64, num_tags)).astype("float32")
priority_targets = rng.random(size=(64, 1)).astype("float32")
dept_targets = np.eye(num_departments, dtype="float32")[rng.integers(0, num_departments, 64)]
history = model.fit({"title": title, "tags": tags},
                    {"priority": priority_targets, "department": dept_targets},
                    epochs=2, batch_size=32, shuffle=False, verbose=0)
for key in sorted(history.history):
    print(key, [round(v, 5) for v in history.history[key]])
outputs = model.predict({"title": title[:2], "tags": tags[:2]}, verbose=0)
print("output keys:", sorted(outputs))
print("priority:", np.round(outputs["priority"].ravel(), 4).tolist())
