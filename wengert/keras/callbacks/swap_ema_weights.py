"""`keras.callbacks.SwapEMAWeights`: evaluate (and predict) with the moving averages of the
weights that an optimizer with `use_ema=True` keeps, then train on with the weights themselves.

Swapping exchanges each trainable variable's value with its average's (one swap puts the
averages in the model, a second takes them out), so nothing is lost and training resumes from
the raw weights. `on_test_begin` swaps the averages in and `on_test_end` swaps them out, so
fit's validation and `evaluate(callbacks=[...])` see the averaged model. With
`swap_on_epoch=True` the averages are also in the model from each epoch's end to the next
epoch's begin (so ModelCheckpoint saves them), and after the last epoch the averages are set
to the weights then in the model. `on_predict_begin` swaps the averages in; `on_predict_end`,
as in Keras 3, leaves them in place (the next test end takes them out).
"""
from ...optimizers.weight_averaging import averaged_pairs
from .core import Callback

__all__ = ["SwapEMAWeights"]


class SwapEMAWeights(Callback):
    """Evaluate with the optimizer's moving averages of the weights (module docstring)."""

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = bool(swap_on_epoch)
        self._ema_weights_in_model = False

    def _pairs(self):
        optimizer = self.model.optimizer
        optimizer = getattr(optimizer, "inner_optimizer", optimizer)
        if not getattr(optimizer, "use_ema", False):
            raise ValueError(f"SwapEMAWeights must be used when `use_ema=True` is set on the "
                             f"optimizer. Received: use_ema="
                             f"{getattr(optimizer, 'use_ema', None)}")
        return averaged_pairs(optimizer)

    def _swap(self):
        for var, average in self._pairs():
            weights = var.numpy()
            var.assign(average)
            average.assign(weights)

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = False

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = True
            if epoch == self.params["epochs"] - 1:
                for var, average in self._pairs():
                    average.assign(var)

    def on_test_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = True

    def on_test_end(self, logs=None):
        if self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = False

    def on_predict_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = True
