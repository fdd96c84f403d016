"""Retrieval quality on long conversations: a labelled set of our own (issue 27), scored turn
by turn through ``search``.

Three conversations between two named people, each in dated sessions, written by hand as
story beats (a few turns each that carry something worth remembering) with small talk
between them (drawn from a pool of lines that carry nothing a question asks about).
Every turn is stored as one working-memory fact, the way an app would keep a chat history:
key ``chats/<pair>/session-NN/turn-NNN``, value ``{"speaker", "text", "session", "date"}``,
tags ``chat:<pair>`` and ``speaker:<first name>``, shared.

Questions are of the kinds people ask an assistant about such a history: ``single`` (one
turn answers it), ``multi`` (the answer needs two or more turns, across sessions),
``when`` (the session date of a turn answers it), ``opinion`` (what someone thinks of
something, possibly changed over the sessions) and ``adversarial`` (nothing in the history
answers it: its relevant set is empty). Relevance is graded per turn: 2 answers the
question (or a part of it), 1 helps (the question that prompted the answer, a turn that
names the thing asked about without answering). Each question lists the words an answer
must contain; ``check`` proves the grading by construction: every grade-2 turn holds one
of them, every turn that holds one is graded, and the words an adversarial question asks
about occur in no turn of its conversation.

Scored per kind and per list (lexical; vector alone, ``text_weight => 0``; hybrid, with the
offline HashEmbedder and, when the minilm extra is installed, all-MiniLM-L6-v2): recall@5,
@10 and @25 of the grade-2 turns and nDCG@10 with the grades as gains, from one search of
limit 25 per question (each list 100 deep). Adversarial questions are reported apart: how
many came back with no hit at all, and, for the lists with a vector, how well the top hit's
similarity separates them from answerable ones (AUC: 1.0 would let a floor refuse every
adversarial question and no answerable one; 0.5 is chance). Nothing here is tuned to the
figures: it is a baseline for the ranking work of issue 27. With the real model, the
reranking stage (off by default: ``minilm.MiniLMReranker``) is scored as more lists:
hybrid's 25 hits re-ordered by each hit's own text, and by each hit with its neighbours in a
context pack; and timed beside the same calls without it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from pgfacts import minilm
from pgfacts.client import Context
from pgfacts.rerank import Reranker, rerank_hits, rerank_pack
from pgfacts.retrieval import Embedder, HashEmbedder, run_embedding_queue

from .embedding_cache import cached_minilm
from .retrieval_set import dcg, vector_literal
from .runner import Result, timed

TENANT = "conversations"
SIZES = {"smoke": 3, "full": 6}  # sessions of each conversation
KINDS = ("single", "multi", "when", "opinion", "adversarial")
ANSWERABLE = KINDS[:-1]
DEPTHS = (5, 10, 25)

Line = tuple[int, str]  # speaker (0 or 1), what they said
Beat = tuple[str, tuple[Line, ...]]  # label, its turns


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    # "beat.i" (turn i of the beat, from 0) -> 2 answers it, 1 helps
    grades: dict[str, int] = field(default_factory=dict)
    answer: tuple[str, ...] = ()  # words every grade-2 turn holds one of (adversarial: absent)


@dataclass(frozen=True)
class Conversation:
    slug: str
    people: tuple[str, str]
    dates: tuple[str, ...]  # one per session
    sessions: tuple[tuple[Beat, ...], ...]
    questions: tuple[Question, ...]


# Small talk: nothing a question asks about (check proves it for the answer words).
FILLER = (
    "Ha, fair enough.",
    "Sorry, typing with one hand, I'm on the bus.",
    "The weather has been grim all week.",
    "Did you end up watching that documentary about octopuses?",
    "Yes! The part with the crab was unreal.",
    "I need another coffee before I can think straight.",
    "My phone is about to die, so quickly:",
    "Deadlines everywhere at the moment, it's chaos.",
    "We had pasta three nights in a row, no regrets.",
    "Anyway, enough about me.",
    "I'm so ready for the weekend.",
    "Did you hear the thunderstorm last night?",
    "I keep forgetting to call the dentist.",
    "That reminds me, I owe you ten euros.",
    "No rush at all, honestly.",
    "We should get coffee soon, properly this time.",
    "How's everyone at home?",
    "All good, everyone's healthy, touch wood.",
    "I started a history podcast and now I can't stop.",
    "I've been sleeping badly, too much screen time.",
    "Same here. I should put the phone away at night.",
    "Oh no, that sounds exhausting.",
    "It's fine, really. Just one of those weeks.",
    "Haha, typical.",
    "Wait, really?",
    "Yes, I was as surprised as you are.",
    "I laughed way too loud at that.",
    "Give me a second, someone's at the door.",
    "Back. It was a parcel for the neighbours again.",
    "Classic.",
    "Did I tell you my cousin dyed her hair purple?",
    "Purple! Bold choice.",
    "It suits her, annoyingly.",
    "I finally cleaned out the fridge. Never again.",
    "What's the worst thing you found?",
    "Something that used to be yoghurt.",
    "I can't believe it's already this late in the year.",
    "Time flies, it's ridiculous.",
    "I'm trying to drink more water. Day three and going strong.",
    "Good luck, I lasted two days.",
    "Okay, I have to run in a minute.",
    "Talk soon, then.",
    "Sure, no worries.",
    "Thanks for listening, by the way.",
    "Any time. That's what friends are for.",
    "The traffic this morning was unbelievable.",
    "I took the long way round and still got stuck.",
    "Have you tried that new bakery smell candle thing? Weird gift.",
    "Someone gave me one too. It smells like toast.",
    "I think I'm coming down with something.",
    "Tea with honey, and early to bed.",
    "Yes, doctor.",
    "I'm rewatching an old sitcom, it's so comforting.",
    "Which one?",
    "The one with the hotel. You know the one.",
    "Ah, a classic.",
    "My neighbour's kid is learning the trumpet. Every evening.",
    "Oh dear. Earplugs?",
    "Already ordered.",
    "Let's catch up properly next time.",
)

MAREN_TOBIAS = Conversation(
    "maren-tobias",
    ("Maren Olsen", "Tobias Reyes"),
    ("2026-01-10", "2026-01-24", "2026-02-14", "2026-03-07", "2026-04-02", "2026-05-16"),
    (
        (
            (
                "cello",
                (
                    (1, "So what's new with you since the holidays?"),
                    (
                        0,
                        "I finally signed up for cello lessons. The first one is next Tuesday "
                        "with a teacher called Agnes.",
                    ),
                    (1, "A cello! That's a big instrument to carry around."),
                ),
            ),
            (
                "bakery",
                (
                    (0, "How is work treating you?"),
                    (
                        1,
                        "Honestly, I'm tired of the 4 a.m. starts at Kornblume. I've been "
                        "thinking about quitting the bakery.",
                    ),
                ),
            ),
            (
                "tram",
                (
                    (0, "Have you seen they're building the new tram line down Weststrasse?"),
                    (
                        1,
                        "I think the tram line is a waste of money. The buses already run every "
                        "five minutes.",
                    ),
                ),
            ),
        ),
        (
            (
                "lesson",
                (
                    (1, "How did the first lessons go?"),
                    (0, "Agnes is strict but wonderful. I can play a C major scale now, badly."),
                ),
            ),
            (
                "flat",
                (
                    (
                        0,
                        "Also, we're looking at a flat in Hafenviertel. Two bedrooms and a "
                        "balcony over the canal.",
                    ),
                    (1, "Nice, is it expensive?"),
                    (0, "Eleven hundred a month, which is a lot, but the light is amazing."),
                ),
            ),
            (
                "novel",
                (
                    (1, "My sister Lucia lent me a novel called The Salt Road."),
                    (0, "Never heard of it. Is it good?"),
                    (1, "Too early to say, I'm forty pages in."),
                ),
            ),
        ),
        (
            (
                "keys",
                (
                    (
                        0,
                        "Big news: we signed the lease for the Hafenviertel flat and got the "
                        "keys yesterday!",
                    ),
                    (1, "Congratulations! Moving day soon, then?"),
                    (0, "The first of March, if the van company doesn't cancel on us."),
                ),
            ),
            (
                "notice",
                (
                    (1, "I handed in my notice at Kornblume on Monday."),
                    (0, "Wow, you actually did it. What's next?"),
                    (
                        1,
                        "A friend runs a bicycle repair shop, Spoke and Chain. He offered me "
                        "a job.",
                    ),
                ),
            ),
            (
                "author",
                ((1, "I finished The Salt Road. It's by Hanne Vik, and the ending wrecked me."),),
            ),
        ),
        (
            (
                "moved",
                (
                    (
                        0,
                        "We moved in last weekend. My back still hurts from carrying the cello "
                        "up four floors.",
                    ),
                ),
            ),
            (
                "shop",
                (
                    (
                        1,
                        "I started at Spoke and Chain this week. Mostly fixing punctures and "
                        "brakes so far.",
                    ),
                    (0, "Do you like it more than baking?"),
                    (1, "So much more. I get to sleep until seven."),
                ),
            ),
            (
                "harbour",
                (
                    (
                        0,
                        "I love Hafenviertel. The Saturday market is the best thing about it, "
                        "though the bars are loud at night.",
                    ),
                ),
            ),
        ),
        (
            (
                "tram2",
                (
                    (
                        1,
                        "Okay, confession: the new tram line opened and I take it to work every "
                        "day. It's actually great.",
                    ),
                    (0, "Ha! Weren't you the one calling the tram a waste of money?"),
                ),
            ),
            (
                "recital",
                (
                    (
                        0,
                        "Agnes says I can play in the student recital on the twenty-fifth of "
                        "April.",
                    ),
                    (1, "I'll be there. What are you playing?"),
                    (0, "A simplified Bach minuet. Please don't expect much."),
                ),
            ),
            ("visit", ((1, "Lucia is visiting from Porto next month, she wants to meet you."),)),
        ),
        (
            (
                "recital2",
                (
                    (1, "You were brilliant at the recital."),
                    (0, "I missed two notes in the minuet, but nobody threw tomatoes."),
                ),
            ),
            (
                "manager",
                (
                    (
                        1,
                        "The owner wants me to manage the second Spoke and Chain shop when it "
                        "opens in September.",
                    ),
                ),
            ),
            (
                "balcony",
                (
                    (
                        0,
                        "The canal smells in the heat, but I still wouldn't trade that balcony "
                        "for anything.",
                    ),
                ),
            ),
        ),
    ),
    (
        Question(
            "single",
            "What instrument is Maren learning?",
            {"cello.1": 2, "cello.0": 1, "cello.2": 1, "moved.0": 1},
            ("cello",),
        ),
        Question(
            "single",
            "What is the name of Maren's music teacher?",
            {"cello.1": 2, "lesson.1": 1, "recital.0": 1},
            ("Agnes",),
        ),
        Question(
            "single",
            "How much is the rent for the flat in Hafenviertel?",
            {"flat.2": 2, "flat.1": 1, "flat.0": 1, "keys.0": 1, "harbour.0": 1},
            ("hundred",),
        ),
        Question(
            "single",
            "Where did Tobias work before the bike shop?",
            {"bakery.1": 2, "notice.0": 2, "bakery.0": 1},
            ("Kornblume",),
        ),
        Question(
            "when",
            "When did Maren get the keys to her new flat?",
            {"keys.0": 2, "keys.1": 1},
            ("keys",),
        ),
        Question(
            "when",
            "When did Tobias hand in his notice?",
            {"notice.0": 2, "notice.1": 1},
            ("notice",),
        ),
        Question(
            "when",
            "When is Maren's student recital?",
            {"recital.0": 2, "recital.1": 1, "recital2.0": 1},
            ("twenty-fifth",),
        ),
        Question(
            "when",
            "When did Maren move into the new flat?",
            {"moved.0": 2, "keys.2": 1, "keys.1": 1},
            ("moved",),
        ),
        Question(
            "multi",
            "Who wrote the novel that Tobias's sister lent him?",
            {"novel.0": 2, "author.0": 2, "visit.0": 1},
            ("Salt Road",),
        ),
        Question(
            "multi",
            "What piece did Maren play at the recital, and how did it go?",
            {"recital.2": 2, "recital2.1": 2, "recital.1": 1, "recital2.0": 1},
            ("minuet",),
        ),
        Question(
            "multi",
            "What job was Tobias offered after quitting, and what is he being asked to do next?",
            {"notice.2": 2, "manager.0": 2, "shop.0": 1},
            ("Spoke and Chain",),
        ),
        Question(
            "opinion",
            "What does Tobias think about the new tram line?",
            {"tram.1": 2, "tram2.0": 2, "tram.0": 1, "tram2.1": 1},
            ("tram",),
        ),
        Question(
            "opinion",
            "What does Maren think of living in Hafenviertel?",
            {"harbour.0": 2, "balcony.0": 2, "flat.2": 1},
            ("love", "wouldn't trade"),
        ),
        Question(
            "opinion",
            "Does Tobias prefer repairing bikes to baking?",
            {"shop.2": 2, "shop.1": 1, "shop.0": 1},
            ("So much more",),
        ),
        Question("adversarial", "What did Maren say about her trip to Lisbon?", answer=("Lisbon",)),
        Question("adversarial", "What is the name of Tobias's cat?", answer=("cat",)),
        Question("adversarial", "When did Maren start violin lessons?", answer=("violin",)),
        Question("adversarial", "What did Tobias say about his wedding?", answer=("wedding",)),
        Question(
            "single",
            "Who is coming to visit Tobias from Porto?",
            {"visit.0": 2, "novel.0": 1},
            ("Lucia",),
        ),
        Question(
            "single",
            "What can Maren play on the cello so far?",
            {"lesson.1": 2, "lesson.0": 1},
            ("C major scale",),
        ),
        Question(
            "when", "When does the second bike shop open?", {"manager.0": 2}, ("second Spoke",)
        ),
        Question(
            "opinion",
            "What did Tobias think of The Salt Road?",
            {"author.0": 2, "novel.0": 1, "novel.2": 1},
            ("Salt Road",),
        ),
        Question(
            "multi",
            "Where is the flat Maren rented, and when did she move in?",
            {"flat.0": 2, "keys.0": 2, "moved.0": 2, "harbour.0": 1},
            ("Hafenviertel", "moved"),
        ),
    ),
)

INES_KOFI = Conversation(
    "ines-kofi",
    ("Inés Duarte", "Kofi Mensah"),
    ("2026-02-03", "2026-02-17", "2026-03-10", "2026-03-31", "2026-04-21", "2026-05-12"),
    (
        (
            (
                "training",
                (
                    (1, "You look exhausted. Everything okay?"),
                    (
                        0,
                        "I'm fine, just training for the Rotterdam half marathon in April. Ran "
                        "eighteen kilometres on Sunday.",
                    ),
                ),
            ),
            (
                "office",
                (
                    (0, "Did your team go back to the office full time?"),
                    (
                        1,
                        "Three days a week. Honestly, I think forced office days kill focus; I "
                        "get more done at home.",
                    ),
                ),
            ),
            (
                "kitchen",
                (
                    (
                        1,
                        "We're finally renovating the kitchen. The builder starts on the "
                        "twentieth.",
                    ),
                ),
            ),
        ),
        (
            (
                "greyhound",
                (
                    (0, "We're adopting a retired greyhound from the rescue centre in Delft!"),
                    (1, "A greyhound? Aren't they huge?"),
                    (0, "Tall, but she sleeps twenty hours a day. Her name is Pimienta."),
                ),
            ),
            (
                "stove",
                (
                    (
                        1,
                        "The kitchen is a building site. We're cooking on a camping stove in the "
                        "living room.",
                    ),
                ),
            ),
            (
                "knee",
                (
                    (
                        0,
                        "My knee started hurting after the long run, so the physio told me to "
                        "rest for a week.",
                    ),
                ),
            ),
        ),
        (
            (
                "baguette",
                (
                    (1, "How is Pimienta settling in?"),
                    (
                        0,
                        "She stole a whole baguette off the counter on her first day. Otherwise "
                        "perfect.",
                    ),
                ),
            ),
            (
                "school",
                (
                    (1, "Ama starts primary school in September and we still haven't picked one."),
                    (0, "Is the one on Lindenlaan any good?"),
                    (1, "Good reviews, but the waiting list is two years long."),
                ),
            ),
            (
                "fridays",
                ((1, "My manager agreed I can work from home on Fridays now. Small victory."),),
            ),
        ),
        (
            (
                "tiles",
                (
                    (
                        1,
                        "The kitchen is done! Green tiles and oak counters. My partner chose the "
                        "tiles and I'm so glad she did.",
                    ),
                ),
            ),
            (
                "recovered",
                (
                    (
                        0,
                        "My knee is fine again. I did a twenty-kilometre run on Saturday without "
                        "any pain.",
                    ),
                ),
            ),
            (
                "scared",
                (
                    (
                        0,
                        "Pimienta is scared of the vacuum cleaner and of the neighbour's cat, in "
                        "that order.",
                    ),
                ),
            ),
        ),
        (
            (
                "race",
                (
                    (
                        0,
                        "I ran Rotterdam on Sunday! One hour fifty-eight, under two hours like I "
                        "wanted.",
                    ),
                    (1, "That's brilliant, congratulations!"),
                ),
            ),
            (
                "montessori",
                ((1, "We got a place for Ama at the Montessori school near the park in the end."),),
            ),
            (
                "cooking",
                (
                    (
                        1,
                        "I used to hate cooking, but with the new kitchen I actually enjoy it. I "
                        "made jollof rice for twelve people.",
                    ),
                ),
            ),
        ),
        (
            (
                "four_days",
                (
                    (
                        1,
                        "The company announced everyone must be in the office four days a week "
                        "from June. I'm furious.",
                    ),
                    (0, "Would you look for another job over it?"),
                    (1, "If they don't budge, yes."),
                ),
            ),
            ("dunes", ((0, "Pimienta and I walk in the dunes every morning now."),)),
            (
                "berlin",
                (
                    (
                        0,
                        "I signed up for the Berlin marathon in September. The full distance "
                        "this time.",
                    ),
                ),
            ),
        ),
    ),
    (
        Question(
            "single",
            "What is the name of Inés's dog?",
            {"greyhound.2": 2, "greyhound.0": 1, "baguette.0": 1, "scared.0": 1, "dunes.0": 1},
            ("Pimienta",),
        ),
        Question(
            "single",
            "What breed is the dog Inés adopted?",
            {"greyhound.0": 2, "greyhound.1": 1, "greyhound.2": 1},
            ("greyhound",),
        ),
        Question(
            "single", "What colour are the tiles in Kofi's new kitchen?", {"tiles.0": 2}, ("Green",)
        ),
        Question(
            "single",
            "What was Inés's finishing time in Rotterdam?",
            {"race.0": 2, "race.1": 1, "training.1": 1},
            ("fifty-eight",),
        ),
        Question(
            "when",
            "When did Inés run the Rotterdam half marathon?",
            {"race.0": 2, "training.1": 1, "race.1": 1},
            ("ran Rotterdam",),
        ),
        Question(
            "when",
            "When did the builder start work on Kofi's kitchen?",
            {"kitchen.0": 2, "stove.0": 1},
            ("builder",),
        ),
        Question(
            "when",
            "When does Kofi's daughter start primary school?",
            {"school.0": 2, "montessori.0": 1},
            ("primary school",),
        ),
        Question(
            "when", "When is the Berlin marathon Inés signed up for?", {"berlin.0": 2}, ("Berlin",)
        ),
        Question(
            "multi",
            "Why did Inés have to stop training, and did she recover?",
            {"knee.0": 2, "recovered.0": 2},
            ("knee",),
        ),
        Question(
            "multi",
            "Which school will Ama go to, and why not the one on Lindenlaan?",
            {"school.2": 2, "montessori.0": 2, "school.1": 1, "school.0": 1},
            ("waiting list", "Montessori"),
        ),
        Question(
            "multi",
            "Where did Inés adopt her greyhound from, and what did it steal?",
            {"greyhound.0": 2, "baguette.1": 2, "baguette.0": 1},
            ("Delft", "baguette"),
        ),
        Question(
            "opinion",
            "What does Kofi think about working from the office?",
            {"office.1": 2, "four_days.0": 2, "office.0": 1, "fridays.0": 1, "four_days.2": 1},
            ("office",),
        ),
        Question(
            "opinion",
            "How does Kofi feel about cooking these days?",
            {"cooking.0": 2, "stove.0": 1},
            ("cooking",),
        ),
        Question(
            "opinion",
            "What does Kofi think of the tiles his partner picked?",
            {"tiles.0": 2},
            ("glad",),
        ),
        Question("adversarial", "What did Inés think of the Paris marathon?", answer=("Paris",)),
        Question("adversarial", "When did Kofi start his new job at the bank?", answer=("bank",)),
        Question("adversarial", "What did Inés say about her trip to Japan?", answer=("Japan",)),
        Question("adversarial", "What is the name of Kofi's son?", answer=("son",)),
        Question("single", "What did Kofi cook for twelve people?", {"cooking.0": 2}, ("jollof",)),
        Question("single", "What is Inés's greyhound afraid of?", {"scared.0": 2}, ("scared",)),
        Question(
            "when",
            "When did Kofi get to work from home on Fridays?",
            {"fridays.0": 2},
            ("Fridays",),
        ),
        Question(
            "opinion",
            "How does Kofi feel about the new four-day office rule?",
            {"four_days.0": 2, "four_days.2": 1, "four_days.1": 1},
            ("furious",),
        ),
    ),
)

RUTH_DMITRI = Conversation(
    "ruth-dmitri",
    ("Ruth Abelman", "Dmitri Sokolov"),
    ("2026-03-02", "2026-03-16", "2026-04-06", "2026-04-27", "2026-05-18", "2026-06-08"),
    (
        (
            (
                "plot",
                (
                    (1, "I got an allotment at last, plot number forty-two behind the railway."),
                    (0, "What will you grow?"),
                    (1, "Tomatoes, beans, and far too many courgettes."),
                ),
            ),
            ("requiem", ((0, "The choir is rehearsing Fauré's Requiem for a concert in May."),)),
            (
                "hip",
                (
                    (
                        0,
                        "My mother is having her hip replaced on the nineteenth. I'm a bit "
                        "nervous.",
                    ),
                ),
            ),
        ),
        (
            (
                "library",
                (
                    (
                        0,
                        "Have you been to the new library on Marktplein? I think it's the best "
                        "building the council has made in decades.",
                    ),
                    (1, "I find it too cold and echoey, like an airport."),
                ),
            ),
            (
                "georgia",
                (
                    (
                        1,
                        "I'm planning a trip to Georgia in June: hiking near Kazbegi and then a "
                        "few days in Tbilisi.",
                    ),
                ),
            ),
            (
                "clay",
                ((1, "Dug the beds this weekend. The soil is mostly clay and broken glass."),),
            ),
        ),
        (
            (
                "surgery",
                (
                    (
                        0,
                        "Mum's surgery went well. She's walking with a frame already and "
                        "complaining about the hospital food.",
                    ),
                ),
            ),
            (
                "slugs",
                (
                    (1, "The slugs ate every bean seedling in one night."),
                    (0, "Beer traps! My father swore by them."),
                    (1, "I'll try anything at this point."),
                ),
            ),
            (
                "gearbox",
                (
                    (
                        1,
                        "And my car's gearbox died on the ring road, so it's gone to the "
                        "scrapyard.",
                    ),
                ),
            ),
        ),
        (
            (
                "cargo",
                (
                    (
                        1,
                        "I bought an electric cargo bike instead of a new car. I carried twenty "
                        "kilos of compost home on it yesterday.",
                    ),
                ),
            ),
            (
                "solo",
                (
                    (
                        0,
                        "The concert is on the sixteenth of May at St Jacob's. I have a tiny "
                        "solo in the Pie Jesu.",
                    ),
                    (1, "A solo! I'll bring earplugs. Joking."),
                ),
            ),
            (
                "traps",
                ((1, "The beer traps worked. Fifty slugs drowned, which feels grim but fair."),),
            ),
        ),
        (
            (
                "concert",
                (
                    (1, "The concert on Saturday was beautiful. Your Pie Jesu gave me goosebumps."),
                    (0, "I was shaking the whole time, I'm glad it didn't show."),
                ),
            ),
            (
                "reading_room",
                (
                    (
                        1,
                        "I'll admit the library's reading room is nice on a rainy day. Still too "
                        "cold, though.",
                    ),
                ),
            ),
            (
                "driving",
                (
                    (
                        0,
                        "Mum is driving again, six weeks after the operation. The surgeon was "
                        "amazed.",
                    ),
                ),
            ),
        ),
        (
            (
                "tbilisi",
                ((1, "I fly to Tbilisi on Thursday. I bought proper hiking boots for Kazbegi."),),
            ),
            (
                "tomatoes",
                ((1, "The first tomatoes are ripening on plot forty-two. I'll bring you a bag."),),
            ),
            (
                "best_buy",
                (
                    (
                        1,
                        "Honestly, the cargo bike is the best thing I've ever bought. I don't "
                        "miss the car at all.",
                    ),
                ),
            ),
        ),
    ),
    (
        Question(
            "single",
            "What number is Dmitri's allotment plot?",
            {"plot.0": 2, "tomatoes.0": 2},
            ("forty-two",),
        ),
        Question(
            "single",
            "What piece is Ruth's choir singing?",
            {"requiem.0": 2, "solo.0": 1, "concert.0": 1},
            ("Requiem",),
        ),
        Question(
            "single",
            "What happened to Dmitri's car?",
            {"gearbox.0": 2, "cargo.0": 1, "best_buy.0": 1},
            ("gearbox",),
        ),
        Question(
            "single",
            "What ate Dmitri's bean seedlings?",
            {"slugs.0": 2, "traps.0": 1, "slugs.1": 1},
            ("slugs",),
        ),
        Question(
            "when",
            "When was Ruth's mother's hip operation?",
            {"hip.0": 2, "surgery.0": 1, "driving.0": 1},
            ("nineteenth",),
        ),
        Question(
            "when",
            "When was the choir concert at St Jacob's?",
            {"solo.0": 2, "concert.0": 1, "requiem.0": 1},
            ("sixteenth",),
        ),
        Question(
            "when", "When does Dmitri fly to Tbilisi?", {"tbilisi.0": 2, "georgia.0": 1}, ("fly",)
        ),
        Question(
            "multi",
            "Did the beer traps Ruth suggested work?",
            {"slugs.1": 2, "traps.0": 2, "slugs.0": 1},
            ("beer traps",),
        ),
        Question(
            "multi",
            "What did Dmitri buy after his car died, and what does he think of it?",
            {"gearbox.0": 2, "cargo.0": 2, "best_buy.0": 2},
            ("car",),
        ),
        Question(
            "multi",
            "How did Ruth's mother recover after the surgery?",
            {"surgery.0": 2, "driving.0": 2, "hip.0": 1},
            ("surgery", "operation"),
        ),
        Question(
            "opinion",
            "What does Dmitri think of the new library?",
            {"library.1": 2, "reading_room.0": 2, "library.0": 1},
            ("cold",),
        ),
        Question(
            "opinion",
            "What does Ruth think of the new library on Marktplein?",
            {"library.0": 2, "library.1": 1, "reading_room.0": 1},
            ("best building",),
        ),
        Question(
            "opinion",
            "How did Ruth feel about singing her solo?",
            {"concert.1": 2, "concert.0": 1, "solo.0": 1, "solo.1": 1},
            ("shaking",),
        ),
        Question("adversarial", "What did Ruth say about her piano lessons?", answer=("piano",)),
        Question("adversarial", "When did Dmitri sell his motorbike?", answer=("motorbike",)),
        Question(
            "adversarial", "What does Ruth think of the new swimming pool?", answer=("swimming",)
        ),
        Question("adversarial", "When did Ruth move to Berlin?", answer=("Berlin",)),
        Question(
            "single",
            "Where is Dmitri going hiking?",
            {"georgia.0": 2, "tbilisi.0": 2},
            ("Kazbegi",),
        ),
        Question(
            "single", "What is wrong with the soil on Dmitri's allotment?", {"clay.0": 2}, ("clay",)
        ),
        Question(
            "when", "When did Ruth's mother start driving again?", {"driving.0": 2}, ("driving",)
        ),
        Question(
            "opinion",
            "What does Dmitri think of his cargo bike?",
            {"best_buy.0": 2, "cargo.0": 1},
            ("best thing",),
        ),
        Question(
            "multi",
            "What did Dmitri plant on his allotment, and is anything ripe yet?",
            {"plot.2": 2, "tomatoes.0": 2, "plot.1": 1, "slugs.0": 1},
            ("tomatoes",),
        ),
    ),
)

CONVERSATIONS = (MAREN_TOBIAS, INES_KOFI, RUTH_DMITRI)
FILLER_PER_SESSION = 15


@dataclass(frozen=True)
class Turn:
    key: str
    conversation: str
    session: int  # from 1
    speaker: str
    text: str
    date: str
    label: str | None  # "beat.i" for a turn of a beat, None for small talk


@dataclass(frozen=True)
class Asked:
    """A question of the set, with the turns it grades (by key)."""

    kind: str
    text: str
    conversation: str
    grades: dict[str, int]


def _session_turns(conversation: Conversation, number: int) -> list[Turn]:
    """One session: its beats in order, small talk before, between and after them, drawn
    by a seed of its own (so a session reads the same at every size)."""
    rng = random.Random(f"{conversation.slug}/{number}")
    beats = conversation.sessions[number - 1]
    filler = rng.sample(FILLER, FILLER_PER_SESSION)
    cuts = sorted(rng.sample(range(FILLER_PER_SESSION + 1), len(beats)))
    lines: list[tuple[int, str, str | None]] = []

    def small_talk(texts: Sequence[str]) -> None:
        for text in texts:  # each line by the one who did not speak last
            lines.append((1 - lines[-1][0] if lines else 0, text, None))

    taken = 0
    for (label, turns), cut in zip(beats, cuts, strict=True):
        small_talk(filler[taken:cut])
        taken = cut
        lines += [(who, text, f"{label}.{i}") for i, (who, text) in enumerate(turns)]
    small_talk(filler[taken:])
    date = conversation.dates[number - 1]
    return [
        Turn(
            f"chats/{conversation.slug}/session-{number:02d}/turn-{i:03d}",
            conversation.slug,
            number,
            conversation.people[who].split()[0],
            text,
            date,
            label,
        )
        for i, (who, text, label) in enumerate(lines, start=1)
    ]


def build(sessions: int) -> tuple[list[Turn], list[Asked]]:
    """The first ``sessions`` sessions of every conversation, and the questions whose
    answering turns all lie in them (adversarial ones always), graded by turn key."""
    turns: list[Turn] = []
    asked: list[Asked] = []
    for conversation in CONVERSATIONS:
        own = [t for n in range(1, sessions + 1) for t in _session_turns(conversation, n)]
        by_label = {t.label: t.key for t in own if t.label}
        turns += own
        for q in conversation.questions:
            answering = [label for label, grade in q.grades.items() if grade == 2]
            if all(label in by_label for label in answering):
                grades = {by_label[lb]: g for lb, g in q.grades.items() if lb in by_label}
                asked.append(Asked(q.kind, q.text, conversation.slug, grades))
    return turns, asked


def _holds(text: str, words: Iterable[str]) -> bool:
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in words)


def check() -> None:
    """The grading is right by construction (raises AssertionError otherwise): every label
    names a turn; every grade-2 turn holds an answer word; every turn of the conversation
    that holds one is graded; an adversarial question's words occur in none of its turns."""
    for conversation in CONVERSATIONS:
        turns = [
            t
            for n in range(1, len(conversation.sessions) + 1)
            for t in _session_turns(conversation, n)
        ]
        by_label = {t.label: t for t in turns if t.label}
        assert len(conversation.dates) == len(conversation.sessions), conversation.slug
        for q in conversation.questions:
            assert q.kind in KINDS and q.answer, q
            if q.kind == "adversarial":
                assert not q.grades, q
                assert not any(_holds(t.text, q.answer) for t in turns), q
                continue
            assert set(q.grades) <= set(by_label), (q.text, set(q.grades) - set(by_label))
            for label, grade in q.grades.items():
                assert grade in (1, 2), q
                assert grade == 1 or _holds(by_label[label].text, q.answer), (q.text, label)
            graded = {by_label[label].key for label in q.grades}
            loose = [t.text for t in turns if _holds(t.text, q.answer) and t.key not in graded]
            assert not loose, (q.text, loose)
            if q.kind == "multi":
                sessions = {by_label[lb].session for lb, g in q.grades.items() if g == 2}
                assert len(sessions) >= 2, q.text


