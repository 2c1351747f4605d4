import re

from soundstage.ids import IdSource


def test_ids_are_deterministic_per_seed_and_namespace():
    a, b = IdSource("acme"), IdSource("acme")
    assert [a.slack("U") for _ in range(3)] == [b.slack("U") for _ in range(3)]
    assert IdSource("other").slack("U") != IdSource("acme").slack("U")
    assert a.slack("C") != a.slack("U")


def test_slack_id_format():
    ids = IdSource("acme")
    for prefix in "TUCDGBS":
        assert re.fullmatch(prefix + r"[0-9A-HJ-NP-Z]{10}", ids.slack(prefix))


def test_exact_values():
    ids = IdSource("acme")
    assert ids.slack("U") == IdSource("acme").slack("U")
    assert ids.next("x") == 1 and ids.next("x") == 2
    assert re.fullmatch(r"[0-9a-f]{40}", ids.hex("sha"))
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", ids.uuid("dd"))


def test_copy_goes_on_where_the_original_stopped():
    ids = IdSource("acme")
    ids.slack("U")
    clone = ids.copy()
    assert clone.slack("U") == ids.slack("U")
