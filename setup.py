"""Build the optional C modules; the package falls back to plain Python where no compiler exists."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "belote._playstate",
            ["src/belote/_playstate.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension("belote.solver._dds", ["src/belote/solver/_dds.c"], optional=True, extra_compile_args=["-O3"]),
    ]
)
