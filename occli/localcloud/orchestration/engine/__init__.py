"""Heat's engine in the local cloud: stacks made of real resources.

Heat's legacy (non-convergence) engine, in process: a stack's template
(:mod:`.template`, :mod:`.functions`, :mod:`.parameters`) and environment
(:mod:`.environment`) become resources whose types the registry maps
(:mod:`.resources`, loaded as Heat's ``resources.initialise()`` loads its
plugins: built-in modules, plugin directories, an entry-point group, a
global environment directory). A stack action walks the dependency graph
(:mod:`.dependencies`) on the engine's worker threads
(:mod:`.scheduler`): each resource's ``handle_<action>()`` once, then its
``check_<action>_complete()`` on every tick, with events and state written
in short transactions (:mod:`.stacks`). Resource plugins reach the other
services through their REST APIs in process (:mod:`.clients`), as Heat's
client plugins do. :mod:`.service` is what the HTTP layer calls.
"""
