"""The pictures: a show and a pegging board as SVG, worded in the request's language."""
from __future__ import annotations

import re
from xml.etree import ElementTree

from service.api.images import examples

SVG = "{http://www.w3.org/2000/svg}"


def picture(response) -> ElementTree.Element:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response.headers["Content-Security-Policy"] == \
        "default-src 'none'; style-src 'unsafe-inline'"
    return ElementTree.fromstring(response.data)


def texts(root: ElementTree.Element) -> list[str]:
    return [element.text for element in root.iter(f"{SVG}text")]


def labelled_groups(root: ElementTree.Element) -> list[str]:
    return [group.get("aria-label") for group in root.iter(f"{SVG}g") if group.get("aria-label")]


def test_a_show_is_drawn_with_its_cards_points_and_count_in_words(client):
    root = picture(client.get("/v1/show/image.svg?hand=5H,5S,6D,4C&starter=JH"))
    assert root.find(f"{SVG}title").text == (
        "Hand: 5H 5S 6D 4C; Starter: JH; 16 points. fifteen two, fifteen four, fifteen six, "
        "fifteen eight and a double run of three makes sixteen")
    assert labelled_groups(root) == ["Hand", "5H", "5S", "6D", "4C", "Starter", "JH"]
    lines = texts(root)
    assert lines[-9:] == [
        "fifteen 5H JH for 2", "fifteen 5S JH for 2", "fifteen 4C 5H 6D for 2",
        "fifteen 4C 5S 6D for 2", "pair 5H 5S for 2", "run 4C 5H 6D for 3",
        "run 4C 5S 6D for 3", "fifteen two, fifteen four, fifteen six, fifteen eight and a",
        "double run of three makes sixteen"]
    assert "16" in lines and "points" in lines


def test_a_crib_in_spanish_names_the_crib_and_counts_only_a_flush_with_the_starter(client):
    response = client.get("/v1/show/image.svg?hand=2H,4H,6H,8H&starter=KS&crib=true",
                          headers={"Accept-Language": "es"})
    root = picture(response)
    assert response.headers["Content-Language"] == "es"
    assert root.find(f"{SVG}title").text == (
        "Cuna: 2H 4H 6H 8H; Carta de corte: KS; 0 puntos. ningún punto")
    assert labelled_groups(root)[0] == "Cuna"


def test_cards_in_words_are_read_and_drawn_canonically(client):
    root = picture(client.get("/v1/show/image.svg?hand=cinco de corazones,5♠,6d,4 c&starter=j h"))
    assert labelled_groups(root) == ["Hand", "5H", "5S", "6D", "4C", "Starter", "JH"]


def test_a_card_that_is_not_a_card_is_a_problem_naming_it(client):
    response = client.get("/v1/show/image.svg?hand=5H,5S,6D,5X&starter=JH",
                          headers={"Accept-Language": "es"})
    assert response.status_code == 422
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.get_json() == {
        "type": "urn:cribbage:problem:unknown_card", "title": "Carta desconocida",
        "status": 422, "detail": 'hand[3]: "5X" no es una carta', "code": "unknown_card",
        "field": "hand[3]", "index": 3}


def test_the_starter_in_the_hand_is_a_duplicate_card(client):
    response = client.get("/v1/show/image.svg?hand=5H,5S,6D,4C&starter=5h")
    assert response.status_code == 422
    assert response.get_json() == {
        "type": "urn:cribbage:problem:duplicate_card", "title": "Duplicate card",
        "status": 422, "detail": "starter: 5H appears more than once", "code": "duplicate_card",
        "field": "starter"}


def test_a_hand_of_three_cards_is_refused(client):
    response = client.get("/v1/show/image.svg?hand=5H,5S,6D&starter=JH")
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"query.hand": ["Length must be between 4 and 5."]}


def peg_positions(root: ElementTree.Element, side: str) -> list[tuple[str, str]]:
    """The (cx, cy) of the two pegs of `side`: the last two circles of its group."""
    group = next(group for group in root.iter(f"{SVG}g") if group.get("aria-label") == side)
    return [(circle.get("cx"), circle.get("cy")) for circle in group.iter(f"{SVG}circle")][-2:]


