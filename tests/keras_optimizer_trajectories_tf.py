"""Writes tests/keras_optimizer_trajectories.json: the reference trajectories of Keras 3's
optimizers (TensorFlow 2.21), which tests/test_keras_optimizers_v3.py replays with wengert.

Run with the TensorFlow environment: /work/tfvenv/bin/python tests/keras_optimizer_trajectories_tf.py

The problem is fixed and small: two float32 variables, w1 of shape (3,) and w2 of shape (2, 3),
start at W0; at step t each gradient is g = 0.5 (w - C) + D[t] (computed in float32 NumPy from
the current weights), so every trajectory depends on the update rule. Each case names an
optimizer class, its keyword arguments (a learning-rate schedule as {"schedule": class name,
"config": ...}) and how many steps to run; the file keeps the weights after every step, the
weights after `finalize_variable_values`, the number of optimizer variables after the first
step, and Keras's `get_config()` keys. It also keeps the values of every schedule at steps
0..29, and the trajectory of a LossScaleOptimizer whose gradients overflow at one step.
"""
import json
import math
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras

STEPS = 6
W0 = {"w1": [0.5, -1.0, 2.0], "w2": [[0.1, -0.2, 0.3], [-0.4, 0.5, -0.6]]}
C = {"w1": [0.2, 0.1, -0.3], "w2": [[0.0, 0.1, 0.2], [0.3, -0.1, 0.0]]}
D = [{"w1": [0.1 * math.sin(t + k) for k in range(3)],
      "w2": [[0.05 * math.cos(t + 3 * r + k) for k in range(3)] for r in range(2)]}
     for t in range(12)]

SCHEDULES = {
    "exponential": ("ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 3,
                                         "decay_rate": 0.5}),
    "exponential_staircase": ("ExponentialDecay", {"initial_learning_rate": 0.1,
                                                   "decay_steps": 3, "decay_rate": 0.5,
                                                   "staircase": True}),
    "inverse_time": ("InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 2,
                                          "decay_rate": 0.5}),
    "inverse_time_staircase": ("InverseTimeDecay", {"initial_learning_rate": 0.1,
                                                    "decay_steps": 2, "decay_rate": 0.5,
                                                    "staircase": True}),
    "polynomial": ("PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 10,
                                       "end_learning_rate": 0.01, "power": 2.0}),
    "polynomial_cycle": ("PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 4,
                                             "end_learning_rate": 0.01, "power": 0.5,
                                             "cycle": True}),
    "piecewise": ("PiecewiseConstantDecay", {"boundaries": [2, 5], "values": [0.1, 0.05, 0.01]}),
    "cosine": ("CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 10, "alpha": 0.1}),
    "cosine_warmup": ("CosineDecay", {"initial_learning_rate": 0.0, "decay_steps": 8,
                                      "warmup_target": 0.2, "warmup_steps": 4}),
    "cosine_restarts": ("CosineDecayRestarts", {"initial_learning_rate": 0.1,
                                                "first_decay_steps": 3, "t_mul": 2.0,
                                                "m_mul": 0.5, "alpha": 0.1}),
}


def lr(name):
    class_name, config = SCHEDULES[name]
    return {"schedule": class_name, "config": config}


