"""Template text loaded as Heat's loader loads it, bounded like Heat.

Text over heat's ``max_template_size``, YAML whose aliases expand past it
and nesting over ``MAX_NESTING`` are refused (heat's
``RequestLimitExceeded``); YAML is loaded like heat's loader (safe,
timestamps as text). ``POST /validate`` answers over
``MAX_VALIDATE_RESPONSE`` are refused too.

Heat validates in heat-engine, a process apart from heat-api; so does this
cloud's ``POST /validate`` (:func:`run_apart`): libyaml holds the GIL for
up to ~0.5 s at a stretch on a large template, which stalled every other
request of the process (another project's write p99 went from 9 ms to
0.5–3.9 s under 4 clients validating 512 KB templates).
"""

import concurrent.futures
import json
import multiprocessing
import os
import threading
from collections.abc import Callable
from typing import Any

import yaml

from occli.localcloud.orchestration.fields import MAX_NESTING
from occli.localcloud.orchestration.fields import too_deep

# heat's ``max_template_size``: the most characters a template may have,
# also applied to a YAML template with its aliases expanded.
MAX_TEMPLATE_SIZE = 524288
# largest ``POST /validate`` answer (a template of many parameters grows).
MAX_VALIDATE_RESPONSE = 2 * MAX_TEMPLATE_SIZE


class TemplateLimitExceeded(ValueError):
    """A template over a size or nesting bound (heat's
    ``RequestLimitExceeded``, a 400)."""

    def __init__(self, message):
        super().__init__("Request limit exceeded: " + message)


_ENGINE: concurrent.futures.ProcessPoolExecutor | None = None
_ENGINE_LOCK = threading.Lock()


def _engine() -> concurrent.futures.ProcessPoolExecutor:
    """The engine: one process (spawned on first use, kept for this
    process's life), so validations run one at a time, on one core."""
    global _ENGINE
    with _ENGINE_LOCK:
        if _ENGINE is None:
            _ENGINE = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return _ENGINE


def _forget_engine() -> None:
    """A forked child (``serve --workers``) starts an engine of its own."""
    global _ENGINE, _ENGINE_LOCK
    _ENGINE, _ENGINE_LOCK = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_engine)


def run_apart(func: Callable[[Any], Any], arg: Any) -> Any:
    """``func(arg)`` in the engine process (``func`` a module-level
    function answering plain values); an engine that died is replaced (the
    call is made again)."""
    global _ENGINE
    for attempt in (1, 2):
        engine = _engine()
        try:
            return engine.submit(func, arg).result()
        except concurrent.futures.process.BrokenProcessPool:
            with _ENGINE_LOCK:
                if _ENGINE is engine:
                    _ENGINE = None
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _size_exceeded(actual_len):
    return TemplateLimitExceeded(
        "Template size (%s bytes) exceeds maximum allowed size (%s bytes)."
        % (actual_len, MAX_TEMPLATE_SIZE)
    )


def _nesting_exceeded():
    return TemplateLimitExceeded(
        "Template nesting depth exceeds maximum allowed depth (%d)." % MAX_NESTING
    )


def check_template_size(template):
    """A template given as an object, checked as heat checks it
    (``len(str(template))``) after a nesting check that makes ``str`` safe.
    """
    if too_deep(template):
        raise _nesting_exceeded()
    size = len(str(template))
    if size > MAX_TEMPLATE_SIZE:
        raise _size_exceeded(size)
    return template


def check_validate_response(payload):
    """Refuse a validation answer larger than MAX_VALIDATE_RESPONSE."""
    if len(payload) > MAX_VALIDATE_RESPONSE:
        raise TemplateLimitExceeded(
            "Template validation result (%d bytes) exceeds maximum allowed "
            "size (%d bytes)." % (len(payload), MAX_VALIDATE_RESPONSE)
        )


class _TemplateLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """heat's ``template_format.yaml_loader``: safe, timestamps as text."""

    def _text(self, node):
        return self.construct_scalar(node)

    def _unsupported(self, node):
        raise yaml.constructor.ConstructorError(
            None, None, "%s is not supported in a template" % node.tag, node.start_mark
        )


_TemplateLoader.add_constructor("tag:yaml.org,2002:timestamp", _TemplateLoader._text)
for _tag in ("binary", "set"):
    _TemplateLoader.add_constructor("tag:yaml.org,2002:" + _tag, _TemplateLoader._unsupported)


def parse_template(text):
    """heat's ``template_format.parse`` of template text, bounded.

    Refuses text over MAX_TEMPLATE_SIZE, then tries JSON and YAML like heat.
    Before building anything from YAML, :func:`_check_yaml_events` refuses
    aliases that expand past MAX_TEMPLATE_SIZE (an alias bomb), recursive
    aliases and nesting deeper than MAX_NESTING, so parsing is bounded in
    time and memory. Raises TemplateLimitExceeded or ValueError.
    """
    if len(text) > MAX_TEMPLATE_SIZE:
        raise _size_exceeded(len(text))
    try:
        template = json.loads(text)
    except RecursionError:
        raise _nesting_exceeded() from None
    except ValueError:
        return _load_yaml(text)
    if too_deep(template):
        raise _nesting_exceeded()
    return template


def _load_yaml(text):
    try:
        _check_yaml_events(text)
        loader = _TemplateLoader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except TemplateLimitExceeded:
        raise
    except (yaml.YAMLError, ValueError) as exc:
        # ValueError: a lone surrogate, an int of over 4300 digits, …
        raise ValueError("Error parsing template: %s" % exc) from None


def _check_yaml_events(text):
    """Bound YAML ``text`` using only the parser's event stream.

    The expanded size counts each scalar as its length + 1 and each
    collection as 1, and an alias as the whole expanded size of its anchor,
    which is what building and serialising the document costs.
    """
    sizes: dict[str | None, int] = {}
    open_anchors, starts, total = set(), [], 0
    for event in yaml.parse(text, Loader=_TemplateLoader):
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise ValueError("found recursive alias *%s" % event.anchor)
            total += sizes.get(event.anchor, 0)
        elif isinstance(event, yaml.ScalarEvent):
            total += len(event.value) + 1
            if event.anchor:
                sizes[event.anchor] = len(event.value) + 1
        elif isinstance(event, yaml.CollectionStartEvent):
            starts.append((event.anchor, total))
            total += 1
            if event.anchor:
                open_anchors.add(event.anchor)
            if len(starts) > MAX_NESTING:
                raise _nesting_exceeded()
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, start = starts.pop()
            open_anchors.discard(anchor)
            if anchor:
                sizes[anchor] = total - start
        if total > MAX_TEMPLATE_SIZE:
            raise TemplateLimitExceeded(
                "Template size with YAML aliases expanded exceeds maximum "
                "allowed size (%s bytes)." % MAX_TEMPLATE_SIZE
            )
