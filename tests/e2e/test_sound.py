"""The table's sounds (``/static/sound.js``) in a real browser: a muted page makes no audio at all,
remembers it is muted, and an unmuted one makes its audio on the first click and plays every sound.

The module is loaded into a page of the server (the rules page, which has no script of its own);
the page's ``AudioContext`` counts the sources it makes, so that "nothing played" is seen in the
audio graph itself and not only in the module's counters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Tab = Any  # ``open_tab`` (tests/e2e/conftest.py): ``.page`` and ``.errors``

NAMES = ["card", "turn", "trick", "deal", "win", "lose"]

# Before any script of the page: count every oscillator and noise source made.
COUNT_SOURCES = """
window.__sources = 0;
for (const method of ["createOscillator", "createBufferSource"]) {
  const make = AudioContext.prototype[method];
  AudioContext.prototype[method] = function (...args) { window.__sources += 1; return make.apply(this, args); };
}
"""

LOAD = "async () => { window.sound = await import('/static/sound.js'); return window.sound.SOUNDS; }"
PLAY_ALL = """names => {
  const played = names.map(name => window.sound.play(name));
  played.push(window.sound.play("trick", { won: false }));
  return played;
}"""


def open_sound_page(open_tab: Callable[..., Tab], base_url: str) -> Tab:
    tab = open_tab(viewport={"width": 390, "height": 844})
    tab.page.add_init_script(COUNT_SOURCES)
    tab.page.goto(f"{base_url}/rules?lang=en")
    assert tab.page.evaluate(LOAD) == NAMES
    return tab


def test_a_muted_page_plays_nothing_and_remembers(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_sound_page(open_tab, base_url)
    page = tab.page
    assert page.evaluate("window.sound.muted()") is False
    page.evaluate("window.sound.setMuted(true)")
    assert page.evaluate("localStorage.getItem('belote.muted')") == "1"
    assert page.evaluate(PLAY_ALL, NAMES) == [False] * 7
    assert page.evaluate("window.__beloteSounds") == {
        "played": {},
        "muted": {"card": 1, "turn": 1, "trick": 2, "deal": 1, "win": 1, "lose": 1},
    }
    assert page.evaluate("window.__sources") == 0
    assert page.evaluate("window.sound.audioState()") == "none"

    # The next visit is muted too, and a click does not wake the audio.
    page.reload()
    assert page.evaluate(LOAD) == NAMES
    assert page.evaluate("window.sound.muted()") is True
    page.locator("h1").click()
    page.evaluate(PLAY_ALL, NAMES)
    assert page.evaluate("[window.__sources, window.sound.audioState()]") == [0, "none"]
    assert page.evaluate("window.__beloteSounds.muted.trick") == 2
    assert tab.errors == []


def test_an_unmuted_page_plays_every_sound_after_the_first_click(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_sound_page(open_tab, base_url)
    page = tab.page
    page.locator("h1").click()  # the first gesture: the audio is made and resumed
    page.wait_for_function("window.sound.audioState() === 'running'")
    assert page.evaluate(PLAY_ALL, NAMES) == [True] * 7
    assert page.evaluate("window.__beloteSounds") == {
        "played": {"card": 1, "turn": 1, "trick": 2, "deal": 1, "win": 1, "lose": 1},
        "muted": {},
    }
    # card 2 sources, turn 2, trick 3 + 2, deal 4, win 6, lose 3.
    assert page.evaluate("window.__sources") == 22

    # Muted from the page's own switch: the counts move to the muted side, no new source is made.
    page.evaluate("window.sound.setMuted(true)")
    page.evaluate("window.sound.play('card')")
    assert page.evaluate("[window.__sources, window.__beloteSounds.muted.card]") == [22, 1]
    page.evaluate("window.sound.setMuted(false)")
    assert page.evaluate("window.sound.play('card')") is True
    assert page.evaluate("[window.__sources, window.__beloteSounds.played.card]") == [24, 2]
    assert tab.errors == []
