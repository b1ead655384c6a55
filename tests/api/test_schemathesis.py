"""schemathesis against the real app: every check, positive and negative data, on the stateless
operations (the games endpoints have their own stateful run, which the players' join)."""
import schemathesis
from hypothesis import settings

from service.api import create_app
from service.config import Settings
from tests.refusals import config

app = create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)})
schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=config(30)).include(
    tag=["scoring", "health", "players", "images", "webhooks", "push", "leaderboards", "seeks"])


@schema.parametrize()
@settings(deadline=None)
def test_scoring_health_players_and_webhooks_responses_match_the_openapi_document(case):
    case.call_and_validate()
