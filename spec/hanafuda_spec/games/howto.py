"""How to play: the plain-language introduction that opens each rulebook, declared as data.

Every sentence names the rule ids it summarises, so the introduction can never say something the
catalogue does not: a test checks that every id exists in the game's catalogue, and the own-words
test reads these sentences too. The rulebook adds generated material after a section's sentences
where the section asks for it (``show``): the deck's pictures, the yaku with their cards, the
card-value tables, the example round.

>>> howto = HOWTO["koikoi"]
>>> howto.sections[0].title
'The object of the game'
>>> howto.sections[0].lines[0].rules
('KK-EQ-1', 'KK-SCORE-1')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HOWTO", "SHOWS", "HowToPlay", "Line", "Section"]

#: What the rulebook may add after a section's sentences.
SHOWS = ("", "deck", "yaku", "values", "example")


@dataclass(frozen=True)
class Line:
    """One sentence of the introduction and the rules it summarises (at least one)."""

    text: str
    rules: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.rules:
            raise ValueError(f"sentence without a rule id: {self.text!r}")


@dataclass(frozen=True)
class Section:
    """A heading, its sentences, and what generated material follows them (see :data:`SHOWS`)."""

    title: str
    lines: tuple[Line, ...]
    show: str = ""

    def __post_init__(self) -> None:
        if self.show not in SHOWS:
            raise ValueError(f"section {self.title!r}: unknown show {self.show!r}")


@dataclass(frozen=True)
class HowToPlay:
    """The introduction of one game's rulebook."""

    game: str
    sections: tuple[Section, ...]

    def rule_ids(self) -> tuple[str, ...]:
        return tuple(r for s in self.sections for line in s.lines for r in line.rules)


def _l(text: str, *rules: str) -> Line:
    return Line(text, rules)


KOIKOI = HowToPlay("koikoi", (
    Section("The object of the game", (
        _l("Two players race to collect sets of cards, called yaku; only the player who stops the round "
           "scores, so each yaku brings a choice between banking the points and playing on for more.",
           "KK-EQ-1", "KK-SCORE-1"),
        _l("A game runs for twelve rounds unless the players agree on fewer, and the higher total wins.",
           "KK-GAME-1", "KK-GAME-2"),
    )),
    Section("The deck", (
        _l("The whole 48-card hanafuda deck is used: twelve months of four cards each.", "KK-EQ-1"),
        _l("Cards of one month match each other; what kind a card is (Bright, Animal, Ribbon or Chaff) "
           "matters only for the yaku.", "KK-CAP-1", "KK-YAKU-1"),
    ), "deck"),
    Section("The deal", (
        _l("The dealer (oya) gives eight cards each to the opponent, to the table face up and to themselves, "
           "a few at a time; the remaining 24 cards form the draw pile.", "KK-DEAL-1"),
        _l("When the table shows four cards of one month, or four pairs, the cards are gathered and dealt "
           "again.", "KK-DEAL-3"),
        _l("A hand dealt all four cards of a month, or four pairs, is a lucky hand: it wins the round "
           "straight away for 6 points.", "KK-DEAL-4", "KK-DEAL-6"),
    )),
    Section("A turn", (
        _l("The dealer starts and the players take turns.", "KK-TURN-1"),
        _l("On your turn you play one card from your hand, then turn over the top card of the draw pile and "
           "play it too.", "KK-TURN-2"),
        _l("A card that finds a table card of its month takes it, and both go to your capture pile; with two "
           "to choose from you pick one, and with three you take all of them.", "KK-CAP-1", "KK-CAP-2",
           "KK-CAP-3"),
        _l("A card with no partner on the table simply stays there; you may play such a card even when "
           "another card of yours could capture.", "KK-CAP-4", "KK-CAP-5"),
        _l("If your captures now make a new yaku or a better one, you choose: call koi-koi to go on, or "
           "shōbu to stop the round and score.", "KK-TURN-3"),
    )),
    Section("The yaku", (
        _l("Yaku come in groups (Brights, Animals, Ribbons and the rest); in each group only the best one "
           "counts, while the yaku outside those three groups all add up.", "KK-YAKU-1"),
        _l("The five Brights make the richest yaku; the Boar, Deer and Butterflies, the red Poetry Ribbons "
           "and the Blue Ribbons make the famous small ones; and any ten Chaff make a yaku too.",
           "KK-YAKU-2", "KK-YAKU-6", "KK-YAKU-9", "KK-YAKU-10", "KK-YAKU-15"),
        _l("The Sake Cup joins the Curtain or the Moon for the two viewing yaku.", "KK-YAKU-12", "KK-YAKU-13"),
    ), "yaku"),
    Section("Scoring and settlement", (
        _l("Only the player who calls shōbu scores: the sum of their yaku, doubled when it reaches 7, and "
           "doubled again if the opponent had called koi-koi in the round.", "KK-SCORE-1"),
        _l("If both hands run out before anyone stops, nobody scores and the dealer deals again.", "KK-END-1",
           "KK-END-2"),
    )),
    Section("The end", (
        _l("The winner of a round deals the next one.", "KK-END-3"),
        _l("After the last round the higher total wins; equal totals make a drawn game.", "KK-GAME-1",
           "KK-GAME-2"),
    ), "example"),
))

