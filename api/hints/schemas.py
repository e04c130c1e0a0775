"""The hint's response model."""

from __future__ import annotations

from pydantic import (
    ConfigDict,
    Field,
)

from api.core.schemas import PositionOut, ResponseModel


class HintOption(ResponseModel):
    """A legal placement and what the computer player expects of it."""

    placement: PositionOut
    win_probability: float = Field(ge=0, le=1, description="Estimated chance to win from here.")
    expected_score: float = Field(
        ge=0, description="Estimated score, counting a loss as 0 (so at most 24 x win chance)."
    )


class Hint(ResponseModel):
    """The computer player's advice for the current card, from the public state only."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "placement": {"row": 0, "col": 1},
                    "win_probability": 0.97,
                    "expected_score": 14.2,
                    "alternatives": [
                        {
                            "placement": {"row": 1, "col": 0},
                            "win_probability": 0.95,
                            "expected_score": 13.1,
                        }
                    ],
                    "policy": "best",
                    "simulated_placements": 11840,
                }
            ]
        }
    )

    placement: PositionOut = Field(description="Where the computer player would put the card.")
    win_probability: float = Field(ge=0, le=1)
    expected_score: float = Field(ge=0)
    alternatives: list[HintOption] = Field(
        max_length=64, description="Every other legal placement, best first."
    )
    policy: str = Field(description="The computer player that answered.")
    simulated_placements: int = Field(description="The effort spent on this hint.")
