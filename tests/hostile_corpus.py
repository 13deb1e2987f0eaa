"""Payloads a stranger can put in a pull request, and a checker that finds any of them alive.

Every payload that would run carries the marker `__pwned` or calls `alert`, so a browser that ran
one shows a dialog or sets `window.__pwned`.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

CONTROLS = "".join(chr(c) for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)])

PAYLOADS = [
    # script and event handlers
    "<script>alert(1);window.__pwned=1</script>",
    "<img src=x onerror=alert(1)>",
    '"><img src=x onerror="window.__pwned=1">',
    "'><svg onload=alert(1)>",
    "<body onload=alert(1)>",
    "<details open ontoggle=alert(1)>",
    '<a href="javascript:alert(1)">click</a>',
    "javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
    # SVG and MathML
    "<svg><script>alert(1)</script></svg>",
    '<svg><a xlink:href="javascript:alert(1)"><text x=0 y=20>x</text></a></svg>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<math href="javascript:alert(1)">x</math>',
    # broken and nested markup
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<<script>alert(1)//<</script>",
    "</textarea></title></style><script>alert(1)</script>",
    "<!--<img src=--><img src=x onerror=alert(1)//>",
    "<b><i>unclosed <u>nested",
    "&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &#60;b&#62;",
    # Markdown link tricks
    "[click](javascript:alert(1))",
    "[x](data:text/html,<script>alert(1)</script>)",
    '![img](x" onerror="alert(1))',
    "<javascript:alert(1)>",
    "[a]: javascript:alert(1)\n[ref][a]",
    "```\n</code></pre><script>alert(1)</script>\n```",
    "| a | <script>alert(1)</script> |\n|---|---|",
    "*emphasis* _under_ `code` # heading > quote",
    # bidi, zero-width, long
    "evil\u202egnp.exe\u202c",
    "\u05ea\u05d9\u05e7\u05d5\u05df 42 \u05e9\u05dc \u05d4\u05de\u05e4\u05e8\u05e9",  # right-to-left letters and a number, no controls
    "\u2066isolate\u2069 and \u202aembed\u202c",
    "zero\u200bwidth\u200c\u200d\ufeffjoin",
    "A" * 5000,
    "長" * 3000,
    # every control character
    "ctl" + CONTROLS + "end",
    "\x1b[2J\x1b]0;owned\x07\x00",
    "non\ufffe\uffffchar\U0001fffe",
    # template syntax
    "{{ 7*7 }} {{ config }} {{ ''.__class__.__mro__ }}",
    "{% for x in range(10**9) %}x{% endfor %}",
    "{# comment #} {% raw %}",
    # Pelican's link syntax
    "{static}/../../../etc/passwd",
    "{filename}/pages/x.md",
    "{attach}x {category}y {tag}z {index}",
]

_URL_ATTRIBUTES = {
    "href",
    "src",
    "action",
    "formaction",
    "xlink:href",
    "poster",
    "data",
    "srcset",
    "background",
    "lowsrc",
}
_DANGEROUS_SCHEME = re.compile(r"^\s*(javascript|vbscript|data):", re.I)
_FRAMES = {"iframe", "object", "embed", "base", "frame", "frameset", "applet"}
_MARKER = re.compile(r"alert\(|__pwned|onerror|onload")


class LiveMarkup(HTMLParser):
    """Collects every element or attribute through which text from a pull request could act.

    The theme's own markup has no event handlers, no dangerous URLs and no frames; a <script> or
    <form> of its own is fine, one that mentions a payload is not.
    """

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if (
                name in _URL_ATTRIBUTES and _DANGEROUS_SCHEME.match(value) and value != "data:,"
            ):  # data:, is the theme's empty icon
                self.found.append(f"<{tag} {name}={value[:40]!r}>")
        mentions_payload = any(_MARKER.search(value or "") for _, value in attrs)
        # A <meta> carries text (description, og:title) except with http-equiv, where refresh can navigate;
        # a <link> is dangerous only through its URL, checked above (a slug may spell "onerror" harmlessly).
        acting_meta = tag == "meta" and any(name == "http-equiv" for name, _ in attrs)
        if tag in _FRAMES or (
            (tag in ("script", "form", "svg", "math", "style") or acting_meta) and mentions_payload
        ):
            self.found.append(f"<{tag} {str(attrs)[:60]}>")
        self._in_script = tag in ("script", "style")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and _MARKER.search(data):
            self.found.append(f"script text {data[:40]!r}")


# Openings of the payloads' own elements: in a page's source, any of them means a payload is markup.
RAW_OPENINGS = [
    "<script>alert",
    "<img src=x",
    "<svg onload",
    "<svg><script",
    "<svg><a",
    "<math><mtext",
    "<math href",
    "<iframe src=",
    "<details open",
    "<body onload",
    "<scr<script>",
    '<a href="javascript',
    "<b><i>unclosed",
]


def live_markup(html: str) -> list[str]:
    parser = LiveMarkup()
    parser.feed(html)
    parser.close()
    return parser.found + [f"raw {opening!r}" for opening in RAW_OPENINGS if opening in html]
