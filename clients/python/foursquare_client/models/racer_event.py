from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.racer_event_state import RacerEventState, check_racer_event_state

T = TypeVar("T", bound="RacerEvent")


@_attrs_define
class RacerEvent:
    """A racer as a race's stream shows it, counts only (never a card): `event: joined`
    and `left` (in the lobby), `progress` (after its placements) and `finished` (its game is
    over; its `rank` comes with the race's `result`).

        Attributes:
            racer (int): The racer's number in the race, from 1 (the opener).
            name (str):
            registered (bool): An account races (its player has a page, `GET /players/{name}`).
            computer (bool): The computer player.
            state (RacerEventState): `waiting` until the race starts, then its game's status.
            placements (int): Placements made.
            face_down (int): Piles with a face-down top card.
            cards_left (int): Cards left in the stock.
            score (int | None): A won game's score.
            rank (int | None): Its place, once the race is over.
            game_id (None | UUID): Its game, once the race is over (public from then on: its replay); null before.
    """

    racer: int
    name: str
    registered: bool
    computer: bool
    state: RacerEventState
    placements: int
    face_down: int
    cards_left: int
    score: int | None
    rank: int | None
    game_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        racer = self.racer

        name = self.name

        registered = self.registered

        computer = self.computer

        state: str = self.state

        placements = self.placements

        face_down = self.face_down

        cards_left = self.cards_left

        score: int | None
        score = self.score

        rank: int | None
        rank = self.rank

        game_id: None | str
        if isinstance(self.game_id, UUID):
            game_id = str(self.game_id)
        else:
            game_id = self.game_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "racer": racer,
                "name": name,
                "registered": registered,
                "computer": computer,
                "state": state,
                "placements": placements,
                "face_down": face_down,
                "cards_left": cards_left,
                "score": score,
                "rank": rank,
                "game_id": game_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        racer = d.pop("racer")

        name = d.pop("name")

        registered = d.pop("registered")

        computer = d.pop("computer")

        state = check_racer_event_state(d.pop("state"))

        placements = d.pop("placements")

        face_down = d.pop("face_down")

        cards_left = d.pop("cards_left")

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))

        def _parse_game_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                game_id_type_0 = UUID(data)

                return game_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        game_id = _parse_game_id(d.pop("game_id"))

        racer_event = cls(
            racer=racer,
            name=name,
            registered=registered,
            computer=computer,
            state=state,
            placements=placements,
            face_down=face_down,
            cards_left=cards_left,
            score=score,
            rank=rank,
            game_id=game_id,
        )

        racer_event.additional_properties = d
        return racer_event

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
