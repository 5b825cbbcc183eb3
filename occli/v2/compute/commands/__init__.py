"""The compute commands: ``server …``, ``flavor …``, ``keypair …``,
``aggregate …``, ``hypervisor …``, ``usage …`` and the other Nova ones."""
