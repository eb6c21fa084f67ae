"""TensorFlow's "Custom training with tf.distribute.Strategy" tutorial on one device: a model
built under MirroredStrategy's scope, a distributed dataset, strategy.run of a step whose loss
is scaled by the global batch size, strategy.reduce of per-replica losses, and Keras fit under
the same strategy."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
print("replicas:", strategy.num_replicas_in_sync)
rng = np.random.default_rng(41)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32") + 0.3).astype("float32")
GLOBAL_BATCH = 16

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.full((4, 1), 0.1, "float32"), np.zeros(1, "float32")])
    optimizer = tf.keras.optimizers.SGD(0.1)
    loss_object = tf.keras.losses.MeanSquaredError(reduction="none")

dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
dist_dataset = strategy.experimental_distribute_dataset(dataset)


def compute_loss(labels, predictions):
    per_example = loss_object(labels, predictions)
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        loss = compute_loss(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(inputs):
    per_replica = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


for epoch in range(3):
    total, batches = 0.0, 0
    for batch in dist_dataset:
        total += float(distributed_train_step(batch))
        batches += 1
    print(f"epoch {epoch}: loss {total / batches:.5f}")
print("kernel:", np.round(model.get_weights()[0].ravel(), 4).tolist())

with strategy.scope():
    keras_model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    keras_model.set_weights([np.full((4, 1), 0.1, "float32"), np.zeros(1, "float32")])
    keras_model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
history = keras_model.fit(dataset, epochs=3, verbose=0)
print("fit loss:", [round(v, 5) for v in history.history["loss"]])
