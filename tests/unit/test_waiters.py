"""occli.waiters: polling, transient errors, timeouts; servers settling."""

import pytest
from keystoneauth1 import exceptions as ks_exceptions

from occli import exceptions
from occli import waiters


def unavailable(code=503):
    cls = exceptions.ServiceUnavailable if code == 503 else exceptions.InternalServerError
    return cls("busy", code=code)


def poller(*answers):
    """fetch() raising or returning ``answers`` in turn."""
    answers = list(answers)

    def fetch():
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    return fetch


def wait(fetch, **kwargs):
    sleeps = []
    result = waiters.wait_for(
        fetch, lambda obj: obj == "done", interval=1, sleep=sleeps.append, **kwargs
    )
    return result, sleeps


@pytest.mark.parametrize(
    "error",
    [
        unavailable(503),
        exceptions.HTTPException("bad gateway", code=502),
        exceptions.HTTPException("gateway timeout", code=504),
        ks_exceptions.ConnectFailure("reset by peer"),
        ks_exceptions.ConnectTimeout("slow"),
    ],
)
def test_transient_errors_are_polled_again_with_backoff(error):
    result, sleeps = wait(poller(error, error, error, "done"))
    assert result == "done"
    assert sleeps == [1, 2, 4]


def test_a_success_resets_the_count():
    error = unavailable()
    result, _ = wait(poller(error, error, error, "pending", error, error, error, "done"))
    assert result == "done"


def test_too_many_transient_errors_in_a_row_fail():
    error = unavailable()
    with pytest.raises(exceptions.ServiceUnavailable):
        wait(poller(error, error, error, error, "done"))


@pytest.mark.parametrize(
    "error",
    [
        unavailable(500),
        exceptions.Forbidden("no", code=403),
        exceptions.ClientException("The server answered with a body that is not JSON", code=200),
        ks_exceptions.SSLError("bad certificate"),
    ],
)
def test_other_errors_fail_at_once(error):
    with pytest.raises(type(error)):
        wait(poller(error, "done"))


def test_not_found_is_gone_not_an_error():
    result = waiters.wait_for(
        poller("pending", exceptions.NotFound("x")),
        lambda obj: obj is None,
        interval=0,
        sleep=lambda s: None,
    )
    assert result is None


# servers: when a Nova server has settled


class FakeServers:
    """A manager whose get() answers the given servers in turn."""

    def __init__(self, *bodies):
        from occli.v2.compute import servers

        self.answers = [servers.Server(self, b) for b in bodies]

    def get(self, server_id):
        return self.answers.pop(0)


def server(status, task_state=None, **extra):
    return dict(
        {"id": "s1", "name": "vm", "status": status, "OS-EXT-STS:task_state": task_state}, **extra
    )


def test_wait_for_server_until_settled():
    manager = FakeServers(
        server("BUILD", "spawning"), server("ACTIVE", "powering-on"), server("ACTIVE")
    )
    first = manager.answers[0]
    done = waiters.wait_for_server(manager, first, {"ACTIVE"}, interval=0)
    assert (done.status, done.task_state, manager.answers) == ("ACTIVE", None, [])


def test_wait_for_server_in_error_names_it_and_its_fault():
    manager = FakeServers(server("ERROR", fault={"message": "No valid host"}))
    with pytest.raises(exceptions.ResourceInErrorState) as err:
        waiters.wait_for_server(manager, manager.answers[0], {"ACTIVE"}, interval=0)
    assert str(err.value) == "Server vm (s1) is in ERROR state: No valid host"
