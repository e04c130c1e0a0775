from typing import Literal

PlacementAnalysisLabel = Literal["best", "blunder", "good", "inaccuracy", "mistake"]

PLACEMENT_ANALYSIS_LABEL_VALUES: set[PlacementAnalysisLabel] = {
    "best",
    "blunder",
    "good",
    "inaccuracy",
    "mistake",
}


def check_placement_analysis_label(value: str) -> PlacementAnalysisLabel:
    if value in PLACEMENT_ANALYSIS_LABEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLACEMENT_ANALYSIS_LABEL_VALUES!r}")
