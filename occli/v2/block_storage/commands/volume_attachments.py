"""Volume attachment commands (Cinder's attachments API): ``volume attachment …``."""
