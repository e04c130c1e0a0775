"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .account_state_type_0 import AccountStateType0
from .analysis_estimate import AnalysisEstimate
from .analysis_out import AnalysisOut
from .analysis_out_state import AnalysisOutState
from .analysis_progress import AnalysisProgress
from .analysis_result import AnalysisResult
from .analysis_result_labels import AnalysisResultLabels
from .analysis_result_status import AnalysisResultStatus
from .around import Around
from .around_period import AroundPeriod
from .around_period_type_0 import AroundPeriodType0
from .best_event import BestEvent
from .best_event_board import BestEventBoard
from .board_ranks import BoardRanks
from .cancelled_event import CancelledEvent
from .card_out import CardOut
from .card_out_suit import CardOutSuit
from .challenge_event import ChallengeEvent
from .challenge_streak_out import ChallengeStreakOut
from .countdown_event import CountdownEvent
from .daily_challenge import DailyChallenge
from .deal_dealt import DealDealt
from .deal_dealt_game import DealDealtGame
from .deal_finished_event import DealFinishedEvent
from .decision import Decision
from .decision_action import DecisionAction
from .decision_in import DecisionIn
from .decision_in_action import DecisionInAction
from .deck_reveal import DeckReveal
from .ended_event import EndedEvent
from .entrant_in import EntrantIn
from .entry import Entry
from .entry_event import EntryEvent
from .evidence import Evidence
from .evidence_agreement import EvidenceAgreement
from .evidence_matches import EvidenceMatches
from .evidence_rule import EvidenceRule
from .evidence_verdict import EvidenceVerdict
from .fair_play_out import FairPlayOut
from .fair_play_out_status import FairPlayOutStatus
from .field_error import FieldError
from .final_event import FinalEvent
from .flip_out import FlipOut
from .game_create import GameCreate
from .game_created import GameCreated
from .game_created_end_reason_type_0 import GameCreatedEndReasonType0
from .game_created_status import GameCreatedStatus
from .game_end_event import GameEndEvent
from .game_end_event_reason_type_0 import GameEndEventReasonType0
from .game_end_event_status import GameEndEventStatus
from .game_in_progress_out import GameInProgressOut
from .game_listed_event import GameListedEvent
from .game_listed_event_reason_type_0 import GameListedEventReasonType0
from .game_listed_event_status import GameListedEventStatus
from .game_out import GameOut
from .game_out_end_reason_type_0 import GameOutEndReasonType0
from .game_out_status import GameOutStatus
from .games_in_progress import GamesInProgress
from .health import Health
from .hindsight_optimum import HindsightOptimum
from .hint import Hint
from .hint_option import HintOption
from .joined import Joined
from .key_create import KeyCreate
from .key_out import KeyOut
from .leaderboard import Leaderboard
from .leaderboard_entry import LeaderboardEntry
from .leaderboard_period_type_0 import LeaderboardPeriodType0
from .list_player_games_status_type_0 import ListPlayerGamesStatusType0
from .new_key_out import NewKeyOut
from .open_race_closed import OpenRaceClosed
from .open_race_out import OpenRaceOut
from .open_race_out_level_type_0 import OpenRaceOutLevelType0
from .open_races import OpenRaces
from .passkey_ceremony import PasskeyCeremony
from .passkey_ceremony_options import PasskeyCeremonyOptions
from .passkey_out import PasskeyOut
from .passkey_registration import PasskeyRegistration
from .passkey_registration_credential import PasskeyRegistrationCredential
from .passkey_sign_in import PasskeySignIn
from .passkey_sign_in_credential import PasskeySignInCredential
from .pile_out import PileOut
from .placement_analysis import PlacementAnalysis
from .placement_analysis_label import PlacementAnalysisLabel
from .placement_created import PlacementCreated
from .placement_history import PlacementHistory
from .placement_in import PlacementIn
from .placement_out import PlacementOut
from .placement_out_status_after import PlacementOutStatusAfter
from .player_create import PlayerCreate
from .player_created import PlayerCreated
from .player_credentials import PlayerCredentials
from .player_game_out import PlayerGameOut
from .player_game_out_end_reason_type_0 import PlayerGameOutEndReasonType0
from .player_game_out_review_type_0 import PlayerGameOutReviewType0
from .player_game_out_status import PlayerGameOutStatus
from .player_games import PlayerGames
from .player_key import PlayerKey
from .player_out import PlayerOut
from .player_race_out import PlayerRaceOut
from .player_race_out_status import PlayerRaceOutStatus
from .player_races import PlayerRaces
from .player_stats_out import PlayerStatsOut
from .player_tournament_out import PlayerTournamentOut
from .player_tournaments import PlayerTournaments
from .position_out import PositionOut
from .problem import Problem
from .queue import Queue
from .race_closed_event import RaceClosedEvent
from .race_create import RaceCreate
from .race_create_level import RaceCreateLevel
from .race_created import RaceCreated
from .race_created_level_type_0 import RaceCreatedLevelType0
from .race_created_status import RaceCreatedStatus
from .race_out import RaceOut
from .race_out_level_type_0 import RaceOutLevelType0
from .race_out_status import RaceOutStatus
from .race_result_event import RaceResultEvent
from .racer_event import RacerEvent
from .racer_event_state import RacerEventState
from .racer_in import RacerIn
from .read_leaderboard_period import ReadLeaderboardPeriod
from .readiness import Readiness
from .reconnect_event import ReconnectEvent
from .recovery_code_sign_in import RecoveryCodeSignIn
from .recovery_codes_out import RecoveryCodesOut
from .rematch_event import RematchEvent
from .review import Review
from .review_decision_type_0 import ReviewDecisionType0
from .review_state import ReviewState
from .review_verdict_type_0 import ReviewVerdictType0
from .schedule_in import ScheduleIn
from .schedule_list import ScheduleList
from .schedule_out import ScheduleOut
from .standings import Standings
from .standings_event import StandingsEvent
from .standings_status import StandingsStatus
from .times_event import TimesEvent
from .timing import Timing
from .tournament_create import TournamentCreate
from .tournament_out import TournamentOut
from .tournament_out_status import TournamentOutStatus
from .tournament_page import TournamentPage
from .tournament_patch import TournamentPatch
from .trophies_out import TrophiesOut
from .win_event import WinEvent
from .winner import Winner
from .your_entry import YourEntry
from .your_game import YourGame

