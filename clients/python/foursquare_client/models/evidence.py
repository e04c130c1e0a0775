from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.evidence_verdict import EvidenceVerdict, check_evidence_verdict

if TYPE_CHECKING:
    from ..models.evidence_agreement import EvidenceAgreement
    from ..models.evidence_matches import EvidenceMatches
    from ..models.evidence_rule import EvidenceRule
    from ..models.timing import Timing


T = TypeVar("T", bound="Evidence")


@_attrs_define
class Evidence:
    """What the review read of a game, and what its rule concluded (docs/fairplay.md).

    Attributes:
        verdict (EvidenceVerdict):
        reasons (list[str]): Why it was flagged, in words; empty when clean.
        decisions (int): Placements that had more than one legal cell.
        agreement (EvidenceAgreement): For each level of the computer player, the share of those decisions where the
            placement made was its choice (0 to 1).
        matches (EvidenceMatches):
        mean_loss (float | None): What the placements gave away per decision by the `best` search's own estimates (40 *
            win probability + expected score).
        timing (None | Timing): The placements' timing: evidence for moderators, not part of the rule.
        rule (EvidenceRule): The thresholds the verdict was reached with.
    """

    verdict: EvidenceVerdict
    reasons: list[str]
    decisions: int
    agreement: EvidenceAgreement
    matches: EvidenceMatches
    mean_loss: float | None
    timing: None | Timing
    rule: EvidenceRule
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.timing import Timing  # noqa: PLC0415

        verdict: str = self.verdict

        reasons = self.reasons

        decisions = self.decisions

        agreement = self.agreement.to_dict()

        matches = self.matches.to_dict()

        mean_loss: float | None
        mean_loss = self.mean_loss

        timing: dict[str, Any] | None
        if isinstance(self.timing, Timing):
            timing = self.timing.to_dict()
        else:
            timing = self.timing

        rule = self.rule.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "verdict": verdict,
                "reasons": reasons,
                "decisions": decisions,
                "agreement": agreement,
                "matches": matches,
                "mean_loss": mean_loss,
                "timing": timing,
                "rule": rule,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evidence_agreement import EvidenceAgreement  # noqa: PLC0415
        from ..models.evidence_matches import EvidenceMatches  # noqa: PLC0415
        from ..models.evidence_rule import EvidenceRule  # noqa: PLC0415
        from ..models.timing import Timing  # noqa: PLC0415

        d = dict(src_dict)
        verdict = check_evidence_verdict(d.pop("verdict"))

        reasons = cast(list[str], d.pop("reasons"))

        decisions = d.pop("decisions")

        agreement = EvidenceAgreement.from_dict(d.pop("agreement"))

        matches = EvidenceMatches.from_dict(d.pop("matches"))

        def _parse_mean_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_loss = _parse_mean_loss(d.pop("mean_loss"))

        def _parse_timing(data: object) -> None | Timing:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                timing_type_0 = Timing.from_dict(data)

                return timing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Timing, data)

        timing = _parse_timing(d.pop("timing"))

        rule = EvidenceRule.from_dict(d.pop("rule"))

        evidence = cls(
            verdict=verdict,
            reasons=reasons,
            decisions=decisions,
            agreement=agreement,
            matches=matches,
            mean_loss=mean_loss,
            timing=timing,
            rule=rule,
        )

        evidence.additional_properties = d
        return evidence

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