def test_a_board_shows_each_side_with_its_score_and_both_pegs(client):
    root = picture(client.get(
        "/v1/board/image.svg?scores=45,38&previous=37,30&names=Ana,Bea"))
    assert root.find(f"{SVG}title").text == "Pegging board, game to 121: Ana 45, Bea 38"
    assert texts(root) == ["Ana: 45", "Bea: 38"]
    ana = next(group for group in root.iter(f"{SVG}g") if group.get("aria-label") == "Ana")
    assert len(list(ana.iter(f"{SVG}circle"))) == 122 + 2  # the start, 121 holes, two pegs
    # Holes are 10 apart, with 6 more between groups of five, after a margin of 16 and the
    # start hole's 18: hole 37 (the 37th of the first row) is at 16 + 18 + 36 * 10 + 7 * 6 + 5.
    # Rows of 40 start at y 68, 40 apart; each side's track is 14 high.
    assert peg_positions(root, "Ana") == [("441", "75"), ("79", "115")]
    assert peg_positions(root, "Bea") == [("359", "89"), ("451", "89")]


def test_a_board_of_three_unnamed_sides_in_spanish_names_them_by_number(client):
    root = picture(client.get("/v1/board/image.svg?scores=0,5,61&target=61",
                              headers={"Accept-Language": "es"}))
    assert root.find(f"{SVG}title").text == \
        "Tablero, partida a 61: Bando 1 0, Bando 2 5, Bando 3 61"
    assert texts(root) == ["Bando 1: 0", "Bando 2: 5", "Bando 3: 61"]


def test_a_back_peg_ahead_of_its_front_peg_is_refused_in_the_callers_language(client):
    response = client.get("/v1/board/image.svg?scores=45,38&previous=47,30",
                          headers={"Accept-Language": "es"})
    assert response.status_code == 422
    assert response.get_json() == {
        "type": "urn:cribbage:problem:validation_failed", "title": "Petición no válida",
        "status": 422, "detail": "La petición no es válida: query.previous",
        "code": "validation_failed",
        "errors": {"query.previous": ["Una clavija trasera va por delante de la delantera."]}}


def test_a_score_past_the_target_is_refused(client):
    response = client.get("/v1/board/image.svg?scores=45,122")
    assert response.status_code == 422
    assert response.get_json()["errors"] == {
        "query.scores": ["A score is past the target of 121."]}


def test_names_must_be_one_per_score(client):
    response = client.get("/v1/board/image.svg?scores=45,12&names=Ana,Bea,Cris")
    assert response.status_code == 422
    assert response.get_json()["errors"] == {
        "query.names": ["Give one for each of the 2 scores."]}


def test_a_score_that_is_not_a_number_is_refused_by_position(client):
    response = client.get("/v1/board/image.svg?scores=x,38")
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"query.scores[0]": ["Not a valid integer."]}


def test_the_document_describes_both_pictures_as_svg(client):
    spec = client.get("/openapi.json").get_json()
    for path in ("/v1/show/image.svg", "/v1/board/image.svg"):
        content = spec["paths"][path]["get"]["responses"]["200"]["content"]
        assert list(content) == ["image/svg+xml"]
        assert re.match(r"<svg ", content["image/svg+xml"]["example"])


def test_the_documented_examples_are_what_the_service_draws_for_the_example_queries(client):
    spec = client.get("/openapi.json").get_json()
    for path, query in (("/v1/show/image.svg", examples.SHOW_QUERY),
                        ("/v1/board/image.svg", examples.BOARD_QUERY)):
        documented = spec["paths"][path]["get"]["responses"]["200"]["content"][
            "image/svg+xml"]["example"]
        drawn = client.get(f"{path}?{query}").get_data(as_text=True)
        assert documented.partition("</title>")[0] == drawn.partition("</title>")[0]
