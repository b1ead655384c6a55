"""schemathesis against the analysis operations: documented responses, never a 500."""
import schemathesis
from hypothesis import settings
from schemathesis.config import SchemathesisConfig

from service.api import create_app
from service.config import Settings

CONFIG = SchemathesisConfig.from_dict({
    "generation": {"mode": "all", "max-examples": 60},
    "checks": {
        # Schema-valid bodies may still be impossible positions (an unknown card text, a card
        # held and seen, a hand of the wrong size for the players): those are 422s.
        "positive_data_acceptance": {"expected-statuses": ["2xx", "422"]},
    },
})

app = create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)})
schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG).include(
    tag=["analysis"])


@schema.parametrize()
@settings(deadline=None)
def test_analysis_responses_match_the_openapi_document(case):
    case.call_and_validate()
