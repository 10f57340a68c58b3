"""Who may use `fluxx-judge serve`: the holder of the token, at the server's own address.

An app served to a browser opens and saves scenario files (in `--root`) with the rights
of the account that runs the server, so the server lets a request in only when

- it carries the token: a random one (`new_token`) or `--token`, in the URL the server
  prints (`/?token=...`); the page then keeps it in a cookie (HttpOnly, SameSite=Strict,
  named after the port, since cookies are shared by every port of a host) so that a
  reload works, and is handed the websocket URL with the token in its path (`/ws/TOKEN`).
  Tokens are compared in constant time (`hmac.compare_digest`). Without it: 403 and a
  short page saying to open the address the server printed;
- its Host names an address the server serves (`host_allowed`): a page of another site
  that has its own domain name point at this machine (DNS rebinding) sends that name,
  and is refused;
- its Origin, when a browser sends one (it always does on a websocket), is the server's
  own: another site's page cannot open the app's websocket, token or not.

textual-serve's script, style sheet and font (`/static/`) need no token: they are the
same for everyone and hold nothing of the user's. The Host and Origin rules hold for them
too.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import re
import secrets
import socket
from dataclasses import dataclass, field

from aiohttp import web

ALL_INTERFACES = ("0.0.0.0", "::", "")
TOKEN_CHARS = re.compile(r"[A-Za-z0-9._~-]{16,200}")
HOST_HEADER = re.compile(r"\[(?P<ip6>[0-9A-Fa-f:.]+)\](?::(?P<port6>\d{1,5}))?|(?P<name>[A-Za-z0-9._-]+)(?::(?P<port>\d{1,5}))?")
# what a page may do: show itself (not inside another site's frame), tell no one its URL
PAGE_HEADERS = {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
                "Content-Security-Policy": "frame-ancestors 'none'", "X-Content-Type-Options": "nosniff"}


def new_token() -> str:
    """A token nobody can guess (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_problem(token: str) -> str | None:
    """Why `token` cannot be a server's token (None: it can)."""
    if not TOKEN_CHARS.fullmatch(token):
        return ("a token is 16 to 200 characters among letters, digits and . _ ~ - (it goes in a URL; "
                "a short one can be guessed)")
    return None


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def machine_names() -> frozenset[str]:
    """This machine's own names, as a phone on the network may reach it."""
    names = {socket.gethostname(), socket.gethostname() + ".local"}
    try:
        names.add(socket.getfqdn())
    except OSError:
        pass
    return frozenset(n.lower().rstrip(".") for n in names if n)


@dataclass(frozen=True)
class Access:
    """The address served (`--host`, `--port`) and the token."""

    host: str
    port: int
    token: str
    names: frozenset[str] = field(default_factory=machine_names)

    @property
    def cookie(self) -> str:
        return f"fluxx-judge-token-{self.port}"

    @property
    def browser_cookie(self) -> str:
        return f"fluxx-judge-browser-{self.port}"

    def host_allowed(self, header: str | None) -> bool:
        """Whether a request's Host header names this server: its port, and a name it answers to."""
        match = HOST_HEADER.fullmatch(header or "")
        if match is None:
            return False
        name = (match["ip6"] or match["name"]).lower().rstrip(".")
        port = match["port6"] or match["port"]
        if (int(port) if port else 80) != self.port:
            return False
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            ip = None
        if self.host in ALL_INTERFACES:         # any address of this machine, or its name
            return ip is not None or name == "localhost" or name in self.names
        if is_loopback(self.host):              # this machine only
            return name == "localhost" or (ip is not None and ip.is_loopback)
        try:
            return ip == ipaddress.ip_address(self.host) or name in self.names
        except ValueError:                      # --host gave a name
            return name == self.host.lower().rstrip(".") or name in self.names

    def token_given(self, request: web.Request) -> str | None:
        return request.match_info.get("token") or request.query.get("token") or request.cookies.get(self.cookie)

    def token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode())


def origin_allowed(request: web.Request) -> bool:
    """No Origin (not a browser's cross-site request), or the server's own."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin.lower() == f"{request.scheme}://{request.headers.get('Host', '')}".lower()


def refused(title: str, text: str) -> web.Response:
    body = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            f"content=\"width=device-width, initial-scale=1\"><title>fluxx-judge: {html.escape(title)}</title></head>"
            f"<body style=\"font-family: sans-serif; max-width: 40em; margin: 2em auto; padding: 0 1em\">"
            f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>")
    return web.Response(status=403, text=body, content_type="text/html", headers=PAGE_HEADERS)


NO_TOKEN = ("This fluxx-judge needs its token",
            "Open the address that `fluxx-judge serve` printed when it started: it ends with ?token=... "
            "That address is the password to this server; ask the person running it.")
WRONG_HOST = ("Not this server's address",
              "fluxx-judge serve answers only at the addresses of the machine it runs on, as it printed them.")
WRONG_ORIGIN = ("Refused: another site's page",
                "Only fluxx-judge's own page may use this server.")


def guard(access: Access):
    """The aiohttp middleware that refuses what this module's docstring says."""

    @web.middleware
    async def middleware(request: web.Request, handler):
        if not access.host_allowed(request.headers.get("Host")):
            return refused(*WRONG_HOST)
        if not origin_allowed(request):
            return refused(*WRONG_ORIGIN)
        route = request.match_info.route.name
        if route != "static" and not access.token_ok(access.token_given(request)):
            return refused(*NO_TOKEN)
        return await handler(request)

    return middleware
