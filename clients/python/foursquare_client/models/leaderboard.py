from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.leaderboard_period_type_0 import LeaderboardPeriodType0, check_leaderboard_period_type_0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.leaderboard_entry import LeaderboardEntry


T = TypeVar("T", bound="Leaderboard")


@_attrs_define
class Leaderboard:
    """One page of won games, best score first, earlier finish first on ties.

    Attributes:
        entries (list[LeaderboardEntry]):
        next_cursor (None | str): Pass as `cursor` for the next page; null on the last page.
        period (LeaderboardPeriodType0 | None | Unset): `all`, `day` (a UTC calendar day) or `week` (an ISO week, Monday
            to Sunday, UTC); null on a daily challenge's board.
        starts_on (datetime.date | None | Unset): The window's first day; null for `all`.
        ends_on (datetime.date | None | Unset): The window's last day (inclusive); null for `all`.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (ties to the earlier finish);
            null: every won game.
        assisted_left_out (int | None | Unset): How many more entries this board has with `include_assisted=true` (won
            games whose player asked for hints, or with `per_player=best` players whose every win did): why a board may be
            empty or short. Null when assisted games are included, and on a daily challenge's board (played without hints).
        held_for_review (int | None | Unset): How many wins of this board's days the fair-play review keeps off it:
            being checked (usually for less than a minute), or held because their placements followed the computer player's
            choices (docs/fairplay.md). Null on a daily challenge's board.
    """

    entries: list[LeaderboardEntry]
    next_cursor: None | str
    period: LeaderboardPeriodType0 | None | Unset = UNSET
    starts_on: datetime.date | None | Unset = UNSET
    ends_on: datetime.date | None | Unset = UNSET
    per_player: Literal["best"] | None | Unset = UNSET
    assisted_left_out: int | None | Unset = UNSET
    held_for_review: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        period: None | str | Unset
        if isinstance(self.period, Unset):
            period = UNSET
        elif isinstance(self.period, str):
            period = self.period
        else:
            period = self.period

        starts_on: None | str | Unset
        if isinstance(self.starts_on, Unset):
            starts_on = UNSET
        elif isinstance(self.starts_on, datetime.date):
            starts_on = self.starts_on.isoformat()
        else:
            starts_on = self.starts_on

        ends_on: None | str | Unset
        if isinstance(self.ends_on, Unset):
            ends_on = UNSET
        elif isinstance(self.ends_on, datetime.date):
            ends_on = self.ends_on.isoformat()
        else:
            ends_on = self.ends_on

        per_player: Literal["best"] | None | Unset
        if isinstance(self.per_player, Unset):
            per_player = UNSET
        else:
            per_player = self.per_player

        assisted_left_out: int | None | Unset
        if isinstance(self.assisted_left_out, Unset):
            assisted_left_out = UNSET
        else:
            assisted_left_out = self.assisted_left_out

        held_for_review: int | None | Unset
        if isinstance(self.held_for_review, Unset):
            held_for_review = UNSET
        else:
            held_for_review = self.held_for_review

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entries": entries,
                "next_cursor": next_cursor,
            }
        )
        if period is not UNSET:
            field_dict["period"] = period
        if starts_on is not UNSET:
            field_dict["starts_on"] = starts_on
        if ends_on is not UNSET:
            field_dict["ends_on"] = ends_on
        if per_player is not UNSET:
            field_dict["per_player"] = per_player
        if assisted_left_out is not UNSET:
            field_dict["assisted_left_out"] = assisted_left_out
        if held_for_review is not UNSET:
            field_dict["held_for_review"] = held_for_review

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_entry import LeaderboardEntry  # noqa: PLC0415

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = LeaderboardEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        def _parse_period(data: object) -> LeaderboardPeriodType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_type_0 = check_leaderboard_period_type_0(data)

                return period_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LeaderboardPeriodType0 | None | Unset, data)

        period = _parse_period(d.pop("period", UNSET))

        def _parse_starts_on(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_on_type_0 = datetime.date.fromisoformat(data)

                return starts_on_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        starts_on = _parse_starts_on(d.pop("starts_on", UNSET))

        def _parse_ends_on(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_on_type_0 = datetime.date.fromisoformat(data)

                return ends_on_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        ends_on = _parse_ends_on(d.pop("ends_on", UNSET))

        def _parse_per_player(data: object) -> Literal["best"] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            per_player_type_0 = cast(Literal["best"], data)
            if per_player_type_0 != "best":
                raise ValueError(f"per_player_type_0 must match const 'best', got '{per_player_type_0}'")
            return per_player_type_0
            return cast(Literal["best"] | None | Unset, data)

        per_player = _parse_per_player(d.pop("per_player", UNSET))

        def _parse_assisted_left_out(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        assisted_left_out = _parse_assisted_left_out(d.pop("assisted_left_out", UNSET))

        def _parse_held_for_review(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        held_for_review = _parse_held_for_review(d.pop("held_for_review", UNSET))

        leaderboard = cls(
            entries=entries,
            next_cursor=next_cursor,
            period=period,
            starts_on=starts_on,
            ends_on=ends_on,
            per_player=per_player,
            assisted_left_out=assisted_left_out,
            held_for_review=held_for_review,
        )

        leaderboard.additional_properties = d
        return leaderboard

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
