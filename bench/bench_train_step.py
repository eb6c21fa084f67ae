"""A custom `train_step` traced by `fit` against the built-in step, on the same model.

The model is an MLP (32 -> 64 -> 64 -> 10, ReLU) trained with SGD on 8192 samples in batches of
64 (128 steps an epoch), compiled with and without metrics=["accuracy"]. The custom step is
keras.io's "first simple example" (compute_loss, apply_gradients, every tracker of
`self.metrics` updated, `{m.name: m.result() for m in self.metrics}` returned), which
`fit` traces like its own. Each round times one epoch of each contender, in alternating order;
every round's figures are printed, then the medians and the ratio custom / built-in, whose goal
is at most 1.05 (issue 27, Speed). As in bench/harness.py (and timeit), Python's cyclic garbage
collector is paused while an epoch is timed, so a collection one contender's garbage triggered
is not charged to the other.
Run: python bench/bench_train_step.py [rounds]
"""
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import wengert as tf  # noqa: E402

keras = tf.keras


class CustomStep(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def build(cls, metrics):
    inputs = keras.Input(shape=(32,))
    h = keras.layers.Dense(64, activation="relu")(inputs)
    h = keras.layers.Dense(64, activation="relu")(h)
    model = cls(inputs, keras.layers.Dense(10)(h))
    model.set_weights([np.full(w.shape, 0.01, "float32") for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.SGD(0.01), metrics=metrics,
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def epoch_seconds(model, x, y):
    return harness.time_call(lambda: model.fit(x, y, batch_size=64, epochs=1, shuffle=False,
                                       verbose=0), 1)


def compare(metrics, x, y, rounds):
    models = {"built-in": build(keras.Model, metrics), "custom": build(CustomStep, metrics)}
    for model in models.values():
        epoch_seconds(model, x, y)  # traces
    times = {name: [] for name in models}
    print(f"\n## metrics={metrics}: seconds per epoch (128 steps), each round")
    for r in range(rounds):
        order = list(models) if r % 2 == 0 else list(reversed(models))
        for name in order:
            times[name].append(epoch_seconds(models[name], x, y))
        print(f"  round {r:2d}  built-in {times['built-in'][-1]:.4f}  custom "
              f"{times['custom'][-1]:.4f}  ratio {times['custom'][-1] / times['built-in'][-1]:.3f}")
    medians = {name: statistics.median(values) for name, values in times.items()}
    ratio = medians["custom"] / medians["built-in"]
    print(f"  median   built-in {medians['built-in']:.4f}  custom {medians['custom']:.4f}  "
          f"ratio {ratio:.3f} (goal <= 1.05)")
    return ratio


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8192, 32)).astype("float32")
    y = rng.integers(0, 10, 8192).astype("int32")
    compare(None, x, y, rounds)
    compare(["accuracy"], x, y, rounds)


if __name__ == "__main__":
    main()
