"""Settings for the whole test suite."""

# scrypt cost of the local cloud's new password and secret hashes during
# tests: they need no strength, and at full cost every cloud fixture pays
# ~0.1 s to seed its users. Stored hashes carry their cost, so a hash made
# here verifies anywhere and the production default is untouched.
TEST_SCRYPT = {"n": 16, "r": 1, "p": 1}
_saved = {}


def pytest_configure(config):
    from occli.localcloud.identity import passwords

    _saved.update(passwords.SCRYPT)
    passwords.SCRYPT.update(TEST_SCRYPT)


def pytest_unconfigure(config):
    from occli.localcloud.identity import passwords

    passwords.SCRYPT.update(_saved)
