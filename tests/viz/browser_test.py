#!/usr/bin/env python3
"""The step viewer in a real browser (docs/viewer.md, "Tests").

For each case, `a2a viz` writes a page; headless Chromium (Debian's `chromium`, driven through the
DevTools protocol over a pipe: python3's standard library only) opens it, checks that it loads
nothing from the network and throws no script error, clicks the page's own "step" button until
the last step (the step counter must advance by one per click), and asks the page whether every
block sits at its destination. The same checker must report the initial state (nothing received
yet) and a page whose recording was tampered to misplace one block as failing. One screenshot of a
case is saved (--screenshot).

Usage: browser_test.py --a2a BUILD/a2a --out DIR [--screenshot PNG [--screenshot-case N]
       [--screenshot-step K]] [CASE ...]   where CASE is "ALGORITHM_SPEC P WORKLOAD".
"""
import argparse
import base64
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_CASES = [
    "spread_out 8 uniform:max=64",
    "bruck_basic 7 constant:size=32",
    "parlogna:radix=3 12 uniform:max=64",
    "parlinna_coalesced:ranks_per_node=4,radix=2 16 powerlaw:max=96",
    "bitonic_inplace 8 zhuang1",
    "padded_bruck 5 uniform:max=48",
]
TIMEOUT = 30.0  # seconds for any one browser answer


