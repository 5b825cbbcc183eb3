"""Swift object commands: ``object …``."""