def load(conn: psycopg.Connection[Any], tenant: str, turns: Sequence[Turn]) -> None:
    """Store every turn as a shared working-memory fact (operator of ``tenant``)."""
    rows = [
        {
            "key": t.key,
            "value": {"speaker": t.speaker, "text": t.text, "session": t.session, "date": t.date},
            "tags": [f"chat:{t.conversation}", f"speaker:{t.speaker.lower()}"],
            "shared": True,
        }
        for t in turns
    ]
    with conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (tenant,)
        )
        for start in range(0, len(rows), 200):
            conn.execute("SELECT pgfacts.store_facts(%s)", (Jsonb(rows[start : start + 200]),))


SEARCH = (
    "SELECT ref, similarity FROM pgfacts.search(%s, query_vector => %s::vector, model => %s, "
    '"limit" => 25, text_weight => %s::real, vector_weight => %s::real)'
)


@dataclass
class Scores:
    """Sums over the questions of one kind and list."""

    queries: int = 0
    recall: dict[int, float] = field(default_factory=lambda: dict.fromkeys(DEPTHS, 0.0))
    ndcg10: float = 0.0
    empty: int = 0  # questions answered with no hit at all
    stray: int = 0  # hits that are no turn of the set: wrong answers
    top_similarity: list[float] = field(default_factory=list)  # lists with a vector


