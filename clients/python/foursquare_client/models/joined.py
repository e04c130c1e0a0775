from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.your_entry import YourEntry


T = TypeVar("T", bound="Joined")


@_attrs_define
class Joined:
    """An entry just made.

    Attributes:
        entry (YourEntry): Your own entry: what you play next.
        token (None | str): A guest's credential for this tournament, its games and its next deal (`Authorization:
            Bearer <token>`); null for an account, which uses its key. Shown only here (and to a replay with the same
            `Idempotency-Key`).
    """

    entry: YourEntry
    token: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry.to_dict()

        token: None | str
        token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry": entry,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.your_entry import YourEntry  # noqa: PLC0415

        d = dict(src_dict)
        entry = YourEntry.from_dict(d.pop("entry"))

        def _parse_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token = _parse_token(d.pop("token"))

        joined = cls(
            entry=entry,
            token=token,
        )

        joined.additional_properties = d
        return joined

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
