"""``OS::Heat::RandomString`` (Heat's ``openstack/heat/random_string.py``
and ``heat/common/password_gen.py``): a random string made once at create
and kept, redacted, in the resource's data."""

import random
import string
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support

# password_gen's named classes and their members
CHARACTER_CLASSES = (
    LETTERS_DIGITS,
    LETTERS,
    LOWERCASE,
    UPPERCASE,
    DIGITS,
    HEXDIGITS,
    OCTDIGITS,
) = (
    "lettersdigits",
    "letters",
    "lowercase",
    "uppercase",
    "digits",
    "hexdigits",
    "octdigits",
)
_MEMBERS = {
    LETTERS_DIGITS: string.ascii_letters + string.digits,
    LETTERS: string.ascii_letters,
    LOWERCASE: string.ascii_lowercase,
    UPPERCASE: string.ascii_uppercase,
    DIGITS: string.digits,
    HEXDIGITS: string.digits + "ABCDEF",
    OCTDIGITS: string.octdigits,
}
_RANDOM = random.SystemRandom()


def generate(length: int, classes: Iterable[tuple[str, int]]) -> str:
    """``length`` characters with at least ``min`` of each ``(allowed
    characters, min)`` class, the rest drawn from all of them, shuffled
    (password_gen's ``generate_password``)."""
    chosen: list[str] = []
    pool: set[str] = set()
    for allowed, minimum in classes:
        members = sorted(set(allowed))
        pool.update(members)
        chosen.extend(_RANDOM.choice(members) for _ in range(minimum))
    members = sorted(pool)
    chosen.extend(_RANDOM.choice(members) for _ in range(max(0, length - len(chosen))))
    return "".join(_RANDOM.sample(chosen, length))


class RandomString(resource.Resource):
    """A random string (passwords, secrets); a changed ``salt`` replaces it."""

    support_status = support.SupportStatus(version="2014.1")

    PROPERTIES = (LENGTH, SEQUENCE, CHARACTER_CLASSES_PROP, CHARACTER_SEQUENCES, SALT) = (
        "length",
        "sequence",
        "character_classes",
        "character_sequences",
        "salt",
    )
    VALUE = "value"

    properties_schema = {
        LENGTH: properties.Schema(
            properties.Schema.INTEGER,
            "Length of the string to generate.",
            default=32,
            constraints=[constraints.Range(1, 512)],
        ),
        # hidden since Heat 5.0.0: taken as one character class
        SEQUENCE: properties.Schema(
            properties.Schema.STRING,
            "Sequence of characters to build the random string from.",
            constraints=[constraints.AllowedValues(CHARACTER_CLASSES)],
            support_status=support.SupportStatus(
                status=support.HIDDEN,
                version="5.0.0",
                previous_status=support.SupportStatus(
                    status=support.DEPRECATED,
                    message="Use property character_classes.",
                    version="2014.2",
                ),
            ),
        ),
        CHARACTER_CLASSES_PROP: properties.Schema(
            properties.Schema.LIST,
            "A list of character class and their constraints to generate the random string from.",
            schema=properties.Schema(
                properties.Schema.MAP,
                schema={
                    "class": properties.Schema(
                        properties.Schema.STRING,
                        "A character class and its corresponding min constraint "
                        "to generate the random string from.",
                        constraints=[constraints.AllowedValues(CHARACTER_CLASSES)],
                        default=LETTERS_DIGITS,
                    ),
                    "min": properties.Schema(
                        properties.Schema.INTEGER,
                        "The minimum number of characters from this character "
                        "class that will be in the generated string.",
                        default=1,
                        constraints=[constraints.Range(1, 512)],
                    ),
                },
            ),
            default=[{"class": LETTERS_DIGITS, "min": 1}],
        ),
        CHARACTER_SEQUENCES: properties.Schema(
            properties.Schema.LIST,
            "A list of character sequences and their constraints to generate "
            "the random string from.",
            schema=properties.Schema(
                properties.Schema.MAP,
                schema={
                    "sequence": properties.Schema(
                        properties.Schema.STRING,
                        "A character sequence and its corresponding min "
                        "constraint to generate the random string from.",
                        required=True,
                    ),
                    "min": properties.Schema(
                        properties.Schema.INTEGER,
                        "The minimum number of characters from this sequence "
                        "that will be in the generated string.",
                        default=1,
                        constraints=[constraints.Range(1, 512)],
                    ),
                },
            ),
        ),
        SALT: properties.Schema(
            properties.Schema.STRING,
            "Value which can be set or changed on stack update to trigger the "
            "resource for replacement with a new random string. The salt "
            "value itself is ignored by the random generator.",
        ),
    }
    attributes_schema = {
        VALUE: attributes.Schema(
            "The random string generated by this resource. This value is also "
            "available by referencing the resource.",
            cache_mode=attributes.Schema.CACHE_NONE,
            type=attributes.Schema.STRING,
        ),
    }

    def _classes(self) -> list[Mapping[str, Any]]:
        """The character classes, the deprecated ``sequence`` added as one
        (Heat's translation rule: it joins only the classes the template
        gave, not the default)."""
        sequence = self.properties[self.SEQUENCE]
        if not sequence:
            return list(self.properties[self.CHARACTER_CLASSES_PROP] or [])
        given = self.properties.get_user_value(self.CHARACTER_CLASSES_PROP) or []
        return [*given, {"class": sequence, "min": 1}]

    def _sequences(self) -> Sequence[Mapping[str, Any]]:
        return self.properties[self.CHARACTER_SEQUENCES] or []

    def validate(self) -> None:
        super().validate()
        minimum = sum(s["min"] for s in self._sequences()) + sum(c["min"] for c in self._classes())
        if minimum > self.properties[self.LENGTH]:
            raise errors.BadRequest(
                "Length property cannot be smaller than combined character "
                "class and character sequence minimums",
                type="StackValidationFailed",
            )

    def handle_create(self) -> None:
        classes = [(s["sequence"], s["min"]) for s in self._sequences()]
        classes += [(_MEMBERS[c["class"]], c["min"]) for c in self._classes()]
        self.data_set(self.VALUE, generate(self.properties[self.LENGTH], classes), redact=True)
        self.resource_id_set(self.physical_resource_name())

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.VALUE:
            return self.data().get(self.VALUE)
        return None

    def get_reference_id(self) -> str:
        """``get_resource`` gives the string itself once it exists."""
        if self.resource_id is not None:
            return str(self.data().get(self.VALUE))
        return str(self.name)


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::RandomString": RandomString}
