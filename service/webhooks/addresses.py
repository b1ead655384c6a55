"""The SSRF guard: a webhook URL must name a host whose every address is on the public internet.

The host is resolved at registration and again at each send, and the sender connects to the
very address checked (no second lookup a DNS answer could change in between). Loopback,
private, link-local, IPv6 site-local (fec0::/10: deprecated by RFC 3879, but still routed inside
some networks), multicast, reserved and unspecified addresses are refused, unless
`allow_private` (CRIBBAGE_WEBHOOKS_ALLOW_PRIVATE, for tests and closed networks), which also
allows plain http. An IPv6 address that embeds an IPv4 one (IPv4-mapped, 6to4, Teredo, NAT64)
reaches that IPv4 address: it is judged by it (by both a Teredo address's server and client).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from .errors import WebhookAddressRefused, WebhookUrlInvalid

MAX_URL_LENGTH = 2000
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")   # RFC 6052's well-known prefix

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Target:
    """Where a webhook's POST goes: the URL's parts and the address checked to connect to."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]    # every one checked; the sender tries them in turn


def parse(url: str, allow_private: bool) -> tuple[str, str, int, str]:
    """(scheme, host, port, path and query) of a URL a webhook may have; WebhookUrlInvalid."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookUrlInvalid("not a URL", field="url") from None
    schemes = ("https", "http") if allow_private else ("https",)
    if (len(url) > MAX_URL_LENGTH or not url.isascii() or parts.scheme not in schemes
            or not parts.hostname):  # non-ASCII: http.client could not send it; IDNA is ASCII
        raise WebhookUrlInvalid("a webhook URL is https://host/path", field="url")
    if parts.username or parts.password or parts.fragment:
        raise WebhookUrlInvalid("a webhook URL has no credentials and no fragment", field="url")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def destination(url: str) -> str:
    """The scheme, host and port a webhook URL's requests go to, which the delivery worker's
    bound per destination counts by (the URL itself if it is not one a webhook may have: the
    sender refuses it)."""
    try:
        scheme, host, port, _ = parse(url, allow_private=True)
    except WebhookUrlInvalid:
        return url
    return f"{scheme}://{host}:{port}"


def check(url: str, allow_private: bool) -> Target:
    """The URL's target, its host resolved and every address checked."""
    scheme, host, port, path = parse(url, allow_private)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError):  # no such name; or none a resolver can take (UnicodeError)
        raise WebhookAddressRefused(f"{host} does not resolve", code="webhook_host_unresolved",
                                    field="url", host=host) from None
    addresses = [str(info[4][0]) for info in found]
    if not allow_private:
        for address in addresses:
            if not public(address):
                # The address goes to the log only: a caller told it could map internal names.
                log.info("webhook host %s refused: it resolves to %s", host, address)
                raise WebhookAddressRefused(f"{host} is not allowed: not a public address",
                                            field="url", host=host)
    return Target(scheme, host, port, path, tuple(dict.fromkeys(addresses)))


def public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    embedded = embedded_ipv4(ip) if isinstance(ip, ipaddress.IPv6Address) else ()
    return all(map(_public, embedded)) if embedded else _public(ip)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address reaches: none for a plain IPv6 address."""
    if ip.ipv4_mapped is not None:
        return (ip.ipv4_mapped,)
    if ip.sixtofour is not None:
        return (ip.sixtofour,)
    if ip.teredo is not None:
        return ip.teredo   # (server, client)
    if ip in NAT64:
        return (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    return ()


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    # ipaddress counts site-local addresses as global
    site_local = isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_loopback
                                 or ip.is_link_local or ip.is_private or ip.is_unspecified
                                 or site_local)
