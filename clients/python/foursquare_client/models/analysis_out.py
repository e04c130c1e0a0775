from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.analysis_out_state import AnalysisOutState, check_analysis_out_state

if TYPE_CHECKING:
    from ..models.analysis_progress import AnalysisProgress
    from ..models.analysis_result import AnalysisResult


T = TypeVar("T", bound="AnalysisOut")


@_attrs_define
class AnalysisOut:
    """An analysis: its state and progress, and its result once `done`.

    Attributes:
        game_id (UUID):
        state (AnalysisOutState): `queued`, `running` (202 while either), `done` (with `result`) or `failed` (with
            `error`; POST again to retry).
        progress (AnalysisProgress):
        requested_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        error (None | str):
        result (AnalysisResult | None):
    """

    game_id: UUID
    state: AnalysisOutState
    progress: AnalysisProgress
    requested_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    error: None | str
    result: AnalysisResult | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.analysis_result import AnalysisResult  # noqa: PLC0415

        game_id = str(self.game_id)

        state: str = self.state

        progress = self.progress.to_dict()

        requested_at = self.requested_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        error: None | str
        error = self.error

        result: dict[str, Any] | None
        if isinstance(self.result, AnalysisResult):
            result = self.result.to_dict()
        else:
            result = self.result

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "state": state,
                "progress": progress,
                "requested_at": requested_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "error": error,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analysis_progress import AnalysisProgress  # noqa: PLC0415
        from ..models.analysis_result import AnalysisResult  # noqa: PLC0415

        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        state = check_analysis_out_state(d.pop("state"))

        progress = AnalysisProgress.from_dict(d.pop("progress"))

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_result(data: object) -> AnalysisResult | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = AnalysisResult.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AnalysisResult | None, data)

        result = _parse_result(d.pop("result"))

        analysis_out = cls(
            game_id=game_id,
            state=state,
            progress=progress,
            requested_at=requested_at,
            started_at=started_at,
            finished_at=finished_at,
            error=error,
            result=result,
        )

        analysis_out.additional_properties = d
        return analysis_out

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
