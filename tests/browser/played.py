"""Games as the table plays them, as file-format deals: entered through the pages by the
browser tests."""

from __future__ import annotations


def kh(taker, doubled_by=None):
    return {"taker": taker, **({} if doubled_by is None else {"doubled_by": doubled_by})}


def queens(spades, hearts, diamonds, clubs):
    return {"spades": spades, "hearts": hearts, "diamonds": diamonds, "clubs": clubs}


def deal(king, contract, **result):
    return {"king": king, "contracts": [contract], **result}


#: Twenty scored deals and a thrown-in one: four kingdoms, Aya first (she holds the 7♥).
GAME = [
    deal(0, "king_of_hearts", king_of_hearts=kh(2, doubled_by=2)),  # doubled, the holder takes it
    deal(0, "diamonds", diamonds=[4, 3, 5, 1]),
    deal(0, "queens", queens=queens(kh(3, 1), kh(0, 0), kh(2), kh(1))),  # two doubled queens
    deal(0, "collections", tricks=[3, 4, 2, 4]),
    deal(0, "trex", trex_order=[2, 0, 3, 1]),
    {"king": 1, "thrown_in": {"reason": "trex-twos", "by": 3}},
    deal(1, "trex", trex_order=[1, 3, 0, 2]),
    deal(1, "king_of_hearts", king_of_hearts=kh(0)),
    deal(1, "diamonds", diamonds=[2, 2, 6, 3]),
    deal(1, "queens", queens=queens(kh(0), kh(1, 2), kh(3), kh(3))),
    deal(1, "collections", tricks=[5, 1, 4, 3]),
    deal(2, "collections", tricks=[2, 6, 3, 2]),
    deal(2, "king_of_hearts", king_of_hearts=kh(1, doubled_by=3)),
    deal(2, "trex", trex_order=[3, 2, 1, 0]),
    deal(2, "queens", queens=queens(kh(2), kh(2), kh(0), kh(1))),
    deal(2, "diamonds", diamonds=[3, 3, 3, 4]),
    deal(3, "diamonds", diamonds=[0, 6, 4, 3]),
    deal(3, "queens", queens=queens(kh(1, 1), kh(3), kh(0, 0), kh(2))),
    deal(3, "trex", trex_order=[0, 1, 2, 3]),
    deal(3, "collections", tricks=[4, 4, 4, 1]),
    deal(3, "king_of_hearts", king_of_hearts=kh(3)),
]
#: The same night with four more redeals: twenty-five deals, as a long night has.
LONG_GAME = (
    [{"king": 0, "thrown_in": {"reason": "misdeal", "by": 2}}]
    + GAME[:11]
    + [{"king": 2, "thrown_in": {"reason": "kh-redeal", "by": 1}}]
    + GAME[11:16]
    + [
        {"king": 3, "thrown_in": {"reason": "other", "by": 0}},
        {"king": 3, "thrown_in": {"reason": "trex-twos", "by": 3}},
    ]
    + GAME[16:]
)
#: After deal 12, deal 2 is corrected: the diamonds were miscounted.
CORRECTED = (2, deal(0, "diamonds", diamonds=[2, 4, 5, 2]))
