from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.best_event_board import BestEventBoard, check_best_event_board

T = TypeVar("T", bound="BestEvent")


@_attrs_define
class BestEvent:
    """`event: best`: a win took rank 1 on a board the leaderboard shows by default (games
    played without hints); follows its `win` event.

        Attributes:
            board (BestEventBoard):
            game_id (UUID):
            player (str):
            score (int):
    """

    board: BestEventBoard
    game_id: UUID
    player: str
    score: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        board: str = self.board

        game_id = str(self.game_id)

        player = self.player

        score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "board": board,
                "game_id": game_id,
                "player": player,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        board = check_best_event_board(d.pop("board"))

        game_id = UUID(d.pop("game_id"))

        player = d.pop("player")

        score = d.pop("score")

        best_event = cls(
            board=board,
            game_id=game_id,
            player=player,
            score=score,
        )

        best_event.additional_properties = d
        return best_event

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
