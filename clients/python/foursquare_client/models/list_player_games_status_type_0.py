from typing import Literal

ListPlayerGamesStatusType0 = Literal["in_progress", "lost", "won"]

LIST_PLAYER_GAMES_STATUS_TYPE_0_VALUES: set[ListPlayerGamesStatusType0] = {
    "in_progress",
    "lost",
    "won",
}


def check_list_player_games_status_type_0(value: str) -> ListPlayerGamesStatusType0:
    if value in LIST_PLAYER_GAMES_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_PLAYER_GAMES_STATUS_TYPE_0_VALUES!r}")
