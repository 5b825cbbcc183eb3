"""``make demo``'s walkthrough (examples/walkthrough.sh) runs clean against a
fresh local cloud, so the demo cannot rot unnoticed."""

from tests.functional.harness import run_example


def test_walkthrough_runs_to_the_end(tmp_path):
    proc = run_example("walkthrough.sh", tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith("Walkthrough finished.")
    assert "\x1b" not in proc.stdout, "bold only on a terminal"
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "unexpected success" not in proc.stderr


def test_walkthrough_runs_twice_against_one_cloud(tmp_path):
    """A second run (or one after an interrupted run) finds what it needs
    free: the walkthrough tidies up on entry and on failure."""
    from tests.functional.harness import run_examples

    first, second = run_examples(["walkthrough.sh", "walkthrough.sh"], tmp_path)
    for proc in (first, second):
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert proc.stdout.rstrip().endswith("Walkthrough finished.")
