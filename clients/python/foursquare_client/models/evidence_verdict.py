from typing import Literal

EvidenceVerdict = Literal["clean", "flagged"]

EVIDENCE_VERDICT_VALUES: set[EvidenceVerdict] = {
    "clean",
    "flagged",
}


def check_evidence_verdict(value: str) -> EvidenceVerdict:
    if value in EVIDENCE_VERDICT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVIDENCE_VERDICT_VALUES!r}")
