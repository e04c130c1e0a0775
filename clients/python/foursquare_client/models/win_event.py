from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.board_ranks import BoardRanks


T = TypeVar("T", bound="WinEvent")


@_attrs_define
class WinEvent:
    """`event: win`: a win was recorded (it is on the leaderboard from now on).

    Attributes:
        game_id (UUID):
        player (str):
        score (int):
        finished_at (datetime.datetime):
        ranks (BoardRanks): A won game's rank on the all-time board and on the boards of the day and the week it
            was won in (the boards with games played with hints if it was, as `GET /games/{id}`'s
            `rank`).
        assisted (bool): A hint was asked in the game: it is on the boards with assisted games only
            (`include_assisted=true`), and `ranks` are its ranks there.
    """

    game_id: UUID
    player: str
    score: int
    finished_at: datetime.datetime
    ranks: BoardRanks
    assisted: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game_id = str(self.game_id)

        player = self.player

        score = self.score

        finished_at = self.finished_at.isoformat()

        ranks = self.ranks.to_dict()

        assisted = self.assisted

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "player": player,
                "score": score,
                "finished_at": finished_at,
                "ranks": ranks,
                "assisted": assisted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.board_ranks import BoardRanks  # noqa: PLC0415

        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        player = d.pop("player")

        score = d.pop("score")

        finished_at = datetime.datetime.fromisoformat(d.pop("finished_at"))

        ranks = BoardRanks.from_dict(d.pop("ranks"))

        assisted = d.pop("assisted")

        win_event = cls(
            game_id=game_id,
            player=player,
            score=score,
            finished_at=finished_at,
            ranks=ranks,
            assisted=assisted,
        )

        win_event.additional_properties = d
        return win_event

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
