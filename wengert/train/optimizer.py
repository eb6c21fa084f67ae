"""The base of TensorFlow 1's optimizers (`compat.v1.train.Optimizer`): compute_gradients,
apply_gradients, minimize, slots.

    train_step = GradientDescentOptimizer(0.5).minimize(cross_entropy)
    sess.run(tf.compat.v1.global_variables_initializer())
    sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})

`minimize` is `compute_gradients` then `apply_gradients`. `compute_gradients(loss, var_list)`
builds the gradient nodes with graph-mode `gradients()` (var_list defaults to the graph's
trainable variables) and returns [(gradient, variable)], which the caller may edit (clip, scale,
drop) before `apply_gradients(grads_and_vars, global_step)`. With `gate_gradients=GATE_GRAPH`
every gradient is computed before any is returned (each passes through an identity that waits for
all of them); GATE_OP and GATE_NONE only change parallelism, which a Session here does not use.
That builds one update op per variable, creating the optimizer's slot variables on the way
(graph variables, initialized with the others by `global_variables_initializer()`, so create them
before building it), groups the updates into the returned op and, when given, increments
`global_step` after them. In eager mode (with a callable loss) and inside a traced `function`, the
same calls update the variables directly (eagerly), or as stateful ops run in program order.
Each optimizer's update rule is in its subclass (train/v1_optimizers.py,
train/adaptive_optimizers.py, train/proximal_optimizers.py).
"""
import collections
import contextlib

import numpy as np

from ..autodiff.explain import describe_missing
from ..autodiff.gradients import gradients
from ..autodiff.tape import GradientTape
from ..framework.context import state
from ..framework.tensor import Tensor, TensorLike, convert_to_tensor
from ..framework.variables import Variable, variable_op_name
from ..graph.graph import NO_OP
from ..ops.array_ops import identity
from ..ops.math_ops import cast

__all__ = ["Optimizer"]


def building_graph():
    """The graph being built when it is a TF1 graph run by a Session (ordering by dependencies),
    else None (eager, or a traced function, where ops run in program order)."""
    graph = state.graph
    return graph if graph is not None and not getattr(graph, "lifts_variables", False) else None


def after(*ops):
    """A block whose ops run after `ops` in a graph a Session runs (eagerly, and in traced
    functions, program order does it)."""
    graph = building_graph()
    return contextlib.nullcontext() if graph is None else graph.control_dependencies(ops)


def _constrained(update, var, graph):
    """A variable made with `constraint=f` is projected, `var.assign(f(var))`, right after its
    update (TensorFlow's optimizer processors); in a graph the projection runs after the update op
    and takes its place among the updates."""
    constraint = getattr(var, "constraint", None)
    if constraint is None:
        return update
    if graph is None:
        var.assign(constraint(var))
        return update
    with graph.control_dependencies([update]):
        return var.assign(constraint(var))


def _group(graph, items, name):
    """One op of `graph` that runs `items` (ops or tensors)."""
    with graph.control_dependencies(list(items)):
        return graph.create_op(NO_OP, (), {}, name)


def hyper(value, dtype):
    """A hyperparameter for a variable of `dtype`: numbers stay numbers (they take the other
    operand's dtype), tensors and callables' results are cast."""
    if callable(value) and not isinstance(value, TensorLike):
        value = value()
    if isinstance(value, (int, float, np.number)):
        return float(value)
    value = convert_to_tensor(value)
    return value if value.dtype is dtype else cast(value, dtype)


