#!/usr/bin/python3
"""Drives a real headless Chromium for VaultMail's web app tests, one JSON command per line.

Run with Debian's Python (python3-selenium, chromium, chromium-driver). The Swift tests start it,
send commands on stdin and read one JSON answer per line: {"ok": true, "value": ...} or
{"ok": false, "error": "..."}. The browser reaches loopback only: every other host resolves
to nothing and every other address goes to a dead proxy, and Chromium's own background
services are off.
"""
import json
import signal
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException

LOOPBACK_ONLY = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-default-apps", "--disable-extensions", "--disable-domain-reliability",
    "--disable-client-side-phishing-detection", "--metrics-recording-only", "--no-pings",
    "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
    "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost;[::1]",
    "--allow-file-access-from-files",
]

def loopback_only(hosts):
    """LOOPBACK_ONLY, with `hosts` (names standing in for remote servers in a test) resolved
    to 127.0.0.1 and reached without the dead proxy; every other name still resolves nowhere."""
    if not hosts:
        return LOOPBACK_ONLY
    maps = "".join("MAP %s 127.0.0.1, " % host for host in hosts)
    flags = []
    for flag in LOOPBACK_ONLY:
        if flag.startswith("--host-resolver-rules="):
            flag = "--host-resolver-rules=" + maps + flag.split("=", 1)[1]
        elif flag.startswith("--proxy-bypass-list="):
            flag = flag + ";" + ";".join(hosts)
        flags.append(flag)
    return flags


SPECIAL = {"ENTER": Keys.ENTER, "ESCAPE": Keys.ESCAPE, "TAB": Keys.TAB, "SHIFT": Keys.SHIFT,
           "DOWN": Keys.ARROW_DOWN, "UP": Keys.ARROW_UP, "BACKSPACE": Keys.BACKSPACE,
           "LEFT": Keys.ARROW_LEFT, "RIGHT": Keys.ARROW_RIGHT, "HOME": Keys.HOME, "END": Keys.END}


def start(width, height, language, loopback_hosts=()):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in loopback_only(loopback_hosts):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='vaultmail-chromium-')}")
    options.add_argument(f"--window-size={width},{height}")
    # The user's language: the interface's, and what Accept-Language asks pages for.
    options.add_argument(f"--lang={language}")
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    # The console (CSP violations, script errors), read by the "console" command.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    viewport(driver, width, height)
    return driver


def viewport(driver, width, height):
    """Sizes the page's viewport (innerWidth × innerHeight) to width × height: the window is
    that much larger as its own frame and bars take (a 1280×800 window shows a 1280×657 page)."""
    driver.set_window_size(width, height)
    inner_width, inner_height = driver.execute_script("return [innerWidth, innerHeight]")
    if (inner_width, inner_height) != (width, height):
        driver.set_window_size(width + (width - inner_width), height + (height - inner_height))


def run(driver, command):
    name = command["cmd"]
    if name == "get":
        driver.get(command["url"])
        return driver.current_url
    if name == "url":
        return driver.current_url
    if name == "js":
        return driver.execute_script(command["script"], *command.get("args", []))
    if name == "wait":
        deadline = time.monotonic() + command.get("timeout", 30)
        started = time.monotonic()
        while True:
            value = driver.execute_script(command["script"], *command.get("args", []))
            if value:
                return {"value": value, "ms": round((time.monotonic() - started) * 1000, 1)}
            if time.monotonic() > deadline:
                raise TimeoutError("still false after %ss: %s" % (command.get("timeout", 30), command["script"]))
            time.sleep(0.02)
    if name == "click":
        # The app's lists are live: a row found a moment ago may have been replaced by a
        # refresh (new mail, a category decided) before the click lands. Find it again then,
        # for at most two seconds.
        deadline = time.monotonic() + 2
        while True:
            element = driver.find_element(By.CSS_SELECTOR, command["css"])
            try:
                if command.get("shift"):
                    ActionChains(driver).key_down(Keys.SHIFT).click(element).key_up(Keys.SHIFT).perform()
                else:
                    element.click()
                return True
            except StaleElementReferenceException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
    if name == "keys":
        chain = ActionChains(driver)
        for key in command["keys"]:
            if key.startswith("SHIFT+"):
                chain.key_down(Keys.SHIFT).send_keys(key[6:]).key_up(Keys.SHIFT)
            elif key.startswith("CTRL+"):
                chain.key_down(Keys.CONTROL).send_keys(SPECIAL.get(key[5:], key[5:])).key_up(Keys.CONTROL)
            else:
                chain.send_keys(SPECIAL.get(key, key))
        chain.perform()
        return True
    if name == "axe":
        source = open(command["script"], encoding="utf-8").read()
        driver.execute_script(source)
        result = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => "
            "({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))))"
            ".catch(e => done({error: String(e)}));")
        return result
    if name == "screenshot":
        viewport(driver, command.get("width", 1280), command.get("height", 800))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if command.get("dark") else "light"}]})
        time.sleep(0.3)  # let the new layout and colour scheme paint before the picture
        driver.save_screenshot(command["path"])
        return command["path"]
    if name == "size":
        viewport(driver, command["width"], command["height"])
        return True
    if name == "scheme":
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": command["value"]}]})
        return True
    if name == "count":
        return len(driver.find_elements(By.CSS_SELECTOR, command["css"]))
    if name == "attribute":
        return driver.find_element(By.CSS_SELECTOR, command["css"]).get_attribute(command["name"])
    if name == "console":
        return [entry.get("message", "") for entry in driver.get_log("browser")]
    if name == "cookies":
        return driver.get_cookies()
    if name == "frame_js":
        frame = driver.find_element(By.CSS_SELECTOR, command["css"])
        driver.switch_to.frame(frame)
        try:
            return driver.execute_script(command["script"])
        finally:
            driver.switch_to.default_content()
    if name == "javascript":
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not command["enabled"]})
        return True
    raise ValueError("unknown command %r" % name)


def main():
    # Stopped by the test with SIGTERM: quit the browser on the way out, never leave it behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    width = int(sys.argv[1]) if len(sys.argv) > 1 else 1280
    height = int(sys.argv[2]) if len(sys.argv) > 2 else 800
    language = sys.argv[3] if len(sys.argv) > 3 else "en-US"
    # Host names that resolve to 127.0.0.1 (comma-separated): remote servers stood in for by a test's.
    hosts = [host for host in (sys.argv[4] if len(sys.argv) > 4 else "").split(",") if host]
    driver = start(width, height, language, hosts)
    print(json.dumps({"ok": True, "value": "ready"}), flush=True)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            if command["cmd"] == "quit":
                break
            try:
                answer = {"ok": True, "value": run(driver, command)}
            except Exception as error:  # every failure is reported to the test, which decides
                answer = {"ok": False, "error": "%s: %s" % (type(error).__name__, error),
                          "trace": traceback.format_exc(limit=3)}
            print(json.dumps(answer, default=str), flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
