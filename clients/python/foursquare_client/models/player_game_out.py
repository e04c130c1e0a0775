from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.player_game_out_end_reason_type_0 import (
    PlayerGameOutEndReasonType0,
    check_player_game_out_end_reason_type_0,
)
from ..models.player_game_out_review_type_0 import PlayerGameOutReviewType0, check_player_game_out_review_type_0
from ..models.player_game_out_status import PlayerGameOutStatus, check_player_game_out_status
from ..types import UNSET, Unset

T = TypeVar("T", bound="PlayerGameOut")


@_attrs_define
class PlayerGameOut:
    """One of a player's games, in short (the whole game is at `/games/{id}`).

    Attributes:
        id (UUID):
        status (PlayerGameOutStatus):
        end_reason (None | PlayerGameOutEndReasonType0):
        score (int | None):
        placements_count (int):
        assisted (bool):
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        challenge_date (datetime.date | None): The UTC day whose daily challenge this game is; null for an ordinary
            game.
        review (None | PlayerGameOutReviewType0 | Unset): The fair-play review's word on a won game without hints (as
            the game's `fair_play.status`): `pending` until checked, then on the boards (`clean`, `cleared`) or off them
            (`flagged`, `confirmed`, `held`). Null for other games.
    """

    id: UUID
    status: PlayerGameOutStatus
    end_reason: None | PlayerGameOutEndReasonType0
    score: int | None
    placements_count: int
    assisted: bool
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    challenge_date: datetime.date | None
    review: None | PlayerGameOutReviewType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        status: str = self.status

        end_reason: None | str
        if isinstance(self.end_reason, str):
            end_reason = self.end_reason
        else:
            end_reason = self.end_reason

        score: int | None
        score = self.score

        placements_count = self.placements_count

        assisted = self.assisted

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        challenge_date: None | str
        if isinstance(self.challenge_date, datetime.date):
            challenge_date = self.challenge_date.isoformat()
        else:
            challenge_date = self.challenge_date

        review: None | str | Unset
        if isinstance(self.review, Unset):
            review = UNSET
        elif isinstance(self.review, str):
            review = self.review
        else:
            review = self.review

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "end_reason": end_reason,
                "score": score,
                "placements_count": placements_count,
                "assisted": assisted,
                "created_at": created_at,
                "finished_at": finished_at,
                "challenge_date": challenge_date,
            }
        )
        if review is not UNSET:
            field_dict["review"] = review

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = check_player_game_out_status(d.pop("status"))

        def _parse_end_reason(data: object) -> None | PlayerGameOutEndReasonType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_reason_type_0 = check_player_game_out_end_reason_type_0(data)

                return end_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerGameOutEndReasonType0, data)

        end_reason = _parse_end_reason(d.pop("end_reason"))

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        placements_count = d.pop("placements_count")

        assisted = d.pop("assisted")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        def _parse_challenge_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                challenge_date_type_0 = datetime.date.fromisoformat(data)

                return challenge_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        challenge_date = _parse_challenge_date(d.pop("challenge_date"))

        def _parse_review(data: object) -> None | PlayerGameOutReviewType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                review_type_0 = check_player_game_out_review_type_0(data)

                return review_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerGameOutReviewType0 | Unset, data)

        review = _parse_review(d.pop("review", UNSET))

        player_game_out = cls(
            id=id,
            status=status,
            end_reason=end_reason,
            score=score,
            placements_count=placements_count,
            assisted=assisted,
            created_at=created_at,
            finished_at=finished_at,
            challenge_date=challenge_date,
            review=review,
        )

        player_game_out.additional_properties = d
        return player_game_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
