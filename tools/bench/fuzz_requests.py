"""Malformed requests for every route of the app, from a seed.

The routes come from the app's own ``url_map``, so a route added later is
fuzzed without a change here. Each request takes a well-formed one (the
bodies below; ``{}`` for a route this file does not know) and breaks one
thing: the method, the content type, a JSON value's type, an unknown field,
a number (huge, negative, fractional, NaN-like), nesting, string length,
NUL and control characters, a path value, the game version (stale or from
the future), the query string, the Host or the Origin header, or a form field.

>>> from companion.web import create_app
>>> app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "doc"})
>>> probes = fuzz(app, Targets(1, 4, "my-deck"), count=400)
>>> len(probes), len({p.target.split("?")[0].split("/")[1] for p in probes}) > 2
(400, True)
"""
from __future__ import annotations

import io
import json
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable
from urllib.parse import quote

from .attack_run import CSRF, Probe, Targets

SEED = 22
JSON_TYPE = "application/json"
ARGUMENT = re.compile(r"<(?:(?P<converter>[a-z]+)(?:\((?P<options>[^)]*)\))?:)?(?P<name>[a-z_]+)>")
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "BREW", "get"]
CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 "multipart/form-data; boundary=x", "application/json; charset=utf-16", "application/jsonx",
                 "image/jpeg", "video/mp4", "application/octet-stream", "", "application/json, text/html",
                 "APPLICATION/JSON", "application/json; charset=\x00"]
# JSON text put where a value goes: wrong types, numbers past every limit, NaN and its kin
HOSTILE_VALUES = ["null", "true", "false", '""', "[]", "{}", '"1"', "[1]", '{"a": 1}', "0", "-1", "1.0", "0.5",
                  "-0", "1e400", "-1e400", "1e-400", "NaN", "Infinity", "-Infinity", "9223372036854775807",
                  "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1" + "0" * 5000,
                  "123456789012345678901234567890.5"]
HOSTILE_STRINGS = ["", " ", "\u0000", "S\u0000", "\u202eS", "\r\n", "\u0007\u001b[31m", "\ud800", "\ufeffS",
                   "<script>alert(1)</script>", "../../etc/passwd", "%00", "S" * 100, "é" * 1000, "🍕" * 50,
                   "\\", "'; DROP TABLE events; --", "S " * 5000]
PATH_VALUES = ["0", "-1", "9223372036854775807", "9223372036854775808", "18446744073709551616", "1" * 5000,
               "abc", "1.5", "1e3", "\u0663", "0x10", " 1", "1 ", "%00", "..", "%2e%2e", "..%2f..%2fetc",
               "a" * 10000, "%ff%fe", "1%0a", "%c0%ae", "standin", "<script>", "NaN", "+1", "01"]
QUERIES = ["device=", "device=" + "x" * 65, "device=%00", "device=a%0d%0a", "t=NaN", "t=-1", "t=1e400",
           "t=Infinity", "t=" + "9" * 400, "card=%00", "card=" + "S" * 10000, "%ff%fe=%ff", "a=1&a=2&a=3",
           "=&&=&", "next=//evil.example", "next=/%09/evil.example", "demo=1&demo=0", "x" * 100_000,
           "device=cam&device=other", "v=-1", "lang=%00"]
HOSTS = ["attacker.example", "", "localhost:99999", "[::1", "127.0.0.1:abc", "a" * 5000, "localhost\x00.evil",
         "127.0.0.1, evil.example", "LOCALHOST", "127.0.0.1.nip.io", "0x7f.1", "[::ffff:127.0.0.1]", "localhost:",
         "xn--80ak6aa92e.com"]
ORIGINS = ["null", "http://attacker.example", "file://", "http://127.0.0.1.attacker.example", "garbage",
           "http://localhost", "https://127.0.0.1:5000", "http://[::1", "http://" + "a" * 3000, "\x00"]
