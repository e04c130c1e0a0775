from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision_action import DecisionAction, check_decision_action

T = TypeVar("T", bound="Decision")


@_attrs_define
class Decision:
    """
    Attributes:
        action (DecisionAction):
        moderator (str):
        note (None | str):
        decided_at (datetime.datetime):
    """

    action: DecisionAction
    moderator: str
    note: None | str
    decided_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action: str = self.action

        moderator = self.moderator

        note: None | str
        note = self.note

        decided_at = self.decided_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "moderator": moderator,
                "note": note,
                "decided_at": decided_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = check_decision_action(d.pop("action"))

        moderator = d.pop("moderator")

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))

        decided_at = datetime.datetime.fromisoformat(d.pop("decided_at"))

        decision = cls(
            action=action,
            moderator=moderator,
            note=note,
            decided_at=decided_at,
        )

        decision.additional_properties = d
        return decision

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
