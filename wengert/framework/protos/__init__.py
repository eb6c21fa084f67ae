"""Protocol buffers without a protobuf library: the wire format (wire.py), messages declared
field by field with encoding, decoding and text format (message.py, text_format.py), and the
messages of TensorFlow that wengert reads and writes (example.py: tf.train.Example and its
parts). Decoding never runs code: it reads numbers and bytes, and malformed input is a
`DataLossError`."""
