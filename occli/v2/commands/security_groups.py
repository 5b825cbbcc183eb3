"""Security group commands: ``security group …`` and ``security group rule …``."""
