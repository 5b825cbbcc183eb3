#!/bin/sh
# The deployment's script: the in-server agent runs it with the inputs in
# its environment and signals back what it wrote to $heat_outputs_path.*
echo "$greeting from $(hostname)"
echo -n "$greeting, world" > "$heat_outputs_path.result"
