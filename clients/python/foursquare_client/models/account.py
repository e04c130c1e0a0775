from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_state_type_0 import AccountStateType0, check_account_state_type_0

if TYPE_CHECKING:
    from ..models.decision import Decision
    from ..models.review import Review


T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """An account's standing with the fair-play review.

    Attributes:
        player (str):
        state (AccountStateType0 | None): `marked` by the review (too many flagged wins), `confirmed` or `cleared` by a
            moderator; null if never marked.
        flagged (int | None): Flagged wins when it was marked.
        marked_at (datetime.datetime | None):
        decided_at (datetime.datetime | None):
        reviews (list[Review]): Its latest reviews (50), newest first.
        decisions (list[Decision]):
    """

    player: str
    state: AccountStateType0 | None
    flagged: int | None
    marked_at: datetime.datetime | None
    decided_at: datetime.datetime | None
    reviews: list[Review]
    decisions: list[Decision]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        player = self.player

        state: None | str
        if isinstance(self.state, str):
            state = self.state
        else:
            state = self.state

        flagged: int | None
        flagged = self.flagged

        marked_at: None | str
        if isinstance(self.marked_at, datetime.datetime):
            marked_at = self.marked_at.isoformat()
        else:
            marked_at = self.marked_at

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        reviews = []
        for reviews_item_data in self.reviews:
            reviews_item = reviews_item_data.to_dict()
            reviews.append(reviews_item)

        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "player": player,
                "state": state,
                "flagged": flagged,
                "marked_at": marked_at,
                "decided_at": decided_at,
                "reviews": reviews,
                "decisions": decisions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision import Decision  # noqa: PLC0415
        from ..models.review import Review  # noqa: PLC0415

        d = dict(src_dict)
        player = d.pop("player")

        def _parse_state(data: object) -> AccountStateType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = check_account_state_type_0(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountStateType0 | None, data)

        state = _parse_state(d.pop("state"))

        def _parse_flagged(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        flagged = _parse_flagged(d.pop("flagged"))

        def _parse_marked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                marked_at_type_0 = datetime.datetime.fromisoformat(data)

                return marked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        marked_at = _parse_marked_at(d.pop("marked_at"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        reviews = []
        _reviews = d.pop("reviews")
        for reviews_item_data in _reviews:
            reviews_item = Review.from_dict(reviews_item_data)

            reviews.append(reviews_item)

        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = Decision.from_dict(decisions_item_data)

            decisions.append(decisions_item)

        account = cls(
            player=player,
            state=state,
            flagged=flagged,
            marked_at=marked_at,
            decided_at=decided_at,
            reviews=reviews,
            decisions=decisions,
        )

        account.additional_properties = d
        return account

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
