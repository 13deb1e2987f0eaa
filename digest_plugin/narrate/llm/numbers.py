"""The numbers a sentence states, whatever it writes them in: digits of any script or style, number
words in English, Chinese numerals. Pure; the sentence check (`check.py`) holds each to a figure.

    stated_numbers("⑨⑨⑨ files, ninety percent of them new")   # ([("⑨⑨⑨", 999.0), ("ninety", 90.0)], None)
    stated_numbers("百分之九十的变更")                           # ([("百分之九十", 90.0)], None)

A model told to cite figures exactly can still write "⁹⁹⁹⁹⁹⁹ lines" or "九十" where the check reads
only ASCII digits; so every digit with a Unicode digit value counts (circled, superscript, fullwidth,
mathematical, Arabic-Indic), and so do number words. What cannot be read with certainty (digits of
two styles run together such as "10²", a numeral without a digit value such as "Ⅻ", "hundreds of
lines", number words that do not make one number) is not guessed at: `stated_numbers` says why, and
the sentence is rejected.
"""

from __future__ import annotations

import re
import unicodedata

# 1,234 or 5.2 or 31 in ASCII digits, bounded by what is not a word ("2026年5月" still splits)
DECIMAL = re.compile(r"(?<![\w.,])[+\u2212-]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])", re.ASCII)

_UNITS = """
zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
seventeen eighteen nineteen
""".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORDS = {**{w: n for n, w in enumerate(_UNITS)}, **{w: 20 + 10 * i for i, w in enumerate(_TENS)}}
_SCALES = {
    "hundred": 100,
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "dozen": 12,
}
_WORD = "|".join(sorted([*_WORDS, *_SCALES], key=len, reverse=True))
# "twenty-one", "one hundred and five", "a dozen"; the article counts only before a scale word
_WORDS_RUN = re.compile(
    rf"\b(?:an?[\s-]+(?=(?:{'|'.join(_SCALES)})\b))?(?:{_WORD})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{_WORD}))*\b",
    re.IGNORECASE,
)
_VAGUE = re.compile(r"\b(?:dozens|hundreds|thousands|millions|billions)\b", re.IGNORECASE)

# 0 to 9, each with the other characters that write it (两, the financial 壹 贰, traditional forms)
_CHINESE_DIGITS = {
    char: digit
    for digit, chars in enumerate(
        ("零〇", "一壹", "二两兩贰貳", "三叁參", "四肆", "五伍", "六陆陸", "七柒", "八捌", "九玖")
    )
    for char in chars
}
_CHINESE_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1_000, "仟": 1_000}
_CHINESE_LARGE = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
_CHINESE = "".join([*_CHINESE_DIGITS, *_CHINESE_UNITS, *_CHINESE_LARGE])
_CHINESE_RUN = re.compile(rf"(第)?(百分之)?([{_CHINESE}]+)")
# Words written with numerals that count nothing ("very", "in case", "by all means", "percentage", "sporadic"...).
_CHINESE_WORDS = re.compile("十分|万一|千万|一一|万分|百般|千方百计|成千上万|百分比|再三")


def stated_numbers(text: str) -> tuple[list[tuple[str, float]], str | None]:
    """Each number `text` states, as (as written, value); or, instead, why one cannot be read with certainty."""
    digits, origins, problem = _in_ascii_digits(text)
    if problem:
        return [], problem
    if match := _VAGUE.search(digits):
        return [], f"it writes {match[0]!r}, a number that cannot be read with certainty"

    def written(match: re.Match) -> str:  # as the sentence has it, "⑨⑨⑨" rather than "999"
        start, end = match.span()
        while start < end and digits[start].isspace():
            start += 1
        return text[origins[start] : origins[end - 1] + 1]

    stated = [
        (written(m), float(m[1].replace(",", "") + (m[2] or ""))) for m in DECIMAL.finditer(digits)
    ]
    for match in _WORDS_RUN.finditer(digits):
        for words in _numbers_in(match[0]):
            value = _english(words)
            if value is None:
                return [], f"it writes {words!r}, words that do not make one number"
            if words.lower() != "one":  # "one of the changes" counts nothing
                stated.append((words, float(value)))
    idioms = [(m.start(), m.end()) for m in _CHINESE_WORDS.finditer(digits)]
    for match in _CHINESE_RUN.finditer(digits):
        ordinal, percent, numeral = match.groups()
        if ordinal or (numeral in ("一", "零") and not percent):
            continue  # 第三 is a position; a lone 一 is "a" (一些, 之一, 下一次), a lone 零 "odd" (零散)
        if any(start <= match.start(3) and match.end(3) <= end for start, end in idioms):
            continue
        value = _chinese(numeral)
        if value is None:
            return [], f"it writes {match[0]!r}, a numeral that cannot be read with certainty"
        stated.append((match[0], float(value)))
    return stated, None