DEPTHS = [64, 1000, 5000, 100_000]
FORMS: dict[str, dict[str, str]] = {  # a good body for each page form
    "mamma_mia.new_game": {"name0": "Ann", "color0": "green", "name1": "Bob", "color1": "red"},
    "maus.new_game": {"name0": "Ann", "helper0": "mathieu", "name1": "Bob", "helper1": "lilly", "oldest": "0"},
    "pages.join": {"code": "000000", "next": "/"},
    "pages.set_language": {"lang": "nl", "next": "/"},
    "mamma_mia.demo": {},
}
UPLOADS = {"camera.frame", "camera.photo", "camera.video", "decks.add_face", "maus_api.read"}
VERSIONED = {"mamma_mia_api.act", "maus_api.act", "api.undo"}  # writes that name the version they saw


@dataclass(frozen=True)
class Route:
    rule: str
    endpoint: str
    methods: frozenset[str]
    arguments: tuple[tuple[str, str, str], ...]  # (name, converter, its options) in the rule's order

    @property
    def writes(self) -> bool:
        return bool(self.methods & {"POST", "PUT", "PATCH", "DELETE"})


def routes(app: Any) -> list[Route]:
    """Every rule of the app, with its path arguments and their converters;
    but an event stream (``event_stream`` set on its view), whose answer lasts
    as long as the stream: ``tests/web/test_live.py`` tries its refusals and bounds."""
    found = []
    for rule in app.url_map.iter_rules():
        if getattr(app.view_functions.get(rule.endpoint), "event_stream", False):
            continue
        arguments = tuple((m["name"], m["converter"] or "default", m["options"] or "")
                          for m in ARGUMENT.finditer(rule.rule))
        found.append(Route(rule.rule, rule.endpoint, frozenset(rule.methods or ()), arguments))
    return found


def fuzz(app: Any, targets: Targets, count: int = 1000, seed: int = SEED) -> list[Probe]:
    """``count`` malformed requests, going round every (route, kind of damage) pair."""
    rng = random.Random(seed)
    pairs = [(route, breaker) for route in routes(app) for breaker in BREAKERS if breaker.applies(route)]
    rng.shuffle(pairs)
    probes = []
    for index in range(count):
        route, breaker = pairs[index % len(pairs)]
        request = Request.good(route, targets, rng)
        breaker.damage(request, rng, targets)
        probes.append(request.probe(breaker.name))
    return probes


# a request being built ----------------------------------------------------------------------------


@dataclass
class Request:
    route: Route
    method: str
    values: dict[str, str]  # path values, already percent-encoded
    query: str
    headers: dict[str, str]
    fields: dict[str, str] | None  # JSON: each field's value as JSON text
    form: dict[str, str] | None
    raw: bytes | None  # a body that is neither (an upload, or a broken one)

    @classmethod
    def good(cls, route: Route, targets: Targets, rng: random.Random) -> Request:
        method = "POST" if route.writes and "POST" in route.methods else sorted(route.methods - {"OPTIONS", "HEAD"})[0]
        values = {name: _good_value(name, converter, options, targets, rng)
                  for name, converter, options in route.arguments}
        request = cls(route, method, values, "", {}, None, None, None)
        if method in ("POST", "PUT", "PATCH"):
            request._good_body(targets, values)
        if route.endpoint == "camera.frame":
            request.query = f"device=fuzz{rng.randrange(10**6)}&t={rng.randrange(10**9)}"
        return request

    def _good_body(self, targets: Targets, values: dict[str, str]) -> None:
        endpoint = self.route.endpoint
        if endpoint in FORMS:
            self.form = {**FORMS[endpoint], "csrf_token": CSRF.decode()}
        elif endpoint in UPLOADS:
            self.headers["Content-Type"] = "video/x-msvideo" if endpoint == "camera.video" else "image/jpeg"
            self.raw = _small_video() if endpoint == "camera.video" else _small_jpeg()
        else:
            self.headers["Content-Type"] = JSON_TYPE
            self.fields = {k: json.dumps(v) for k, v in _json_body(endpoint, values.get("action"), targets).items()}

    def probe(self, damage: str) -> Probe:
        target = ARGUMENT.sub(lambda m: self.values[m["name"]], self.route.rule)
        if self.query:
            target += "?" + self.query
        what = f"{damage}: {self.method} {target[:100]} ({self.route.endpoint})"
        body = self.body()  # first: a form sets its content type
        return Probe(self.method, target, tuple(self.headers.items()), body, what)

    def body(self) -> bytes:
        if self.raw is not None:
            return self.raw
        if self.fields is not None:
            return ("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in self.fields.items()) + "}").encode(
                "utf-8", "surrogatepass")
        if self.form is not None:
            self.headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
            return "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in self.form.items()).encode()
        return b""


