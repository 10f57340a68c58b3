"""Relevance: questions worded the way players ask them at the table, each with the
ruling that must come back in the top three (and, for most, first).

The questions are written from the player's side: short or rambling, with typos,
slang and shorthand, often without the card's name or the rules' own words. When one
fails, tune the ranking (rulings/vocabulary.yaml, the field boosts, card recognition),
never the question. The figure (how many first, how many in the top three) is printed
at the end of `make test`. Every test here reads one index, built once per session.
"""

from __future__ import annotations

import pytest

from rulings import search

CASES = [
    ('play all time portal', 'play-all-vs-turn-end'),
    ('can i stop a keeper after the goal', 'surprise-too-late'),
    ('do creepers count for keeper limit', 'creepers-no-limit'),
    ('no hand bonus draw 5 how many', 'no-hand-bonus-draws-separate'),
    ('i got a surprise off wormhole can i use it to cancel their surprise', 'mystery-play-surprise-too-late'),
    ('mystery play can i put the card in my hand instead', 'mystery-play-must-play-drawn'),
    ('does the hand limit apply on my own turn', 'rule-limits-only-off-turn'),
    ('someone trashed the hand limit during my turn do i still discard', 'limit-removed-before-turn-end'),
    ('who picks what i discard for the hand limit', 'limit-discard-choice'),
    ('can i look at the discard pile', 'discard-pile-public'),
    ('trade hands when nobody else has any cards', 'trade-hands-empty-opponents'),
    ('got two goals from draw 2 and use em can i bury the one that makes them win', 'goal-counts-however-briefly'),
    ('rule says play 4 but i only have 2 cards', 'play-more-than-hand'),
    ('played play 3 as my second card with play 2 out do i keep going', 'play-rule-raised-mid-turn'),
    ('can i just take the keeper i need from another player', 'grab-keeper-cheating'),
    ('do i have to draw up to the hand limit', 'hand-limit-is-cap'),
    ('how many keepers can i have out', 'keepers-unlimited-without-limit'),
    ('can i trash my own creeper', 'trash-own-keeper'),
    ('what can i do when its not my turn', 'out-of-turn-activity'),
    ('played no hand bonus with an empty hand do i draw 3 right away', 'no-hand-bonus-not-on-playing-turn'),
    ('use what you take got a keeper who keeps it', 'use-what-you-take-keeper'),
    ('mixing cards from different fluxx games', 'combining-fluxx-versions'),
    ('does a new rule replace the old one or do both stay', 'new-rule-coexist-or-replace'),
    ('does play 3 get rid of the basic rules card', 'new-rule-supersedes-basic-rules'),
    ('how do i get rid of creepers', 'getting-rid-of-creepers'),
    ('draw pile empty because everyone is holding all the cards', 'no-cards-left-to-draw'),
    ('forgot to call him captain', 'captain-title-penalty'),
    ('can canceled plans stop someone from winning', 'surprise-can-stop-win'),
    ('canceled plans on my own goal that makes someone else win', 'canceled-plans-own-goal'),
    ('does countering a surprise use up one of my plays', 'counter-surprise-not-a-play'),
    ('my play got cancelled can i play something else instead', 'canceled-play-not-replaced'),
    ('do i get my card back if it gets cancelled', 'canceled-card-lost-play-used'),
    ('play 4 got vetoed what is the play rule now', 'vetoed-rule-old-stays'),
    ('cancel random tax after seeing which card got taken', 'random-tax-surprise-timing'),
    ('double agenda do i get to put down a second goal for free', 'double-agenda-no-free-goal'),
    ('double agenda got trashed which goal stays', 'double-agenda-removed-choice'),
    ('does triple agenda replace double agenda', 'double-triple-agenda-exclusive'),
    ('lets simplify with 5 rules out how many can i drop', 'lets-simplify-rounding'),
    ('get on with it when its only play 1', 'get-on-with-it-play-1'),
    ('swap plays for draws with play all how many do i draw', 'swap-plays-vs-play-all'),
    ('gift giveaway do i have to give away the keeper i was just given', 'gift-giveaway-no-regift'),
    ('everybody gets 1 am i allowed to look at the cards', 'everybody-gets-1-look'),
    ('thanksgiving keepers spread around the table', 'thanksgiving-keepers-in-front'),
    ('thats mine on a keeper someone is stealing', 'thats-mine-no-intercept'),
    ('stop that on a keeper power', 'stop-that-vs-free-action'),
    ('surprises with only 2 players', 'surprises-two-player-same'),
    ('two people meet the goal at the same time', 'rule-tie-game-continues'),
    ("can i win on someone else's turn", 'rule-win-instantly-any-turn'),
    ('creeper in my starting hand', 'rule-first-round-creepers'),
    ('draw pile ran out', 'rule-reshuffle-discard-pile'),
    ("can i just throw away cards i don't want", 'rule-no-voluntary-discard'),
    ('time portal in the middle of draw 3 play 2', 'turn-end-inside-d3p2'),
    ('turn ends immediately do i still discard for keeper limit', 'turn-end-still-limits'),
    ('which cards end your turn', 'turn-ending-cards-list'),
    ('trade hands gave me their stop that can i use it', 'trade-hands-received-stop-that'),
    ("can i waste my surprises so they don't get them in the trade", 'no-burning-surprises'),
    ('play all plus a bonus play', 'play-all-plus-bonus'),
    ('raised the draw rule after i already drew', 'rule-draw-rule-raised-catch-up'),
    ('knocked out by a danger when can i come back in', 'rule-danger-rejoin-wait'),
    ('who goes first', 'rule-going-first'),
    ('surprise on a surprise on a surprise who wins', 'surprise-chain-parity'),
    ('how fast can i play my cards before someone can surprise me', 'multi-play-timing-etiquette'),
    ('keeper still in my hand does it count for the goal', 'rule-keepers-in-play-for-goals-powers'),
    ('drew creepers during draw 3 play 2', 'rule-d3p2-creeper-redraw'),
    ('surprise from the mini hand during draw 3 play 2', 'counter-from-temp-hand'),
    ("what counts as a holiday for today's special", 'todays-special-holiday'),
    ('does using a keeper power cost a play', 'rule-free-actions-anytime-not-plays'),
    ('veto the hand limit i just played', 'veto-own-hand-limit'),
    # written after the ranking was tuned on the questions above, and passed unchanged
    ('if i play draw 4 after drawing 1 do i draw 3 more', 'rule-draw-rule-raised-catch-up'),
    ('can i hold a creeper in my hand', 'rule-creeper-drawn-auto-play'),
    ('is the basic rules card ever discarded', 'rule-basic-rules-never-discarded'),
    ('new player wants to join halfway', 'rule-jumping-in'),
    ('i want to leave the game early', 'rule-dropping-out'),
    ('where do keepers go', 'rule-keeper-placement'),
    ('what happens when an ungoal is met', 'rule-ungoal-all-lose'),
    ('secret card stolen from my hand', 'rule-secret-leaves-hand'),
    ('can we see the discard pile during the game', 'discard-pile-public'),
    ('do we get to pick which goal goes when double agenda leaves', 'double-agenda-removed-choice'),
    ('veto a rule after people already discarded', 'surprise-cancel-rule-for-everyone'),
    ('is using a surprise on my turn a play', 'surprise-in-turn-is-play'),
    ("can i counter a surprise on someone else's turn", 'counter-surprise-any-time'),
    ('play all but 1 with a plus one bonus', 'play-all-but-1-plus-bonus'),
    ('solo fluxx how do i score', 'rule-solo-end-and-score'),
    ('which keepers are booty', 'rule-pirate-booty-icon'),
    ('is the dinghy a ship', 'rule-pirate-ship-icon'),
    ('swap plays for draws with 7 cards and play 3', 'swap-plays-hand-cap'),
    ('get on with it after my hand is empty', 'get-on-with-it-empty-hand'),
    ('stealing a keeper someone else has is that allowed', 'grab-keeper-cheating'),
    # a second held-out set; only "which way" needed a table-talk entry afterwards
    ('can i hold creepers in my hand', 'rule-creeper-drawn-auto-play'),
    ('do meta rules ever leave', 'rule-meta-rules-persist'),
    ('which way do turns go', 'rule-play-clockwise'),
    ('are dangers played right away like creepers', 'rule-danger-played-like-action'),
    ('2 player game danger knocks out the other player do i win', 'rule-danger-two-player'),
    ('how many rules can be out in solo', 'rule-solo-rule-slots'),
    ('goal bonanza sub hand get on with it', 'gowi-inside-temp-hand'),
    ('does an action count as one play even if it makes me play more cards', 'rule-action-whole-effect-one-play'),
    ('counter their surprise with a surprise from my draw 3 play 2 cards', 'counter-from-temp-hand'),
    ('what happens to the action card after i use it', 'rule-action-discard-after-use'),
    ('does the next goal have to fill the empty double agenda slot', 'double-agenda-fill-slot'),
    ('extra draw and play bonus do i have to play the card i drew', 'extra-draw-play-not-tied'),
    ('is there a limit on creepers', 'creepers-no-limit'),
    ('someone played a hand limit when do i discard', 'rule-new-limit-immediate-compliance'),
    ('stop that or canceled plans on my turn do others pick the discard', 'cancel-in-turn-discard-choice'),
    ('where is the official faq', 'online-faq-pointer'),
    ('can i play a card that does nothing', 'rule-cards-always-playable'),
    # a third set, written for issue 14 (players' own words, typos, long questions)
    # the misses reported in issue 14, as players typed them
    ('surprise too late', 'surprise-too-late'),
    ('is it too late to play a surprise', 'surprise-too-late'),
    ('double agenda trashed', 'double-agenda-removed-choice'),
    ('he played 2 cards fast so i couldnt react', 'multi-play-timing-etiquette'),
    ('hand limit on my turn do i discard now', 'rule-limits-only-off-turn'),
    ('goal only on the table for a second does it count', 'goal-counts-however-briefly'),
    # rulings no question reached before
    ('factlet is obviously wrong can we challenge it', 'alternate-factlets-challenge'),
    ('my friend says his alternate factlet is true but its a dumb fact, does it count', 'alternate-factlets-challenge'),
    ('can canceled plans take out a goal thats been sitting there for ages or only a new one', 'canceled-plans-just-played'),
    ('i blocked their surprise on my turn, does my surprise also do its normal thing', 'counter-surprise-no-in-turn-use'),
    ('holding my only keeper in the air for gift giveaway, do i count as having no keepers', 'gift-giveaway-holding-keeper'),
    ('does gowi send play all to the discard', 'gowi-swap-dont-contradict-play-all'),
    ('swap plays for draws and play all on the table together, does one kick the other out', 'gowi-swap-dont-contradict-play-all'),
    ('why cant we reorder the discard pile with lets do that again', 'lets-do-that-again-order'),
    ('which cards let you flip the top card and play it straight away', 'mystery-play-analogues'),
    ('knowledge bonus who counts as the next player', 'next-player-trivia-order'),
    ('name that organ, whose turn is it to answer next', 'next-player-trivia-order'),
    ('already did my no hand bonus and drew 2, then someone upped it to draw 4, do i draw more', 'no-hand-bonus-then-draw-increase'),
    ('can i use the out of turn side of a surprise on my own turn', 'no-out-of-turn-function-own-turn'),
    ('play all and my cards make me draw more cards, do i have to play those too', 'play-all-includes-new-cards'),
    ('with play all do i have to keep going till my hand is empty even with the new cards', 'play-all-includes-new-cards'),
    ('what cards give you extra plays', 'play-bonus-sources-list'),
    ('my group hates heartbeat, can we just take it out of the deck', 'remove-annoying-cards'),
    ('no rules out yet, how does a turn work', 'rule-basic-rules-draw1-play1'),
    ('start of the game whats a turn, draw 1 play 1?', 'rule-basic-rules-draw1-play1'),
    ('do i have to play a certain kind of card first', 'rule-choose-any-card'),
    ('any order for playing cards or do keepers go first', 'rule-choose-any-card'),
    ('where do creepers go on the table', 'rule-creeper-placement'),
    ('what happens when a danger knocks someone out', 'rule-danger-elimination'),
    ('how many times can you come back after being eliminated', 'rule-danger-rejoin-limits'),
    ('easier version of ecofluxx for kids', 'rule-eco-easy-variant'),
    ('can someone win before theres any goal out', 'rule-game-starts-without-goal'),
    ('new goal played, what happens to the old goal', 'rule-goal-replaces-goal'),
    ('what does in play mean on the cards', 'rule-in-play-definition'),
    ('which keepers are investigators', 'rule-investigator-icon'),
    ('d2ue turns up d3p2, how many plays is that', 'rule-nested-action-example'),
    ('when does a new rule kick in', 'rule-new-rule-immediate'),
    ('where do i put a new rule card', 'rule-new-rule-placement'),
    ('hand limit 2 is out and someone plays hand limit 1, what happens to the first one', 'rule-new-rule-replaces-contradicting'),
    ('can i play a card and just ignore what it says', 'rule-played-card-must-be-followed'),
    ('how do you set up fluxx', 'rule-setup-deal-three'),
    ('how many cards do you deal at the start', 'rule-setup-deal-three'),
    ('solo game i got eliminated by a danger is it over', 'rule-solo-elimination-rejoin'),
    ('playing by myself, what happens when i meet the goal', 'rule-solo-goal-scoring'),
    ('solo a limit comes up from the rules deck when do i obey it', 'rule-solo-limit-compliance'),
    ('how do i set up mystery fluxx to play alone', 'rule-solo-setup'),
    ('how do turns go when playing solo fluxx', 'rule-solo-turn-alternation'),
    ('can a surprise stop another surprise', 'rule-surprise-cancels-surprise'),
    ('when am i allowed to play a surprise card', 'rule-surprise-two-functions'),
    ('what order do you do things on your turn', 'rule-turn-sequence'),
    ('third surprise in a row, allowed?', 'surprise-chain-3rd-4th'),
    # typos, slang and shorthand
    ('creeper limit??', 'creepers-no-limit'),
    ('do creepers count toward keepr limit', 'creepers-no-limit'),
    ('can i look thru the discard', 'discard-pile-public'),
    ('canceld plans on a winning goal', 'surprise-can-stop-win'),
    ('tbh can i just yoink the keeper i need off someone', 'grab-keeper-cheating'),
    ('mistery play drew a surprise after they cancelled me', 'mystery-play-surprise-too-late'),
    ('no hand bonus draw 5 total cards?', 'no-hand-bonus-draws-separate'),
    ('trade hands but nobody has cards lol', 'trade-hands-empty-opponents'),
    ('veto my own hand limit after everyone discarded', 'veto-own-hand-limit'),
    ('vetoed play 4 so whats the play rule', 'vetoed-rule-old-stays'),
    ('lets simplify how many rules do i get rid of', 'lets-simplify-rounding'),
    ('thanksgiving goal, keepers on different tables', 'thanksgiving-keepers-in-front'),
    ('todays special what holidays count', 'todays-special-holiday'),
    ('captains hat do i have to call him captain', 'captain-title-penalty'),
    ('d3p2 drew creepers', 'rule-d3p2-creeper-redraw'),
    ('gowi with play 1', 'get-on-with-it-play-1'),
    ('trash something on my own creeper', 'trash-own-keeper'),
    ('use what you take pulled a keeper, whose is it', 'use-what-you-take-keeper'),
    ('everybody gets 1 can i peek', 'everybody-gets-1-look'),
    ('is the discard pile secret', 'discard-pile-public'),
    ('2p game, do surprises work different', 'surprises-two-player-same'),
    ('random tax and someone cancels halfway round', 'random-tax-surprise-timing'),
    # long, rambling table questions
    ('ok so i played my goal and won but then like three cards later my buddy says he wants to use his surprise on the thing i played first, can he do that', 'surprise-too-late'),
    ('my sister had the draw 3 play 2 thing going and played a card that ends your turn in the middle of it, does she still get to play the rest', 'turn-end-inside-d3p2'),
    ('i had two goals from draw 2 and use em and one of them would make my brother win, can i play it and then cover it right away with the other one', 'goal-counts-however-briefly'),
    ('someone played trade hands on me and i wanted to dump all my surprises first so they wouldnt get them, is that legal', 'no-burning-surprises'),
    ('so the keeper limit is 2 and the card i played ended my turn on the spot, do i still have to throw away extra keepers', 'turn-end-still-limits'),
    ('my opponent cancelled one of my plays with a surprise, do i lose that card and is that play gone for the turn', 'canceled-card-lost-play-used'),
    ('if i only have one card left and the rule says play 3 what am i supposed to do', 'play-more-than-hand'),
    ('the goal needs bread and chocolate and i have bread but my friend has chocolate on the table, can i just take it when its my turn', 'grab-keeper-cheating'),
    ('we finished setting up and there is no goal on the table yet, what happens if someone somehow has the keepers', 'rule-game-starts-without-goal'),
    ('a creeper came up in my first hand before anyone took a turn what do i do with it', 'rule-first-round-creepers'),
    ('it was my turn and i wanted to use the power on my keeper, does that use up one of the cards i can play', 'rule-free-actions-anytime-not-plays'),
    ('i have a keeper in my hand that i havent played, does it help me meet the goal', 'rule-keepers-in-play-for-goals-powers'),
    ('what if everybody is holding so many cards that there is nothing left in the deck and the discard is empty too', 'no-cards-left-to-draw'),
    ('me and my friend both had the keepers for the goal when it came out, who wins', 'rule-tie-game-continues'),
    ('i want to put a card in the discard pile because i dont like it, am i allowed to do that instead of playing it', 'rule-no-voluntary-discard'),
    ('so there is a rule that lets you swap plays for draws and i have play all out, how many cards am i drawing', 'swap-plays-vs-play-all'),
    ('during my turn someone used thats mine to steal a keeper i was being given, is that allowed', 'thats-mine-no-intercept'),
    ('i played the hand limit, everyone discarded, and then i vetoed my own hand limit, what happens to the cards', 'veto-own-hand-limit'),
    ('my kid played a card with no target just to get rid of it, can you play a card that does nothing', 'rule-cards-always-playable'),
    # more ways of asking
    ('does double agenda let me drop a second goal for free', 'double-agenda-no-free-goal'),
    ('next goal after double agenda, replace or fill the gap', 'double-agenda-fill-slot'),
    ('triple agenda and double agenda both out?', 'double-triple-agenda-exclusive'),
    ('i have play 2 out and play 3 was my second card, am i done', 'play-rule-raised-mid-turn'),
    ('after i drew for my turn the draw rule went up, do i draw the difference', 'rule-draw-rule-raised-catch-up'),
    ('who chooses which cards i throw out for the hand limit', 'limit-discard-choice'),
    ('the hand limit got trashed before my turn ended, do i still discard', 'limit-removed-before-turn-end'),
    ('is there a max number of keepers', 'keepers-unlimited-without-limit'),
    ('play all but 1 with an extra play bonus', 'play-all-but-1-plus-bonus'),
    ('swap plays for draws when i only have a few cards in hand', 'swap-plays-hand-cap'),
    ('can i win during somebody elses turn', 'rule-win-instantly-any-turn'),
    ('what do you do when the draw pile is empty', 'rule-reshuffle-discard-pile'),
    ('what exactly is an ungoal', 'rule-ungoal-all-lose'),
    ('someone stole my secret card', 'rule-secret-leaves-hand'),
    ('how are meta rules different', 'rule-meta-rules-persist'),
    ('which keepers are ships in pirate fluxx', 'rule-pirate-ship-icon'),
    ('a danger came up, do i play it right away like a creeper', 'rule-danger-played-like-action'),
    ('when can a knocked out player come back', 'rule-danger-rejoin-wait'),
    ('only two of us, i knocked the other guy out with a danger, did i win', 'rule-danger-two-player'),
    ('can my friend jump into our game halfway', 'rule-jumping-in'),
    ('i have to leave, what happens to my cards', 'rule-dropping-out'),
    ('where do keepers get put when played', 'rule-keeper-placement'),
    ('is there a pecking order for who goes first', 'rule-going-first'),
    ('do we go left or right', 'rule-play-clockwise'),
    ('new hand limit played, when do the others have to discard', 'rule-new-limit-immediate-compliance'),
    ('what happens to an action after you play it', 'rule-action-discard-after-use'),
    ('action made me play 3 more cards, how many plays did that cost', 'rule-action-whole-effect-one-play'),
    ('does the basic rules card ever go away', 'rule-basic-rules-never-discarded'),
    ('stop that on someones keeper ability', 'stop-that-vs-free-action'),
    ('surprise chain of 3, does the card go through', 'surprise-chain-parity'),
    ('stop that on my turn, others discard, who picks', 'cancel-in-turn-discard-choice'),
    ('countered their surprise on my turn, did it cost me a play', 'counter-surprise-not-a-play'),
    ('got cancelled, can i play another card instead', 'canceled-play-not-replaced'),
    ('i got a hand full of surprises from trade hands, can i use their stop that right away', 'trade-hands-received-stop-that'),
    ('gift giveaway when i got given a keeper, do i have to give it away', 'gift-giveaway-no-regift'),
    ('extra draw and extra play bonus, same card?', 'extra-draw-play-not-tied'),
    ('draw up to hand limit?', 'hand-limit-is-cap'),
    ('no hand bonus my turn started empty', 'no-hand-bonus-not-on-playing-turn'),
    ('can i counter surprises when its not my turn', 'counter-surprise-any-time'),
    ('which cards make your turn end right away', 'turn-ending-cards-list'),
    ('mystery play can i keep the card', 'mystery-play-must-play-drawn'),
    ('official answers to questions', 'online-faq-pointer'),
    ('mixing decks from different fluxx sets', 'combining-fluxx-versions'),
]

