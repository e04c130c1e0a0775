"""Player names: what a player may be called, and when two names are the same name.

One rule for every name a person sees, an account's, a guest's or a racer's
(:data:`NAME_PATTERN`, 3 to 24 characters long): ASCII letters, digits, ``_`` or ``-``, at
least one of them a letter, exactly as sent (``422 invalid_player_name`` otherwise, on every
route alike: a body's name field is typed :data:`PlayerName`). ASCII is its own NFKC form,
so a name in any other form (full-width letters, other scripts, invisible or format
characters such as U+200B, U+00AD or the Hangul fillers) is refused rather than silently
rewritten, and the OpenAPI pattern and lengths (and the web client's, the same) are the whole
rule. A name needs a letter because ``_`` and ``-`` count for nothing when names are compared
(below): ``--_``, ``___`` and ``_-_`` would be three accounts with one empty name; and a name
of digits alone reads as a number (a score, a rank) rather than as somebody.

Why not Unicode names with ICU's spoof checks on top of the skeleton: guests kept free-form
names until a probe played beside the account ``alice`` as ``a\u04cfice`` (Cyrillic palochka,
pixel-identical in Chromium's sans-serif), ``al\u0130ce``, ``a\u026bice``, ``a\u026cice``,
``a\u0142ice`` and ``al\U0001d159ice``, and as names of Hangul fillers alone. ICU's
restriction levels refuse mixed scripts, but not a single-script Latin name whose letter has
a stroke or a tilde that a small font hides (``a\u0142ice`` is "highly restrictive"), nor can
they know which glyphs a given font draws alike; each such case would need a rule of ours. The
ASCII rule refuses them all, is one regular expression that the server, the OpenAPI schema
and the web client share, and leaves look-alikes to the few ASCII confusables the skeleton
below knows (``I``/``l``/``1``, ``0``/``O``, ``rn``/``m``). Games stored before the rule keep
their names (and the skeleton still groups them on the boards).

Names are compared two ways, and an account owns both forms of its name (each a unique column
of ``players``):

- :func:`name_key`, the NFKC caseless form without format characters: ``Alice`` and
  ``ALICE`` are ``alice``'s. Profiles are found by it (``/players/{name}``).
- :func:`name_skeleton`, the form in which names that *look* alike are one: Unicode TS #39's
  confusable skeleton, computed by ICU (PyICU's ``SpoofChecker.getSkeleton``), of the name
  without its invisible parts, and without ``_`` and ``-``. ``aIice`` (capital I), ``alice_``,
  ``a-l-i-c-e``, ``A_L_I_C_E``, ``al\u0131ce`` (dotless i), ``\u0251lice`` (Latin alpha),
  Cyrillic ``\u0430lice``, ``al\u034fice`` (a combining grapheme joiner), ``a\u0301lice`` (a
  combining accent), ``ALICE`` and ``aiice`` all have the skeleton of ``alice``
  (case-insensitive: see :func:`name_skeleton`). Since the ASCII rule, new names reach it only
  in ASCII; stored guest names of any script are still grouped by it.

Two names are one name when either form is the same (:func:`same_name`, what a feature
comparing names it holds uses). A registration whose key or skeleton is taken is refused
(``409 name_taken``); so is a guest name (a game without a key) whose key or skeleton is an
account's: a name on the leaderboard that looks like an account's is that account's, and the
``per_player=best`` boards group wins by skeleton. Refused rather than mapped to the account:
a guest's wins must not be counted as the account's. The reserved names
(:data:`RESERVED_NAMES`) and whatever is one name with them are ``409 name_reserved``.

What TS #39 says, and so what this does: the skeleton maps ``m`` to ``rn`` (not the other way
round), so ``rnlice`` and ``mlice`` are one name, while ``rnlice`` and ``alice`` are two
(nothing in them is confusable). Its data (ICU 77's) does not list the Latin small capitals
(``\u1d00`` LATIN LETTER SMALL CAPITAL A) as confusable with their letters; they are folded to
the small letter of the same name first, the only rule here that is not ICU's besides leaving
out ``_`` and ``-``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

import icu
from pydantic import AfterValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from api.core.errors import InvalidPlayerName, echo

# The rule, as the JSON Schema pattern the API declares for every name it takes, with the
# lengths it declares beside it (and the ``pattern`` of the web client's name fields, read from
# the API's schema and checked against it by the tests). The letter is where the pattern says
# it, not a look-ahead: the schema's regular expressions are run by engines without one
# (pydantic-core's Rust ``regex``). The hyphen is escaped: browsers compile an input's pattern
# with the ``v`` flag, where an unescaped ``-`` in a class makes the pattern invalid, and so
# ignored.
NAME_PATTERN = r"^[0-9_\-]*[A-Za-z][A-Za-z0-9_\-]*$"
NAME_MIN_LENGTH, NAME_MAX_LENGTH = 3, 24
NAME_RULE = "3 to 24 ASCII letters, digits, '_' or '-', at least one of them a letter"
ACCOUNT_NAME = re.compile(NAME_PATTERN.strip("^$"), re.ASCII)
# What an account's name may be, stored: the rule's characters and lengths, with or without a
# letter (accounts registered before a name needed one keep their names and pages).
STORED_NAME = re.compile(r"[A-Za-z0-9_\-]{3,24}", re.ASCII)
# The names nobody may register, nor any name that is one name with them (409 name_reserved):
# the guests' default, which every guest plays under, and the computer player's, which nobody
# but the computer plays under, as an account or as a guest.
GUEST_NAME = "anonymous"
COMPUTER_NAME = "computer"
RESERVED_NAMES = frozenset({GUEST_NAME, COMPUTER_NAME})
# The longest skeleton kept (the width of ``players.name_skeleton`` and
# ``scores.player_key``): a 32-character guest name can expand far beyond it under NFKC
# (U+FDFA alone is 18 letters), and two names that agree on their first 128 are one.
SKELETON_LENGTH = 128

# What a name's skeleton leaves out, as an ICU set: marks (combining accents, the combining
# grapheme joiner), other and format characters, separators (spaces), Unicode's default-
# ignorable code points (variation selectors, Hangul fillers, U+17B4, U+180B, zero-width
# characters) and the braille blank U+2800, a symbol that prints nothing.
_INVISIBLE = icu.UnicodeSet(r"[[:M:][:C:][:Z:][:Default_Ignorable_Code_Point:]\u2800]")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
# ``_`` and ``-``: names that differ only by them are one name (the skeleton also writes
# Unicode's hyphens, U+2010 or the minus sign U+2212, as ``-``, and full-width ``\uff3f`` as
# ``_``, so stored guest names with those are grouped alike).
_SEPARATORS = str.maketrans("", "", "_-")
# TS #39's skeleton, from the data of the ICU that pyicu-wheels carries (ICU 77, Unicode 16).
# getSkeleton only reads the checker's data, so one checker serves every thread.
_SPOOF = icu.SpoofChecker()


def name_key(name: str) -> str:
    """The form names are compared in for identity: NFKC, case-folded, NFKC again (Unicode's
    caseless identifier matching), without format characters (zero-width spaces, soft
    hyphens, bidi marks) and surrounding spaces.

    >>> name_key("\\uff21\\uff2e\\u00adA")
    'ana'
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf").strip()


