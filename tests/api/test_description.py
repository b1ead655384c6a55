"""The document's info.description covers all of the API: every operation is named in it."""


def test_every_operation_is_named_in_the_description(client):
    spec = client.get("/openapi.json").get_json()
    description = spec["info"]["description"]
    unnamed = [f"{method.upper()} {path}" for path, operations in spec["paths"].items()
               for method in operations
               if method != "parameters" and f"{method.upper()} {path}" not in description]
    assert unnamed == []


def test_the_description_links_the_pages_that_show_the_api(client):
    description = client.get("/openapi.json").get_json()["info"]["description"]
    for page in ("/play", "/docs", "/docs/redoc", "/openapi.json"):
        assert f"[`{page}`]({page})" in description
        assert client.get(page).status_code == 200, page
