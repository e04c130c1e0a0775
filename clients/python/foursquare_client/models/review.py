from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.review_decision_type_0 import ReviewDecisionType0, check_review_decision_type_0
from ..models.review_state import ReviewState, check_review_state
from ..models.review_verdict_type_0 import ReviewVerdictType0, check_review_verdict_type_0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.decision import Decision
    from ..models.evidence import Evidence


T = TypeVar("T", bound="Review")


@_attrs_define
class Review:
    """A won game's fair-play review.

    Attributes:
        game_id (UUID):
        player (str):
        registered (bool): Played by an account (false: a guest).
        score (int):
        placements_count (int):
        finished_at (datetime.datetime):
        challenge_date (datetime.date | None):
        state (ReviewState):
        verdict (None | ReviewVerdictType0):
        decision (None | ReviewDecisionType0): A moderator's, on a flagged game.
        attempts (int):
        requested_at (datetime.datetime):
        reviewed_at (datetime.datetime | None):
        evidence (Evidence | None):
        decisions (list[Decision] | Unset):
    """

    game_id: UUID
    player: str
    registered: bool
    score: int
    placements_count: int
    finished_at: datetime.datetime
    challenge_date: datetime.date | None
    state: ReviewState
    verdict: None | ReviewVerdictType0
    decision: None | ReviewDecisionType0
    attempts: int
    requested_at: datetime.datetime
    reviewed_at: datetime.datetime | None
    evidence: Evidence | None
    decisions: list[Decision] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.evidence import Evidence  # noqa: PLC0415

        game_id = str(self.game_id)

        player = self.player

        registered = self.registered

        score = self.score

        placements_count = self.placements_count

        finished_at = self.finished_at.isoformat()

        challenge_date: None | str
        if isinstance(self.challenge_date, datetime.date):
            challenge_date = self.challenge_date.isoformat()
        else:
            challenge_date = self.challenge_date

        state: str = self.state

        verdict: None | str
        if isinstance(self.verdict, str):
            verdict = self.verdict
        else:
            verdict = self.verdict

        decision: None | str
        if isinstance(self.decision, str):
            decision = self.decision
        else:
            decision = self.decision

        attempts = self.attempts

        requested_at = self.requested_at.isoformat()

        reviewed_at: None | str
        if isinstance(self.reviewed_at, datetime.datetime):
            reviewed_at = self.reviewed_at.isoformat()
        else:
            reviewed_at = self.reviewed_at

        evidence: dict[str, Any] | None
        if isinstance(self.evidence, Evidence):
            evidence = self.evidence.to_dict()
        else:
            evidence = self.evidence

        decisions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.decisions, Unset):
            decisions = []
            for decisions_item_data in self.decisions:
                decisions_item = decisions_item_data.to_dict()
                decisions.append(decisions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "player": player,
                "registered": registered,
                "score": score,
                "placements_count": placements_count,
                "finished_at": finished_at,
                "challenge_date": challenge_date,
                "state": state,
                "verdict": verdict,
                "decision": decision,
                "attempts": attempts,
                "requested_at": requested_at,
                "reviewed_at": reviewed_at,
                "evidence": evidence,
            }
        )
        if decisions is not UNSET:
            field_dict["decisions"] = decisions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision import Decision  # noqa: PLC0415
        from ..models.evidence import Evidence  # noqa: PLC0415

        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        player = d.pop("player")

        registered = d.pop("registered")

        score = d.pop("score")

        placements_count = d.pop("placements_count")

        finished_at = datetime.datetime.fromisoformat(d.pop("finished_at"))

        def _parse_challenge_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                challenge_date_type_0 = datetime.date.fromisoformat(data)

                return challenge_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        challenge_date = _parse_challenge_date(d.pop("challenge_date"))

        state = check_review_state(d.pop("state"))

        def _parse_verdict(data: object) -> None | ReviewVerdictType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_0 = check_review_verdict_type_0(data)

                return verdict_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReviewVerdictType0, data)

        verdict = _parse_verdict(d.pop("verdict"))

        def _parse_decision(data: object) -> None | ReviewDecisionType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_type_0 = check_review_decision_type_0(data)

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReviewDecisionType0, data)

        decision = _parse_decision(d.pop("decision"))

        attempts = d.pop("attempts")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        def _parse_reviewed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reviewed_at_type_0 = datetime.datetime.fromisoformat(data)

                return reviewed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        reviewed_at = _parse_reviewed_at(d.pop("reviewed_at"))

        def _parse_evidence(data: object) -> Evidence | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                evidence_type_0 = Evidence.from_dict(data)

                return evidence_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Evidence | None, data)

        evidence = _parse_evidence(d.pop("evidence"))

        _decisions = d.pop("decisions", UNSET)
        decisions: list[Decision] | Unset = UNSET
        if _decisions is not UNSET:
            decisions = []
            for decisions_item_data in _decisions:
                decisions_item = Decision.from_dict(decisions_item_data)

                decisions.append(decisions_item)

        review = cls(
            game_id=game_id,
            player=player,
            registered=registered,
            score=score,
            placements_count=placements_count,
            finished_at=finished_at,
            challenge_date=challenge_date,
            state=state,
            verdict=verdict,
            decision=decision,
            attempts=attempts,
            requested_at=requested_at,
            reviewed_at=reviewed_at,
            evidence=evidence,
            decisions=decisions,
        )

        review.additional_properties = d
        return review

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
