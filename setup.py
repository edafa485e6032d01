"""The compiled core of the rules (``arena/engine/_playout_core.c``) and the house bots'
rollout rule (``arena/bots/_policies.c``), built from source by every install; the rest of the
project's build is in ``pyproject.toml`` (setuptools still calls ``ext-modules`` there
experimental, and says so on every install).

Optional: without a C compiler the install goes on and playouts go through the Game
(``arena.engine.playout.BACKEND`` says which one plays).

An editable install (``./dev``) whose compiled module in the source tree is newer than its
sources keeps it: installing again (another extra, say) neither rebuilds nor rewrites the file,
which a running ``manage.py runserver`` watches (it would reload) and running processes have
loaded.
"""

import filecmp
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

EXTENSIONS = [
    Extension(
        "arena.engine._playout_core",
        sources=["arena/engine/_playout_core.c"],
        depends=["arena/engine/_playout_core.h"],
        optional=True,
    ),
    Extension(
        "arena.bots._policies",
        sources=["arena/bots/_policies.c"],
        depends=["arena/engine/_playout_core.h"],
        optional=True,
    ),
]


class BuildExt(build_ext):
    """setuptools' ``build_ext``, keeping an editable install's up-to-date compiled modules."""

    def build_extension(self, ext: Extension) -> None:
        if self.editable_mode and not self.force:
            inplace, built = self._get_inplace_equivalent(
                self.get_finalized_command("build_py"), ext
            )
            sources = [*ext.sources, *ext.depends]
            if os.path.isfile(inplace) and all(
                os.path.getmtime(inplace) >= os.path.getmtime(s) for s in sources
            ):
                os.makedirs(os.path.dirname(built), exist_ok=True)
                shutil.copy2(inplace, built)
                return
        super().build_extension(ext)

    def copy_extensions_to_source(self) -> None:
        """As setuptools does, but a module equal to the one in the source tree is not copied
        over it (nor the file truncated under the processes that loaded it)."""
        build_py = self.get_finalized_command("build_py")
        every = self.extensions
        self.extensions = [
            ext for ext in every if not _same(*self._get_inplace_equivalent(build_py, ext))
        ]
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = every


def _same(a: str, b: str) -> bool:
    return os.path.isfile(a) and os.path.isfile(b) and filecmp.cmp(a, b, shallow=False)


setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildExt})
