"""Secrets kept out of what occli prints: the debug log, the ``--timing``
report and the usage errors that echo the command line. The shell and the
cliff adapter both use it."""

import re

# Values that must never reach a log line or the --timing report, whatever
# printed them. user_data is the base64 of the user's cloud-init (often
# holding passwords); nova also shows it as OS-EXT-SRV-ATTR:user_data; a
# Keystone credential's blob holds its secret (an EC2 key's, a TOTP seed).
_SECRET_PATTERNS = (
    (
        r'("(?:[\w-]+:)?(?:adminPass|\w*password|secret|private_key|'
        r'application_credential_secret|token_id|temp_url_key|user_data|auth_key|blob)"'
        r'\s*:\s*)"(?:[^"\\]|\\.)*"',
        re.IGNORECASE,
        r'\1"***"',
    ),
    (
        r"((?:X-Auth-Token|X-Subject-Token|X-Service-Token|Authorization|"
        r"X-Account-Meta-Temp-URL-Key(?:-2)?):\s*)(?!\{SHA256\})[^\s'\"]+",
        re.IGNORECASE,
        r"\1***",
    ),
    (r"(temp_url_sig(?:=|%3[dD]))[^&\s'\"]+", 0, r"\1***"),
)
_secret_res: list = []


def _secret_option_patterns():
    """Patterns masking every secret option of the auth plugins: as a JSON
    key, a form field (``client_secret=…``) and a ``--os-…`` flag."""
    from occli import auth_options

    names = sorted(auth_options.SECRET, key=len, reverse=True)
    alternatives = "|".join(names)
    flags = "|".join(n.replace("_", "-") for n in names)
    return (
        (r'("(?:%s)"\s*:\s*)"(?:[^"\\]|\\.)*"' % alternatives, 0, r'\1"***"'),
        (r"((?:^|(?<=[?&\s'\"]))(?:%s)=)[^&\s'\"]+" % alternatives, 0, r"\1***"),
        (r"(--os-(?:%s)[ =])(?![/()|])\S+" % flags, 0, r"\1***"),
    )


def redact(text):
    """Mask passwords, tokens, user data and temp URL signatures in text."""
    if not _secret_res:
        # compiled on first use: most runs log nothing
        patterns = _SECRET_PATTERNS + _secret_option_patterns()
        _secret_res[:] = [(re.compile(p, f), r) for p, f, r in patterns]
    for pattern, replacement in _secret_res:
        text = pattern.sub(replacement, text)
    return text


# Option names whose values are secrets, as _SECRET_PATTERNS names them in
# JSON (adminPass → --admin-pass, --root-password, --os-password, --os-token,
# --os-application-credential-secret, --user-data, --os-passcode, --os-code,
# a volume transfer's --auth-key…)
_SECRET_OPTION = re.compile(
    r"pass|secret|token|private|user.?data|temp.?url|auth.?key|-code$", re.I
)
_ARGUMENT = re.compile(r"^argument (\S+): ")
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def redact_args(words: list[str]) -> list[str]:
    """Command-line words fit to echo in an error: the ``=value`` of an
    option and the word after an option (perhaps its value) are ``***``.

    The words are those nothing recognised (argparse's "unrecognized
    arguments", a mistyped command), so nothing says which option takes a
    value or is secret: ``--pasword P`` (for ``--password``) must not show
    P. The safe rule masks the word after any option.
    """
    shown = []
    after_option = False
    for word in words:
        if word.startswith("-") and word not in ("-", "--"):
            name, equals, _ = word.partition("=")
            attached = not equals and not word.startswith("--") and len(word) > 2  # -pVALUE
            if equals:
                name += "=***"
            elif attached:
                name = word[:2] + "***"
            shown.append(name)
            after_option = not (equals or attached)
        elif after_option:
            shown.append("***")
            after_option = False
        else:
            shown.append(word)
    return shown


def redact_usage(message: str) -> str:
    """argparse's error ``message`` with no secret in it (see
    :func:`redact_args`): the value of a secret option (``argument
    --admin-pass: invalid … value: 'P'``), of an ambiguous abbreviation
    (``--pas=P could match``) and an ignored explicit argument are
    ``***``; terminal controls escaped (:func:`occli.columns.printable`)."""
    argument = _ARGUMENT.match(message)
    if argument and _SECRET_OPTION.search(argument.group(1)):
        message = _QUOTED.sub("'***'", message)
    message = re.sub(r"^(ambiguous option: [^=\s]*=).*?( could match )", r"\1***\2", message)
    message = re.sub(r"(ignored explicit argument ).*$", r"\1'***'", message)
    from occli.columns import printable

    return printable(redact(message))
