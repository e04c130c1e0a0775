from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerStatsOut")


@_attrs_define
class PlayerStatsOut:
    """A player's all-time figures, updated in the transaction that starts or ends a game.

    Attributes:
        games_played (int): Games started, whatever their status.
        games_won (int):
        games_lost (int):
        games_in_progress (int):
        win_rate (float | None): Won / (won + lost); null before a game ended.
        best_score (int | None): Best winning score; null before a win.
        mean_winning_score (float | None): Mean score of won games.
        current_streak (int): Games won since the last loss.
        longest_streak (int): Most games won in a row.
        last_played_at (datetime.datetime | None): When one of their games last started or ended.
        races_played (int): Races finished (`GET /players/{name}/races`).
        races_won (int): Races finished first, against another racer at least (the ranking: `GET /races/{id}`).
    """

    games_played: int
    games_won: int
    games_lost: int
    games_in_progress: int
    win_rate: float | None
    best_score: int | None
    mean_winning_score: float | None
    current_streak: int
    longest_streak: int
    last_played_at: datetime.datetime | None
    races_played: int
    races_won: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        games_played = self.games_played

        games_won = self.games_won

        games_lost = self.games_lost

        games_in_progress = self.games_in_progress

        win_rate: float | None
        win_rate = self.win_rate

        best_score: int | None
        best_score = self.best_score

        mean_winning_score: float | None
        mean_winning_score = self.mean_winning_score

        current_streak = self.current_streak

        longest_streak = self.longest_streak

        last_played_at: None | str
        if isinstance(self.last_played_at, datetime.datetime):
            last_played_at = self.last_played_at.isoformat()
        else:
            last_played_at = self.last_played_at

        races_played = self.races_played

        races_won = self.races_won

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "games_played": games_played,
                "games_won": games_won,
                "games_lost": games_lost,
                "games_in_progress": games_in_progress,
                "win_rate": win_rate,
                "best_score": best_score,
                "mean_winning_score": mean_winning_score,
                "current_streak": current_streak,
                "longest_streak": longest_streak,
                "last_played_at": last_played_at,
                "races_played": races_played,
                "races_won": races_won,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        games_played = d.pop("games_played")

        games_won = d.pop("games_won")

        games_lost = d.pop("games_lost")

        games_in_progress = d.pop("games_in_progress")

        def _parse_win_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate = _parse_win_rate(d.pop("win_rate"))

        def _parse_best_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        best_score = _parse_best_score(d.pop("best_score"))

        def _parse_mean_winning_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_winning_score = _parse_mean_winning_score(d.pop("mean_winning_score"))

        current_streak = d.pop("current_streak")

        longest_streak = d.pop("longest_streak")

        def _parse_last_played_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_played_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_played_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_played_at = _parse_last_played_at(d.pop("last_played_at"))

        races_played = d.pop("races_played")

        races_won = d.pop("races_won")

        player_stats_out = cls(
            games_played=games_played,
            games_won=games_won,
            games_lost=games_lost,
            games_in_progress=games_in_progress,
            win_rate=win_rate,
            best_score=best_score,
            mean_winning_score=mean_winning_score,
            current_streak=current_streak,
            longest_streak=longest_streak,
            last_played_at=last_played_at,
            races_played=races_played,
            races_won=races_won,
        )

        player_stats_out.additional_properties = d
        return player_stats_out

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
