"""Lion (EvoLved Sign Momentum, Chen et al. 2023), as Keras 3 defines it: the update is the
sign of an interpolation between the momentum and the gradient, so every entry moves by
exactly lr (plus decoupled weight decay, when set).

With a momentum slot m starting at 0:
    w <- w - lr sign(beta_1 m + (1 - beta_1) g)
    m <- beta_2 m + (1 - beta_2) g
beta_1 must lie in (0, 1]; Lion usually wants a learning rate 3-10 times smaller than AdamW's.
"""
from ..ops.unary_ops import sign
from .optimizer import Optimizer

__all__ = ["Lion"]


class Lion(Optimizer):
    """Sign of the interpolated momentum."""

    _slot_names = ("momentum",)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name="lion", **kwargs):
        super().__init__(learning_rate, name=name, **kwargs)
        if not 0 < beta_1 <= 1:
            raise ValueError(f"Lion: `beta_1` must be in the (0, 1] range (otherwise the "
                             f"optimizer degenerates to SignSGD), got {beta_1!r}.")
        self.beta_1 = beta_1
        self.beta_2 = beta_2

    def _update_step(self, gradient, variable, lr):
        m = self._slots[id(variable)]["momentum"]
        direction = sign(m * self.beta_1 + gradient * (1.0 - self.beta_1))
        variable.assign_sub(lr * direction, read_value=False)
        m.assign(m * self.beta_2 + gradient * (1.0 - self.beta_2), read_value=False)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2}