KUSURIGUI = HowToPlay("kusurigui", (
    Section("The object of the game", (
        _l("Two players play cards onto one shared discard pile; matching the top card wins the whole pile, "
           "and the dekiyaku in your captures are paid in chips at the end of the round.", "KG-PLAY-2",
           "KG-SCORE-1"),
        _l("Snapping up a card your opponent has just put on an empty pile, a Kusuri-gui, makes them pay you "
           "at once.", "KG-PAY-1"),
        _l("After twelve rounds the player with more chips wins.", "KG-GAME-1", "KG-GAME-2"),
    )),
    Section("The deck", (
        _l("Forty-four hanafuda cards are used: the deck without two Chaff of the Bush Clover and two of the "
           "Maple.", "KG-EQ-1"),
        _l("The four willows are wild, and each player starts with 100 chips.", "KG-ONI-1", "KG-EQ-2"),
    ), "deck"),
    Section("The deal", (
        _l("Each player gets four cards in twos; three cards go face down to the side and take no part, and "
           "one card is turned up to start the pile.", "KG-DEAL-2", "KG-DEAL-3"),
        _l("If that first card is a willow, cards are turned from the face-down ones until a card that is "
           "not a willow starts the pile; four willows mean a new deal.", "KG-DEAL-4", "KG-DEAL-5"),
        _l("Whenever both hands are empty, the dealer gives each player four more cards from the stock.",
           "KG-PLAY-4"),
    )),
    Section("A turn", (
        _l("The dealer starts and the players alternate, one card per turn.", "KG-PLAY-1"),
        _l("A card of the same month as the top of the pile takes the whole pile; any other card is put on "
           "top of it.", "KG-PLAY-2", "KG-PLAY-3"),
        _l("A willow played onto a pile takes it whatever lies on top; a willow on top can only be taken by "
           "another willow.", "KG-ONI-1", "KG-ONI-2"),
        _l("Taking a pile of just one card, which the opponent laid on the empty pile a moment before, costs "
           "the opponent a chip on the spot (unless that card is a willow).", "KG-PAY-1", "KG-PAY-2",
           "KG-PAY-3"),
    )),
    Section("The dekiyaku", (
        _l("The Brights, the Boar with the Deer (and the Butterflies), the three kinds of ribbon sets, and "
           "runs of five Animals, five Ribbons or ten Chaff are the dekiyaku.", "KG-YAKU-3", "KG-YAKU-7",
           "KG-YAKU-8", "KG-YAKU-10", "KG-YAKU-13", "KG-YAKU-14"),
        _l("They add up, except that a smaller dekiyaku contained in a bigger one you also hold does not "
           "count.", "KG-YAKU-1", "KG-YAKU-2"),
    ), "yaku"),
    Section("Scoring and settlement", (
        _l("When the round is over, the player with more dekiyaku points is paid the difference in chips.",
           "KG-SCORE-1"),
        _l("With equal totals nobody pays.", "KG-SCORE-2"),
    )),
    Section("The end", (
        _l("A round ends after all forty plays; whatever is left on the pile belongs to nobody.", "KG-END-1"),
        _l("The round's winner deals next, and after the last round the richer player wins.", "KG-END-2",
           "KG-GAME-2"),
    ), "example"),
))

