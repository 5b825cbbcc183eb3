"""The operator tour (examples/operator-tour.sh) runs clean against a fresh
local cloud, its expected failures included, so it cannot rot unnoticed."""

from tests.functional.harness import run_example


def test_operator_tour_runs_to_the_end(tmp_path):
    proc = run_example("operator-tour.sh", tmp_path)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith("Operator tour finished.")
    assert "\x1b" not in proc.stdout, "bold only on a terminal"
    assert "Traceback" not in output
    assert "unexpected success" not in proc.stderr
    # the quota part's refusals are nova's
    assert (
        "Quota exceeded for cores, instances: Requested 1, 1, but "
        "already used 2, 2 of 2, 2 cores, instances (HTTP 403)"
    ) in output
    assert "(removed in compute API 2.57)" in output
