"""A metric's stateless API (a mixin of Metric), as Keras 3 has it for JAX-style loops:

    values = metric.stateless_reset_state()               # the variables' initial values
    values = metric.stateless_update_state(values, y_true, y_pred, sample_weight=None)
    result = metric.stateless_result(values)

Each runs the metric's own `reset_state` / `update_state` / `result` inside a
`keras.StatelessScope` that maps the metric's variables (in `metric.variables` order) to the
values given, so the metric itself never changes; the new values are what the assigns in the
call would have set (a variable left unassigned comes back as the variable, as in Keras). A
list whose length differs from `metric.variables` is a ValueError naming both lengths.
"""
from ..stateless_scope import StatelessScope

__all__ = ["StatelessMetric"]


class StatelessMetric:
    """stateless_update_state, stateless_result, stateless_reset_state."""

    def _check_metric_values(self, metric_variables):
        own = self.variables
        if len(metric_variables) != len(own):
            raise ValueError(f"Argument `metric_variables` must be a list of tensors "
                             f"corresponding 1:1 to {type(self).__name__}().variables. Received "
                             f"list with length {len(metric_variables)}, but expected "
                             f"{len(own)} variables.")
        return list(zip(own, metric_variables))

    def _new_values(self, scope):
        out = []
        for variable in self.variables:
            value = scope.get_current_value(variable)
            out.append(variable if value is None else value)
        return out

    def stateless_update_state(self, metric_variables, *args, **kwargs):
        """The variables' values after update_state(*args, **kwargs) from `metric_variables`."""
        with StatelessScope(state_mapping=self._check_metric_values(metric_variables)) as scope:
            self.update_state(*args, **kwargs)
        return self._new_values(scope)

    def stateless_result(self, metric_variables):
        """result() computed from `metric_variables`."""
        with StatelessScope(state_mapping=self._check_metric_values(metric_variables)):
            return self.result()

    def stateless_reset_state(self):
        """The variables' values after reset_state()."""
        with StatelessScope() as scope:
            self.reset_state()
        return self._new_values(scope)