KUJUROKU = HowToPlay("kujuroku", (
    Section("The object of the game", (
        _l("Three players capture cards by number; a dekiyaku ends the round on the spot and is paid in "
           "chips by the other two.", "KJ-YAKU-1", "KJ-YAKU-2"),
        _l("Otherwise each player's card points, counted against a par of 96, decide who pays whom.",
           "KJ-SCORE-2"),
        _l("Whoever holds the most chips when every player has dealt and lost the deal wins.", "KJ-GAME-1",
           "KJ-GAME-2"),
    )),
    Section("The deck", (
        _l("The Daini deck has four cards of each number from 1 to 10, three of them marked as special "
           "cards, plus the Oni-fuda, a joker: 41 cards.", "KJ-EQ-1"),
        _l("The Jizo variant adds a second joker, the Jizo-fuda.", "KJ-EQ-2"),
        _l("Four people sit at the table and three of them play each round; everyone starts with 30 chips.",
           "KJ-EQ-3", "KJ-EQ-4"),
    ), "deck"),
    Section("The deal", (
        _l("Everyone in the round, and the table, gets six cards, dealt in threes; the rest is the draw "
           "pile.", "KJ-DEAL-2"),
        _l("Four cards of a number on the table void the deal.", "KJ-DEAL-3"),
        _l("If a joker is dealt to the table the dealer takes it, the Oni with one table card of the "
           "dealer's choice; and of three cards of a number on the table the dealer takes two.", "KJ-DEAL-4",
           "KJ-DEAL-5", "KJ-DEAL-6"),
    )),
    Section("A turn", (
        _l("The dealer starts and play passes to the right.", "KJ-TURN-1"),
        _l("You play a card from your hand, then turn up the top card of the draw pile and play that.",
           "KJ-TURN-2"),
        _l("Cards match by number; a match captures one table card (your choice of two, all of three), and a "
           "card without a match stays on the table.", "KJ-CAP-1", "KJ-CAP-2", "KJ-CAP-3", "KJ-CAP-4",
           "KJ-CAP-5"),
        _l("The Oni-fuda captures any one table card you like; left on the table at the end of a turn, it "
           "is out of the round.", "KJ-ONI-1", "KJ-ONI-3", "KJ-ONI-5"),
        _l("The Jizo-fuda captures nothing but the Oni, and goes to its player's pile when the turn ends.",
           "KJ-JIZO-1", "KJ-JIZO-3"),
    )),
    Section("The dekiyaku", (
        _l("By default there are five dekiyaku, built from the four 4s, the four 3s and the special cards "
           "with the Oni; three other tables can be chosen instead.", "KJ-YAKU-3", "KJ-YAKU-5"),
        _l("Forming one stops the round at once; only the best one pays when several form together.",
           "KJ-YAKU-1", "KJ-YAKU-4"),
    ), "yaku"),
    Section("Scoring and settlement", (
        _l("A round that is played out is scored by card points: the Oni is worth 12, the 1s, 2s and 10s 10 "
           "each, every other card its number.", "KJ-SCORE-1"),
        _l("Your points give your chips: from +3 for 116 or more down to −3 for 75 or less.", "KJ-SCORE-2"),
        _l("When two players come out below par, each pays the third player their own loss; when two come "
           "out above, the third pays each of them their gain; when all three are on one side, nobody pays.",
           "KJ-SCORE-3", "KJ-SCORE-4", "KJ-SCORE-5", "KJ-SCORE-6"),
    ), "values"),
    Section("The end", (
        _l("The dealer keeps the deal by forming a dekiyaku or having the most points; otherwise the dealer "
           "sits out the next round.", "KJ-END-1", "KJ-END-2"),
        _l("The game ends in the round where the deal is lost for the fourth time, and the most chips win.",
           "KJ-GAME-1", "KJ-GAME-2"),
    ), "example"),
))

