"""Gradient accumulation (`gradient_accumulation_steps=n`), as Keras 3 does it.

Each variable gets a slot "gradient_accumulator" starting at zero. On a call whose step
k = iterations + 1 (counting calls) is not a multiple of n, the gradients are only added to the
accumulators: a <- a + g, and no variable changes. On every n-th call the update runs with the
mean of the n gradients, (g + a) / n: clipping and weight decay apply to that mean, then the
accumulators return to zero. Learning-rate schedules see the number of calls; the optimizer's
`iterations` (which Adam's bias correction and the moving averages use) is calls // n. Sparse
gradients are densified. Inside a traced function the choice is a `cond` on the step.
"""
from ..control_flow.cond import cond
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import constant
from ..ops.array_ops import zeros_like
from ..ops.math_ops import equal, floormod

__all__ = ["check_accumulation", "accumulate_or_update"]


def check_accumulation(steps):
    if steps is None:
        return
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 2:
        raise ValueError(f"`gradient_accumulation_steps` must be an integer >= 2 (or None), got "
                         f"{steps!r}.")


def accumulate_or_update(optimizer, grads, variables, update):
    """Add `grads` to the accumulators, or on every n-th call run `update(mean grads,
    variables)` and reset them."""
    steps = optimizer.gradient_accumulation_steps
    grads = [g._dense() if type(g) is IndexedSlices else g for g in grads]
    accumulators = [optimizer._slots[id(v)]["gradient_accumulator"] for v in variables]

    def apply_mean():
        update([(g + a) / steps for g, a in zip(grads, accumulators)], variables)
        for a in accumulators:
            a.assign(zeros_like(a), read_value=False)
        return constant(True)

    def accumulate():
        for g, a in zip(grads, accumulators):
            a.assign_add(g, read_value=False)
        return constant(False)

    is_update = equal(floormod(optimizer._iterations + 1, steps), 0)
    cond(is_update, apply_mean, accumulate)