def judge(grades: dict[str, int], keys: list[str]) -> tuple[dict[int, float], float]:
    """Recall at each depth of the grade-2 turns, and nDCG@10 with the grades as gains."""
    answers = {k for k, g in grades.items() if g == 2}
    recall = {d: len(answers & set(keys[:d])) / len(answers) for d in DEPTHS}
    ideal = dcg(sorted(grades.values(), reverse=True)[:10])
    return recall, dcg(grades.get(k, 0) for k in keys[:10]) / ideal


def ask(
    conn: psycopg.Connection[Any],
    tenant: str,
    asked: Sequence[Asked],
    embedder: Embedder | None,
    weights: tuple[float, float],
) -> list[tuple[list[str], float | None]]:
    """Every question through search: the turn keys of its hits, best first, and the top
    hit's similarity (None without a vector list)."""
    vectors: list[str | None] = [None] * len(asked)
    if embedder is not None:
        vectors = [vector_literal(v) for v in embedder.embed([q.text for q in asked])]
    answers = []
    for q, vector in zip(asked, vectors, strict=True):
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (tenant,))
            rows = conn.execute(
                SEARCH, (q.text, vector, embedder.model if embedder else None, *weights)
            ).fetchall()
        keys = [r[0].removeprefix("shared:") for r in rows]
        answers.append((keys, rows[0][1] if rows and embedder else None))
    return answers


