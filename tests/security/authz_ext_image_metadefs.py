"""Authorization of the local Glance's schemas, tasks and metadefs (issue
20, glance 33's default policies): the schemas are any token's; the tasks
API is admin-only (``tasks_api_access``)."""


def rules():
    from occli.localcloud.image import schemas
    from tests.security.test_authz_matrix import rule

    table = {("image", "GET", "/v2/schemas/" + name): rule("any") for name in schemas.SCHEMAS}
    return table
