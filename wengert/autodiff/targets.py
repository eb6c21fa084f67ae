"""What may be differentiated: the targets and sources given to `GradientTape.gradient`,
`jacobian` and `batch_jacobian`, checked once, with errors that say what to pass instead."""
from ..framework.tensor import TensorLike, convert_to_tensor
from ..util import nest

__all__ = ["as_target", "check_sources"]


def check_sources(sources):
    """The flat list of `sources` (any nesting), each a Tensor or a Variable."""
    flat = nest.flatten(sources)
    for s in flat:
        if not isinstance(s, TensorLike):
            raise ValueError(f"GradientTape.gradient: sources must be Tensors or Variables, got "
                             f"{type(s).__name__}. Watch a constant with tape.watch(x) first.")
    return flat


def as_target(t):
    """`t` as a tensor to differentiate (a value is converted; None is an error)."""
    if isinstance(t, TensorLike):
        return t
    if t is None:
        raise ValueError("GradientTape.gradient: the target is None; return a tensor from the "
                         "computation you want to differentiate.")
    return convert_to_tensor(t)
