#!/usr/bin/env python3
"""An independent relying party driving Keyway's hosted pages in a real headless Chromium.

The relying party is written with Authlib (OAuth2Session with PKCE S256, the authorization URL
from discovery, the code redeemed at the token endpoint) and checks each ID token with joserfc
against the server's JWKS (signature, iss, aud, nonce, auth_time). Chromium, driven by Selenium,
goes through the pages as a user would; the pages are found by `name` attributes, form `action`s
and hidden values, never by their look. One-time codes come from the dev outbox; authenticator
codes are computed here from the key the set-up page shows.

    browser_rp.py --issuer URL --client-id ID --second-client-id ID --email ADDRESS \
        --server-time EPOCH --pause-dir DIR SCENARIO

The relying party's redirect URI is `http://127.0.0.1:PORT/callback` on a small HTTP server of its
own. When a scenario needs the test to act on the server (register the relying party's URIs, move
the server's clock), it pauses: it writes DIR/NAME.ready (with a payload) and waits for DIR/NAME.go.
The result is one JSON object on standard output; the exit status is 0 when every check held.
"""
import argparse
import base64
import hashlib
import hmac
import html
import json
import os
import re
import shutil
import struct
import sys
import threading
import time
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from joserfc import jwt
from joserfc.jwk import KeySet
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 60
PASSWORD = "correct horse battery staple 42"
NEW_PASSWORD = "a new horse for a new staple 43"


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


# MARK: The relying party's own HTTP server (its redirect and post-logout URIs)


class Callbacks:
    """Requests that reached the relying party's loopback server."""

    def __init__(self):
        self.lock = threading.Condition()
        self.received = []

    def add(self, method, path, form):
        with self.lock:
            self.received.append({"method": method, "path": path, "form": form})
            self.lock.notify_all()

    def wait(self, count, timeout=TIMEOUT):
        with self.lock:
            if not self.lock.wait_for(lambda: len(self.received) >= count, timeout):
                raise CheckFailed("the relying party received no request at its redirect URI")
            return self.received[count - 1]

    def count(self):
        with self.lock:
            return len(self.received)


def start_callback_server(callbacks, pages):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, body, status=200):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = urllib.parse.urlsplit(self.path).path
            if path in pages:
                return self.answer(pages[path])
            if path in ("/callback", "/logged-out"):
                callbacks.add("GET", self.path, None)
                return self.answer("<!doctype html><title>Relying party</title><p>Back at the relying party.</p>")
            self.answer("not found", 404)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            # Only the redirect URI's form_post counts: the server's port was handed out by the
            # system, and a request meant for a process that held it before (another test's
            # webhook, say) must not pass for the authorization response.
            if urllib.parse.urlsplit(self.path).path != "/callback":
                return self.answer("not found", 404)
            form = dict(urllib.parse.parse_qsl(body.decode(errors="replace")))
            callbacks.add("POST", self.path, form)
            self.answer("<!doctype html><title>Relying party</title><p>Back at the relying party.</p>")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# MARK: The test's hand on the server


class Pauses:
    def __init__(self, directory):
        self.directory = directory

    def pause(self, name, payload=""):
        """Asks the test to act (NAME.ready with `payload`) and waits until it has (NAME.go)."""
        ready = os.path.join(self.directory, name + ".ready")
        with open(ready + ".tmp", "w") as handle:
            handle.write(payload)
        os.rename(ready + ".tmp", ready)
        go = os.path.join(self.directory, name + ".go")
        deadline = time.monotonic() + 180
        while not os.path.exists(go):
            if time.monotonic() > deadline:
                raise CheckFailed("the test did not answer the pause " + name)
            time.sleep(0.02)


# MARK: Authenticator codes (RFC 6238), written from the RFC


def totp(secret, at):
    padded = secret.upper() + "=" * (-len(secret) % 8)
    key = base64.b32decode(padded)
    mac = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return "%06d" % (value % 1000000)


# MARK: The relying party


