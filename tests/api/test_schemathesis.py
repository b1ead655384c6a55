"""schemathesis against the real app: every check, positive and negative data, on the stateless
operations (the games endpoints have their own stateful run)."""
import schemathesis
from hypothesis import settings
from schemathesis.config import SchemathesisConfig

from service.api import create_app
from service.config import Settings

CONFIG = SchemathesisConfig.from_dict({
    "generation": {"mode": "all", "max-examples": 30},
    "checks": {
        # Schema-valid bodies may still break the rules: an unknown card text, the same card
        # twice in two notations, a pile past 31, an impossible play. JSON Schema cannot say
        # so; those are 422s.
        "positive_data_acceptance": {"expected-statuses": ["2xx", "422"]},
    },
})

app = create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)})
schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG).include(
    tag=["scoring", "health"])


@schema.parametrize()
@settings(deadline=None)
def test_scoring_and_health_responses_match_the_openapi_document(case):
    case.call_and_validate()