# Questions that still miss the top three, kept visible rather than deleted; each is
# reported by the figure and runs as an expected failure until the ranking finds it.
KNOWN_MISSES = [
    # the target is 7th: the rulings on limits at a turn's end and on new limits rank
    # above "limits bind only off your turn" for this long question
    ('we were playing and someone played a hand limit while it was my turn and i had like 6 '
     'cards, do i have to get rid of them right then or can i wait', 'rule-limits-only-off-turn'),
]
MIN_CASES = 200
MIN_FIRST = 150


@pytest.fixture(scope="module", autouse=True)
def _index(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FLUXX_JUDGE_CACHE", str(tmp_path_factory.mktemp("relevance-cache")))
        search.forget_loaded()
        search.ensure_index()
        yield
    search.forget_loaded()


def test_there_are_enough_cases():
    everything = CASES + KNOWN_MISSES
    assert len(everything) >= MIN_CASES
    assert len({q for q, _ in everything}) == len(everything)


def test_the_figure(record_property):
    """How many rulings come back first and in the top three; printed after the run
    (reported as a property, so it reaches the summary from a parallel worker too)."""
    everything = CASES + KNOWN_MISSES
    first = top3 = 0
    for question, ruling in everything:
        ids = search.search(question, limit=3).ids
        first += bool(ids) and ids[0] == ruling
        top3 += ruling in ids
    record_property("figure", f"relevance: {len(everything)} player questions, {first} with their ruling first, "
                               f"{top3} in the top three ({len(KNOWN_MISSES)} known miss(es))")
    assert first >= MIN_FIRST, f"only {first} of {len(everything)} questions find their ruling first"


@pytest.mark.parametrize("question, ruling", CASES, ids=[q[:60] for q, _ in CASES])
def test_expected_ruling_in_top_three(question, ruling):
    top = search.search(question, limit=3).ids
    assert ruling in top, f"{question!r}: expected {ruling} in the top 3, got {top}"


@pytest.mark.parametrize("question, ruling", KNOWN_MISSES, ids=[q[:60] for q, _ in KNOWN_MISSES])
@pytest.mark.xfail(reason="a known miss, reported in the figure", strict=False)
def test_known_misses(question, ruling):
    assert ruling in search.search(question, limit=3).ids