class Optimizer:
    """Base class of the TF1 optimizers: compute_gradients, apply_gradients, minimize."""

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2
    _slot_names = ()

    def __init__(self, use_locking, name, use_own_namescope_for_non_slot_vars=False):
        if not name:
            raise ValueError("Optimizer: a name must be given.")
        self._use_locking = use_locking
        self._name = name
        self._own_scope = use_own_namescope_for_non_slot_vars
        self._slots = {}       # slot name -> {id(var): slot variable}
        self._seen = []        # variables in the order first seen (for checkpoint keys)
        self._non_slot = {}    # (graph id, name) -> variable (e.g. Adam's beta1_power)

    def get_name(self):
        return self._name

    # -- gradients ----------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """[(gradient or None, variable)] for the variables in var_list (default: the graph's
        trainable variables)."""
        _check_gradient_options(gate_gradients, aggregation_method, colocate_gradients_with_ops)
        if callable(loss):
            return self._eager_gradients(loss, var_list, grad_loss)
        graph = state.graph
        if graph is None:
            raise RuntimeError("compute_gradients: with eager execution `loss` must be a "
                               "callable returning the loss (or use GradientTape).")
        _check_loss_dtype(loss)
        if var_list is None:
            var_list = graph.get_collection("trainable_variables")
        var_list = _checked_var_list(var_list)
        grads = gradients(loss, var_list, grad_ys=grad_loss,
                          gate_gradients=gate_gradients == self.GATE_OP,
                          aggregation_method=aggregation_method)
        if gate_gradients == self.GATE_GRAPH:
            grads = _gated(graph, grads)
        return list(zip(grads, var_list))

    def _eager_gradients(self, loss, var_list, grad_loss):
        with GradientTape() as tape:
            if var_list is not None:
                var_list = _checked_var_list(var_list)
                tape.watch(var_list)
            value = loss()
        if var_list is None:
            var_list = _checked_var_list([v for v in tape.watched_variables() if v.trainable])
        grads = tape.gradient(value, var_list, output_gradients=grad_loss)
        return list(zip(grads, var_list))

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """compute_gradients then apply_gradients: the op that takes one training step."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        if all(g is None for g, _ in grads_and_vars):
            raise ValueError(
                f"No gradients provided for any variable, check your graph for ops that do not "
                f"support gradients, between variables {[v.name for _, v in grads_and_vars]} "
                f"and loss {loss!r}.\n" + describe_missing([v for _, v in grads_and_vars]))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    # -- updates ------------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Update each variable with its gradient (None gradients are skipped). In a graph,
        returns the op that runs all updates (then increments global_step)."""
        pairs = _checked_pairs(grads_and_vars)
        graph = building_graph()
        variables = [v for _, v in pairs]
        self._create_non_slots(variables)  # before the slots, in TensorFlow's order
        self._create_slots(variables)
        if graph is None:  # eager, or a traced function: the updates run in program order
            self._prepare()
            for grad, var in pairs:
                _constrained(self._apply_dense(grad, var), var, None)
            self._finish([], None)
            if global_step is not None:
                global_step.assign_add(1)
            return None
        with graph.name_scope(name or self._name):
            self._prepare()
            updates = [_constrained(self._apply_dense(g, v), v, graph) for g, v in pairs]
            finish = _group(graph, self._finish(updates, graph),
                            "update" if global_step is not None else "apply")
            if global_step is None:
                return finish
            with graph.control_dependencies([finish]):
                return global_step.assign_add(1).op

    def _prepare(self):
        pass

    def _apply_dense(self, grad, var):
        raise NotImplementedError(f"{type(self).__name__} must implement _apply_dense.")

    def _finish(self, updates, graph):
        return updates

    # -- slots --------------------------------------------------------------------------------
    def _slot_initial(self, var, slot_name):
        return np.zeros(var.shape.as_list(), var.dtype.as_numpy_dtype)

    def _create_slots(self, var_list):
        graph = building_graph()
        for var in var_list:
            if any(id(var) in self._slots.get(s, {}) for s in self._slot_names):
                continue
            if not var.shape.is_fully_defined():
                raise ValueError(f"{type(self).__name__}: variable '{var.name}' needs a fully "
                                 f"known shape to get slots, it has {var.shape}.")
            if all(v is not var for v in self._seen):
                self._seen.append(var)
            for slot_name in self._slot_names:
                initial = self._slot_initial(var, slot_name)
                name = f"{variable_op_name(var)}/{self._slot_op_name(slot_name)}"
                if graph is not None:
                    with graph.name_scope(""):
                        slot = Variable(initial, trainable=False, name=name)
                else:
                    slot = Variable(initial, trainable=False, name=name)
                self._slots.setdefault(slot_name, {})[id(var)] = slot

    def _slot_op_name(self, slot_name):
        """The last part of a slot variable's name ("w/Adam", then "w/Adam_1" for the next)."""
        return self._name

    def _create_non_slots(self, var_list):
        pass

    def _non_slot_variable(self, name, initial, dtype):
        graph = building_graph()
        key = (id(graph) if graph is not None else None, name)
        var = self._non_slot.get(key)
        if var is None:
            value = np.asarray(initial, dtype.as_numpy_dtype)
            if self._own_scope:  # "Adam/beta1_power" rather than "beta1_power"
                name = f"{self._name}/{name}"
            if graph is not None:
                with graph.name_scope(""):
                    var = Variable(value, trainable=False, name=name)
            else:
                var = Variable(value, trainable=False, name=name)
            self._non_slot[key] = var
        return var

    def get_slot(self, var, name):
        """The slot variable `name` of `var`, or None."""
        return self._slots.get(name, {}).get(id(var))

    def get_slot_names(self):
        return sorted(self._slots)

    def variables(self):
        """The optimizer's slot and non-slot variables (in the current graph, or eager)."""
        graph = building_graph()
        gid = id(graph) if graph is not None else None
        out = [v for (g, _), v in self._non_slot.items() if g == gid]
        for slot_name in self._slot_names:
            for var in self._seen:
                slot = self._slots.get(slot_name, {}).get(id(var))
                if slot is not None and getattr(slot, "graph", None) is graph:
                    out.append(slot)
        return out

    def _checkpoint_children(self):
        """{name: variable} for train.Checkpoint (eager use): non-slot variables, then
        "slots/<i>/<slot>" by the order the variables were first seen."""
        children = collections.OrderedDict()
        for (_, name), var in self._non_slot.items():
            children[name] = var
        for index, var in enumerate(self._seen):
            for slot_name in self._slot_names:
                slot = self._slots.get(slot_name, {}).get(id(var))
                if slot is not None:
                    children[f"slots/{index}/{slot_name}"] = slot
        return children

    def _slot(self, var, name):
        return self._slots[name][id(var)]


