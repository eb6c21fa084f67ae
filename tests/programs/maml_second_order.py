"""Research-style gradient code: model-agnostic meta-learning on sine-like regression tasks,
an inner SGD step taken with one tape and the meta-gradient taken through it with an outer
tape (second-order), written with plain variables and tf.function."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(47)
params = [tf.Variable(rng.normal(size=(1, 16)).astype("float32") * 0.5),
          tf.Variable(np.zeros(16, "float32")),
          tf.Variable(rng.normal(size=(16, 1)).astype("float32") * 0.5),
          tf.Variable(np.zeros(1, "float32"))]


def forward(p, x):
    return tf.tanh(x @ p[0] + p[1]) @ p[2] + p[3]


def task(seed):
    r = np.random.default_rng(seed)
    amp, phase = r.uniform(0.5, 2.0), r.uniform(0, np.pi)
    xs = r.uniform(-3, 3, size=(20, 1)).astype("float32")
    return xs[:10], (amp * np.sin(xs[:10] + phase)).astype("float32"), \
        xs[10:], (amp * np.sin(xs[10:] + phase)).astype("float32")


meta_optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function
def meta_step(x_train, y_train, x_test, y_test):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner_loss = tf.reduce_mean((forward(params, x_train) - y_train) ** 2)
        grads = inner.gradient(inner_loss, params)
        adapted = [p - 0.1 * g for p, g in zip(params, grads)]
        outer_loss = tf.reduce_mean((forward(adapted, x_test) - y_test) ** 2)
    meta_grads = outer.gradient(outer_loss, params)
    meta_optimizer.apply_gradients(zip(meta_grads, params))
    return inner_loss, outer_loss


for step in range(6):
    losses = meta_step(*[tf.constant(a) for a in task(step)])
    print(f"meta step {step}: inner {float(losses[0]):.5f} outer {float(losses[1]):.5f}")
print("bias after meta-training:", round(float(params[3].numpy()[0]), 5))
