"""Heat (orchestration v1): stacks with their resources and events,
resource types and template versions, software configs and deployments;
:mod:`occli.v2.orchestration.base` holds their base manager."""
