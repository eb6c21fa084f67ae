"""TensorFlow's guide "Writing a training loop from scratch": a tf.function train step and test
step, SparseCategoricalAccuracy metrics reset each epoch, a validation pass, and the logged
values; data and initial weights from a seeded NumPy generator."""
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(11)
x_train = rng.normal(size=(256, 10)).astype("float32")
y_train = (x_train[:, 0] + x_train[:, 1] > 0).astype("int64") + (x_train[:, 2] > 1).astype("int64")
x_val, y_val = x_train[:64], y_train[:64]

inputs = keras.Input(shape=(10,), name="digits")
x = keras.layers.Dense(32, activation="relu", name="dense_1")(inputs)
x = keras.layers.Dense(32, activation="relu", name="dense_2")(x)
outputs = keras.layers.Dense(3, name="predictions")(x)
model = keras.Model(inputs=inputs, outputs=outputs)
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.2 for w in model.get_weights()])

optimizer = keras.optimizers.SGD(learning_rate=0.05, momentum=0.9)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = keras.metrics.SparseCategoricalAccuracy()

train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(32)
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(32)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    train_acc_metric.update_state(y, logits)
    return loss_value


@tf.function
def test_step(x, y):
    val_logits = model(x, training=False)
    val_acc_metric.update_state(y, val_logits)


for epoch in range(3):
    losses = []
    for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
        losses.append(float(train_step(x_batch_train, y_batch_train)))
    train_acc = train_acc_metric.result()
    train_acc_metric.reset_state()
    for x_batch_val, y_batch_val in val_dataset:
        test_step(x_batch_val, y_batch_val)
    val_acc = val_acc_metric.result()
    val_acc_metric.reset_state()
    print(f"epoch {epoch}: last loss {losses[-1]:.5f} mean loss {np.mean(losses):.5f} "
          f"train acc {float(train_acc):.4f} val acc {float(val_acc):.4f}")
print("steps:", int(optimizer.iterations))
