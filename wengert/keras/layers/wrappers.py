"""Layer wrappers: `Bidirectional` (an RNN run both ways) and `TimeDistributed`.

Bidirectional(layer) holds two copies of an RNN layer made from its config: `forward_layer`
("forward_<name>") and `backward_layer` ("backward_<name>", go_backwards=True). Both read the
whole sequence; the backward outputs (processed last step first) are flipped back in time when
sequences are returned, then the two are merged: concat (on the feature axis), sum, mul, ave,
or None (a list of both). With return_state the states follow: forward's, then backward's. As
in Keras, masked steps output zeros when sequences are returned (zero_output_for_mask).
Weights: the forward layer's, then the backward layer's.

TimeDistributed(layer) applies `layer` to every time step of [batch, time, ...]: the batch and
time axes are merged ([batch * time, ...]), the layer runs once, and they are split again. A
mask [batch, time, ...] is merged the same way and given to the layer when its call takes a
mask (Keras 3 gives each step's slice to the layer); it passes through to the output unchanged.
"""
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from ..serialization import deserialize_keras_object, serialize_keras_object
from .base import Layer
from .keras_tensor import is_shape_list
from .layer_utils import config_with_objects

__all__ = ["Bidirectional", "TimeDistributed", "Wrapper"]

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


class Wrapper(Layer):
    """A layer that wraps another (`self.layer`)."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. "
                             "Please ensure wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialize_keras_object(self.layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = config_with_objects(config, custom_objects, "layer")
        return cls(config.pop("layer"), **config)


def _copy(layer, name, **changes):
    config = serialize_keras_object(layer)
    config["config"].update(name=name, **changes)
    config.pop("build_config", None)
    return deserialize_keras_object(config)


def _strip(name, prefix):
    return name[len(prefix):] if name.startswith(prefix) else name


class Bidirectional(Layer):
    """Runs an RNN layer forwards and backwards over the sequence and merges the results."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a "
                             f"`keras.layers.Layer` instance. Received: {layer}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be "
                             'one of {"sum", "mul", "ave", "concat", None}')
        super().__init__(**kwargs)
        self.forward_layer = _copy(layer, f"forward_{_strip(layer.name, 'forward_')}")
        self.backward_layer = backward_layer if backward_layer is not None else _copy(
            layer, f"backward_{_strip(layer.name, 'backward_')}", go_backwards=True)
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different "
                             "`go_backwards` value.")
        for attr in ("stateful", "return_sequences", "return_state"):
            if getattr(self.forward_layer, attr) != getattr(self.backward_layer, attr):
                raise ValueError(f"Forward layer and backward layer are expected to have the "
                                 f'same value for attribute "{attr}".')
        for rnn in (self.forward_layer, self.backward_layer):
            if hasattr(rnn, "zero_output_for_mask"):
                rnn.zero_output_for_mask = rnn.return_sequences
        self.merge_mode = merge_mode
        self.stateful = layer.stateful
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        self.supports_masking = True
        if weights:
            half = len(weights) // 2
            self.forward_layer._initial_weights = weights[:half]
            self.backward_layer._initial_weights = weights[half:]

    def build(self, input_shape):
        shape = input_shape[0] if is_shape_list(input_shape) else input_shape
        self.forward_layer._build_from_shape(TensorShape(shape))
        self.backward_layer._build_from_shape(TensorShape(shape))
        self.built = True

    def compute_output_shape(self, input_shape):
        shape = input_shape[0] if is_shape_list(input_shape) else input_shape
        out = self.forward_layer.compute_output_shape(shape)
        states = []
        if self.return_state:
            out, states = out[0], list(out[1:])
        out = TensorShape(out)
        if self.merge_mode == "concat":
            last = out[-1]
            out = TensorShape(tuple(out)[:-1] + (None if last is None else 2 * last,))
        outputs = [out, out] if self.merge_mode is None else [out]
        if self.return_state:
            return outputs + states + states
        return outputs if self.merge_mode is None else out

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            n = len(self.forward_layer.state_size) * 2
            heads = [output_mask] if self.merge_mode is not None else [output_mask, output_mask]
            return heads + [None] * n
        return [output_mask, output_mask] if self.merge_mode is None else output_mask

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if isinstance(inputs, (list, tuple)):
            if initial_state is None and len(inputs) > 1:
                initial_state = list(inputs[1:])
            inputs = inputs[0]
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, mask=mask, training=training,
                               initial_state=forward_state)
        y_rev = self.backward_layer(inputs, mask=mask, training=training,
                                    initial_state=backward_state)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = K.reverse(y_rev, [1])
        if self.merge_mode == "concat":
            output = [K.concat([y, y_rev], -1)]
        elif self.merge_mode == "sum":
            output = [y + y_rev]
        elif self.merge_mode == "ave":
            output = [(y + y_rev) / 2]
        elif self.merge_mode == "mul":
            output = [y * y_rev]
        else:
            output = [y, y_rev]
        if self.return_state or self.merge_mode is None:
            return output + states
        return output[0]

    def reset_states(self):
        self.forward_layer.reset_states()
        self.backward_layer.reset_states()

    reset_state = reset_states

    def get_config(self):
        config = super().get_config()
        config.update(merge_mode=self.merge_mode,
                      layer=serialize_keras_object(self.forward_layer),
                      backward_layer=serialize_keras_object(self.backward_layer))
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config_with_objects(config, custom_objects, "layer", "backward_layer"))