class RelyingParty:
    def __init__(self, args):
        self.args = args
        self.issuer = args.issuer
        self.server_time = args.server_time
        self.metadata = requests.get(self.issuer + "/.well-known/openid-configuration", timeout=TIMEOUT).json()
        check(self.metadata["issuer"] == self.issuer, "the discovery document names another issuer")
        self.keys = KeySet.import_key_set(requests.get(self.metadata["jwks_uri"], timeout=TIMEOUT).json())
        self.callbacks = Callbacks()
        self.pages = {}
        self.http = start_callback_server(self.callbacks, self.pages)
        self.base = "http://127.0.0.1:%d" % self.http.server_address[1]
        self.redirect_uri = self.base + "/callback"
        self.pauses = Pauses(args.pause_dir)
        self.totp_secret = None
        self._driver = None

    # The browser

    @property
    def driver(self):
        if self._driver is None:
            options = webdriver.ChromeOptions()
            for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                             "--no-first-run", "--disable-extensions", "--password-store=basic"):
                options.add_argument(argument)
            binary = shutil.which("chromium") or "/usr/bin/chromium"
            if os.path.exists(binary):
                options.binary_location = binary
            service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
            self._driver = webdriver.Chrome(options=options, service=service)
            self._driver.set_page_load_timeout(TIMEOUT)
        return self._driver

    def close(self):
        if self._driver is not None:
            self._driver.quit()
        self.http.shutdown()

    def advance(self, seconds):
        """Moves the server's clock (the test does) and this side's idea of it."""
        self.pauses.pause("advance-%d" % seconds)
        self.server_time += seconds

    # Authorization requests, built by Authlib from discovery

    def session(self, client_id=None, redirect_uri=None):
        return OAuth2Session(
            client_id or self.args.client_id, scope="openid email offline_access",
            redirect_uri=redirect_uri or self.redirect_uri, code_challenge_method="S256",
            token_endpoint_auth_method="none")

    def authorization(self, client_id=None, redirect_uri=None, **extra):
        client = self.session(client_id, redirect_uri)
        verifier = generate_token(48)
        state = generate_token(20)
        nonce = generate_token(20)
        url, _ = client.create_authorization_url(
            self.metadata["authorization_endpoint"], state=state, nonce=nonce, code_verifier=verifier, **extra)
        return {"client": client, "url": url, "state": state, "nonce": nonce, "verifier": verifier}

    def callback_parameters(self, callback, request):
        if callback["method"] == "POST":
            query = dict(callback["form"])
        else:
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback["path"]).query))
        check(query.get("state") == request["state"], "state was not echoed: %r" % query)
        check(query.get("iss") == self.issuer, "the response has no iss of the issuer (RFC 9207): %r" % query)
        return query

    def redeem(self, request, callback):
        """Redeems the callback's code with Authlib and validates the ID token."""
        query = self.callback_parameters(callback, request)
        check("code" in query, "the response carries no code: %r" % query)
        client = request["client"]
        response = self.base + "/callback?" + urllib.parse.urlencode(query)
        token = client.fetch_token(
            self.metadata["token_endpoint"], authorization_response=response,
            code_verifier=request["verifier"], state=request["state"])
        claims = self.validate_id_token(token["id_token"], request["nonce"], client.client_id)
        return token, claims

    def validate_id_token(self, id_token, nonce, client_id):
        decoded = jwt.decode(id_token, self.keys, algorithms=["RS256", "ES256"])
        registry = jwt.JWTClaimsRegistry(
            now=int(self.server_time), leeway=5,
            iss={"essential": True, "value": self.issuer}, aud={"essential": True, "value": client_id},
            sub={"essential": True}, exp={"essential": True}, iat={"essential": True},
            nonce={"essential": True, "value": nonce}, auth_time={"essential": True})
        registry.validate(decoded.claims)
        return decoded.claims

    # Pages

    def visit(self, url):
        self.driver.get(url)

    def mark_page(self):
        """Marks the current document, to tell when another one has replaced it."""
        marker = generate_token(12)
        self.driver.execute_script("window.__relyingPartyMarker = arguments[0];", marker)
        return marker

    def wait_for_change(self, marker):
        """Waits until a new document replaced the marked one and has loaded."""

        def replaced(driver):
            try:
                return driver.execute_script(
                    "return window.__relyingPartyMarker !== arguments[0] && document.readyState === 'complete';",
                    marker)
            except WebDriverException:
                return False  # between two documents

        try:
            WebDriverWait(self.driver, TIMEOUT).until(replaced)
        except TimeoutException:
            raise CheckFailed("the page did not change after a form was sent")

    def forms(self):
        return self.driver.find_elements(By.TAG_NAME, "form")

    @staticmethod
    def form_action(form):
        return urllib.parse.urlsplit(form.get_attribute("action") or "").path

    @staticmethod
    def hidden(form, name):
        inputs = form.find_elements(By.CSS_SELECTOR, 'input[type="hidden"][name="%s"]' % name)
        return inputs[0].get_attribute("value") if inputs else None

    def form_with(self, path, action=None, decision=None):
        for form in self.forms():
            if self.form_action(form) != path:
                continue
            if action is not None and self.hidden(form, "action") != action:
                continue
            if decision is not None and self.hidden(form, "decision") != decision:
                continue
            return form
        return None

    def submit(self, form):
        marker = self.mark_page()
        form.find_element(By.CSS_SELECTOR, 'button:not([type]), button[type="submit"], input[type="submit"]').click()
        self.wait_for_change(marker)

    def fill(self, form, name, value):
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)

    def page_text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def on_server(self):
        return self.driver.current_url.startswith(self.issuer + "/")

    def outbox_code(self, address, after):
        """The newest code sent to `address` once more than `after` messages were sent."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            listing = requests.get(
                self.issuer + "/dev/outbox", params={"to": address}, timeout=TIMEOUT).json()["messages"]
            if len(listing) > after:
                return listing[-1]["code"]
            if time.monotonic() > deadline:
                raise CheckFailed("no code reached the outbox for " + address)
            time.sleep(0.05)

    def outbox_count(self, address):
        return len(requests.get(self.issuer + "/dev/outbox", params={"to": address}, timeout=TIMEOUT).json()["messages"])

    def totp_secret_on_page(self):
        source = html.unescape(self.driver.page_source)
        found = re.search(r"otpauth://totp/[^\s\"'<>]*[?&]secret=([A-Z2-7]+)", source)
        if found:
            return found.group(1)
        # The key as typed into an app, which the page shows in groups of four in a <code>.
        for code in re.findall(r"<code[^>]*>(.*?)</code>", source, re.S):
            key = re.sub(r"<[^>]+>|\s", "", code)
            if re.fullmatch(r"[A-Z2-7]{26,}", key):
                return key
        found = re.search(r"\b([A-Z2-7]{26,})\b", self.page_text())
        return found.group(1) if found else None

    def sign_in(self, address, callbacks_before, identifier=True, choose=("totp", "password", "emailOtp"),
                consent=None, max_pages=12):
        """Goes through the hosted pages until the relying party is called back; answers the
        names of the steps the pages showed (by their hidden `action`)."""
        shown = []
        for _ in range(max_pages):
            if self.callbacks.count() > callbacks_before:
                return shown
            check(self.on_server(), "the browser left the server for %s" % self.driver.current_url)
            identify = self.form_with("/login/identify")
            if identify is not None:
                shown.append("identify")
                if identifier:
                    self.fill(identify, "identifier", address)
                self.submit(identify)
                continue
            if consent is not None and self.form_with("/login/consent") is not None:
                shown.append("consent")
                self.submit(self.form_with("/login/consent", decision=consent))
                continue
            step = None
            for form in self.forms():
                if self.form_action(form) == "/login/action":
                    name = self.hidden(form, "action")
                    if name in ("submitCode", "submitTotp", "submitPassword", "submitForm", "selectMethod"):
                        step = (name, form)
                        break
            if step is None:
                raise CheckFailed("a page without a known step: %s\n%s" % (self.driver.current_url, self.page_text()))
            name, form = step
            shown.append(name)
            if name == "submitCode":
                self.fill(form, "code", self.outbox_code(address, self.sent))
                self.sent = self.outbox_count(address)
            elif name == "submitTotp":
                secret = self.totp_secret_on_page()
                if secret:
                    self.totp_secret = secret
                check(self.totp_secret, "an authenticator code is asked for before any key was shown")
                self.fill(form, "code", totp(self.totp_secret, self.server_time))
            elif name == "submitPassword":
                self.fill(form, "password", PASSWORD)
            elif name == "submitForm":
                for field in form.find_elements(By.CSS_SELECTOR, "input:not([type=hidden]), select, textarea"):
                    kind = (field.get_attribute("type") or "text").lower()
                    if kind == "checkbox":
                        if not field.is_selected():
                            field.click()
                    elif kind == "password":
                        field.send_keys(PASSWORD)
                    elif not field.get_attribute("value"):
                        field.send_keys("Ada Lovelace")
            elif name == "selectMethod":
                options = [f for f in self.forms() if self.hidden(f, "action") == "selectMethod"]
                chosen = None
                for preference in choose:
                    chosen = next((f for f in options if preference.lower() in (self.hidden(f, "methodId") or "").lower()), None)
                    if chosen is not None:
                        break
                form = chosen or options[0]
                shown[-1] = "selectMethod:%s" % self.hidden(form, "methodId")
            self.submit(form)
        if self.callbacks.count() > callbacks_before:
            return shown
        raise CheckFailed("the sign-in did not end after %d pages: %s" % (max_pages, shown))

    def full_sign_in(self, address, client_id=None, **extra):
        """An authorization request through the pages, redeemed: (pages, token, claims)."""
        before = self.callbacks.count()
        request = self.authorization(client_id, **extra)
        self.visit(request["url"])
        self.sent = self.outbox_count(address)
        shown = self.sign_in(address, before)
        token, claims = self.redeem(request, self.callbacks.wait(before + 1))
        return shown, token, claims

    def silent(self, client_id=None, **extra):
        """An authorization request answered without a page: the callback's parameters."""
        before = self.callbacks.count()
        request = self.authorization(client_id, **extra)
        self.visit(request["url"])
        callback = self.callbacks.wait(before + 1)
        check(self.callbacks.count() == before + 1, "more than one callback")
        return request, callback

    def userinfo(self, access_token):
        return requests.get(
            self.metadata["userinfo_endpoint"], headers={"Authorization": "Bearer " + access_token}, timeout=TIMEOUT)

    def browser_session(self):
        """A requests session carrying the browser's cookies for the server."""
        session = requests.Session()
        for cookie in self.driver.get_cookies():
            session.cookies.set(cookie["name"], cookie["value"], path=cookie.get("path", "/"))
        return session


