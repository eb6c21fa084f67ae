"""Graph mode: build ops into a Graph now, run them later in a Session or a traced function."""
