"""The window of `render_mode="human"`: shows each frame of nestor's picture with pygame (the
`human` extra) or, without it, matplotlib (the `plot` extra); neither is a dependency.

`open_viewer` refuses at once, naming what is missing, when there is no display or no usable
library, so that `gym.make(..., render_mode="human")` fails where it is written and not at
the first step.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Optional

from gymnasium.error import DependencyNotInstalled

__all__ = ["Viewer", "open_viewer"]

# matplotlib's backends that draw to files, never to a window.
_FILE_BACKENDS = {"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"}


class Viewer:
    """A window showing uint8 (height, width, 3) frames at most `fps` a second."""

    def show(self, frame: Any) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class _PygameViewer(Viewer):
    def __init__(self, pygame: Any, fps: int, title: str):
        self._pg = pygame
        self._fps = fps
        self._title = title
        self._screen: Any = None
        self._clock = pygame.time.Clock()
        pygame.display.init()

    def show(self, frame: Any) -> None:
        pg = self._pg
        height, width = frame.shape[:2]
        if self._screen is None or self._screen.get_size() != (width, height):
            self._screen = pg.display.set_mode((width, height))
            pg.display.set_caption(self._title)
        self._screen.blit(pg.surfarray.make_surface(frame.swapaxes(0, 1)), (0, 0))
        pg.event.pump()
        pg.display.flip()
        self._clock.tick(self._fps)

    def close(self) -> None:
        self._pg.display.quit()


class _PyplotViewer(Viewer):
    def __init__(self, plt: Any, fps: int, title: str):
        self._plt = plt
        self._fps = fps
        self._fig, self._ax = plt.subplots(num=title)
        self._ax.set_axis_off()
        self._image: Any = None
        plt.ion()

    def show(self, frame: Any) -> None:
        if self._image is None or self._image.get_array().shape != frame.shape:
            self._ax.clear()
            self._ax.set_axis_off()
            self._image = self._ax.imshow(frame, interpolation="nearest")
        else:
            self._image.set_data(frame)
        self._plt.pause(1.0 / self._fps)

    def close(self) -> None:
        self._plt.close(self._fig)


def _import(name: str) -> Optional[Any]:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def open_viewer(fps: int, title: str = "nestor") -> Viewer:
    """A window for `render_mode="human"`: pygame if importable, else matplotlib with a
    window backend. `RuntimeError` without a display (neither `DISPLAY` nor
    `WAYLAND_DISPLAY` set); gymnasium's `DependencyNotInstalled` without either library."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise RuntimeError(
            'render_mode="human" needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is '
            'set: use render_mode="rgb_array" (the same picture as an array) or run under a '
            "display (e.g. xvfb-run)"
        )
    pygame = _import("pygame")
    if pygame is not None:
        return _PygameViewer(pygame, fps, title)
    if _import("matplotlib") is not None:
        plt = importlib.import_module("matplotlib.pyplot")
        backend = str(plt.get_backend()).lower()
        if backend not in _FILE_BACKENDS:
            return _PyplotViewer(plt, fps, title)
        raise DependencyNotInstalled(
            f'render_mode="human" found matplotlib, but its backend "{backend}" draws no window '
            "and pygame is not installed: pip install 'nestor[human]' (pygame), or give "
            "matplotlib a window backend (e.g. install tkinter)"
        )
    raise DependencyNotInstalled(
        'render_mode="human" needs pygame or matplotlib, and neither is installed: '
        "pip install 'nestor[human]' (pygame)"
    )
