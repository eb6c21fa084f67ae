"""The shapes a traced function gives the components of its ragged arguments.

A ragged tensor argument enters a trace as its components (flat values, then row splits
outermost first: util/nest.py's expand_composites). TensorFlow traces them with the lengths
unknown and the number of rows kept (RaggedTensorSpec's component specs), so a call with a new
number of values reuses the trace; `component_shapes` maps each component to that shape, for
the placeholders the trace makes and for the key that decides whether a call can reuse it.
`ragged_input_spec` is how a traced ragged argument shows in structured_input_signature.
"""
from ..framework.ragged_tensor import RaggedTensor
from ..util import nest
from .ragged_spec import RaggedTensorSpec

__all__ = ["component_shapes", "ragged_input_spec"]


def component_shapes(args, kwargs):
    """{id(component): the shape its trace gives it} for the ragged tensors among the
    arguments."""
    shapes = {}
    for leaf in nest.flatten([list(args), kwargs]):
        if isinstance(leaf, RaggedTensor):
            for part, shape in zip(leaf._nest_components(), leaf._component_shapes()):
                shapes[id(part)] = shape
    return shapes


def ragged_input_spec(x):
    """The RaggedTensorSpec of a traced ragged argument, the DatasetSpec or IteratorSpec of a
    dataset or iterator argument; anything else as it is."""
    if isinstance(x, RaggedTensor):
        return RaggedTensorSpec.from_value(x)
    spec = getattr(x, "_input_spec", None)  # a dataset or iterator argument (data/variants.py)
    return x if spec is None else spec()
