"""The SSRF guard: a webhook URL whose host is not on the public internet is refused when it
is registered (422 naming the field, in English and Spanish) and again when it is sent to."""

from __future__ import annotations

import ipaddress
import logging

import pytest

from service.webhooks import addresses
from service.webhooks.errors import WebhookAddressRefused, WebhookUrlInvalid
from service.webhooks.sender import SendPolicy, post
from tests.games.conftest import make_app
from tests.games.helpers import HUMAN, Player, create

REFUSED = ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
           "224.0.0.1", "240.0.0.1", "100.64.0.1", "::1", "fe80::1", "fc00::1", "ff02::1",
           "fec0::1", "feff:ffff::1",  # site-local: deprecated, still private
           "::ffff:127.0.0.1", "::ffff:10.0.0.1", "192.0.2.1", "198.18.0.1"]


@pytest.mark.parametrize("address", REFUSED)
def test_addresses_off_the_public_internet_are_not_public(address):
    assert not addresses.public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are_public(address):
    assert addresses.public(address)


# IPv6 forms that embed an IPv4 address, by the IPv4 address they reach. Teredo: server
# 65.54.227.120 (4136:e378), the client's address inverted (93.184.216.34: a247:27dd).
EMBEDDING = {
    "IPv4-mapped": {"127.0.0.1": "::ffff:7f00:1", "10.0.0.1": "::ffff:a00:1",
                    "93.184.216.34": "::ffff:5db8:d822"},
    "6to4": {"127.0.0.1": "2002:7f00:1::", "10.0.0.1": "2002:a00:1::1",
             "93.184.216.34": "2002:5db8:d822::1"},
    "Teredo": {"127.0.0.1": "2001:0:4136:e378:8000:63bf:80ff:fffe",
               "10.0.0.1": "2001:0:4136:e378:8000:63bf:f5ff:fffe",
               "93.184.216.34": "2001:0:4136:e378:8000:63bf:a247:27dd"},
    "NAT64": {"127.0.0.1": "64:ff9b::7f00:1", "10.0.0.1": "64:ff9b::a00:1",
              "93.184.216.34": "64:ff9b::5db8:d822"},
}


@pytest.mark.parametrize("form", sorted(EMBEDDING))
@pytest.mark.parametrize("ipv4, is_public", [("127.0.0.1", False), ("10.0.0.1", False),
                                              ("93.184.216.34", True)])
def test_an_ipv6_address_embedding_an_ipv4_one_is_judged_by_it(form, ipv4, is_public):
    address = EMBEDDING[form][ipv4]
    assert addresses.public(address) is is_public
    assert addresses.embedded_ipv4(ipaddress.IPv6Address(address))[-1:] == (
        ipaddress.IPv4Address(ipv4),)


def test_a_teredo_address_through_a_private_server_is_refused():
    assert not addresses.public("2001:0:a00:1:8000:63bf:a247:27dd")   # server 10.0.0.1


@pytest.mark.parametrize("url", ["https://127.0.0.1/hook", "https://localhost:8443/hook",
                                 "https://[::1]/hook", "https://10.0.0.8/hook",
                                 "https://[fec0::8]/hook",
                                 "https://169.254.169.254/latest/meta-data"])
def test_a_url_resolving_to_a_private_address_is_refused(url):
    with pytest.raises(WebhookAddressRefused) as refused:
        addresses.check(url, allow_private=False)
    assert refused.value.field == "url"


@pytest.mark.parametrize("url", ["http://push.example/hook", "ftp://push.example/",
                                 "https://user:pw@push.example/", "https:///nohost",
                                 "https://push.example/#fragment", "not a url",
                                 "https://push.example:99999/", "https://push.example/café",
                                 "https://bücher.example/hook"])
def test_a_url_that_is_not_plain_https_is_refused(url):
    with pytest.raises(WebhookUrlInvalid):
        addresses.check(url, allow_private=False)


def test_plain_http_and_loopback_are_allowed_when_private_addresses_are():
    target = addresses.check("http://localhost:8080/hook?x=1", allow_private=True)
    assert (target.scheme, target.host, target.port, target.path) == (
        "http", "localhost", 8080, "/hook?x=1")
    assert "127.0.0.1" in target.addresses


def test_the_sender_checks_again_and_never_connects_to_a_refused_address():
    outcome = post("https://127.0.0.1:9/hook", b"{}", {}, SendPolicy(allow_private=False))
    assert (outcome.status, outcome.delivered) == (None, False)
    assert outcome.error == "refused: 127.0.0.1 is not allowed: not a public address"


@pytest.fixture
def guarded_client(store, clock):
    return make_app(store, clock).test_client()


@pytest.mark.parametrize("language, title, detail", [
    ("en", "Webhook address refused",
     "url: the host localhost is not allowed: a webhook host must resolve to public internet "
     "addresses only (not private, loopback, link-local or reserved ones)"),
    ("es", "Dirección de webhook rechazada",
     "url: el host localhost no está permitido: un host de webhook debe resolverse solo a "
     "direcciones públicas de internet (no privadas, de loopback, de enlace local ni "
     "reservadas)"),
])
def test_registering_a_private_address_is_a_422_naming_the_field_not_the_address(
        guarded_client, language, title, detail, caplog):
    """The address a name resolves to is logged, never told: else anyone could map internal
    names through the service's resolver."""
    ana = Player.creator(guarded_client, create(guarded_client, [HUMAN, HUMAN]))
    with caplog.at_level(logging.INFO, logger="service.webhooks.addresses"):
        response = guarded_client.post(f"/v1/games/{ana.game_id}/webhooks",
                                       json={"url": "https://localhost/hook"},
                                       headers=ana.headers(Accept_Language=language))
    body = response.get_json()
    assert response.status_code == 422
    assert body == {"type": "urn:cribbage:problem:webhook_address_refused", "title": title,
                    "status": 422, "detail": detail, "code": "webhook_address_refused",
                    "field": "url"}
    assert {f"webhook host localhost refused: it resolves to {loopback}"
            for loopback in ("127.0.0.1", "::1")} & set(caplog.messages)


@pytest.mark.parametrize("language, detail", [
    ("en", "url: a webhook URL is https://host/path, without credentials or a fragment"),
    ("es", "url: una URL de webhook es https://host/ruta, sin credenciales ni fragmento"),
])
def test_registering_plain_http_is_a_422_naming_the_field(guarded_client, language, detail):
    ana = Player.creator(guarded_client, create(guarded_client, [HUMAN, HUMAN]))
    response = guarded_client.post(f"/v1/games/{ana.game_id}/webhooks",
                                   json={"url": "http://push.example/hook"},
                                   headers=ana.headers(Accept_Language=language))
    body = response.get_json()
    assert (response.status_code, body["code"], body["field"], body["detail"]) == (
        422, "invalid_webhook_url", "url", detail)


def test_a_host_that_does_not_resolve_is_refused_by_name():
    with pytest.raises(WebhookAddressRefused) as refused:
        addresses.check("https://no-such-host.invalid/hook", allow_private=False)
    assert (refused.value.code, refused.value.field, refused.value.params) == (
        "webhook_host_unresolved", "url", {"host": "no-such-host.invalid"})
