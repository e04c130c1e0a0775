"""The one settings object the operator sees, though each feature declares its own fields:
every variable of docs/operations.md's tables of settings is a field with the default it
documents, and each feature's class reads and checks its variables as the whole does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from pydantic_settings import BaseSettings

from api.accounts import AccountSettings
from api.core.settings import CoreSettings, SettingsBase
from api.ops.settings import OpsSettings
from api.settings import Settings

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def documented() -> dict[str, str]:
    """Each variable of the tables of settings (the configuration table, and the heads' and
    bodies' limits' under "Clients that go away") and the default the table states for it."""
    found: dict[str, str] = {}
    for row in OPERATIONS.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`FOURSQUARE_"):
            continue
        names = re.findall(r"`([A-Z_…]+)`", cells[0])
        defaults = re.split(r" / |, ", cells[1]) if len(names) > 1 else [cells[1]]
        assert len(defaults) == len(names), row
        first = names[0]
        for name, default in zip(names, defaults, strict=True):
            if not name.startswith("FOURSQUARE_"):
                # `_PLACE` (or `_PLACE_…`) after FOURSQUARE_RATE_LIMIT_CREATE(_PER_ADDRESS):
                # the limit's kind, in the place of the first one's.
                kind = name.strip("_…")
                name = re.sub(r"^(FOURSQUARE_RATE_LIMIT_)[A-Z]+", rf"\g<1>{kind}", first)
            found[name] = default.strip("`")
    return found


def same(written: str, value: object) -> bool:
    """Whether the table's ``written`` default is ``value``."""
    if value is None:
        return written == "unset"
    if value == []:
        return written == "empty"
    if isinstance(value, bool):
        # FOURSQUARE_METRICS is written on|off, the other switches true|false.
        return written in (("true", "on") if value else ("false", "off"))
    if isinstance(value, int | float):
        return re.fullmatch(r"[0-9.]+", written) is not None and float(written) == value
    return written == str(value)


def test_every_documented_variable_is_a_setting_with_its_documented_default() -> None:
    table = documented()
    assert len(table) > 60
    fields = Settings.model_fields
    for variable, default in table.items():
        name = variable.removeprefix("FOURSQUARE_").lower()
        assert name in fields, f"{variable} is documented but no setting"
        value = fields[name].get_default(call_default_factory=True)
        assert same(default, value), f"{variable}: {default} documented, {value!r} in force"
    undocumented = {f"FOURSQUARE_{name.upper()}" for name in fields} - set(table)
    assert undocumented == set()


def test_the_settings_are_every_features_and_their_fields_are_declared_once() -> None:
    bases = [base for base in Settings.__mro__ if base not in (Settings, SettingsBase)]
    groups = [base for base in bases if issubclass(base, SettingsBase)]
    assert CoreSettings in groups and OpsSettings in groups and AccountSettings in groups
    owners: dict[str, list[str]] = {}
    for group in groups:
        for name in group.__annotations__:
            owners.setdefault(name, []).append(group.__name__)
    assert {name: where for name, where in owners.items() if len(where) > 1} == {}
    assert set(owners) == set(Settings.model_fields)
    assert issubclass(Settings, BaseSettings)
    assert Settings.model_config["env_prefix"] == "FOURSQUARE_"


def test_each_classes_validators_run_in_the_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # Validators are merged by name across the bases: two of one name would leave one.
    monkeypatch.setenv("FOURSQUARE_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("FOURSQUARE_PASSKEY_ORIGINS", "https://c.example ,https://d.example")
    monkeypatch.setenv("FOURSQUARE_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8")
    settings = Settings()
    assert settings.cors_origins == ["https://a.example", "https://b.example"]
    assert settings.passkey_origins == ["https://c.example", "https://d.example"]
    assert [str(network) for network in settings.trusted_proxies] == ["127.0.0.1/32", "10.0.0.0/8"]
    assert AccountSettings().passkey_origins == settings.passkey_origins
    assert OpsSettings().cors_origins == settings.cors_origins


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("FOURSQUARE_RATE_LIMIT_READ", "often"),
        ("FOURSQUARE_SIGN_IN_FAILURES", "5 a minute"),
        ("FOURSQUARE_REDIS_URL", "http://cache:6379"),
        ("FOURSQUARE_OPERATOR_KEYS", "ana:short"),
        ("FOURSQUARE_DB_POOL_SIZE", "0"),
        ("FOURSQUARE_EVENTS_QUEUE", "0"),
        ("FOURSQUARE_RACE_COUNTDOWN_SECONDS", "61"),
        ("FOURSQUARE_RACE_LOBBY_MINUTES", "0"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert variable.removeprefix("FOURSQUARE_").lower() in str(refused.value)
