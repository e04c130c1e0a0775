from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fair_play_out_status import FairPlayOutStatus, check_fair_play_out_status

T = TypeVar("T", bound="FairPlayOut")


@_attrs_define
class FairPlayOut:
    """The fair-play review's word on a won game without hints (docs/fairplay.md).

    Attributes:
        status (FairPlayOutStatus): `pending`: being checked, on no public board yet; `clean`: checked, on the boards;
            `flagged`: held off the public boards (its placements followed the computer player's choices too closely);
            `cleared`: a moderator put a flagged game back on the boards; `confirmed`: a moderator kept it off; `held`: off
            the boards while its account is marked.
        words (str): The state in words, for the player.
    """

    status: FairPlayOutStatus
    words: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        words = self.words

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "words": words,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = check_fair_play_out_status(d.pop("status"))

        words = d.pop("words")

        fair_play_out = cls(
            status=status,
            words=words,
        )

        fair_play_out.additional_properties = d
        return fair_play_out

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
