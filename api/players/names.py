"""Player names: what an account may be called, and when two names are the same name.

Accounts. An account's name is 3 to 24 ASCII letters, digits, ``_`` or ``-``, exactly as sent
(``422 invalid_player_name`` otherwise): ASCII is its own NFKC form, so a name in any other
form (full-width letters, other scripts, invisible or format characters such as U+200B or
U+00AD) is refused rather than silently rewritten, and the OpenAPI pattern is the whole rule.
ASCII only is deliberate: allowing other scripts would need confusable detection (Cyrillic
U+0430 looks like Latin ``a``) to keep look-alike accounts apart.

Names are compared by :func:`name_key`, the NFKC caseless form with format characters removed,
unique among accounts. Guests (games without a key) keep free-form names, but one whose key
equals an account's is refused (``409 name_taken``), so a name on the leaderboard that belongs
to an account is that account's. So is a guest name that only looks like an account's: with its
letters from other scripts replaced by the Latin letters Unicode lists them as confusable with
(UTS #39's confusables data, from the ``confusable_homoglyphs`` package), Cyrillic ``\u0430na``
is ``ana``.
"""

from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs import confusables

from api.core.errors import InvalidPlayerName

ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_-]{3,24}", re.ASCII)
# Guests play as "anonymous" by default: nobody may own it.
RESERVED_NAMES = frozenset({"anonymous"})


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, case-folded, NFKC again (Unicode's caseless
    identifier matching), without format characters (zero-width spaces, soft hyphens, bidi
    marks) and surrounding spaces.

    >>> name_key("\\uff21\\uff2e\\u00adA")
    'ana'
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf").strip()


def account_name(raw: str) -> str:
    """The name an account is registered under, or ``422 invalid_player_name``."""
    if ACCOUNT_NAME.fullmatch(raw) is None:
        normal = unicodedata.normalize("NFKC", raw)
        hint = (
            f" (write it as {normal!r})"
            if normal != raw and ACCOUNT_NAME.fullmatch(normal) is not None
            else ""
        )
        raise InvalidPlayerName(
            f"{raw[:64]!r} is not a valid player name: a name is 3 to 24 ASCII letters, "
            f"digits, '_' or '-'{hint}"
        )
    return raw


def latin_lookalike(key: str) -> str:
    """``key`` with each non-ASCII character that Unicode lists as confusable with ASCII
    letters or digits replaced by them (lower-cased), others kept.

    >>> latin_lookalike("\u0430n\u0430")  # Cyrillic a, Latin n, Cyrillic a
    'ana'
    """
    out: list[str] = []
    for char in key:
        found = not char.isascii() and confusables.is_confusable(char, preferred_aliases=["latin"])
        glyphs = [glyph["c"] for entry in found or () for glyph in entry["homoglyphs"]]
        latin = next((glyph for glyph in glyphs if glyph.isascii() and glyph.isalnum()), char)
        out.append(latin.lower())
    return "".join(out)


def guest_lookalike_key(name: str) -> str | None:
    """The account name key a guest's ``name`` would be confused with, or None if it can be
    no account's (only such names cost a query)."""
    key = name_key(name)
    if not key.isascii():
        key = latin_lookalike(key)
    if ACCOUNT_NAME.fullmatch(key) is None or key in RESERVED_NAMES:
        return None
    return key