# MARK: Scenarios


def scenario_email_code(rp):
    """Signs in by a code sent by email; the ID token carries the nonce and auth_time."""
    shown, token, claims = rp.full_sign_in(rp.args.email)
    check(shown == ["identify", "submitCode"], "pages shown: %s" % shown)
    check(claims.get("email") == rp.args.email, "the ID token's email: %r" % claims.get("email"))
    info = rp.userinfo(token["access_token"])
    check(info.status_code == 200 and info.json()["sub"] == claims["sub"], "UserInfo: %s" % info.text)
    return {"pages": shown, "sub": claims["sub"], "nonce": claims["nonce"], "auth_time": claims["auth_time"],
            "scope": token.get("scope"), "has_refresh_token": "refresh_token" in token}


def scenario_password_totp(rp):
    """Signs up choosing a password and setting up an authenticator, then signs in with both."""
    first, _, claims = rp.full_sign_in(rp.args.email, prompt="create")
    check(rp.totp_secret is not None, "no authenticator key was shown")
    check("submitPassword" in first and "submitTotp" in first, "sign-up pages: %s" % first)
    # The next authenticator code: a code is accepted once.
    rp.advance(30)
    second, _, again = rp.full_sign_in(rp.args.email, prompt="login")
    check("submitPassword" in second and "submitTotp" in second, "sign-in pages: %s" % second)
    check(again["sub"] == claims["sub"], "another user signed in")
    check(again["auth_time"] > claims["auth_time"], "the second sign-in did not renew auth_time")
    return {"signup_pages": first, "signin_pages": second, "amr": again.get("amr"), "sub": again["sub"]}


def scenario_another_method(rp):
    """On the password page, "Use another method" goes back to the choice of method, where an
    email code signs in (the account is made first, through the pages)."""
    rp.full_sign_in(rp.args.email, prompt="create")
    before = rp.callbacks.count()
    request = rp.authorization(prompt="login")
    rp.visit(request["url"])
    rp.sent = rp.outbox_count(rp.args.email)
    identify = rp.form_with("/login/identify")
    check(identify is not None, "no identifier page: %s" % rp.page_text())
    rp.fill(identify, "identifier", rp.args.email)
    rp.submit(identify)
    choice = {rp.hidden(f, "methodId"): f for f in rp.forms() if rp.hidden(f, "action") == "selectMethod"}
    check(set(choice) == {"emailOtp", "password"}, "the methods offered: %s" % sorted(choice))
    check(not any(rp.hidden(f, "action") == "anotherMethod" for f in rp.forms()),
          "the choice itself offers another method")
    rp.submit(choice["password"])
    check(any(rp.hidden(f, "action") == "submitPassword" for f in rp.forms()), "no password page: %s" % rp.page_text())
    back = next((f for f in rp.forms() if rp.hidden(f, "action") == "anotherMethod"), None)
    check(back is not None, "the password page offers no other method: %s" % rp.page_text())
    check("Use another method" in back.text, "its button reads %r" % back.text)
    rp.submit(back)
    again = {rp.hidden(f, "methodId") for f in rp.forms() if rp.hidden(f, "action") == "selectMethod"}
    check(again == {"emailOtp", "password"}, "back on the choice, the methods offered: %s" % sorted(again))
    shown = rp.sign_in(rp.args.email, before, choose=("emailOtp",))
    token, claims = rp.redeem(request, rp.callbacks.wait(before + 1))
    return {"pages": shown, "amr": claims.get("amr"), "sub": claims["sub"]}


