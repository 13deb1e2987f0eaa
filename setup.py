"""Packaging step that pyproject.toml cannot declare: the translation catalogues are compiled
(.po -> .mo, with Babel) when the package is built or installed, never while it runs.

A wheel or `pip install .` gets the .mo files inside the installed package; `pip install -e .`
(`make install`) writes them beside their .po in the checkout, where the editable install reads them.
"""

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("digest_plugin") / "locale"


class BuildPyWithCatalogues(build_py):
    def run(self):
        super().run()
        root = Path(__file__).resolve().parent
        for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
            relative = po.relative_to(root).with_suffix(".mo")
            mo = root / relative if self.editable_mode else Path(self.build_lib) / relative
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalogue = read_po(source)
            with mo.open("wb") as target:
                write_mo(target, catalogue)


setup(cmdclass={"build_py": BuildPyWithCatalogues})
