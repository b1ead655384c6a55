"""schemathesis against the analysis operations, every check: documented responses, never a
500, schema-valid requests refused only as documented."""
import schemathesis
from hypothesis import settings

from service.api import create_app
from service.config import Settings
from tests.refusals import config

app = create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)})
schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=config(60)).include(
    tag=["analysis"])


@schema.parametrize()
@settings(deadline=None)
def test_analysis_responses_match_the_openapi_document(case):
    case.call_and_validate()
