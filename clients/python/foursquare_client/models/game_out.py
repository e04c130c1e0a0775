from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.game_out_end_reason_type_0 import GameOutEndReasonType0, check_game_out_end_reason_type_0
from ..models.game_out_status import GameOutStatus, check_game_out_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_out import CardOut
    from ..models.deck_reveal import DeckReveal
    from ..models.fair_play_out import FairPlayOut
    from ..models.pile_out import PileOut
    from ..models.position_out import PositionOut


T = TypeVar("T", bound="GameOut")


@_attrs_define
class GameOut:
    """A game as anyone may see it: everything but the order of the stock.

    Attributes:
        id (UUID):
        player (str):
        status (GameOutStatus):
        end_reason (GameOutEndReasonType0 | None): Why the game was lost (abandoned: left untouched too long, see
            `foursquare expire`); null otherwise.
        score (int | None): Cards left in the stock when won; null until won.
        current_card (CardOut | None): The card drawn and waiting to be placed; null once the game is over.
        stock_count (int): Cards still in the stock, not counting the current card.
        face_down_count (int): Piles whose top card is face down (5 loses).
        placements_count (int):
        piles (list[PileOut]): Sorted by row, then column.
        legal_placements (list[PositionOut]): Where the current card may go, sorted by row then column; empty when over.
        version (int): Bumped by every change (placements, the first hint); the ETag is built on it.
        assisted (bool): Whether the player asked for a hint in this game.
        deck_commitment (str): SHA-256 of the salt and the deck order, fixed when the game was dealt.
        reveal (DeckReveal | None): The deck order and the salt, once the game is over; null before. A daily challenge
            game shows them only once its day has closed (the deal is everybody's).
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        challenge_date (datetime.date | None): The UTC day whose daily challenge this game is (see `GET
            /challenges/{date}`); null for an ordinary game.
        computer (bool | Unset): The computer player's game (a race's computer racer): on no leaderboard. Default:
            False.
        rank (int | None | Unset): A won game's all-time rank on `/leaderboard` (for an assisted game, on the listing
            with `include_assisted=true`); null otherwise. It moves as better games finish: a won game's ETag includes it.
        fair_play (FairPlayOut | None | Unset): A won game without hints is checked by the fair-play review before it
            joins a public board: its state. Null for other games (and for wins from before the review existed).
    """

    id: UUID
    player: str
    status: GameOutStatus
    end_reason: GameOutEndReasonType0 | None
    score: int | None
    current_card: CardOut | None
    stock_count: int
    face_down_count: int
    placements_count: int
    piles: list[PileOut]
    legal_placements: list[PositionOut]
    version: int
    assisted: bool
    deck_commitment: str
    reveal: DeckReveal | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    finished_at: datetime.datetime | None
    challenge_date: datetime.date | None
    computer: bool | Unset = False
    rank: int | None | Unset = UNSET
    fair_play: FairPlayOut | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_out import CardOut  # noqa: PLC0415
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415
        from ..models.fair_play_out import FairPlayOut  # noqa: PLC0415

        id = str(self.id)

        player = self.player

        status: str = self.status

        end_reason: None | str
        if isinstance(self.end_reason, str):
            end_reason = self.end_reason
        else:
            end_reason = self.end_reason

        score: int | None
        score = self.score

        current_card: dict[str, Any] | None
        if isinstance(self.current_card, CardOut):
            current_card = self.current_card.to_dict()
        else:
            current_card = self.current_card

        stock_count = self.stock_count

        face_down_count = self.face_down_count

        placements_count = self.placements_count

        piles = []
        for piles_item_data in self.piles:
            piles_item = piles_item_data.to_dict()
            piles.append(piles_item)

        legal_placements = []
        for legal_placements_item_data in self.legal_placements:
            legal_placements_item = legal_placements_item_data.to_dict()
            legal_placements.append(legal_placements_item)

        version = self.version

        assisted = self.assisted

        deck_commitment = self.deck_commitment

        reveal: dict[str, Any] | None
        if isinstance(self.reveal, DeckReveal):
            reveal = self.reveal.to_dict()
        else:
            reveal = self.reveal

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        challenge_date: None | str
        if isinstance(self.challenge_date, datetime.date):
            challenge_date = self.challenge_date.isoformat()
        else:
            challenge_date = self.challenge_date

        computer = self.computer

        rank: int | None | Unset
        if isinstance(self.rank, Unset):
            rank = UNSET
        else:
            rank = self.rank

        fair_play: dict[str, Any] | None | Unset
        if isinstance(self.fair_play, Unset):
            fair_play = UNSET
        elif isinstance(self.fair_play, FairPlayOut):
            fair_play = self.fair_play.to_dict()
        else:
            fair_play = self.fair_play

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "player": player,
                "status": status,
                "end_reason": end_reason,
                "score": score,
                "current_card": current_card,
                "stock_count": stock_count,
                "face_down_count": face_down_count,
                "placements_count": placements_count,
                "piles": piles,
                "legal_placements": legal_placements,
                "version": version,
                "assisted": assisted,
                "deck_commitment": deck_commitment,
                "reveal": reveal,
                "created_at": created_at,
                "updated_at": updated_at,
                "finished_at": finished_at,
                "challenge_date": challenge_date,
            }
        )
        if computer is not UNSET:
            field_dict["computer"] = computer
        if rank is not UNSET:
            field_dict["rank"] = rank
        if fair_play is not UNSET:
            field_dict["fair_play"] = fair_play

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_out import CardOut  # noqa: PLC0415
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415
        from ..models.fair_play_out import FairPlayOut  # noqa: PLC0415
        from ..models.pile_out import PileOut  # noqa: PLC0415
        from ..models.position_out import PositionOut  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        player = d.pop("player")

        status = check_game_out_status(d.pop("status"))

        def _parse_end_reason(data: object) -> GameOutEndReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_reason_type_0 = check_game_out_end_reason_type_0(data)

                return end_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GameOutEndReasonType0 | None, data)

        end_reason = _parse_end_reason(d.pop("end_reason"))

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        def _parse_current_card(data: object) -> CardOut | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                current_card_type_0 = CardOut.from_dict(data)

                return current_card_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardOut | None, data)

        current_card = _parse_current_card(d.pop("current_card"))

        stock_count = d.pop("stock_count")

        face_down_count = d.pop("face_down_count")

        placements_count = d.pop("placements_count")

        piles = []
        _piles = d.pop("piles")
        for piles_item_data in _piles:
            piles_item = PileOut.from_dict(piles_item_data)

            piles.append(piles_item)

        legal_placements = []
        _legal_placements = d.pop("legal_placements")
        for legal_placements_item_data in _legal_placements:
            legal_placements_item = PositionOut.from_dict(legal_placements_item_data)

            legal_placements.append(legal_placements_item)

        version = d.pop("version")

        assisted = d.pop("assisted")

        deck_commitment = d.pop("deck_commitment")

        def _parse_reveal(data: object) -> DeckReveal | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reveal_type_0 = DeckReveal.from_dict(data)

                return reveal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeckReveal | None, data)

        reveal = _parse_reveal(d.pop("reveal"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

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

        computer = d.pop("computer", UNSET)

        def _parse_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rank = _parse_rank(d.pop("rank", UNSET))

        def _parse_fair_play(data: object) -> FairPlayOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fair_play_type_0 = FairPlayOut.from_dict(data)

                return fair_play_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FairPlayOut | None | Unset, data)

        fair_play = _parse_fair_play(d.pop("fair_play", UNSET))

        game_out = cls(
            id=id,
            player=player,
            status=status,
            end_reason=end_reason,
            score=score,
            current_card=current_card,
            stock_count=stock_count,
            face_down_count=face_down_count,
            placements_count=placements_count,
            piles=piles,
            legal_placements=legal_placements,
            version=version,
            assisted=assisted,
            deck_commitment=deck_commitment,
            reveal=reveal,
            created_at=created_at,
            updated_at=updated_at,
            finished_at=finished_at,
            challenge_date=challenge_date,
            computer=computer,
            rank=rank,
            fair_play=fair_play,
        )

        game_out.additional_properties = d
        return game_out

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
