"""`ExponentialMovingAverage` (`compat.v1.train`): shadow copies of variables (or tensors) that
follow them with exponential decay, for evaluating with averaged weights.

    ema = tf.compat.v1.train.ExponentialMovingAverage(decay=0.999, num_updates=step)
    with tf.control_dependencies([train_op]):
        train_and_average = ema.apply([w, b])
    ...
    tf.compat.v1.train.Saver(ema.variables_to_restore()).restore(sess, path)  # averaged weights

`apply(var_list)` makes, once per variable, a non-trainable shadow variable named
`<variable>/<name>` ("dense/kernel/ExponentialMovingAverage") starting at the variable's
initial value (eagerly: its current value), and puts the variable in the
MOVING_AVERAGE_VARIABLES collection; a tensor gets a shadow starting at zero. Each apply then
moves every shadow toward its value: shadow <- shadow - (1 - d) (shadow - value), with
d = decay, or min(decay, (1 + n) / (10 + n)) when `num_updates` n is given (d is computed in
float32 and cast to the shadow's dtype, as TensorFlow does). With `zero_debias`, a tensor's
average instead keeps a biased average b (from 0) and a count t in `<shadow>/biased` and
`<shadow>/local_step`, and the shadow is b / (1 - d^t), which removes the pull toward the zero
start. In a graph `apply` returns one op that runs the updates; eagerly it updates at once.
`variables_to_restore()` maps the shadow names to the variables, so a Saver given it loads the
averages into the model's own variables.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import constant, convert_to_tensor
from ..framework.variables import Variable, variable_op_name
from ..graph.collections import GraphKeys
from ..graph.graph import NO_OP
from ..ops.math_ops import cast, minimum, pow as _pow
from .optimizer import after, building_graph

__all__ = ["ExponentialMovingAverage"]

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _op_name(x):
    return variable_op_name(x) if isinstance(x, Variable) else x.name.rsplit(":", 1)[0]


def _made(initial, name):
    """A non-trainable variable at the root of the graph being built (or eager)."""
    graph = building_graph()
    if graph is None:
        return Variable(initial, trainable=False, name=name)
    with graph.name_scope(""), graph.control_dependencies(None):
        return Variable(initial, trainable=False, name=name)


class ExponentialMovingAverage:
    """Exponential moving averages of variables and tensors (see the module docstring)."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay, self._num_updates = decay, num_updates
        self._zero_debias, self._name = zero_debias, name
        self._averages = {}   # id(variable or tensor) -> shadow variable
        self._debiased = {}   # id(shadow) -> (biased, local_step)

    @property
    def name(self):
        return self._name

    def _shadow(self, x):
        graph = building_graph()
        name = f"{_op_name(x)}/{self._name}"
        if isinstance(x, Variable):
            initial = x.initial_value if graph is not None else x.read_value().numpy()
            shadow = _made(initial, name)
            if graph is not None:
                graph.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, x)
            return shadow
        if not x.shape.is_fully_defined():
            raise ValueError(f"ExponentialMovingAverage.apply: tensor '{x.name}' needs a fully "
                             f"known shape for its average, it has {x.shape}.")
        zeros = np.zeros(x.shape.as_list(), x.dtype.as_numpy_dtype)
        shadow = _made(zeros, name)
        if self._zero_debias:
            base = _op_name(shadow)
            self._debiased[id(shadow)] = (
                _made(zeros, f"{base}/biased"),
                _made(np.zeros((), x.dtype.as_numpy_dtype), f"{base}/local_step"))
        return shadow

    def apply(self, var_list=None):
        """Create the missing shadows and move each toward its value; in a graph, returns the
        op that does it."""
        graph = building_graph()
        if var_list is None:
            var_list = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES) if graph else []
        var_list = [x if isinstance(x, Variable) else convert_to_tensor(x) for x in var_list]
        for x in var_list:
            if x.dtype not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {x.name}")
        for x in var_list:
            if id(x) not in self._averages:
                self._averages[id(x)] = self._shadow(x)
        if graph is None:
            for x in var_list:
                self._update(x)
            return None
        with graph.name_scope(self._name):
            updates = [self._update(x) for x in var_list]
            with graph.control_dependencies(updates):
                return graph.create_op(NO_OP, (), {}, "update" if updates else "noop")

    def _one_minus_decay(self, dtype):
        decay = constant(self._decay, dtypes.float32)
        if self._num_updates is not None:
            n = cast(convert_to_tensor(self._num_updates), dtypes.float32)
            decay = minimum(decay, (n + 1.0) / (n + 10.0))
        rate = 1.0 - decay
        return rate if dtype is dtypes.float32 else cast(rate, dtype)

    def _update(self, x):
        shadow = self._averages[id(x)]
        rate = self._one_minus_decay(shadow.dtype)
        debias = self._debiased.get(id(shadow))
        if debias is None:
            return shadow.assign_sub((shadow - x) * rate)
        biased, local_step = debias
        biased = biased.assign_sub((biased - x) * rate)
        with after(biased):
            steps = local_step.assign_add(1.0)
        return shadow.assign(biased / (1.0 - _pow(1.0 - rate, steps)))

    def average(self, var):
        """The shadow variable of `var`, or None."""
        return self._averages.get(id(var))

    def average_name(self, var):
        """The name (without ":0") `var`'s shadow has, or would have."""
        shadow = self._averages.get(id(var))
        if shadow is not None:
            return variable_op_name(shadow)
        name = f"{_op_name(var)}/{self._name}"
        graph = building_graph()
        return graph.unique_name(name, mark_as_used=False) if graph is not None else name

    def variables_to_restore(self, moving_avg_variables=None):
        """{checkpoint key: variable}: each averaged variable under its shadow's name, every
        other global variable under its own name."""
        graph = building_graph()
        if moving_avg_variables is None:
            moving_avg_variables = (
                graph.get_collection(GraphKeys.TRAINABLE_VARIABLES)
                + graph.get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES)) if graph else []
        averaged = {id(v): v for v in moving_avg_variables}
        name_map = {self.average_name(v): v for v in averaged.values()}
        for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES) if graph else []:
            if id(v) not in averaged and variable_op_name(v) not in name_map:
                name_map[variable_op_name(v)] = v
        return name_map
