"""Adversarial tests (issue 9): what an attacker with a member account or a
careless operator can do must not cross projects, stall the cloud, leak a
secret or wedge the client. Harnesses come from the unit and functional
test packages; fixtures shared by several modules live here."""
