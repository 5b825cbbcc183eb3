"""Heat's views: ``format_software_config`` and
``format_software_deployment`` of the stored rows."""

import json

from occli.localcloud.orchestration import fields
from occli.localcloud.orchestration.api.common import isotime


def format_config(row, detail=True, include_project=False):
    """``format_software_config`` of a config row."""
    result = {
        "id": row["id"],
        "name": row["name"],
        "group": row["grp"],
        "creation_time": isotime(row["created_at"]),
    }
    if detail:
        body = json.loads(row["body"])
        result.update(
            config=body["config"],
            inputs=body["inputs"],
            outputs=body["outputs"],
            options=body["options"],
        )
    if include_project:
        result["project"] = row["project_id"]
    return result


def format_deployment(row):
    """``format_software_deployment`` of a deployment row."""
    result = {
        "id": row["id"],
        "server_id": row["server_id"],
        "input_values": fields.loads(row["input_values"]),
        "output_values": fields.loads(row["output_values"]),
        "action": row["action"],
        "status": row["status"],
        "status_reason": row["status_reason"],
        "config_id": row["config_id"],
        "creation_time": isotime(row["created_at"]),
    }
    if row["updated_at"] is not None:
        result["updated_time"] = isotime(row["updated_at"])
    return result