CASES = {
    "sgd": ("SGD", {"learning_rate": 0.1}),
    "sgd_momentum": ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
    "sgd_nesterov": ("SGD", {"learning_rate": 0.1, "momentum": 0.8, "nesterov": True}),
    "adam": ("Adam", {"learning_rate": 0.1}),
    "adam_amsgrad": ("Adam", {"learning_rate": 0.1, "amsgrad": True, "beta_2": 0.9}),
    "adamw": ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}),
    "rmsprop": ("RMSprop", {"learning_rate": 0.05}),
    "rmsprop_centered_momentum": ("RMSprop", {"learning_rate": 0.05, "centered": True,
                                              "momentum": 0.5}),
    "adagrad": ("Adagrad", {"learning_rate": 0.1}),
    "adadelta": ("Adadelta", {"learning_rate": 1.0}),
    "adadelta_rho": ("Adadelta", {"learning_rate": 0.5, "rho": 0.8, "epsilon": 1e-3}),
    "adafactor": ("Adafactor", {"learning_rate": 0.1}),
    "adafactor_absolute": ("Adafactor", {"learning_rate": 0.01, "relative_step": False,
                                         "clip_threshold": 0.5}),
    "adamax": ("Adamax", {"learning_rate": 0.1}),
    "ftrl": ("Ftrl", {"learning_rate": 0.1}),
    "ftrl_regularized": ("Ftrl", {"learning_rate": 0.2, "learning_rate_power": -0.3,
                                  "l1_regularization_strength": 0.01,
                                  "l2_regularization_strength": 0.1,
                                  "l2_shrinkage_regularization_strength": 0.05, "beta": 0.2,
                                  "initial_accumulator_value": 0.3}),
    "lamb": ("Lamb", {"learning_rate": 0.1}),
    "lion": ("Lion", {"learning_rate": 0.05}),
    "lion_betas": ("Lion", {"learning_rate": 0.05, "beta_1": 0.5, "beta_2": 0.9}),
    "nadam": ("Nadam", {"learning_rate": 0.1}),
    # the base options, on a few optimizers
    "sgd_weight_decay": ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "weight_decay": 0.2}),
    "adam_weight_decay": ("Adam", {"learning_rate": 0.1, "weight_decay": 0.05}),
    "lion_weight_decay": ("Lion", {"learning_rate": 0.05, "weight_decay": 0.5}),
    "sgd_clipnorm": ("SGD", {"learning_rate": 0.1, "momentum": 0.5, "clipnorm": 0.3}),
    "adam_clipvalue": ("Adam", {"learning_rate": 0.1, "clipvalue": 0.2}),
    "sgd_global_clipnorm": ("SGD", {"learning_rate": 0.1, "global_clipnorm": 0.4}),
    "sgd_ema": ("SGD", {"learning_rate": 0.1, "momentum": 0.5, "use_ema": True,
                        "ema_momentum": 0.7}),
    "adam_ema_overwrite": ("Adam", {"learning_rate": 0.1, "use_ema": True, "ema_momentum": 0.6,
                                    "ema_overwrite_frequency": 2}),
    "sgd_accumulation": ("SGD", {"learning_rate": 0.1, "momentum": 0.5,
                                 "gradient_accumulation_steps": 2}),
    "adam_accumulation": ("Adam", {"learning_rate": 0.1, "gradient_accumulation_steps": 3,
                                   "clipnorm": 0.5, "weight_decay": 0.1}),
    "adam_accumulation_ema": ("Adam", {"learning_rate": lr("exponential"), "use_ema": True,
                                       "ema_momentum": 0.5, "ema_overwrite_frequency": 2,
                                       "gradient_accumulation_steps": 2}),
    "rmsprop_loss_scale": ("RMSprop", {"learning_rate": 0.05, "loss_scale_factor": 4.0}),
    "nadam_all_options": ("Nadam", {"learning_rate": 0.05, "weight_decay": 0.1,
                                    "global_clipnorm": 1.0, "use_ema": True,
                                    "loss_scale_factor": 2.0}),
}
CASES.update({f"sgd_schedule_{name}": ("SGD", {"learning_rate": lr(name), "momentum": 0.5})
              for name in SCHEDULES})
CASES["adam_schedule_cosine_restarts"] = ("Adam", {"learning_rate": lr("cosine_restarts")})
CASES["adafactor_schedule"] = ("Adafactor", {"learning_rate": lr("polynomial")})


def gradients(weights, t):
    return {k: (np.float32(0.5) * (weights[k] - np.asarray(C[k], np.float32))
                + np.asarray(D[t][k], np.float32)).astype(np.float32) for k in ("w1", "w2")}


def make_lr(value):
    if isinstance(value, dict):
        return getattr(keras.optimizers.schedules, value["schedule"])(**value["config"])
    return value


def run_case(class_name, kwargs, steps=STEPS):
    kwargs = {k: make_lr(v) if k == "learning_rate" else v for k, v in kwargs.items()}
    opt = getattr(keras.optimizers, class_name)(**kwargs)
    variables = [keras.Variable(np.asarray(W0[k], np.float32), name=k) for k in ("w1", "w2")]
    trajectory, n_variables = [], None
    for t in range(steps):
        weights = {k: v.numpy() for k, v in zip(("w1", "w2"), variables)}
        g = gradients(weights, t)
        opt.apply_gradients([(g["w1"], variables[0]), (g["w2"], variables[1])])
        n_variables = n_variables or len(opt.variables)
        trajectory.append([v.numpy().ravel().tolist() for v in variables])
    opt.finalize_variable_values(variables)
    return {"class_name": class_name, "kwargs": kwargs_json(kwargs), "steps": steps,
            "trajectory": trajectory, "final": [v.numpy().ravel().tolist() for v in variables],
            "n_variables": n_variables, "iterations": int(opt.iterations.numpy())}