def evaluate(
    conn: psycopg.Connection[Any],
    tenant: str,
    asked: Sequence[Asked],
    embedder: Embedder | None,
    weights: tuple[float, float] = (1.0, 1.0),
    turns: Sequence[Turn] = (),
    answers: Sequence[tuple[list[str], float | None]] | None = None,
) -> dict[str, Scores]:
    """Scores per kind, ``answerable`` over every kind but adversarial, and the answerable
    questions of each conversation apart (by its slug: each is a held-out check of a
    ranking chosen on the others); with ``turns``, the hits that are none of them are
    counted (``stray`` of ``answerable``). ``answers``: each question's keys and top
    similarity as another list gave them (else asked through search here)."""
    scores = {kind: Scores() for kind in (*KINDS, "answerable")}
    scores.update({c.slug: Scores() for c in CONVERSATIONS})
    known = {t.key for t in turns}
    if answers is None:
        answers = ask(conn, tenant, asked, embedder, weights)
    for q, (keys, top) in zip(asked, answers, strict=True):
        scores["answerable"].stray += sum(k not in known for k in keys) if known else 0
        names = (q.kind, "answerable", q.conversation) if q.kind != "adversarial" else (q.kind,)
        for name in names:
            s = scores[name]
            s.queries += 1
            s.empty += not keys
            if top is not None:
                s.top_similarity.append(top)
            if q.kind != "adversarial":
                recall, ndcg = judge(q.grades, keys)
                for depth in DEPTHS:
                    s.recall[depth] += recall[depth]
                s.ndcg10 += ndcg
    return scores


