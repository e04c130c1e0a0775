"""What the moderators' endpoints refuse with (the feature's own errors, on the service's
one hierarchy: :class:`api.core.errors.ApiError`)."""

from __future__ import annotations

from api.core.errors import ApiError, Example

_GAME = "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"


class NotAModerator(ApiError):
    """The key is no operator credential (`FOURSQUARE_OPERATOR_KEYS`): a player's key is not
    enough for the moderators' endpoints."""

    status, code, title = 403, "not_a_moderator", "Not a moderator"
    example = Example(
        "this key is no operator credential: the moderators' endpoints take a key from "
        "FOURSQUARE_OPERATOR_KEYS",
        "/moderation/queue",
    )


class NotReviewed(ApiError):
    """The game has no fair-play review: only won games without hints have one."""

    status, code, title = 404, "review_not_found", "Review not found"
    example = Example(
        f"game {_GAME} has no fair-play review: only won games without hints have one",
        f"/moderation/games/{_GAME}",
    )


class NotFlagged(ApiError):
    """Only a game the review flagged can be cleared or confirmed."""

    status, code, title = 409, "not_flagged", "Not flagged"
    example = Example(
        f"game {_GAME} was not flagged by the fair-play review (clean): there is nothing to decide",
        f"/moderation/games/{_GAME}",
    )


class NotMarked(ApiError):
    """Only an account the review marked can be cleared or confirmed."""

    status, code, title = 409, "not_marked", "Not marked"
    example = Example(
        "this account was never marked by the fair-play review", "/moderation/players/ana"
    )
