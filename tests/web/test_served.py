"""What the service sends for the web client and the docs (no browser): the files, their
types and their Content-Security-Policy, and that none of them names another origin."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import web
from tests.web.service import test_client

CLIENT_FILES = sorted(
    path.relative_to(web.STATIC_DIR).as_posix()
    for path in web.STATIC_DIR.rglob("*")
    if path.is_file()
)


@pytest.fixture
def http(sqlite_url: str) -> TestClient:
    return test_client(sqlite_url)


def test_the_page_is_served_at_the_root_with_a_strict_policy(http: TestClient) -> None:
    response = http.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "unsafe" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert http.head("/").status_code == 200
    # No inline script or style: the policy would refuse them.
    assert not re.search(r"<script(?![^>]*\bsrc=)", response.text)
    assert "<style" not in response.text and " style=" not in response.text


@pytest.mark.parametrize("name", CLIENT_FILES)
def test_every_client_file_is_served_with_its_type_and_names_no_other_origin(
    http: TestClient, name: str
) -> None:
    response = http.get(f"/static/{name}")
    assert response.status_code == 200
    assert "content-security-policy" in response.headers
    kind = {".js": "javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg"}
    assert kind[Path(name).suffix] in response.headers["content-type"]
    urls = re.findall(r"https?://[^\s\"')]+", response.text)
    assert [url for url in urls if url != "http://www.w3.org/2000/svg"] == []


def test_the_docs_load_vendored_files_under_their_own_policies(http: TestClient) -> None:
    swagger = http.get("/docs")
    assert swagger.status_code == 200
    inline = re.findall(r"<script>(.*?)</script>", swagger.text, re.DOTALL)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    policy = swagger.headers["content-security-policy"]
    assert f"script-src 'self' 'sha256-{digest}';" in policy
    redoc = http.get("/redoc")
    assert redoc.status_code == 200
    assert "script-src 'self';" in redoc.headers["content-security-policy"]
    for page in (swagger, redoc):
        assert "cdn.jsdelivr.net" not in page.text and "fonts.googleapis" not in page.text
        for url in re.findall(r'(?:src|href)="([^"]+)"', page.text):
            assert url.startswith("/vendor/"), url
            assert http.get(url).status_code == 200, url
    assert http.get("/openapi.json").status_code == 200


def test_a_missing_file_is_a_problem(http: TestClient) -> None:
    response = http.get("/static/nothing.js")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
