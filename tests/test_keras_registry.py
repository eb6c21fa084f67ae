"""keras/registry.py: the one get / serialize / deserialize behind keras.activations,
initializers, constraints, regularizers, losses and metrics."""
import pytest

from wengert import keras
from wengert.keras.registry import Registry

NAMESPACES = {
    "activations": ("relu", keras.activations.relu),
    "initializers": ("he_normal", keras.initializers.HeNormal),
    "constraints": ("max_norm", keras.constraints.MaxNorm),
    "regularizers": ("l2", keras.regularizers.L2),
    "losses": ("huber", keras.losses.huber),
    "metrics": ("auc", keras.metrics.AUC),
}


@pytest.mark.parametrize("name", sorted(NAMESPACES))
def test_every_namespace_uses_the_one_registry(name):
    namespace = getattr(keras, name)
    for function in ("get", "serialize", "deserialize"):
        bound = getattr(namespace, function)
        assert isinstance(bound.__self__, Registry) and bound.__name__ == function, function


@pytest.mark.parametrize("name", sorted(NAMESPACES))
def test_names_resolve_and_round_trip(name):
    namespace = getattr(keras, name)
    key, expected = NAMESPACES[name]
    found = namespace.get(key)
    assert found is expected or isinstance(found, expected)
    back = namespace.deserialize(namespace.serialize(found))
    assert back is found or type(back) is type(found)
    assert namespace.get(found) is found


@pytest.mark.parametrize("name", sorted(NAMESPACES))
def test_unknown_names_and_values_are_refused(name):
    namespace = getattr(keras, name)
    with pytest.raises(ValueError, match="Unknown .*'no_such_thing'. Known: .*, or pass"):
        namespace.get("no_such_thing")
    with pytest.raises(TypeError, match="Could not interpret"):
        namespace.get(42)


def test_defaults_for_none():
    assert keras.activations.get(None) is keras.activations.linear
    for name in ("initializers", "constraints", "regularizers", "losses"):
        assert getattr(keras, name).get(None) is None
    with pytest.raises(TypeError, match="Could not interpret metric function identifier"):
        keras.metrics.get(None)


def test_classes_become_instances_and_callables_stay():
    assert isinstance(keras.constraints.get(keras.constraints.NonNeg), keras.constraints.NonNeg)
    assert isinstance(keras.regularizers.get(keras.regularizers.L1), keras.regularizers.L1)
    assert isinstance(keras.losses.get(keras.losses.Hinge), keras.losses.Hinge)

    def my_loss(y_true, y_pred):
        return y_pred

    assert keras.losses.get(my_loss) is my_loss
    assert isinstance(keras.metrics.get(my_loss), keras.metrics.MeanMetricWrapper)


def test_function_records_and_custom_objects():
    record = keras.losses.serialize(keras.losses.binary_crossentropy)
    assert record == {"module": "keras.losses", "class_name": "function",
                      "config": "binary_crossentropy", "registered_name": "binary_crossentropy"}
    assert keras.activations.deserialize({"module": "keras.activations",
                                          "class_name": "function", "config": "relu",
                                          "registered_name": "relu"}) is keras.activations.relu

    class Scaled(keras.constraints.Constraint):
        def __call__(self, w):
            return w * 0.5

    assert isinstance(keras.constraints.deserialize("Scaled", custom_objects={"Scaled": Scaled}),
                      Scaled)
    config = {"class_name": "Scaled", "config": {}}
    assert isinstance(keras.constraints.deserialize(config, custom_objects={"Scaled": Scaled}),
                      Scaled)