def _check_gradient_options(gate_gradients, aggregation_method, colocate):
    if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
        raise ValueError(f"gate_gradients must be one of: Optimizer.GATE_NONE, "
                         f"Optimizer.GATE_OP, Optimizer.GATE_GRAPH. Not {gate_gradients}")
    if aggregation_method not in (None, 0, 1, 2):
        raise ValueError(f"compute_gradients: invalid aggregation_method "
                         f"{aggregation_method!r}; use a tf.AggregationMethod (ADD_N, "
                         "DEFAULT, EXPERIMENTAL_TREE, EXPERIMENTAL_ACCUMULATE_N).")
    if not isinstance(colocate, (bool, int)):
        raise TypeError(f"compute_gradients: colocate_gradients_with_ops must be a bool, got "
                        f"{colocate!r} (ops run on the one CPU device here either way).")


def _check_loss_dtype(loss):
    dtype = getattr(loss, "dtype", None)
    if dtype is not None and not (dtype.is_floating or dtype.is_complex):
        raise ValueError(f"Invalid type {dtype.name} for {getattr(loss, 'name', loss)}, "
                         "expected: [float16, bfloat16, float32, float64].")


def _gated(graph, grads):
    """`grads`, each through an identity that runs after all of them (TensorFlow's tuple)."""
    present = [g for g in grads if g is not None]
    with graph.control_dependencies(present):
        return [identity(g) if g is not None else None for g in grads]


def _checked_var_list(var_list):
    var_list = list(var_list)
    if not var_list:
        raise ValueError("No variables to optimize.")
    for v in var_list:
        if not isinstance(v, Variable):
            raise TypeError(f"Argument is not a Variable: {v!r}; optimizers update variables.")
    return var_list


def _checked_pairs(grads_and_vars):
    """[(gradient tensor, variable)] without the None gradients; raises (before building or
    changing anything) on no variables, all gradients None, or a shape mismatch."""
    pairs = tuple(grads_and_vars)
    if not pairs:
        raise ValueError("No variables provided.")
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"apply_gradients expects (gradient, variable) pairs; got {pair!r}.")
        if not isinstance(pair[1], Variable):
            raise TypeError(f"apply_gradients: {pair[1]!r} is not a Variable.")
    if all(g is None for g, _ in pairs):
        raise ValueError(f"No gradients provided for any variable: "
                         f"{[v.name for _, v in pairs]}.\n"
                         + describe_missing([v for _, v in pairs]))
    out = []
    for grad, var in pairs:
        if grad is None:
            continue
        grad = convert_to_tensor(grad)
        if not var.shape.is_compatible_with(grad.shape):
            raise ValueError(f"apply_gradients: the gradient for variable '{var.name}' has "
                             f"shape {grad.shape}, but the variable has shape {var.shape}.")
        if grad.dtype is not var.dtype:
            raise TypeError(f"apply_gradients: the gradient for variable '{var.name}' has "
                            f"dtype {grad.dtype.name}, but the variable is {var.dtype.name}.")
        out.append((grad, var))
    return out


def value_of(x):
    """The value of a hyperparameter given as a number, an eager tensor or a callable."""
    if callable(x) and not isinstance(x, TensorLike):
        x = x()
    return np.asarray(x.numpy() if isinstance(x, Tensor) else x)
