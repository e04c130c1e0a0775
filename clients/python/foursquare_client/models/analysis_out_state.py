from typing import Literal

AnalysisOutState = Literal["done", "failed", "queued", "running"]

ANALYSIS_OUT_STATE_VALUES: set[AnalysisOutState] = {
    "done",
    "failed",
    "queued",
    "running",
}


def check_analysis_out_state(value: str) -> AnalysisOutState:
    if value in ANALYSIS_OUT_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ANALYSIS_OUT_STATE_VALUES!r}")