def scenario_password_reset(rp):
    """"Forgot password?" on the password page: a code to the address, a new password, and the
    sign-in goes on to the application; afterwards the old password is refused and the new one
    signs in (the account is made first, through the pages)."""
    rp.full_sign_in(rp.args.email, prompt="create")

    def password_page():
        request = rp.authorization(prompt="login")
        rp.visit(request["url"])
        identify = rp.form_with("/login/identify")
        check(identify is not None, "no identifier page: %s" % rp.page_text())
        rp.fill(identify, "identifier", rp.args.email)
        rp.submit(identify)
        choice = {rp.hidden(f, "methodId"): f for f in rp.forms() if rp.hidden(f, "action") == "selectMethod"}
        check("password" in choice, "the methods offered: %s" % sorted(choice))
        rp.submit(choice["password"])
        form = rp.form_with("/login/action", action="submitPassword")
        check(form is not None, "no password page: %s" % rp.page_text())
        return request, form

    before = rp.callbacks.count()
    request, _ = password_page()
    forgot = rp.form_with("/login/action", action="forgotPassword")
    check(forgot is not None, "the password page offers no reset: %s" % rp.page_text())
    check("Forgot password?" in forgot.text, "its button reads %r" % forgot.text)
    rp.sent = rp.outbox_count(rp.args.email)
    rp.submit(forgot)
    check("Reset your password" in rp.page_text(), "not the reset's code page: %s" % rp.page_text())
    check(rp.form_with("/login/action", action="forgotPassword") is None, "the code page offers another reset")
    code = rp.form_with("/login/action", action="submitCode")
    check(code is not None, "no code form on the reset's page: %s" % rp.page_text())
    rp.fill(code, "code", rp.outbox_code(rp.args.email, rp.sent))
    rp.sent = rp.outbox_count(rp.args.email)
    rp.submit(code)
    check("Choose a new password" in rp.page_text(), "not the new password's page: %s" % rp.page_text())
    new = rp.form_with("/login/action", action="submitPassword")
    check(new is not None, "no password form: %s" % rp.page_text())
    field = new.find_element(By.NAME, "password")
    check(field.get_attribute("autocomplete") == "new-password", "autocomplete %r" % field.get_attribute("autocomplete"))
    rp.fill(new, "password", NEW_PASSWORD)
    rp.submit(new)
    _, claims = rp.redeem(request, rp.callbacks.wait(before + 1))

    # The old password no longer signs in; the new one does.
    before = rp.callbacks.count()
    request, form = password_page()
    rp.fill(form, "password", PASSWORD)
    rp.submit(form)
    check(rp.callbacks.count() == before, "the old password signed in")
    again = rp.form_with("/login/action", action="submitPassword")
    check(again is not None, "no password page after the old password: %s" % rp.page_text())
    rp.fill(again, "password", NEW_PASSWORD)
    rp.submit(again)
    _, after = rp.redeem(request, rp.callbacks.wait(before + 1))
    return {"amr": claims.get("amr"), "amrAfter": after.get("amr"), "sub": claims["sub"], "subAfter": after["sub"]}


def scenario_account(rp):
    """The account page as a portal, at a desktop's width and a phone's: its sections, each
    method with its own buttons, this browser among the places signed in, no Done, signing out
    set apart, nothing wider than the window; then the password changed through it (a fresh
    verification on a page whose only other way is back to the account) and signing out."""
    rp.full_sign_in(rp.args.email, prompt="create")
    widths = []
    for width in (1280, 375):
        rp.driver.set_window_size(width, 900)
        rp.visit(rp.issuer + "/account")
        text = rp.page_text()
        for wanted in ("Your account", "Sign-in methods", "Password", "Where you are signed in", "This browser",
                       rp.args.email):
            check(wanted in text, "the account page at %d px lacks %r: %s" % (width, wanted, text))
        check(rp.form_with("/login/action", action="finish") is None, "the account page offers Done")
        check(rp.form_with("/login/cancel") is None, "the account page offers Cancel")
        sign_out = rp.form_with("/account/logout")
        check(sign_out is not None, "no way to sign out: %s" % text)
        check("kw-form-link" in (sign_out.get_attribute("class") or ""), "signing out looks like every other button")
        overflow = rp.driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
        check(overflow <= 0, "the account page at %d px is %d px wider than the window" % (width, overflow))
        outside = rp.driver.execute_script(
            "return Array.from(document.querySelectorAll('button')).filter(b => {"
            " const r = b.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > window.innerWidth);"
            "}).map(b => b.textContent.trim());")
        check(not outside, "buttons outside the window at %d px: %s" % (width, outside))
        widths.append(width)

    change = rp.form_with("/login/action", action="changePassword")
    check(change is not None, "the password row has no button: %s" % rp.page_text())
    check(change.text.strip() == "Change", "the password row's button reads %r" % change.text)
    rp.sent = rp.outbox_count(rp.args.email)
    rp.submit(change)
    pages = []
    for _ in range(4):
        check(rp.form_with("/account/logout") is None, "an operation's page shows the account's sign-out")
        back = rp.form_with("/login/cancel")
        check(back is not None and "Back to your account" in back.text, "no way back: %s" % rp.page_text())
        choice = next((f for f in rp.forms() if rp.hidden(f, "action") == "selectMethod"
                       and rp.hidden(f, "methodId") == "emailOtp"), None)
        code = rp.form_with("/login/action", action="submitCode")
        new = rp.form_with("/login/action", action="submitPassword")
        if new is not None:
            break
        if choice is not None:
            pages.append("selectMethod:emailOtp")
            rp.submit(choice)
        elif code is not None:
            pages.append("submitCode")
            rp.fill(code, "code", rp.outbox_code(rp.args.email, rp.sent))
            rp.sent = rp.outbox_count(rp.args.email)
            rp.submit(code)
        else:
            raise CheckFailed("a page without a known step: %s" % rp.page_text())
    check(new is not None, "no new password's page after %s: %s" % (pages, rp.page_text()))
    check("submitCode" in pages, "the password was asked for without a fresh verification")
    rp.fill(new, "password", NEW_PASSWORD)
    rp.submit(new)
    check("Your password was changed." in rp.page_text(), "not back on the account: %s" % rp.page_text())
    check(rp.form_with("/account/logout") is not None, "the account page lost its sign-out")

    rp.submit(rp.form_with("/account/logout"))
    rp.visit(rp.issuer + "/account")
    signed_out = "Sign in through one of this project's applications first" in rp.page_text()
    check(signed_out, "still signed in after signing out: %s" % rp.page_text())
    return {"widths": widths, "verification": pages, "changed": True, "signedOut": signed_out}