SEARCH_TEXT = (
    "SELECT ref, similarity, content FROM pgfacts.search(%s, query_vector => %s::vector, "
    'model => %s, "limit" => 25)'
)
RERANK_PACK = (
    "SELECT pgfacts.context_pack(%s, token_budget => 1000000, query_vector => %s::vector, "
    'model => %s, "limit" => 25, neighbours => 1)'
)


def reranked(
    conn: psycopg.Connection[Any],
    tenant: str,
    asked: Sequence[Asked],
    embedder: Embedder,
    reranker: Reranker,
) -> dict[str, list[tuple[list[str], float | None]]]:
    """Three lists of hybrid search's 25 hits per question: ``text``, re-ordered by the
    reranker with each hit's own text as its document (``store.search(..., reranker=)``);
    ``pack``, the hits of a context pack of limit 25 with one neighbour each side, in the
    pack's order (search's: the check that the next list starts where hybrid does); and
    ``context``, that pack re-ordered with each hit's text and its neighbours' as its
    document (``store.context_pack(..., neighbours=1, reranker=)``). Keys, best first."""
    vectors = [vector_literal(v) for v in embedder.embed([q.text for q in asked])]
    lists: dict[str, list[tuple[list[str], float | None]]] = {"text": [], "pack": [], "context": []}
    for q, vector in zip(asked, vectors, strict=True):
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (tenant,))
            rows = conn.execute(SEARCH_TEXT, (q.text, vector, embedder.model)).fetchall()
            hits = rerank_hits(q.text, [_Hit(r[0], r[2]) for r in rows], reranker)
            row = conn.execute(RERANK_PACK, (q.text, vector, embedder.model)).fetchone()
        assert row is not None
        top = rows[0][1] if rows else None
        lists["text"].append(([h.ref.removeprefix("shared:") for h in hits], top))
        for name, pack in (("pack", row[0]), ("context", rerank_pack(q.text, row[0], reranker))):
            keys = [
                i["ref"].removeprefix("shared:")
                for i in pack["items"]
                if "neighbour_of" not in i["why"]
            ]
            lists[name].append((keys, top))
    return lists


