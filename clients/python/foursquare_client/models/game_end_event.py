from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.game_end_event_reason_type_0 import GameEndEventReasonType0, check_game_end_event_reason_type_0
from ..models.game_end_event_status import GameEndEventStatus, check_game_end_event_status

T = TypeVar("T", bound="GameEndEvent")


@_attrs_define
class GameEndEvent:
    """`event: end` (no id): the game is over; the server closes the stream after it.

    Attributes:
        game_id (UUID):
        status (GameEndEventStatus):
        score (int | None): Cards left in the stock when won; null when lost.
        reason (GameEndEventReasonType0 | None): Why a lost game was lost; null when won.
        placements (int): The game's placements: the `id` of its last event.
    """

    game_id: UUID
    status: GameEndEventStatus
    score: int | None
    reason: GameEndEventReasonType0 | None
    placements: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game_id = str(self.game_id)

        status: str = self.status

        score: int | None
        score = self.score

        reason: None | str
        if isinstance(self.reason, str):
            reason = self.reason
        else:
            reason = self.reason

        placements = self.placements

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "status": status,
                "score": score,
                "reason": reason,
                "placements": placements,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        status = check_game_end_event_status(d.pop("status"))

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        def _parse_reason(data: object) -> GameEndEventReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = check_game_end_event_reason_type_0(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GameEndEventReasonType0 | None, data)

        reason = _parse_reason(d.pop("reason"))

        placements = d.pop("placements")

        game_end_event = cls(
            game_id=game_id,
            status=status,
            score=score,
            reason=reason,
            placements=placements,
        )

        game_end_event.additional_properties = d
        return game_end_event

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
