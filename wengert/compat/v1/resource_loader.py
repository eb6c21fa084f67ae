"""`wengert.compat.v1.resource_loader`: paths of a program's data files
(wengert/tf1/resource_loading.py)."""
from ...tf1.resource_loading import (get_data_files_path, get_path_to_datafile,
                                     get_root_dir_with_all_resources, load_resource,
                                     readahead_file_path)

__all__ = ["get_data_files_path", "get_path_to_datafile", "get_root_dir_with_all_resources",
           "load_resource", "readahead_file_path"]