def _visible(char: str) -> str:
    """``char``, or its small letter if it is a Latin small capital, or "" if invisible."""
    if _INVISIBLE.contains(char):
        return ""
    name = unicodedata.name(char, "")
    if name.startswith(_SMALL_CAPITAL):
        try:
            return unicodedata.lookup("LATIN SMALL LETTER " + name.removeprefix(_SMALL_CAPITAL))
        except KeyError:
            return char
    return char


def name_skeleton(name: str) -> str:
    """The form in which names that look alike are equal, whatever their case: the name in
    NFKC, decomposed, with its invisible parts and marks removed; then TS #39's skeleton of it,
    of that in capitals, and of that case-folded; then without the marks the skeleton brought
    (it writes ``\u0142`` as ``l`` and a combining stroke), and without ``_`` and ``-``.

    TS #39's data is not case-insensitive (ICU dropped its ``ANY_CASE`` tables in ICU 58): it
    maps capital ``I`` to ``l`` but leaves ``i`` as it is, so ``ALICE`` had the skeleton
    ``allce`` and ``alice`` its own, two entries on a board. The pass in capitals gives every
    case the capitals' confusables, the case-folded pass the small letters' (``m`` is
    ``rn``). The price, which case-insensitivity forces (``aIice`` looks like ``alice`` and is
    ``aiice`` in another case): ``i``, ``I``, ``l`` and ``1`` are one letter here.

    >>> name_skeleton("aIice") == name_skeleton("A_L_I_C_E") == name_skeleton("alice")
    True
    """
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    visible = "".join(_visible(char) for char in decomposed)
    skeleton: str = _SPOOF.getSkeleton(0, visible)
    skeleton = _SPOOF.getSkeleton(0, skeleton.upper())
    skeleton = _SPOOF.getSkeleton(0, skeleton.casefold())
    visible = "".join(_visible(char) for char in skeleton)
    return visible.translate(_SEPARATORS)[:SKELETON_LENGTH]