def _check_mask(mask, input_shape):
    """Keras 3's checks of TimeDistributed's mask: at least [batch, time], those two axes the
    input's."""
    mask_shape = tuple(mask.shape)
    if len(mask_shape) < 2:
        raise ValueError(f"The `mask` passed to the `TimeDistributed` layer must be at least 2D "
                         f"(e.g., `(batch_size, timesteps)`), but it has {len(mask_shape)} "
                         f"dimension(s) with shape {mask_shape}.")
    for axis in (0, 1):
        if None not in (input_shape[axis], mask_shape[axis]) and (
                input_shape[axis] != mask_shape[axis]):
            raise ValueError(f"The `mask` passed to the `TimeDistributed` layer has a shape "
                             f"{mask_shape} that is incompatible with the input shape "
                             f"{tuple(input_shape)}: its first two dimensions (batch size and "
                             f"timesteps) must be the input's.")


class TimeDistributed(Wrapper):
    """Applies a layer to every time step of a [batch, time, ...] input; a mask [batch, time,
    ...] reaches the layer step by step (merged with the batch) when its call takes one."""

    def __init__(self, layer, **kwargs):
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def _step_shape(self, input_shape):
        shape = TensorShape(input_shape)
        if shape.rank is not None and shape.rank < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with "
                             f"at least 3 dimensions, received: {tuple(shape)}")
        return TensorShape((shape[0],) + tuple(shape)[2:])

    def build(self, input_shape):
        self.layer._build_from_shape(self._step_shape(input_shape))
        self.built = True

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape)
        step = TensorShape(self.layer.compute_output_shape(self._step_shape(shape)))
        return TensorShape((shape[0], shape[1]) + tuple(step)[1:])

    def call(self, inputs, training=None, mask=None):
        shape = inputs.shape
        batch, steps = shape[0], shape[1]
        dynamic = K.shape(inputs)
        b = batch if batch is not None else dynamic[0]
        t = steps if steps is not None else dynamic[1]
        merged = K.reshape(inputs, K.concat([[-1], K.shape(inputs)[2:]], 0)) if None in tuple(
            shape)[2:] else K.reshape(inputs, (-1,) + tuple(shape)[2:])
        kwargs = {}
        if mask is not None:
            _check_mask(mask, shape)
            if self.layer._takes_mask():
                kwargs["mask"] = K.reshape(mask, K.concat([[-1], K.shape(mask)[2:]], 0))
        outputs = self.layer(merged, training=training, **kwargs)
        out_shape = outputs.shape
        if None in tuple(out_shape)[1:] or isinstance(b, type(dynamic)) or isinstance(
                t, type(dynamic)):
            rest = K.shape(outputs)[1:]
            target = K.concat([K.stack([K.cast(b, "int32"), K.cast(t, "int32")]), rest], 0)
            return K.reshape(outputs, target)
        return K.reshape(outputs, (b, t) + tuple(out_shape)[1:])

    def compute_mask(self, inputs, mask=None):
        return mask