def kwargs_json(kwargs):
    return {k: ({"schedule": type(v).__name__, "config": v.get_config()}
                if isinstance(v, keras.optimizers.schedules.LearningRateSchedule) else v)
            for k, v in kwargs.items()}


class HalvingSchedule(keras.optimizers.schedules.LearningRateSchedule):
    """A custom schedule, as users write one: lr0 / 2^(step // every)."""

    def __init__(self, lr0, every):
        self.lr0, self.every = lr0, every

    def __call__(self, step):
        halvings = keras.ops.floor_divide(keras.ops.cast(step, "float32"), self.every)
        return self.lr0 * keras.ops.power(0.5, halvings)

    def get_config(self):
        return {"lr0": self.lr0, "every": self.every}


class MomentumSGD(keras.optimizers.Optimizer):
    """The custom optimizer of Keras's Optimizer docstring: SGD with momentum."""

    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, variables):
        super().build(variables)
        self.momentums = [self.add_variable_from_reference(v, "momentum") for v in variables]
        self.counter = self.add_variable(shape=(), dtype="float32", name="counter")

    def update_step(self, gradient, variable, learning_rate):
        learning_rate = keras.ops.cast(learning_rate, variable.dtype)
        m = self.momentums[self._get_variable_index(variable)]
        self.assign(m, m * self.momentum - gradient * learning_rate)
        self.assign_add(variable, m)
        self.assign_add(self.counter, 1.0)

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum}


def custom_cases():
    out = {}
    keras.optimizers.HalvingSchedule = HalvingSchedule
    keras.optimizers.MomentumSGD = MomentumSGD
    out["custom_schedule"] = run_case("SGD", {"learning_rate": HalvingSchedule(0.2, 2),
                                              "momentum": 0.5})
    out["custom_optimizer"] = run_case("MomentumSGD", {"learning_rate": 0.05, "momentum": 0.8})
    out["custom_optimizer_options"] = run_case(
        "MomentumSGD", {"learning_rate": 0.05, "momentum": 0.8, "weight_decay": 0.1,
                        "clipnorm": 0.5, "use_ema": True, "gradient_accumulation_steps": 2})
    return out


def loss_scale_case():
    """LossScaleOptimizer(SGD) fed scaled gradients, with an overflow (inf) at step 2."""
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1, momentum=0.5),
                                              initial_scale=8.0, dynamic_growth_steps=2)
    variables = [keras.Variable(np.asarray(W0[k], np.float32), name=k) for k in ("w1", "w2")]
    trajectory, scales = [], []
    for t in range(STEPS):
        weights = {k: v.numpy() for k, v in zip(("w1", "w2"), variables)}
        scale = float(opt.dynamic_scale.numpy()) if opt.built else 8.0
        g = {k: v * np.float32(scale) for k, v in gradients(weights, t).items()}
        if t == 2:
            g["w2"][0, 1] = np.inf
        opt.apply_gradients([(g["w1"], variables[0]), (g["w2"], variables[1])])
        trajectory.append([v.numpy().ravel().tolist() for v in variables])
        scales.append(float(opt.dynamic_scale.numpy()))
    return {"trajectory": trajectory, "scales": scales,
            "iterations": int(opt.iterations.numpy()),
            "config_keys": sorted(opt.get_config())}


def schedule_values():
    out = {}
    for name, (class_name, config) in SCHEDULES.items():
        schedule = getattr(keras.optimizers.schedules, class_name)(**config)
        out[name] = {"class_name": class_name, "config": config,
                     "values": [float(schedule(step)) for step in range(30)],
                     "config_keys": sorted(schedule.get_config())}
    return out


def default_configs():
    names = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adafactor", "Adamax",
             "Ftrl", "Lamb", "Lion", "Nadam"]
    return {name: json.loads(json.dumps(getattr(keras.optimizers, name)().get_config(),
                                        default=str)) for name in names}


def main():
    data = {"W0": W0, "C": C, "D": D, "steps": STEPS,
            "cases": {name: run_case(cls, kwargs) for name, (cls, kwargs) in CASES.items()},
            "schedules": schedule_values(), "loss_scale": loss_scale_case(),
            "default_configs": default_configs(), "keras_version": keras.__version__}
    data["cases"].update(custom_cases())
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "keras_optimizer_trajectories.json")
    with open(path, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path}: {len(data['cases'])} cases")


if __name__ == "__main__":
    main()
