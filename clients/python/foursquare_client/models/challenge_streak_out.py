from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ChallengeStreakOut")


@_attrs_define
class ChallengeStreakOut:
    """A player's daily challenge streaks: runs of consecutive UTC days on which they
    finished the day's challenge (`played`), and won it (`won`). A current run ends on the
    last such day and stands while that is today or yesterday: today not yet played breaks
    nothing.

        Attributes:
            played (int): Consecutive days played, now.
            won (int): Consecutive days won, now.
            best_played (int): The longest run of days played.
            best_won (int): The longest run of days won.
    """

    played: int
    won: int
    best_played: int
    best_won: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        played = self.played

        won = self.won

        best_played = self.best_played

        best_won = self.best_won

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "played": played,
                "won": won,
                "best_played": best_played,
                "best_won": best_won,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        played = d.pop("played")

        won = d.pop("won")

        best_played = d.pop("best_played")

        best_won = d.pop("best_won")

        challenge_streak_out = cls(
            played=played,
            won=won,
            best_played=best_played,
            best_won=best_won,
        )

        challenge_streak_out.additional_properties = d
        return challenge_streak_out

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