def scenario_sign_up(rp):
    """prompt=create opens the sign-up: the identifier, its code, then the sign-up form."""
    shown, token, claims = rp.full_sign_in(rp.args.email, prompt="create")
    check("submitForm" in shown, "no sign-up form was shown: %s" % shown)
    return {"pages": shown, "sub": claims["sub"], "email": claims.get("email")}


def scenario_form_post(rp):
    """response_mode=form_post: the page's script posts code, state and iss to the redirect URI."""
    shown, _, claims = rp.full_sign_in(rp.args.email, response_mode="form_post")
    callback = rp.callbacks.received[-1]
    check(callback["method"] == "POST" and callback["path"] == "/callback", "the callback: %r" % callback)
    check(set(callback["form"]) == {"code", "state", "iss"}, "the posted fields: %r" % callback["form"])
    return {"pages": shown, "method": callback["method"], "fields": sorted(callback["form"]), "sub": claims["sub"]}


def scenario_sso(rp):
    """A second application of the project is answered from the browser session, no page shown."""
    _, _, first = rp.full_sign_in(rp.args.email)
    request, callback = rp.silent(rp.args.second_client_id)
    token, claims = rp.redeem(request, callback)
    check(claims["sub"] == first["sub"], "the second application got another user")
    check(claims["aud"] == rp.args.second_client_id or rp.args.second_client_id in claims["aud"], "aud")
    check(claims["auth_time"] == first["auth_time"], "single sign-on changed auth_time")
    return {"sub": claims["sub"], "aud": claims["aud"], "auth_time": claims["auth_time"]}


def scenario_prompt_none(rp):
    """prompt=none: login_required without a session; a code without a page with one."""
    request, callback = rp.silent(prompt="none")
    query = rp.callback_parameters(callback, request)
    check(query.get("error") == "login_required" and "code" not in query, "without a session: %r" % query)
    _, _, first = rp.full_sign_in(rp.args.email)
    request, callback = rp.silent(prompt="none")
    _, claims = rp.redeem(request, callback)
    check(claims["sub"] == first["sub"], "prompt=none answered for another user")
    return {"without_session": query["error"], "with_session_sub": claims["sub"]}


def scenario_prompt_login(rp):
    """prompt=login shows the pages again though the browser is signed in."""
    _, _, first = rp.full_sign_in(rp.args.email)
    rp.advance(5)
    shown, _, again = rp.full_sign_in(rp.args.email, prompt="login")
    check(shown == ["identify", "submitCode"], "pages of prompt=login: %s" % shown)
    check(again["auth_time"] >= first["auth_time"] + 5, "auth_time was not renewed: %s %s" % (first, again))
    return {"pages": shown, "first_auth_time": first["auth_time"], "second_auth_time": again["auth_time"]}


def scenario_max_age(rp):
    """max_age: a session younger than it is used; an older one signs in again."""
    _, _, first = rp.full_sign_in(rp.args.email)
    request, callback = rp.silent(max_age="600")
    _, young = rp.redeem(request, callback)
    check(young["auth_time"] == first["auth_time"], "a young enough session was not reused")
    rp.advance(120)
    shown, _, again = rp.full_sign_in(rp.args.email, max_age="60")
    check(shown == ["identify", "submitCode"], "pages after max_age passed: %s" % shown)
    check(again["auth_time"] >= first["auth_time"] + 120, "auth_time was not renewed")
    return {"pages": shown, "first_auth_time": first["auth_time"], "second_auth_time": again["auth_time"]}


def scenario_login_hint(rp):
    """login_hint prefills the identifier; the user only confirms it."""
    before = rp.callbacks.count()
    request = rp.authorization(login_hint=rp.args.email)
    rp.visit(request["url"])
    identify = rp.form_with("/login/identify")
    check(identify is not None, "no identifier page")
    prefilled = identify.find_element(By.NAME, "identifier").get_attribute("value")
    check(prefilled == rp.args.email, "the identifier is not prefilled: %r" % prefilled)
    rp.sent = rp.outbox_count(rp.args.email)
    shown = rp.sign_in(rp.args.email, before, identifier=False)
    _, claims = rp.redeem(request, rp.callbacks.wait(before + 1))
    check(claims.get("email") == rp.args.email, "another user signed in")
    return {"prefilled": prefilled, "pages": shown}


def scenario_logout(rp):
    """RP-initiated logout: with an ID token hint straight back to the registered URI with state;
    without one, a confirmation page first."""
    logged_out = rp.base + "/logged-out"
    _, token, _ = rp.full_sign_in(rp.args.email)
    before = rp.callbacks.count()
    state = generate_token(16)
    rp.visit(rp.metadata["end_session_endpoint"] + "?" + urllib.parse.urlencode(
        {"id_token_hint": token["id_token"], "post_logout_redirect_uri": logged_out, "state": state}))
    back = rp.callbacks.wait(before + 1)
    check(back["path"] == "/logged-out?state=" + state, "after logout with a hint: %r" % back)
    # Signed out: prompt=none needs a sign-in again.
    request, callback = rp.silent(prompt="none")
    check(rp.callback_parameters(callback, request).get("error") == "login_required", "still signed in")

    rp.full_sign_in(rp.args.email)
    before = rp.callbacks.count()
    state = generate_token(16)
    rp.visit(rp.metadata["end_session_endpoint"] + "?" + urllib.parse.urlencode(
        {"client_id": rp.args.client_id, "post_logout_redirect_uri": logged_out, "state": state}))
    check(rp.callbacks.count() == before, "signed out without being asked")
    # The page names the application that asked (the request named it).
    check("Dev application asked to sign you out" in rp.page_text(), "the asking application: %s" % rp.page_text())
    confirm = rp.form_with("/login/logout", decision="logout")
    check(confirm is not None, "no confirmation page: %s" % rp.page_text())
    rp.submit(confirm)
    back = rp.callbacks.wait(before + 1)
    check(back["path"] == "/logged-out?state=" + state, "after the confirmation: %r" % back)
    request, callback = rp.silent(prompt="none")
    check(rp.callback_parameters(callback, request).get("error") == "login_required", "still signed in")
    return {"with_hint": "redirected", "without_hint": "confirmed"}