class Browser:
    """Headless Chromium driven through --remote-debugging-pipe (fd 3: commands, fd 4: replies)."""

    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="a2a-viz-chromium-")
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if not binary:
            raise SystemExit("error: chromium not found (Debian package: chromium)")
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height),
                "about:blank"]

        def child_fds():
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen(args, preexec_fn=child_fds, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.out, self.inp = to_chrome_w, from_chrome_r
        self.buffer = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": page["targetId"], "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Network.enable"):
            self.call(domain, session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.inp], [], [], left)[0]:
                raise TimeoutError("chromium did not answer within %.0f s" % TIMEOUT)
            chunk = os.read(self.inp, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for_event(self, method):
        deadline = time.monotonic() + TIMEOUT
        while True:
            for i, event in enumerate(self.events):
                if event["method"] == method:
                    return self.events.pop(i)
            message = self._read_message(deadline)
            if "method" in message:
                self.events.append(message)

    def open(self, path):
        self.events = []
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=True)
        self.wait_for_event("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                           session=True)
        if "exceptionDetails" in result:
            raise RuntimeError("script error: %s" % result["exceptionDetails"].get("text"))
        return result["result"].get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


RECORDING = re.compile(r'(<script type="application/json" id="a2a-recording">)(.*?)(</script>)',
                       re.S)
EXTERNAL = re.compile(r'(?:src|href)\s*=\s*["\']?\s*(?:https?:)?//|@import|url\(\s*["\']?(?:https?:)?//',
                      re.I)


def tamper(page_path, tampered_path):
    """Moves one segment of the last write into a receive buffer to another source: a block is
    then misplaced in the final state."""
    html = open(page_path, encoding="utf-8").read()
    match = RECORDING.search(html)
    recording = json.loads(match.group(2))
    ranks = recording["meta"]["ranks"]
    for step in reversed(recording["steps"]):
        ops, i, last_write = step["ops"], 0, None
        while i < len(ops):
            kind, buffer = ops[i], ops[i + 2]
            i += 5
            if kind in (0, 1):
                if buffer == 1 and ops[i] > 0:
                    last_write = i + 1  # the first segment's src
                i += 1 + 4 * ops[i]
            elif kind in (2, 4):
                i += 1
        if last_write is not None:
            ops[last_write] = (ops[last_write] + 1) % ranks
            break
    else:
        raise SystemExit("error: nothing to tamper with in " + page_path)
    data = json.dumps(recording, separators=(",", ":"))
    with open(tampered_path, "w", encoding="utf-8") as out:
        out.write(html[:match.start(2)] + data + html[match.end(2):])


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok


STEP_THROUGH = """(() => {
  const v = window.a2aViewer, button = document.getElementById('btn-step');
  const table = document.getElementById('counters');
  v.reset();
  let clicks = 0, advancedByOne = true;
  while (!button.disabled && clicks <= v.stepCount) {
    const before = Number(table.dataset.step);
    button.click();
    clicks++;
    advancedByOne = advancedByOne && Number(table.dataset.step) === before + 1;
  }
  const canvas = document.getElementById('buffers');
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let coloured = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i + 3] > 0 && (pixels[i] !== pixels[i + 1] || pixels[i + 1] !== pixels[i + 2])) coloured++;
  }
  return {clicks: clicks, steps: v.stepCount, current: v.current(), advancedByOne: advancedByOne,
          coloured: coloured, check: v.blocksAtDestination()};
})()"""


def check_play(browser, results, name, path):
    """'play' at the fastest speed runs to the last step by itself and stops there."""
    browser.open(path)
    steps = browser.evaluate("""(() => { const s = document.getElementById('speed');
      s.value = s.options[s.options.length - 1].value; window.a2aViewer.reset();
      document.getElementById('btn-play').click(); return window.a2aViewer.stepCount; })()""")
    rate = browser.evaluate("parseFloat(document.getElementById('speed').value)")
    deadline = time.monotonic() + steps / rate + 5
    state = None
    while time.monotonic() < deadline:
        time.sleep(0.2)
        state = browser.evaluate("[window.a2aViewer.current(), document.getElementById('btn-play').textContent]")
        if state[0] == steps and state[1] == "play":
            break
    results.check(state is not None and state[0] == steps and state[1] == "play",
                  "%s: 'play' reaches step %d by itself and stops (%s)" % (name, steps, state))


def check_page(browser, results, name, path, expect_ok):
    html = open(path, encoding="utf-8").read()
    external = EXTERNAL.findall(html)
    results.check(not external, "%s: the page references no external resource %s" %
                  (name, external[:3] if external else ""))
    browser.open(path)
    requests = [e["params"]["request"]["url"] for e in browser.events
                if e["method"] == "Network.requestWillBeSent"]
    foreign = [u for u in requests if not u.startswith("file://")]
    results.check(not foreign, "%s: loads nothing but itself %s" % (name, foreign[:3]))
    initial = browser.evaluate("window.a2aViewer.reset(), window.a2aViewer.blocksAtDestination()")
    if initial["checked"] > 0:
        results.check(not initial["ok"], "%s: the checker reports the initial state as not done" % name)
    state = browser.evaluate(STEP_THROUGH)
    errors = [e["params"]["exceptionDetails"].get("text") for e in browser.events
              if e["method"] == "Runtime.exceptionThrown"]
    results.check(not errors, "%s: no script error %s" % (name, errors[:2]))
    results.check(state["clicks"] == state["steps"] and state["current"] == state["steps"] and
                  state["advancedByOne"],
                  "%s: %d clicks on 'step' reach the last of %d steps, one step per click" %
                  (name, state["clicks"], state["steps"]))
    results.check(state["coloured"] > 0, "%s: the buffers are drawn" % name)
    check = state["check"]
    if expect_ok:
        results.check(check["ok"], "%s: every one of %d blocks at its destination %s" %
                      (name, check["checked"], check["misplaced"][:2]))
    else:
        results.check(not check["ok"] and check["misplacedCount"] >= 1,
                      "%s: the tampered page is reported as failing (%d misplaced: %s)" %
                      (name, check["misplacedCount"], check["misplaced"][:1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2a", required=True, help="the a2a program")
    parser.add_argument("--out", required=True, help="directory for the pages")
    parser.add_argument("--screenshot", help="save a screenshot of one case here (PNG)")
    parser.add_argument("--screenshot-case", type=int, default=2, help="which case (index)")
    parser.add_argument("--screenshot-step", type=int, default=4, help="at which step")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1100)
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results = Results()
    pages = []
    for i, case in enumerate(args.cases):
        spec, ranks, workload = case.split()
        path = os.path.join(args.out, "case%d_%s.html" % (i, re.sub(r"[^A-Za-z0-9]+", "_", spec)))
        run = subprocess.run([args.a2a, "viz", "--algorithm", spec, "-P", ranks, "--workload",
                              workload, "-o", path], capture_output=True, text=True, timeout=120)
        if not results.check(run.returncode == 0, "a2a viz %s: %s" % (case, (run.stdout + run.stderr).strip())):
            continue
        pages.append((case, path))
    tampered = None
    if pages:
        tampered = os.path.join(args.out, "tampered.html")
        tamper(pages[0][1], tampered)
    browser = Browser(args.width, args.height)
    try:
        for case, path in pages:
            check_page(browser, results, case, path, expect_ok=True)
        if pages:
            check_play(browser, results, pages[0][0], pages[0][1])
        if tampered:
            check_page(browser, results, "tampered " + pages[0][0], tampered, expect_ok=False)
        if args.screenshot and pages:
            case, path = pages[min(args.screenshot_case, len(pages) - 1)]
            browser.open(path)
            browser.evaluate("window.a2aViewer.goTo(%d)" % args.screenshot_step)
            browser.screenshot(args.screenshot)
            results.check(os.path.getsize(args.screenshot) > 10000,
                          "screenshot of %s at step %d: %s" % (case, args.screenshot_step, args.screenshot))
    finally:
        browser.close()
    print("%d passed, %d failed" % (results.passed, results.failed))
    return 0 if results.failed == 0 and results.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