MUSASHINO = HowToPlay("musashino", (
    Section("The object of the game", (
        _l("Three players, or two teams of two, capture cards by month to form dekiyaku; cards have no "
           "point values of their own.", "MB-EQ-1", "MB-EQ-2"),
        _l("Two special dekiyaku win the round outright; otherwise the best total collects from the "
           "others.", "MB-END-1", "MB-SCORE-2"),
        _l("After twelve rounds the highest score wins.", "MB-GAME-1", "MB-GAME-2"),
    )),
    Section("The deck", (
        _l("The whole 48-card hanafuda deck is used.", "MB-EQ-1"),
    ), "deck"),
    Section("The deal", (
        _l("With three players each hand gets seven cards and six go face up to the table; the other 21 "
           "are the draw pile.", "MB-DEAL-1"),
        _l("Four players get five cards each with eight on the table, or six each with none.", "MB-DEAL-2"),
        _l("Four cards of a month on the table mean a new deal.", "MB-DEAL-4"),
    )),
    Section("A turn", (
        _l("The dealer starts and play passes to the right.", "MB-TURN-1"),
        _l("A turn is a card from the hand and then the top card of the draw pile, each played to the "
           "table.", "MB-TURN-2"),
        _l("A card takes a table card of its month, your choice when there are two, all three when there "
           "are three; with no match it stays on the table.", "MB-CAP-1", "MB-CAP-2", "MB-CAP-3",
           "MB-CAP-4"),
        _l("Partners share one capture pile.", "MB-CAP-7"),
    )),
    Section("The dekiyaku", (
        _l("Five Kings and the Seven Red Ribbons are insta-win dekiyaku: they end the round at once.",
           "MB-YAKU-2", "MB-YAKU-3", "MB-END-1"),
        _l("The others are small sets of two to four named cards worth 1 to 4, and they add up (Four Brights "
           "swallows Three Brights).", "MB-YAKU-1", "MB-YAKU-4", "MB-YAKU-6"),
    ), "yaku"),
    Section("Scoring and settlement", (
        _l("An insta-win is paid 8 by each losing side.", "MB-SCORE-1"),
        _l("Otherwise the side with the highest total is paid the difference by every other side, never "
           "more than 8 each by default.", "MB-SCORE-2", "MB-SCORE-4"),
        _l("A tie for the top goes to the tied side first in turn order from the dealer.", "MB-SCORE-3"),
    )),
    Section("The end", (
        _l("The round ends when the hands are empty, unless an insta-win ended it earlier; its winner deals "
           "next.", "MB-END-1", "MB-END-2"),
        _l("After the last round the side with the most points wins.", "MB-GAME-2"),
    ), "example"),
))

KEKORO = HowToPlay("kekoro", (
    Section("The object of the game", (
        _l("Two players capture cards by month; every card has a value and every yaku adds 30, and the "
           "scores run on from round to round.", "KE-SCORE-1"),
        _l("The game is won by a lead of 90 points, or at once by a player three yaku ahead who declares "
           "the instant victory.", "KE-GAME-1", "KE-IV-1", "KE-GAME-2"),
    )),
    Section("The deck", (
        _l("The full 48-card hanafuda deck is used.", "KE-EQ-1"),
    ), "deck"),
    Section("The deal", (
        _l("The dealer gives eight cards each to the opponent, the table and themselves; the other 24 are "
           "the draw pile.", "KE-DEAL-1"),
        _l("Four cards of one month on the table mean a new deal, and no hand scores anything at the deal.",
           "KE-DEAL-3", "KE-DEAL-4"),
    )),
    Section("A turn", (
        _l("The dealer starts and the players alternate.", "KE-TURN-1"),
        _l("You play a card from your hand, then turn up the top card of the draw pile and play it as "
           "well.", "KE-TURN-2"),
        _l("A card takes a table card of its month (your choice of two, all of three) or stays on the "
           "table.", "KE-CAP-1", "KE-CAP-2", "KE-CAP-3", "KE-CAP-4"),
        _l("When your turn leaves you three yaku ahead, you may declare the instant victory or carry on.",
           "KE-IV-1", "KE-IV-3"),
    )),
    Section("The yaku", (
        _l("There are 26 yaku of three named cards each, all worth 30; a card may serve in several.",
           "KE-YAKU-1", "KE-YAKU-2"),
    ), "yaku"),
    Section("Scoring and settlement", (
        _l("Chaff are worth 10, Animals 5, Ribbons 1, and the Brights 5 or 10: 330 in all.", "KE-VAL-1"),
        _l("At the end of a round each player adds their card values and 30 for each yaku to their "
           "total.", "KE-SCORE-1"),
    ), "values"),
    Section("The end", (
        _l("A round ends when both hands are empty; the higher round score deals next.", "KE-END-1",
           "KE-END-2"),
        _l("The game ends as soon as one total leads the other by 90, or with a declared instant victory.",
           "KE-GAME-1", "KE-GAME-2"),
    ), "example"),
))

#: The introduction of each game, by game key.
HOWTO: dict[str, HowToPlay] = {h.game: h for h in (KOIKOI, KUSURIGUI, KUJUROKU, MUSASHINO, KEKORO)}