def scenario_wrong_redirect_uri(rp):
    """An unregistered redirect URI: an error page at the server, nothing sent there."""
    wrong = rp.base + "/not-registered"
    request = rp.authorization(redirect_uri=wrong)
    rp.visit(request["url"])
    check(rp.on_server(), "the browser left the server: %s" % rp.driver.current_url)
    check(not rp.forms(), "the error page has forms")
    check(rp.callbacks.count() == 0, "something reached the relying party")
    status = requests.get(request["url"], allow_redirects=False, timeout=TIMEOUT)
    check(status.status_code == 400 and "Location" not in status.headers, "answer: %s" % status.status_code)
    return {"status": status.status_code, "text": rp.page_text()[:200]}


def scenario_sign_in_link(rp):
    """A sign-in link opened in the browser of its own hosted sign-in: Continue spends it and
    the browser goes on to the relying party (the link page's form-action allows the redirect)."""
    before = rp.callbacks.count()
    request = rp.authorization()
    rp.visit(request["url"])
    sent = rp.outbox_count(rp.args.email)
    identify = rp.form_with("/login/identify")
    check(identify is not None, "no identifier page: %s" % rp.page_text())
    rp.fill(identify, "identifier", rp.args.email)
    rp.submit(identify)
    check(rp.form_with("/login/action", action="submitCode") is not None, "no code page: %s" % rp.page_text())
    rp.outbox_code(rp.args.email, sent)
    body = requests.get(rp.issuer + "/dev/outbox", params={"to": rp.args.email}, timeout=TIMEOUT).json()["messages"][-1]["body"]
    found = re.search(r"https?://[^\s)]+/link/ksl_[A-Za-z0-9_-]+", body)
    check(found, "no link in the message: %s" % body)
    link = found.group(0)
    path = link[link.index("/link/"):]
    rp.visit(rp.issuer + path)
    continue_form = rp.form_with(path)
    check(continue_form is not None, "no Continue on the link page: %s" % rp.page_text())
    rp.submit(continue_form)
    callback = rp.callbacks.wait(before + 1)
    token, claims = rp.redeem(request, callback)
    check(claims.get("email") == rp.args.email, "the ID token's email: %r" % claims.get("email"))
    return {"amr": claims.get("amr"), "sub": claims["sub"], "url": rp.driver.current_url.split("?")[0]}


def scenario_code_replay(rp):
    """A code redeemed twice: invalid_grant, and the tokens of the first redemption are revoked."""
    before = rp.callbacks.count()
    request = rp.authorization()
    rp.visit(request["url"])
    rp.sent = rp.outbox_count(rp.args.email)
    rp.sign_in(rp.args.email, before)
    callback = rp.callbacks.wait(before + 1)
    token, _ = rp.redeem(request, callback)
    check(rp.userinfo(token["access_token"]).status_code == 200, "the first access token does not work")
    error = None
    try:
        rp.redeem(request, callback)
    except OAuthError as failure:
        error = failure.error
    check(error == "invalid_grant", "the second redemption: %r" % error)
    revoked = rp.userinfo(token["access_token"]).status_code
    check(revoked == 401, "the first access token still works: %s" % revoked)
    refresh = requests.post(rp.metadata["token_endpoint"], data={
        "grant_type": "refresh_token", "refresh_token": token["refresh_token"], "client_id": rp.args.client_id},
        timeout=TIMEOUT)
    check(refresh.status_code == 400 and refresh.json().get("error") == "invalid_grant", "refresh: %s" % refresh.text)
    return {"second_redemption": error, "userinfo_after": revoked, "refresh_after": refresh.json()["error"]}


def scenario_csrf(rp):
    """Forms posted without their token, or from another origin, are refused with 403."""
    request = rp.authorization()
    rp.visit(request["url"])
    identify = rp.form_with("/login/identify")
    check(identify is not None, "no identifier page")
    token = rp.hidden(identify, "csrf_token")
    check(token, "the form carries no csrf_token")
    session = rp.browser_session()
    target = rp.issuer + "/login/identify"
    missing = session.post(target, data={"identifier": rp.args.email}, headers={"Origin": rp.issuer},
                           allow_redirects=False, timeout=TIMEOUT)
    foreign = session.post(target, data={"identifier": rp.args.email, "csrf_token": token},
                           headers={"Origin": rp.base}, allow_redirects=False, timeout=TIMEOUT)
    no_origin = session.post(target, data={"identifier": rp.args.email, "csrf_token": token},
                             allow_redirects=False, timeout=TIMEOUT)
    # A page of another loopback origin posting the form in the browser (same site: the cookies go).
    rp.pages["/attack"] = (
        '<!doctype html><title>Elsewhere</title><form method="post" action="%s">'
        '<input type="hidden" name="csrf_token" value="%s"><input type="hidden" name="identifier" value="%s">'
        '<button type="submit">Go</button></form>' % (html.escape(target), html.escape(token), html.escape(rp.args.email)))
    rp.visit(rp.base + "/attack")
    rp.submit(rp.driver.find_element(By.TAG_NAME, "form"))
    check(rp.on_server(), "the attack page's post did not reach the server")
    attacked_text = rp.page_text()
    check(rp.form_with("/login/action") is None, "the cross-origin post moved the sign-in on")
    # The genuine form still works.
    rp.visit(rp.issuer + "/login")
    identify = rp.form_with("/login/identify")
    rp.fill(identify, "identifier", rp.args.email)
    rp.submit(identify)
    check(rp.form_with("/login/action", action="submitCode") is not None, "the genuine post was refused")
    return {"without_token": missing.status_code, "other_origin": foreign.status_code,
            "without_origin": no_origin.status_code, "browser_cross_origin": attacked_text[:300]}


