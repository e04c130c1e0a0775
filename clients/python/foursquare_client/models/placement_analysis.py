from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.placement_analysis_label import PlacementAnalysisLabel, check_placement_analysis_label

if TYPE_CHECKING:
    from ..models.analysis_estimate import AnalysisEstimate
    from ..models.card_out import CardOut


T = TypeVar("T", bound="PlacementAnalysis")


@_attrs_define
class PlacementAnalysis:
    """One placement, judged from what the player could see at that moment.

    Attributes:
        number (int): 1 for the first placement.
        card (CardOut): A card. Suits never matter for the rules.
        played (AnalysisEstimate): A placement and what the computer player expected of it, from the public view.
        best (AnalysisEstimate): A placement and what the computer player expected of it, from the public view.
        legal_placements (int):
        forced (bool): Only one legal placement: left out of the accuracy.
        win_probability_loss (float): `best` minus `played` win probability, never below 0.
        expected_score_loss (float): `best` minus `played` expected score, never below 0.
        label (PlacementAnalysisLabel): `best` (the computer player's choice), else by the win-probability loss: `good`
            < 0.01 <= `inaccuracy` < 0.03 <= `mistake` < 0.10 <= `blunder`.
        accuracy (float): lichess's formula on the win-% loss.
    """

    number: int
    card: CardOut
    played: AnalysisEstimate
    best: AnalysisEstimate
    legal_placements: int
    forced: bool
    win_probability_loss: float
    expected_score_loss: float
    label: PlacementAnalysisLabel
    accuracy: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        card = self.card.to_dict()

        played = self.played.to_dict()

        best = self.best.to_dict()

        legal_placements = self.legal_placements

        forced = self.forced

        win_probability_loss = self.win_probability_loss

        expected_score_loss = self.expected_score_loss

        label: str = self.label

        accuracy = self.accuracy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "card": card,
                "played": played,
                "best": best,
                "legal_placements": legal_placements,
                "forced": forced,
                "win_probability_loss": win_probability_loss,
                "expected_score_loss": expected_score_loss,
                "label": label,
                "accuracy": accuracy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analysis_estimate import AnalysisEstimate  # noqa: PLC0415
        from ..models.card_out import CardOut  # noqa: PLC0415

        d = dict(src_dict)
        number = d.pop("number")

        card = CardOut.from_dict(d.pop("card"))

        played = AnalysisEstimate.from_dict(d.pop("played"))

        best = AnalysisEstimate.from_dict(d.pop("best"))

        legal_placements = d.pop("legal_placements")

        forced = d.pop("forced")

        win_probability_loss = d.pop("win_probability_loss")

        expected_score_loss = d.pop("expected_score_loss")

        label = check_placement_analysis_label(d.pop("label"))

        accuracy = d.pop("accuracy")

        placement_analysis = cls(
            number=number,
            card=card,
            played=played,
            best=best,
            legal_placements=legal_placements,
            forced=forced,
            win_probability_loss=win_probability_loss,
            expected_score_loss=expected_score_loss,
            label=label,
            accuracy=accuracy,
        )

        placement_analysis.additional_properties = d
        return placement_analysis

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