def _in_ascii_digits(text: str) -> tuple[str, list[int], str | None]:
    """`text` with every digit written as an ASCII one ("⑨" "⁹" "９" "٩" "𝟗" are all 9, "⑩" is 10),
    with where in `text` each of its characters comes from; or why it cannot be: digits of two
    styles in one run, or a numeral with no digits to write."""
    out: list[str] = []
    origins: list[int] = []
    style = None  # of the digit just before, None after anything else
    for index, char in enumerate(text):
        if "0" <= char <= "9":
            written, now = char, ""
        elif (digit := unicodedata.digit(char, None)) is not None:
            written, now = str(digit), _style(char)
        # numerals, not letters such as 参 or 什
        elif unicodedata.category(char).startswith("N") and char not in _CHINESE:
            number = re.fullmatch(r"\(?(\d+)[.,)]?", unicodedata.normalize("NFKC", char))
            # Roman numerals, fractions, counting rods, numerals of other scripts
            if number is None:
                return text, [], f"it writes {char!r}, a numeral that cannot be read with certainty"
            written, now = number[1], _style(char)
        else:
            written, now = char, None
        if now is not None and style is not None and now != style:
            return (
                text,
                [],
                f"it writes digits of two kinds together ({char!r} after another kind), a number that cannot be read with certainty",
            )
        out.append(written)
        origins.extend([index] * len(written))
        style = now
    return "".join(out), origins, None


def _style(char: str) -> str:
    """How a digit is drawn: "" for a plain one of any script, else its compatibility tag (<super>, <circle>, <wide>, <font>...)."""
    decomposition = unicodedata.decomposition(char)
    return decomposition.split(" ", 1)[0] if decomposition.startswith("<") else ""


def _numbers_in(run: str) -> list[str]:
    """A run of number words cut where "and" joins two numbers ("two and three") rather than the
    parts of one ("a hundred and five")."""
    parts = re.split(r"[\s-]+and[\s-]+", run, flags=re.IGNORECASE)
    numbers = [parts[0]]
    for part in parts[1:]:
        if re.search(rf"(?:{'|'.join(_SCALES)})$", numbers[-1], re.IGNORECASE):
            numbers[-1] += " and " + part
        else:
            numbers.append(part)
    return numbers


def _english(words: str) -> int | None:
    """The number a run of English number words makes, or None when they make none ("five three")."""
    tokens = [t for t in re.split(r"[\s-]+", words.lower()) if t not in ("and", "a", "an")]
    total = current = 0
    previous = None  # "unit", "teen", "tens" or "scale"
    for token in tokens:
        if token in _SCALES:
            scale = _SCALES[token]
            if scale >= 1_000:
                total, current = total + max(current, 1) * scale, 0
            else:
                current = max(current, 1) * scale
            kind = "scale"
        else:
            value = _WORDS[token]
            kind = "tens" if value >= 20 else "teen" if value >= 10 else "unit"
            if previous in ("unit", "teen") or (previous == "tens" and kind != "unit"):
                return None  # "five three", "twelve four", "twenty thirty"
            if previous == "scale" and current % 100 and kind != "unit":
                return None
            current += value
        previous = kind
    return total + current


def _chinese(numeral: str) -> int | None:
    """The value of a run of Chinese numerals ("九十" 90, "一百零五" 105, "二〇二六" 2026, "三万" 30000), or None."""
    if all(c in _CHINESE_DIGITS for c in numeral):
        if len(numeral) > 1 and any(c in "两兩" for c in numeral):
            return None  # 两 counts ("两个") but never spells a digit of a longer number
        return int("".join(str(_CHINESE_DIGITS[c]) for c in numeral))  # read digit by digit
    above = 0  # the 亿 part, done
    wan = 0  # the 万 part of the current 亿
    section = number = 0  # below 万
    for char in numeral:
        if char in _CHINESE_DIGITS:
            number = _CHINESE_DIGITS[char]
        elif char in _CHINESE_UNITS:
            section += (number or 1) * _CHINESE_UNITS[char]
            number = 0
        elif _CHINESE_LARGE[char] == 10_000:
            if section + number == 0:
                return None  # 万 with nothing to count
            wan, section, number = (section + number) * 10_000, 0, 0
        else:
            if wan + section + number == 0:
                return None
            above, wan, section, number = above + (wan + section + number) * 100_000_000, 0, 0, 0
    return above + wan + section + number
