"""fit with the Keras 3 optimizer options that act outside the update rule: the loss it
differentiates is the optimizer's scaled loss (loss_scale_factor, LossScaleOptimizer), and after
the last epoch use_ema's moving averages become the weights. Expected values are TensorFlow
2.21's Keras 3.15.1 on the same data and initial weights."""
import numpy as np
import pytest

import wengert as tf

keras = tf.keras
LOSSES = [2.397706, 0.439123, 0.124106]
KERAS = {  # first Dense kernel column after three epochs
    "plain": [1.027987, -1.001675, 0.221849],
    "ema": [0.804643, -0.805518, -0.407482],
    "loss_scale_factor": [1.027987, -1.001675, 0.221849],
    "loss_scale_optimizer": [1.027987, -1.001675, 0.221849],
}
OPTIMIZERS = {
    "plain": lambda: keras.optimizers.SGD(0.1),
    "ema": lambda: keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.9),
    "loss_scale_factor": lambda: keras.optimizers.SGD(0.1, loss_scale_factor=128.0),
    "loss_scale_optimizer": lambda: keras.optimizers.LossScaleOptimizer(
        keras.optimizers.SGD(0.1)),
}


@pytest.mark.parametrize("name", sorted(KERAS))
def test_fit_steps_as_keras_with_optimizer_options(name):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 3)).astype("float32")
    y = x @ np.array([[1.0], [-1.0], [0.5]], np.float32)
    weights = [rng.normal(size=(3, 1)).astype("float32"), np.zeros(1, np.float32)]
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.set_weights(weights)
    model.compile(optimizer=OPTIMIZERS[name](), loss="mse")
    history = model.fit(x, y, epochs=3, batch_size=8, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], LOSSES, rtol=1e-5)
    np.testing.assert_allclose(model.get_weights()[0].ravel(), KERAS[name], atol=2e-6)
