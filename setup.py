"""Build the optional C modules; the package falls back to plain Python where no compiler exists."""

from setuptools import Extension, setup

# Both modules include _play.h (the card tables and the legal cards, written once): it is found
# from either, and a change to it rebuilds both.
PLAY_H = {"include_dirs": ["src/belote"], "depends": ["src/belote/_play.h"]}

setup(
    ext_modules=[
        Extension(
            "belote._playstate",
            ["src/belote/_playstate.c"],
            optional=True,
            extra_compile_args=["-O2"],
            **PLAY_H,
        ),
        Extension(
            "belote.solver._dds",
            ["src/belote/solver/_dds.c"],
            optional=True,
            extra_compile_args=["-O3"],
            **PLAY_H,
        ),
        Extension(
            "belote.env._batch",
            ["src/belote/env/_batch.c"],
            optional=True,
            extra_compile_args=["-O3"],
            include_dirs=["src/belote"],
            depends=["src/belote/_play.h", "src/belote/env/_heuristic.h"],
        ),
    ]
)