__all__ = (
    "Account",
    "AccountStateType0",
    "AnalysisEstimate",
    "AnalysisOut",
    "AnalysisOutState",
    "AnalysisProgress",
    "AnalysisResult",
    "AnalysisResultLabels",
    "AnalysisResultStatus",
    "Around",
    "AroundPeriod",
    "AroundPeriodType0",
    "BestEvent",
    "BestEventBoard",
    "BoardRanks",
    "CancelledEvent",
    "CardOut",
    "CardOutSuit",
    "ChallengeEvent",
    "ChallengeStreakOut",
    "CountdownEvent",
    "DailyChallenge",
    "DealDealt",
    "DealDealtGame",
    "DealFinishedEvent",
    "Decision",
    "DecisionAction",
    "DecisionIn",
    "DecisionInAction",
    "DeckReveal",
    "EndedEvent",
    "EntrantIn",
    "Entry",
    "EntryEvent",
    "Evidence",
    "EvidenceAgreement",
    "EvidenceMatches",
    "EvidenceRule",
    "EvidenceVerdict",
    "FairPlayOut",
    "FairPlayOutStatus",
    "FieldError",
    "FinalEvent",
    "FlipOut",
    "GameCreate",
    "GameCreated",
    "GameCreatedEndReasonType0",
    "GameCreatedStatus",
    "GameEndEvent",
    "GameEndEventReasonType0",
    "GameEndEventStatus",
    "GameInProgressOut",
    "GameListedEvent",
    "GameListedEventReasonType0",
    "GameListedEventStatus",
    "GameOut",
    "GameOutEndReasonType0",
    "GameOutStatus",
    "GamesInProgress",
    "Health",
    "HindsightOptimum",
    "Hint",
    "HintOption",
    "Joined",
    "KeyCreate",
    "KeyOut",
    "Leaderboard",
    "LeaderboardEntry",
    "LeaderboardPeriodType0",
    "ListPlayerGamesStatusType0",
    "NewKeyOut",
    "OpenRaceClosed",
    "OpenRaceOut",
    "OpenRaceOutLevelType0",
    "OpenRaces",
    "PasskeyCeremony",
    "PasskeyCeremonyOptions",
    "PasskeyOut",
    "PasskeyRegistration",
    "PasskeyRegistrationCredential",
    "PasskeySignIn",
    "PasskeySignInCredential",
    "PileOut",
    "PlacementAnalysis",
    "PlacementAnalysisLabel",
    "PlacementCreated",
    "PlacementHistory",
    "PlacementIn",
    "PlacementOut",
    "PlacementOutStatusAfter",
    "PlayerCreate",
    "PlayerCreated",
    "PlayerCredentials",
    "PlayerGameOut",
    "PlayerGameOutEndReasonType0",
    "PlayerGameOutReviewType0",
    "PlayerGameOutStatus",
    "PlayerGames",
    "PlayerKey",
    "PlayerOut",
    "PlayerRaceOut",
    "PlayerRaceOutStatus",
    "PlayerRaces",
    "PlayerStatsOut",
    "PlayerTournamentOut",
    "PlayerTournaments",
    "PositionOut",
    "Problem",
    "Queue",
    "RaceClosedEvent",
    "RaceCreate",
    "RaceCreated",
    "RaceCreatedLevelType0",
    "RaceCreatedStatus",
    "RaceCreateLevel",
    "RaceOut",
    "RaceOutLevelType0",
    "RaceOutStatus",
    "RaceResultEvent",
    "RacerEvent",
    "RacerEventState",
    "RacerIn",
    "Readiness",
    "ReadLeaderboardPeriod",
    "ReconnectEvent",
    "RecoveryCodeSignIn",
    "RecoveryCodesOut",
    "RematchEvent",
    "Review",
    "ReviewDecisionType0",
    "ReviewState",
    "ReviewVerdictType0",
    "ScheduleIn",
    "ScheduleList",
    "ScheduleOut",
    "Standings",
    "StandingsEvent",
    "StandingsStatus",
    "TimesEvent",
    "Timing",
    "TournamentCreate",
    "TournamentOut",
    "TournamentOutStatus",
    "TournamentPage",
    "TournamentPatch",
    "TrophiesOut",
    "WinEvent",
    "Winner",
    "YourEntry",
    "YourGame",
)