def same_name(one: str, other: str) -> bool:
    """Whether two names are one name under the rule: the same name in another case or width,
    or a look-alike, or the same but for ``_`` and ``-`` (``carolX`` and ``caro1X``, ``alice``
    and ``a-l-i-c-e``).

    >>> same_name("C0mputer", "computer"), same_name("alice", "alicia")
    (True, False)
    """
    return name_key(one) == name_key(other) or name_skeleton(one) == name_skeleton(other)


# The reserved name each skeleton is, for the checks that have a name's skeleton already.
RESERVED_SKELETONS = {name_skeleton(name): name for name in RESERVED_NAMES}


def is_name(text: str) -> bool:
    """Whether ``text`` follows the rule, as sent."""
    length = NAME_MIN_LENGTH <= len(text) <= NAME_MAX_LENGTH
    return length and ACCOUNT_NAME.fullmatch(text) is not None


def name_refusal(raw: str) -> str | None:
    """Why ``raw`` is no name under the rule (the detail of ``422 invalid_player_name``, with
    the NFKC spelling to write instead when that one is a name), or None if it is one."""
    if is_name(raw):
        return None
    normal = unicodedata.normalize("NFKC", raw)
    hint = f" (write it as {normal!r})" if normal != raw and is_name(normal) else ""
    return f"{echo(raw)!r} is not a valid player name: a name is {NAME_RULE}{hint}"


def account_name(raw: str) -> str:
    """The name an account is registered under, or ``422 invalid_player_name``."""
    refusal = name_refusal(raw)
    if refusal is not None:
        raise InvalidPlayerName(refusal)
    return raw


# The error type a request body's name field fails with: api.core.problems answers a request
# whose only faults are names of this type with ``422 invalid_player_name`` (the detail below),
# as an account's registration is refused, rather than with ``invalid_request`` and the
# pattern.
NAME_ERROR_TYPE = InvalidPlayerName.code


def _checked_name(raw: str) -> str:
    refusal = name_refusal(raw)
    if refusal is not None:
        # The detail is the context, not the template: a name may hold "{...}".
        raise PydanticCustomError(NAME_ERROR_TYPE, "{detail}", {"detail": refusal})
    return raw


PlayerName = Annotated[
    str,
    AfterValidator(_checked_name),
    # The rule as the OpenAPI document shows it (and schemathesis fuzzes it, and the web
    # client's fields read it): checked by the validator above, whose refusal is the service's
    # own problem, not the pattern's invalid_request.
    WithJsonSchema(
        {
            "type": "string",
            "pattern": NAME_PATTERN,
            "minLength": NAME_MIN_LENGTH,
            "maxLength": NAME_MAX_LENGTH,
        }
    ),
]
"""A name a request body gives: every route that takes one (an account's, a guest's game, a
racer's, and whatever takes names next) types its field with this, so that one check, one
problem and one OpenAPI description of the rule serve them all."""
