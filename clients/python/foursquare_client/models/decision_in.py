from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.decision_in_action import DecisionInAction, check_decision_in_action
from ..types import UNSET, Unset

T = TypeVar("T", bound="DecisionIn")


@_attrs_define
class DecisionIn:
    """
    Attributes:
        action (DecisionInAction): `clear`: back on the public boards, the decision recorded; `confirm`: kept off.
        note (None | str | Unset): Why, for the record.
    """

    action: DecisionInAction
    note: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        action: str = self.action

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = check_decision_in_action(d.pop("action"))

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        decision_in = cls(
            action=action,
            note=note,
        )

        return decision_in
