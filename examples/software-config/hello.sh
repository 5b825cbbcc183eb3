#!/bin/sh
# A software config script: the in-server agent runs it with the inputs in its
# environment and signals back its outputs.
echo "Writing to /tmp/$bar"
echo $foo > /tmp/$bar
echo -n "The file /tmp/$bar contains $foo for server $deploy_server_id" > $heat_outputs_path.result