@dataclass(frozen=True)
class _Hit:
    ref: str
    content: str


PACK = (
    "SELECT pgfacts.context_pack(%s, token_budget => 1000000, query_vector => %s::vector, "
    'model => %s, "limit" => %s, neighbours => %s)'
)
PACK_ITEMS = (15, 30)  # items handed over: search limit n, or n / 3 hits with a turn each side


def neighbour_recall(
    conn: psycopg.Connection[Any], tenant: str, asked: Sequence[Asked], embedder: Embedder | None
) -> dict[str, dict[int, tuple[float, float]]]:
    """Per kind of answerable question, the recall of its grade-2 turns among the items of a
    context pack of the same size two ways: the n best hits (neighbours 0, limit n), and
    the n / 3 best hits each with the turn before and after it (neighbours 1), which holds
    at most n items. (search pass-through: the pack's own ranking, nothing tuned here.)"""
    vectors: list[str | None] = [None] * len(asked)
    if embedder is not None:
        vectors = [vector_literal(v) for v in embedder.embed([q.text for q in asked])]
    sums: dict[str, dict[int, list[float]]] = {}
    for q, vector in zip(asked, vectors, strict=True):
        if q.kind == "adversarial":
            continue
        answers = {k for k, g in q.grades.items() if g == 2}
        for n in PACK_ITEMS:
            found = []
            for limit, neighbours in ((n, 0), (n // 3, 1)):
                with conn.transaction():
                    conn.execute("SELECT pgfacts.set_context(tenant => %s)", (tenant,))
                    row = conn.execute(
                        PACK,
                        (q.text, vector, embedder.model if embedder else None, limit, neighbours),
                    ).fetchone()
                assert row is not None
                keys = {i["ref"].removeprefix("shared:") for i in row[0]["items"]}
                assert len(keys) <= n
                found.append(len(answers & keys) / len(answers))
            for kind in (q.kind, "answerable"):
                sums.setdefault(kind, {}).setdefault(n, [0.0, 0.0, 0.0])
                totals = sums[kind][n]
                totals[0] += 1
                totals[1] += found[0]
                totals[2] += found[1]
    return {
        kind: {n: (t[1] / t[0], t[2] / t[0]) for n, t in by_n.items()}
        for kind, by_n in sums.items()
    }


def print_neighbour_recall(title: str, recall: dict[str, dict[int, tuple[float, float]]]) -> None:
    print(f"\n{title}: recall of the answering turns in a context pack of n items")
    header = f"{'kind':<12}" + "".join(
        f" {f'{n} hits':>9} {f'{n // 3}+nbrs':>9}" for n in PACK_ITEMS
    )
    print(header)
    print("-" * len(header))
    for kind in (*ANSWERABLE, "answerable"):
        if kind in recall:
            print(
                f"{kind:<12}"
                + "".join(
                    f" {recall[kind][n][0]:>9.3f} {recall[kind][n][1]:>9.3f}" for n in PACK_ITEMS
                )
            )


def separation(answerable: list[float], adversarial: list[float]) -> float:
    """AUC: the chance that an answerable question's top similarity beats an adversarial
    one's (ties count half)."""
    pairs = [(a > b) + 0.5 * (a == b) for a in answerable for b in adversarial]
    return sum(pairs) / len(pairs) if pairs else float("nan")


def print_scores(title: str, scores: dict[str, Scores]) -> None:
    print(f"\n{title}")
    header = (
        f"{'kind':<12} {'queries':>8} {'recall@5':>9} {'recall@10':>10} {'recall@25':>10} "
        f"{'nDCG@10':>8}"
    )
    print(header)
    print("-" * len(header))
    for kind in (*ANSWERABLE, "answerable", *(c.slug for c in CONVERSATIONS)):
        s = scores[kind]
        if s.queries:
            print(
                f"{kind:<12.12} {s.queries:>8} {s.recall[5] / s.queries:>9.3f} "
                f"{s.recall[10] / s.queries:>10.3f} {s.recall[25] / s.queries:>10.3f} "
                f"{s.ndcg10 / s.queries:>8.3f}"
            )
    adversarial = scores["adversarial"]
    line = f"adversarial  {adversarial.queries:>8}  no hit at all: {adversarial.empty}"
    if adversarial.top_similarity:
        auc = separation(scores["answerable"].top_similarity, adversarial.top_similarity)
        line += f"; top similarity vs answerable, AUC {auc:.3f}"
    print(line)


def prepare(
    dsn: str, sessions: int, real_model: bool = True
) -> tuple[list[Turn], list[Asked], list[Embedder]]:
    check()
    turns, asked = build(sessions)
    embedders: list[Embedder] = [HashEmbedder(384)]
    if real_model and minilm.available():
        embedders.append(cached_minilm())
    with psycopg.connect(dsn) as conn:
        load(conn, TENANT, turns)
    for embedder in embedders:  # one model at a time: the queue holds rows, not pairs
        with psycopg.connect(dsn) as conn, conn.transaction():
            conn.execute(
                "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (TENANT,)
            )
            conn.execute(
                "SELECT pgfacts.register_embedding_model(%s, %s)",
                (embedder.model, embedder.dimension),
            )
        run_embedding_queue(embedder, Context(tenant=TENANT, agent_kind="operator"), dsn=dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:  # the tables the searches read
        conn.execute("VACUUM ANALYZE pgfacts_internal.facts, pgfacts_internal.embeddings")
    return turns, asked, embedders


def run(dsn: str, size: str) -> list[Result]:
    # The real model's lists at full size only: on a fresh machine, with no vector cached,
    # embedding the set was most of the smoke run's time on make test's busy cores
    # (tests/test_retrieval_minilm.py checks the model itself).
    turns, asked, embedders = prepare(dsn, SIZES[size], real_model=size == "full")
    counts = {kind: sum(q.kind == kind for q in asked) for kind in KINDS}
    print(
        f"\nconversational set: {len(CONVERSATIONS)} conversations, {SIZES[size]} sessions "
        f"each, {len(turns)} turns (one fact each), {len(asked)} questions "
        f"({', '.join(f'{k} {n}' for k, n in counts.items())})"
    )
    stray = 0  # hits that are no turn of the set: wrong answers
    with psycopg.connect(dsn) as conn:
        lists: list[tuple[str, Embedder | None, tuple[float, float]]] = [
            ("lexical only", None, (1.0, 0.0))
        ]
        for embedder in embedders:
            real = "" if isinstance(embedder, HashEmbedder) else ", a real model"
            lists.append((f"vector only ({embedder.model}{real})", embedder, (0.0, 1.0)))
            lists.append((f"hybrid ({embedder.model}{real})", embedder, (1.0, 1.0)))
        for title, embedder, weights in lists:
            scores = evaluate(conn, TENANT, asked, embedder, weights, turns)
            print_scores(f"conversations, {title}", scores)
            stray += scores["answerable"].stray
        if len(embedders) == 1:
            print(
                "(the real model's lists, the reranking stage's among them, at full size only)"
                if minilm.available()
                else "(the minilm extra is not installed: no run with a real model)"
            )
        else:  # the reranking stage (off by default) on the real model's hybrid
            reranker = minilm.MiniLMReranker(embedders[-1])
            lists_of = reranked(conn, TENANT, asked, embedders[-1], reranker)
            model = embedders[-1].model
            for name, title in (
                ("text", f"hybrid + rerank ({model}, {reranker.name}: a hit's own text)"),
                ("pack", f"hybrid, the hits of a context pack with neighbours 1 ({model})"),
                (
                    "context",
                    f"hybrid + rerank ({model}, {reranker.name}: a hit with its neighbours)",
                ),
            ):
                scores = evaluate(conn, TENANT, asked, None, turns=turns, answers=lists_of[name])
                print_scores(f"conversations, {title}", scores)
                stray += scores["answerable"].stray
        # context_pack's neighbours (a turn is often answered by the next): lexical, and
        # hybrid with the last model (the real one when installed).
        print_neighbour_recall(
            "conversations, lexical", neighbour_recall(conn, TENANT, asked, None)
        )
        print_neighbour_recall(
            f"conversations, hybrid ({embedders[-1].model})",
            neighbour_recall(conn, TENANT, asked, embedders[-1]),
        )
        results = _timings(conn, asked, embedders[0], len(turns), size, stray)
        if len(embedders) > 1 and size == "full":  # at smoke size, as its lists above
            results += _rerank_timings(conn, asked, embedders[-1], len(turns), size)
        return results


def _timings(
    conn: psycopg.Connection[Any],
    asked: Sequence[Asked],
    embedder: Embedder,
    turns: int,
    size: str,
    stray: int,
) -> list[Result]:
    """Lexical search beside hybrid search (HashEmbedder) of the same questions."""
    sample = asked[: min(len(asked), 50)]
    vectors = [vector_literal(v) for v in embedder.embed([q.text for q in sample])]
    state = {"i": 0}

    def one(with_vector: bool) -> None:
        i = state["i"] = (state["i"] + 1) % len(sample)
        vector, model = (vectors[i], embedder.model) if with_vector else (None, None)
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (TENANT,))
            conn.execute(SEARCH, (sample[i].text, vector, model, 1.0, 1.0)).fetchall()

    repeat = 10 if size == "smoke" else 200
    base = "conversations: search lexical limit 25 (baseline)"
    return [
        Result(base, timed(lambda: one(False), repeat), rows=turns),
        Result(
            f"conversations: search hybrid {embedder.dimension}-d limit 25",
            timed(lambda: one(True), repeat),
            baseline=base,
            rows=turns,
            wrong=stray,
        ),
    ]


def _rerank_timings(
    conn: psycopg.Connection[Any], asked: Sequence[Asked], embedder: Embedder, turns: int, size: str
) -> list[Result]:
    """What the reranking stage costs a caller: hybrid search (the real model's query
    vectors, computed before) and a context pack with neighbours 1, each beside the same
    call re-ordered by MiniLMReranker, which runs the model itself (no cached vectors),
    inside the transaction as the store runs it."""
    sample = asked[: min(len(asked), 50)]
    vectors = [vector_literal(v) for v in embedder.embed([q.text for q in sample])]
    reranker = minilm.MiniLMReranker()
    state = {"i": 0}

    def one(pack: bool, rerank: bool) -> None:
        i = state["i"] = (state["i"] + 1) % len(sample)
        query = sample[i].text
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (TENANT,))
            if pack:
                row = conn.execute(RERANK_PACK, (query, vectors[i], embedder.model)).fetchone()
                if rerank and row is not None:
                    rerank_pack(query, row[0], reranker)
            else:
                rows = conn.execute(SEARCH_TEXT, (query, vectors[i], embedder.model)).fetchall()
                if rerank:
                    rerank_hits(query, [_Hit(r[0], r[2]) for r in rows], reranker)

    repeat, warmup = (3, 1) if size == "smoke" else (30, 5)  # the model: 100x a search
    search = f"conversations: search hybrid {embedder.dimension}-d minilm limit 25"
    pack = "conversations: context_pack neighbours 1, limit 25"
    return [
        Result(search, timed(lambda: one(False, False), repeat), rows=turns),
        Result(
            f"{search} + rerank ({reranker.name})",
            timed(lambda: one(False, True), repeat, warmup),
            baseline=search,
            rows=turns,
        ),
        Result(pack, timed(lambda: one(True, False), repeat), rows=turns),
        Result(
            f"{pack} + rerank ({reranker.name})",
            timed(lambda: one(True, True), repeat, warmup),
            baseline=pack,
            rows=turns,
        ),
    ]
