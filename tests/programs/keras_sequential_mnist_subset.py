"""The Keras beginner quickstart on a slice of MNIST-shaped data: Sequential with Flatten,
Dense, Dropout; compile with a SparseCategoricalCrossentropy(from_logits=True); fit with a
validation split; evaluate; a probability model wrapping it with Softmax."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(10)
x_train = rng.random((200, 28, 28)).astype("float32")
y_train = (x_train[:, :14].mean(axis=(1, 2)) * 20).astype("int64") % 10

model = tf.keras.models.Sequential([
    tf.keras.layers.Input((28, 28)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dropout(0.0),
    tf.keras.layers.Dense(10),
])
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.05
                   for w in model.get_weights()])
predictions = model(x_train[:1]).numpy()
print("logits shape:", predictions.shape)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print("initial loss:", round(float(loss_fn(y_train[:1], predictions)), 4))
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=loss_fn, metrics=["accuracy"])
history = model.fit(x_train, y_train, epochs=3, batch_size=50, validation_split=0.25,
                    shuffle=False, verbose=0)
for key in sorted(history.history):
    print(key, [round(v, 4) for v in history.history[key]])
print("evaluate:", [round(v, 4) for v in model.evaluate(x_train, y_train, verbose=0)])
probability_model = tf.keras.Sequential([model, tf.keras.layers.Softmax()])
print("probabilities:", np.round(probability_model(x_train[:2]).numpy().sum(axis=1), 4).tolist())
model.summary(print_fn=lambda line: None)
print("layers:", [layer.name for layer in model.layers])
