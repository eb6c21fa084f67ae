"""TensorFlow's "Custom training with tf.distribute.Strategy" tutorial on a CPU split into two
logical devices: MirroredStrategy(["/cpu:0", "/cpu:1"]) runs two replicas in one process, each
taking half of every global batch; the step's loss is scaled by the global batch size, the
optimizer applies the gradients summed over the replicas once, metrics updated in each replica
count every example, and Keras fit under the strategy trains the same weights as one replica."""
import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
print("logical CPUs:", [d.name for d in tf.config.list_logical_devices("CPU")])
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
print("replicas:", strategy.num_replicas_in_sync, tf.distribute.MirroredStrategy().num_replicas_in_sync)
print("devices:", strategy.extended.worker_devices)

rng = np.random.default_rng(41)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32") + 0.3).astype("float32")
GLOBAL_BATCH = 16
W0 = [np.full((4, 1), 0.1, "float32"), np.zeros(1, "float32")]

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.set_weights(W0)
    optimizer = tf.keras.optimizers.SGD(0.1)
    loss_object = tf.keras.losses.MeanSquaredError(reduction="none")
    train_mae = tf.keras.metrics.MeanAbsoluteError(name="train_mae")

dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
dist_dataset = strategy.experimental_distribute_dataset(dataset)
first = next(iter(dist_dataset))
print("per-replica rows:", [int(t.shape[0]) for t in strategy.experimental_local_results(first[0])])


def compute_loss(labels, predictions):
    per_example = loss_object(labels, predictions)
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        loss = compute_loss(labels, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_mae.update_state(labels, predictions)
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
    print(f"epoch {epoch}: loss {total / batches:.5f} mae {float(train_mae.result()):.5f}")
    train_mae.reset_state()
print("kernel:", np.round(model.get_weights()[0].ravel(), 4).tolist())
print("iterations:", int(optimizer.iterations.numpy()))


def replica_info(value):
    context = tf.distribute.get_replica_context()
    total = context.all_reduce(tf.distribute.ReduceOp.SUM, value)
    mean = context.all_reduce(tf.distribute.ReduceOp.MEAN, value)
    return context.replica_id_in_sync_group, total, mean


values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group + 1)))
ids, totals, means = strategy.run(replica_info, args=(values,))
print("replica ids:", [int(v) for v in strategy.experimental_local_results(ids)])
print("all_reduce sum:", [float(v) for v in strategy.experimental_local_results(totals)])
print("all_reduce mean:", [float(v) for v in strategy.experimental_local_results(means)])
print("reduce SUM/MEAN:", float(strategy.reduce("SUM", values, axis=None)),
      float(strategy.reduce("MEAN", values, axis=None)))


def fit_once(strategy_or_none):
    scope = strategy_or_none.scope() if strategy_or_none else tf.distribute.get_strategy().scope()
    with scope:
        keras_model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
        keras_model.set_weights(W0)
        keras_model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = keras_model.fit(dataset, epochs=3, verbose=0)
    return keras_model, history


two, history = fit_once(strategy)
one, _ = fit_once(None)
print("fit loss:", [round(v, 5) for v in history.history["loss"]])
print("fit kernel:", np.round(two.get_weights()[0].ravel(), 4).tolist())
print("same as one replica:", np.allclose(two.get_weights()[0], one.get_weights()[0], atol=1e-5))
