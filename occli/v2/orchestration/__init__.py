"""Heat (orchestration v1): software configs and deployments;
:mod:`occli.v2.orchestration.base` holds their base manager."""
