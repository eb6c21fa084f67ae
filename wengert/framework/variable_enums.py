"""TensorFlow's enumerations about variables and gradients, as TensorFlow 1 programs name them:

    AggregationMethod         how tf.gradients sums the gradients of one tensor (ADD_N is the
                              default; the experimental ones give the same sums here)
    VariableAggregation       how a distributed variable combines its replicas' updates
    VariableSynchronization   when a distributed variable's replicas are synchronized
A Variable's `aggregation` and `synchronization` are NONE and AUTO unless given (tf.distribute
reads them: distribute/values.py, distribute/sync_on_read.py).
"""
import enum

__all__ = ["AggregationMethod", "VariableAggregation", "VariableSynchronization"]


class AggregationMethod:
    """How gradients flowing into one tensor are summed."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class VariableAggregation(enum.Enum):
    """How a mirrored variable combines its replicas' updates (TensorFlow 1 also calls
    ONLY_FIRST_REPLICA ONLY_FIRST_TOWER)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3


class VariableSynchronization(enum.Enum):
    """When a distributed variable is synchronized."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3
