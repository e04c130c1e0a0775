from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.analysis_result_status import AnalysisResultStatus, check_analysis_result_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.analysis_result_labels import AnalysisResultLabels
    from ..models.hindsight_optimum import HindsightOptimum
    from ..models.placement_analysis import PlacementAnalysis


T = TypeVar("T", bound="AnalysisResult")


@_attrs_define
class AnalysisResult:
    """A finished game's analysis.

    Attributes:
        status (AnalysisResultStatus):
        score (int | None):
        accuracy (float | None): Mean accuracy of the placements that had a choice; null if none had.
        labels (AnalysisResultLabels): How many placements got each label.
        effort (int | None): Simulated placements the computer player spent on each placement.
        placements (list[PlacementAnalysis]):
        optimum (HindsightOptimum | None | Unset): The hindsight optimum of the deal (null if not computed).
    """

    status: AnalysisResultStatus
    score: int | None
    accuracy: float | None
    labels: AnalysisResultLabels
    effort: int | None
    placements: list[PlacementAnalysis]
    optimum: HindsightOptimum | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.hindsight_optimum import HindsightOptimum  # noqa: PLC0415

        status: str = self.status

        score: int | None
        score = self.score

        accuracy: float | None
        accuracy = self.accuracy

        labels = self.labels.to_dict()

        effort: int | None
        effort = self.effort

        placements = []
        for placements_item_data in self.placements:
            placements_item = placements_item_data.to_dict()
            placements.append(placements_item)

        optimum: dict[str, Any] | None | Unset
        if isinstance(self.optimum, Unset):
            optimum = UNSET
        elif isinstance(self.optimum, HindsightOptimum):
            optimum = self.optimum.to_dict()
        else:
            optimum = self.optimum

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "score": score,
                "accuracy": accuracy,
                "labels": labels,
                "effort": effort,
                "placements": placements,
            }
        )
        if optimum is not UNSET:
            field_dict["optimum"] = optimum

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analysis_result_labels import AnalysisResultLabels  # noqa: PLC0415
        from ..models.hindsight_optimum import HindsightOptimum  # noqa: PLC0415
        from ..models.placement_analysis import PlacementAnalysis  # noqa: PLC0415

        d = dict(src_dict)
        status = check_analysis_result_status(d.pop("status"))

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        def _parse_accuracy(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        accuracy = _parse_accuracy(d.pop("accuracy"))

        labels = AnalysisResultLabels.from_dict(d.pop("labels"))

        def _parse_effort(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        effort = _parse_effort(d.pop("effort"))

        placements = []
        _placements = d.pop("placements")
        for placements_item_data in _placements:
            placements_item = PlacementAnalysis.from_dict(placements_item_data)

            placements.append(placements_item)

        def _parse_optimum(data: object) -> HindsightOptimum | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                optimum_type_0 = HindsightOptimum.from_dict(data)

                return optimum_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HindsightOptimum | None | Unset, data)

        optimum = _parse_optimum(d.pop("optimum", UNSET))

        analysis_result = cls(
            status=status,
            score=score,
            accuracy=accuracy,
            labels=labels,
            effort=effort,
            placements=placements,
            optimum=optimum,
        )

        analysis_result.additional_properties = d
        return analysis_result

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
