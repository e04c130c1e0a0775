from typing import Literal

AnalysisResultStatus = Literal["in_progress", "lost", "won"]

ANALYSIS_RESULT_STATUS_VALUES: set[AnalysisResultStatus] = {
    "in_progress",
    "lost",
    "won",
}


def check_analysis_result_status(value: str) -> AnalysisResultStatus:
    if value in ANALYSIS_RESULT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ANALYSIS_RESULT_STATUS_VALUES!r}")
