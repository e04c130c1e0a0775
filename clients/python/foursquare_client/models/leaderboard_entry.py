from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LeaderboardEntry")


@_attrs_define
class LeaderboardEntry:
    """
    Attributes:
        rank (int): Position on the board: 1 is the best score, earliest finish.
        player (str):
        score (int):
        game_id (UUID):
        finished_at (datetime.datetime):
        assisted (bool): The player asked for hints in this game.
        registered (bool): The game was played with an account, which `GET /players/{name}` shows; false for a guest's
            game (guests have no player page).
    """

    rank: int
    player: str
    score: int
    game_id: UUID
    finished_at: datetime.datetime
    assisted: bool
    registered: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        player = self.player

        score = self.score

        game_id = str(self.game_id)

        finished_at = self.finished_at.isoformat()

        assisted = self.assisted

        registered = self.registered

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "player": player,
                "score": score,
                "game_id": game_id,
                "finished_at": finished_at,
                "assisted": assisted,
                "registered": registered,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        player = d.pop("player")

        score = d.pop("score")

        game_id = UUID(d.pop("game_id"))

        finished_at = datetime.datetime.fromisoformat(d.pop("finished_at"))

        assisted = d.pop("assisted")

        registered = d.pop("registered")

        leaderboard_entry = cls(
            rank=rank,
            player=player,
            score=score,
            game_id=game_id,
            finished_at=finished_at,
            assisted=assisted,
            registered=registered,
        )

        leaderboard_entry.additional_properties = d
        return leaderboard_entry

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
