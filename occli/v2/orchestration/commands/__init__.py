"""The orchestration commands: ``software config …`` and
``software deployment …``."""