def _quoted(text: str) -> str:
    """Percent-encoded UTF-8, lone surrogates included (as a broken client would send them)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="_")


def _good_value(name: str, converter: str, options: str, targets: Targets, rng: random.Random) -> str:
    if converter == "game":
        return str(targets.game)
    if converter == "any":
        return rng.choice([o.strip(" '\"") for o in options.split(",")])
    if converter == "path":
        return "table.css"
    known = {"deck_id": targets.deck, "slug": "ingredient-salami", "face": "S", "token": "0" * 32}
    return known.get(name, "1")


def _json_body(endpoint: str, action: str | None, targets: Targets) -> dict[str, Any]:
    if endpoint in VERSIONED:
        bodies = {"reveal": {"card": "S"}, "decide": {"accept": True, "choice": None},
                  "end-round": {}, "hands": {"counts": {"green": 1, "red": 2}},
                  "bids": {"coins": [3, 4]}, "combination": {"seat": 0, "cards": ["g3", "g4", "g5"], "change": None},
                  "skip": {"seat": 0}}
        return {**bodies.get(action or "", {}), "version": targets.version}
    return {"mamma_mia_api.create_game": {"players": [{"name": "Ann", "color": "green"},
                                                      {"name": "Bob", "color": "red"}], "doubled": False},
            "maus_api.create_game": {"players": ["Ann", "Bob"], "oldest": 0, "held": ["mathieu", "lilly"]},
            "maus_api.judge": {"seat": 0, "cards": ["g3", "g4", "g5"]},
            "camera.confirm": {"device": "fuzz", "id": 1, "card": "S"},
            "decks.create": {"name": "Fuzz deck", "doubles": True}}.get(endpoint, {})


@lru_cache(maxsize=1)
def _small_jpeg() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 180, 40)).save(out, format="JPEG")
    return out.getvalue()


@lru_cache(maxsize=1)
def _small_video() -> bytes:
    from .hostile_videos import mjpeg_avi

    return mjpeg_avi([_small_jpeg()] * 4, 64, 48)


# the kinds of damage ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Breaker:
    name: str
    applies: Callable[[Route], bool]
    damage: Callable[[Request, random.Random, Targets], None]


def _has_json(route: Route) -> bool:
    return route.writes and route.endpoint not in FORMS and route.endpoint not in UPLOADS


def _field(request: Request, rng: random.Random) -> str:
    """A field of the body to break (a new one when it has none)."""
    fields = request.fields if request.fields is not None else request.form or {}
    names = [k for k in fields if k != "csrf_token"]
    return rng.choice(names) if names else "x"


def _wrong_method(request: Request, rng: random.Random, _: Targets) -> None:
    request.method = rng.choice([m for m in METHODS if m not in request.route.methods])


def _wrong_content_type(request: Request, rng: random.Random, _: Targets) -> None:
    request.headers["Content-Type"] = rng.choice(CONTENT_TYPES)


def _whole_body(request: Request, rng: random.Random, _: Targets) -> None:
    """The body as something other than a JSON object, or not JSON at all."""
    text = rng.choice([*HOSTILE_VALUES, '{"version": 1,}', '{"version": 1', "{'version': 1}", "\ufeff{}",
                       '{"version": 1, "version": 2}', "{" * 3 + "}" * 3, "\x00", "{}" * 1000])
    request.fields, request.raw = None, text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.2:
        request.raw = "{}".encode("utf-16")


def _wrong_value(request: Request, rng: random.Random, _: Targets) -> None:
    request.fields = request.fields or {}
    request.fields[_field(request, rng)] = rng.choice(HOSTILE_VALUES)


def _unknown_field(request: Request, rng: random.Random, _: Targets) -> None:
    request.fields = request.fields or {}
    name = rng.choice(["__proto__", "constructor", "versions", "", "a" * 1000, "\u0000", "VERSION", "id"])
    request.fields[name] = rng.choice(HOSTILE_VALUES[:12])


def _deep(request: Request, rng: random.Random, _: Targets) -> None:
    depth = rng.choice(DEPTHS)
    nested = rng.choice(["[" * depth + "]" * depth, '{"a": ' * depth + "1" + "}" * depth, "[" * depth])
    request.fields = request.fields or {}
    if rng.random() < 0.3:
        request.fields, request.raw = None, nested.encode()
    else:
        request.fields[_field(request, rng)] = nested


def _long_or_odd_string(request: Request, rng: random.Random, _: Targets) -> None:
    value = rng.choice([*HOSTILE_STRINGS, "x" * rng.choice([10_000, 1_000_000])])
    if request.form is not None:
        request.form[_field(request, rng)] = value
        return
    request.fields = request.fields or {}
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
    request.fields[_field(request, rng)] = text if rng.random() < 0.7 else f'[{{"name": {text}, "color": "green"}}]'


def _bad_path_value(request: Request, rng: random.Random, _: Targets) -> None:
    name = rng.choice(request.route.arguments)[0]
    request.values[name] = quote(rng.choice(PATH_VALUES), safe="%.+-_~")  # as a client puts it on the wire


def _version(request: Request, rng: random.Random, targets: Targets) -> None:
    request.fields = request.fields or {}
    request.fields["version"] = str(rng.choice([targets.version - 1, targets.version + 1, targets.version + 10**6,
                                                1, 2**31, 2**62]))


def _odd_query(request: Request, rng: random.Random, _: Targets) -> None:
    request.query = rng.choice(QUERIES)


def _odd_host(request: Request, rng: random.Random, _: Targets) -> None:
    request.headers["Host"] = rng.choice(HOSTS)


def _odd_origin(request: Request, rng: random.Random, _: Targets) -> None:
    request.headers["Origin"] = rng.choice(ORIGINS)
    if rng.random() < 0.3:
        request.headers["Referer"] = "http://attacker.example/"


def _odd_form(request: Request, rng: random.Random, _: Targets) -> None:
    request.form = request.form or {}
    choice = rng.random()
    if choice < 0.2:
        request.form.pop("csrf_token", None)
    elif choice < 0.4:
        request.form[rng.choice(["name0", "color0", "code", "lang", "next", "doubled", "name9"])] = \
            rng.choice(HOSTILE_STRINGS)
    else:
        request.form[_field(request, rng)] = rng.choice([*HOSTILE_STRINGS, "x" * 100_000])


def _garbage_upload(request: Request, rng: random.Random, _: Targets) -> None:
    request.raw = rng.randbytes(rng.choice([0, 1, 100, 100_000]))


BREAKERS = [
    Breaker("method", lambda r: True, _wrong_method),
    Breaker("content-type", lambda r: r.writes, _wrong_content_type),
    Breaker("not-an-object", _has_json, _whole_body),
    Breaker("value", _has_json, _wrong_value),
    Breaker("unknown-field", _has_json, _unknown_field),
    Breaker("nesting", _has_json, _deep),
    Breaker("string", lambda r: _has_json(r) or r.endpoint in FORMS, _long_or_odd_string),
    Breaker("path", lambda r: bool(r.arguments), _bad_path_value),
    Breaker("version", lambda r: r.endpoint in VERSIONED, _version),
    Breaker("query", lambda r: True, _odd_query),
    Breaker("host", lambda r: True, _odd_host),
    Breaker("origin", lambda r: True, _odd_origin),
    Breaker("form", lambda r: r.endpoint in FORMS, _odd_form),
    Breaker("upload", lambda r: r.endpoint in UPLOADS, _garbage_upload),
]
