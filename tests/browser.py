"""A report page as a browser shows it, at a desktop's or a phone's width.

Headless Chromium is driven through the DevTools protocol over a pipe (--remote-debugging-pipe: JSON messages
ended by a NUL byte on file descriptors 3 and 4), so nothing beyond the browser is needed: no driver, no
websocket package. The page is opened at a given width (a phone's as a mobile device, so that its viewport
meta tag counts), a small script measures it once it has loaded (broken images, the page's width against the
window's, every image's box, what sticks out), and a screenshot of the whole page is taken.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome")

MEASURE = """(() => {
  const root = document.documentElement, width = root.clientWidth;
  const out = {width: width, scrollWidth: root.scrollWidth, height: root.scrollHeight, images: 0, broken: [],
               wide: [], overflowing: []};
  for (const img of document.images) {
    out.images += 1;
    if (!img.complete || img.naturalWidth === 0) out.broken.push(img.alt || img.src.slice(0, 40));
    const box = img.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5) out.wide.push(`${img.alt}: ${box.left}..${box.right}`);
  }
  // what sticks out of the window, outside the boxes that scroll on their own (the tables)
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.scroll') || out.overflowing.length >= 5) continue;
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5) out.overflowing.push(`<${el.tagName.toLowerCase()}> ${el.textContent.slice(0, 60)}`);
  }
  return out;
})()"""


def _above_4(fd: int) -> int:
    """The same pipe end as a descriptor numbered 5 or more (the original is closed)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 5)
    os.close(fd)
    return high


def find_browser() -> str | None:
    """The path of a Chromium on PATH, if any."""
    return next((p for p in map(shutil.which, BROWSERS) if p), None)


class Browser:
    """One headless Chromium, talked to over the DevTools pipe; use as a context manager."""

    def __init__(self, path: str, timeout: float = 60) -> None:
        self.timeout, self.next_id, self.buffer = timeout, 0, b""
        self.targets: dict[str, str] = {}  # session -> tab
        self.profile = tempfile.TemporaryDirectory()
        to_browser, self.writer = os.pipe()
        self.reader, from_browser = os.pipe()
        # above 4, so that giving them to the browser as 3 and 4 overwrites neither before it is copied
        to_browser, from_browser = (_above_4(fd) for fd in (to_browser, from_browser))
        # the protocol's pipe is the browser's fds 3 (what it reads) and 4 (what it writes)
        def pipe_as_3_and_4() -> None:
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.proc = subprocess.Popen(
            [path, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile.name}", "about:blank"], preexec_fn=pipe_as_3_and_4, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.send("Browser.close")
        except (OSError, RuntimeError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self.writer)
        os.close(self.reader)
        self.profile.cleanup()

    def _message(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            if not select.select([self.reader], [], [], max(0.0, deadline - time.monotonic()))[0]:
                raise RuntimeError("the browser did not answer in time")
            chunk = os.read(self.reader, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, session: str | None = None, **params) -> dict:
        """Send a command and return its result (events that come first are dropped)."""
        self.next_id += 1
        os.write(self.writer, json.dumps({"id": self.next_id, "method": method, "params": params,
                                          **({"sessionId": session} if session else {})}).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m["result"]

    def wait_for(self, event: str, session: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not (m := self._message(deadline)).get("method") == event or m.get("sessionId") != session:
            pass

    def open(self, page: Path, width: int, height: int = 900) -> str:
        """A tab showing `page` at `width` x `height` pixels (a phone's width as a mobile device), loaded; its
        session id for the other calls."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.targets[session] = target
        self.send("Emulation.setDeviceMetricsOverride", session, width=width, height=height, deviceScaleFactor=1,
                  mobile=width < 600)
        self.send("Page.enable", session)
        self.send("Page.navigate", session, url=page.resolve().as_uri())
        self.wait_for("Page.loadEventFired", session)
        return session

    def measure(self, session: str) -> dict:
        """What the page measures (see MEASURE): width, scrollWidth, height, images, broken, wide, overflowing."""
        return self.send("Runtime.evaluate", session, expression=MEASURE, returnByValue=True)["result"]["value"]

    def screenshot(self, session: str, width: int, height: int, out: Path) -> Path:
        """A PNG of the whole page (down to 16,000 pixels), `width` pixels wide."""
        shot = self.send("Page.captureScreenshot", session, format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": width, "height": min(height, 16000), "scale": 1})
        out.write_bytes(base64.b64decode(shot["data"]))
        return out

    def close(self, session: str) -> None:
        self.send("Target.closeTarget", targetId=self.targets.pop(session))