def scenario_expired_flow(rp):
    """A sign-in left longer than the flow lifetime: the expired page."""
    request = rp.authorization()
    rp.visit(request["url"])
    identify = rp.form_with("/login/identify")
    check(identify is not None, "no identifier page")
    rp.pauses.pause("expire-flow")
    rp.fill(identify, "identifier", rp.args.email)
    rp.submit(identify)
    text = rp.page_text()
    check(rp.form_with("/login/action") is None and rp.form_with("/login/identify") is None,
          "the expired sign-in went on: %s" % text)
    session = rp.browser_session()
    reload = session.get(rp.issuer + "/login", timeout=TIMEOUT)
    check(rp.callbacks.count() == 0, "the relying party was called back")
    return {"text": text[:300], "reload_status": reload.status_code}


def scenario_federation(rp):
    """Another provider's button: the browser goes to the provider (oidc_provider.py, which signs
    its user in without a page), back through the server's callback to the hosted pages, and the
    relying party gets its code; the ID token says the user signed in with a provider (amr fed)."""
    before = rp.callbacks.count()
    request = rp.authorization()
    rp.visit(request["url"])
    identify = rp.form_with("/login/identify")
    check(identify is not None, "no identifier page: %s" % rp.page_text())
    rp.fill(identify, "identifier", rp.args.email)
    rp.submit(identify)
    buttons = [form for form in rp.forms() if rp.hidden(form, "action") == "selectMethod"]
    chosen = next((form for form in buttons if rp.hidden(form, "methodId") == "federation:python"), None)
    check(chosen is not None, "no button for the provider: %s" % rp.page_text())
    label = chosen.find_element(By.CSS_SELECTOR, "button").text.strip()
    # The button leads to a page that sends the browser on to the provider at once; the provider
    # answers at once, and the rest is redirects: wait for the relying party's callback.
    chosen.find_element(By.CSS_SELECTOR, "button").click()
    token, claims = rp.redeem(request, rp.callbacks.wait(before + 1))
    check(claims.get("email") == rp.args.email, "the ID token's email: %r" % claims.get("email"))
    check("fed" in (claims.get("amr") or []), "the ID token's amr: %r" % claims.get("amr"))
    return {"pages": ["identify", "selectMethod:federation:python"], "label": label, "amr": claims.get("amr"),
            "sub": claims["sub"]}


def passkey_sign_in(rp, prompt="login"):
    """An authorization request answered with a passkey from the identifier page: by the
    browser's autofill (conditional mediation, which Chromium's virtual authenticator answers at
    once) or, when the autofill ends without one, by the "Sign in with a passkey" button.
    Answers (callback or None, the request, how it went: "autofill" or "button", and the text
    of the page when no callback came)."""
    rp.advance(5)  # prompt=login asks again of a sign-in older than the request
    before = rp.callbacks.count()
    request = rp.authorization(prompt=prompt)
    rp.visit(request["url"])
    marker = rp.mark_page()
    check(rp.form_with("/login/passkey") is not None or rp.callbacks.count() > before,
          "no passkey button on the identifier page: %s" % rp.page_text())
    field = rp.driver.find_elements(By.NAME, "identifier")
    check(not field or field[0].get_attribute("autocomplete") == "username webauthn",
          "the identifier field does not offer passkeys among its suggestions")
    way = "autofill"
    deadline = time.monotonic() + TIMEOUT
    while rp.callbacks.count() == before:
        if time.monotonic() > deadline:
            raise CheckFailed("the passkey sign-in neither ended nor came back: %s" % rp.page_text())
        try:
            state = rp.driver.execute_script(
                "return [window.__relyingPartyMarker === arguments[0], document.readyState,"
                " document.documentElement.getAttribute('data-kw-autofill')];", marker)
        except WebDriverException:
            time.sleep(0.05)  # between two documents
            continue
        same_page, ready, autofill = state
        if not same_page:
            if ready == "complete" and rp.on_server():
                return None, request, way, rp.page_text()
        else:
            # The browser refused the ceremony: the script says so on the same page.
            refusals = [e.text for e in rp.driver.find_elements(By.CSS_SELECTOR, ".kw-passkey-error") if e.text]
            if refusals:
                reason = rp.form_with("/login/passkey").get_attribute("data-kw-error")
                return None, request, way, "%s (%s)" % (refusals[0], reason)
            # The server refused the answer (the autofill may have sent it before the page was
            # marked): the identifier page again, with the reason.
            if rp.driver.find_elements(By.CSS_SELECTOR, ".kw-message-error"):
                return None, request, way, rp.page_text()
            if autofill in ("ended", "unavailable") and way == "autofill":
                way = "button"
                rp.form_with("/login/passkey").find_element(By.CSS_SELECTOR, "button").click()
        time.sleep(0.05)
    return rp.callbacks.wait(before + 1), request, way, None


