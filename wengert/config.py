"""`wengert.config`: TensorFlow's `tf.config` for the one device wengert runs on, the CPU (the code
is in framework/config.py)."""
from .framework.config import (LogicalDevice, LogicalDeviceConfiguration,
                               get_logical_device_configuration,
                               set_logical_device_configuration, PhysicalDevice, experimental,
                               experimental_functions_run_eagerly,
                               experimental_run_functions_eagerly, functions_run_eagerly,
                               get_soft_device_placement, get_visible_devices,
                               list_logical_devices, list_physical_devices, optimizer,
                               run_functions_eagerly,
                               set_soft_device_placement, set_visible_devices, threading)

__all__ = ["PhysicalDevice", "LogicalDevice", "list_physical_devices", "list_logical_devices",
           "get_visible_devices", "set_visible_devices", "run_functions_eagerly",
           "functions_run_eagerly", "get_soft_device_placement", "set_soft_device_placement",
           "threading", "experimental", "experimental_run_functions_eagerly",
           "experimental_functions_run_eagerly", "LogicalDeviceConfiguration",
           "set_logical_device_configuration", "get_logical_device_configuration", "optimizer"]