def scenario_passkey(rp):
    """Chromium's virtual authenticator: a sign-in by email code is offered a passkey and makes
    one on the hosted pages; the next sign-in uses it from the identifier page (the ID token says
    so); with user verification required, an authenticator that does not verify is refused, and
    accepted once the policy prefers it; a passkey removed on the server is refused."""
    options = VirtualAuthenticatorOptions(
        protocol=VirtualAuthenticatorOptions.Protocol.CTAP2, transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
        has_resident_key=True, has_user_verification=True, is_user_consenting=True, is_user_verified=True)
    rp.driver.add_virtual_authenticator(options)

    # 1. Email code, then the offer to make a passkey, taken.
    before = rp.callbacks.count()
    request = rp.authorization()
    rp.visit(request["url"])
    rp.sent = rp.outbox_count(rp.args.email)
    shown = []
    for _ in range(8):
        if rp.callbacks.count() > before:
            break
        create = rp.form_with("/login/action", action="registerPasskey")
        if create is not None:
            shown.append("registerPasskey")
            check(create.get_attribute("data-kw-passkey") == "create", "the passkey form runs no ceremony")
            marker = rp.mark_page()
            create.find_element(By.CSS_SELECTOR, "button").click()
            deadline = time.monotonic() + TIMEOUT
            while rp.callbacks.count() == before:
                if time.monotonic() > deadline:
                    raise CheckFailed("making the passkey did not finish: %s" % rp.page_text())
                time.sleep(0.05)
            break
        identify = rp.form_with("/login/identify")
        if identify is not None:
            shown.append("identify")
            rp.fill(identify, "identifier", rp.args.email)
            rp.submit(identify)
            continue
        choice = [f for f in rp.forms() if rp.hidden(f, "action") == "selectMethod"]
        if choice:
            methods = [rp.hidden(f, "methodId") for f in choice]
            check("passkey" in methods, "passkeys are not among the methods: %s" % methods)
            shown.append("selectMethod:emailOtp")
            rp.submit(next(f for f in choice if rp.hidden(f, "methodId") == "emailOtp"))
            continue
        code = rp.form_with("/login/action", action="submitCode")
        check(code is not None, "an unexpected page: %s" % rp.page_text())
        shown.append("submitCode")
        rp.fill(code, "code", rp.outbox_code(rp.args.email, rp.sent))
        rp.sent = rp.outbox_count(rp.args.email)
        rp.submit(code)
    check(shown[-1:] == ["registerPasskey"], "no offer to make a passkey: %s" % shown)
    _, first = rp.redeem(request, rp.callbacks.wait(before + 1))
    credentials = rp.driver.get_credentials()
    check(len(credentials) == 1 and credentials[0].is_resident_credential, "the authenticator holds %r" % credentials)

    # 2. The passkey from the identifier page: no identifier typed, no code.
    callback, request, way, text = passkey_sign_in(rp)
    check(callback is not None, "the passkey did not sign in: %s" % text)
    check(way == "autofill", "the browser's autofill did not offer the passkey")
    _, second = rp.redeem(request, callback)
    check(second["sub"] == first["sub"], "the passkey signed in another user")
    amr = second.get("amr") or []
    check("user" in amr and ("hwk" in amr or "swk" in amr), "the ID token's amr: %r" % amr)
    check(rp.outbox_count(rp.args.email) == rp.sent, "a code was sent for the passkey sign-in")

    # 3. User verification required: the options ask for it, so the browser refuses the passkey
    # while the authenticator cannot verify the user, and the page says it was not used; once it
    # verifies again, the passkey signs in.
    rp.driver.set_user_verified(False)
    callback, _, way, text = passkey_sign_in(rp)
    check(callback is None, "a passkey without user verification signed in")
    check(way == "button", "the autofill went on without user verification")
    check("not used" in text, "the page does not say the passkey was not used: %s" % text)
    rp.driver.set_user_verified(True)
    callback, request, way, text = passkey_sign_in(rp)
    check(callback is not None, "the verified passkey did not sign in: %s" % text)
    _, third = rp.redeem(request, callback)
    check(third["sub"] == first["sub"], "another user signed in")

    # 4. The passkey removed on the server: refused, with the reason.
    rp.pauses.pause("remove-passkeys")
    callback, _, way, text = passkey_sign_in(rp)
    check(callback is None, "a removed passkey signed in")
    check("passkey" in text.lower(), "the refusal does not say why: %s" % text)
    # After the refusal the page offers the button only, not the autofill that would repeat it.
    check(rp.form_with("/login/passkey").get_attribute("data-kw-conditional") is None,
          "the page offers the refused passkey again through autofill")
    return {"pages": shown, "sub": first["sub"], "amr": amr, "credentials": len(credentials)}


SCENARIOS = {
    "email-code": scenario_email_code,
    "password-totp": scenario_password_totp,
    "another-method": scenario_another_method,
    "password-reset": scenario_password_reset,
    "account": scenario_account,
    "sign-up": scenario_sign_up,
    "form-post": scenario_form_post,
    "sso": scenario_sso,
    "prompt-none": scenario_prompt_none,
    "prompt-login": scenario_prompt_login,
    "max-age": scenario_max_age,
    "login-hint": scenario_login_hint,
    "logout": scenario_logout,
    "wrong-redirect-uri": scenario_wrong_redirect_uri,
    "sign-in-link": scenario_sign_in_link,
    "code-replay": scenario_code_replay,
    "csrf": scenario_csrf,
    "expired-flow": scenario_expired_flow,
    "federation": scenario_federation,
    "passkey": scenario_passkey,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--second-client-id")
    parser.add_argument("--email", required=True)
    parser.add_argument("--server-time", type=float, required=True)
    parser.add_argument("--pause-dir", required=True)
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    args = parser.parse_args()
    rp = None
    started = time.monotonic()
    try:
        rp = RelyingParty(args)
        # The test registers the relying party's URIs for its port.
        rp.pauses.pause("register", json.dumps({"login": rp.redirect_uri, "logout": rp.base + "/logged-out"}))
        result = SCENARIOS[args.scenario](rp)
        result["ok"] = True
    except Exception as failure:  # reported to the test, which fails with it
        page = ""
        try:
            if rp is not None and rp._driver is not None:
                page = "%s\n%s" % (rp.driver.current_url, rp.page_text()[:1000])
        except Exception:
            pass
        result = {"ok": False, "error": "%s: %s" % (type(failure).__name__, failure), "page": page,
                  "trace": traceback.format_exc()}
    finally:
        if rp is not None:
            try:
                rp.close()
            except Exception:
                pass
    result["seconds"] = round(time.monotonic() - started, 2)
    print(json.dumps(result))
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
