"""Screenshots of the hosted pages, taken from a real keyway-server in a real headless Chromium.

Usage: hosted_screenshots.py SERVER_URL ADMIN_TOKEN OUTPUT_DIR

Creates an application with a policy that reaches every kind of page (email codes and passwords,
an optional authenticator or SMS second factor, sign-up with a form and terms, account
management), walks a browser through sign-up, sign-in, consent-free SSO, account management and
sign-out, and saves each page at a desktop (1280 px) and a phone (375 px) width as
OUTPUT_DIR/hosted-NAME.png and OUTPUT_DIR/hosted-NAME-mobile.png.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import shutil
import struct
import sys
import time
import urllib.parse

import requests
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

SERVER, ADMIN, OUT = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
# A page of the server itself, so the browser lands somewhere real (any loopback port matches).
REDIRECT = SERVER + "/health"
EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple 7"


def admin(method, path, body=None):
    answer = requests.request(method, SERVER + path, json=body, headers={"Authorization": "Bearer " + ADMIN}, timeout=30)
    if answer.status_code >= 300:
        raise SystemExit(f"{method} {path}: {answer.status_code} {answer.text}")
    return answer.json() if answer.text else {}


def sent_count(to):
    return len([m for m in requests.get(SERVER + "/dev/outbox", timeout=10).json()["messages"] if m["to"] == to])


def new_code(to, before):
    """The code of the first message to `to` after the `before` ones already sent."""
    for attempt in range(400):
        messages = [m for m in requests.get(SERVER + "/dev/outbox", timeout=10).json()["messages"] if m["to"] == to]
        if len(messages) > before:
            return messages[-1]["code"]
        time.sleep(0.05)
    raise SystemExit("no code arrived for " + to + ": " + page_text()[:1500])


def totp(secret, at=None):
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int((at or time.time()) // 30)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 15
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


app = admin("POST", "/admin/applications", {"name": "Acme Notes"})
config_id, project_id = app["configId"], app["projectId"]
admin("PUT", f"/admin/applications/{config_id}/policy", {
    "primaryMethods": ["emailOtp", "password"],
    "mfaMethods": ["totp", "smsOtp"],
    "mfaMode": "optional",
    "flowTypes": ["signin", "signup", "accountManage"],
    "signup": {
        "profileFields": [
            {"name": "displayName", "kind": "text", "label": "Your name", "required": True, "maxLength": 60},
            {"name": "plan", "kind": "select", "label": "Plan", "options": ["free", "team"]},
        ],
        "termsOfServiceURL": "https://notes.example.com/terms",
    },
    "password": {"minimumLength": 12},
})
admin("PATCH", f"/admin/applications/{config_id}", {"redirectUris": [REDIRECT], "postLogoutRedirectUris": []})
admin("PATCH", f"/admin/projects/{project_id}/theme", {"name": "Acme Notes", "primaryColor": "#2f6f4f"})
# The application uses device activation (its PowerAuth credentials exist), so account
# management offers a code for another device.
admin("GET", f"/admin/applications/{config_id}/powerauth")

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1"]:
    options.add_argument(argument)
service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
driver = webdriver.Chrome(service=service, options=options)
# Elements of the next page are waited for (a post answers with a 303 the browser then follows).
driver.implicitly_wait(10)
os.makedirs(OUT, exist_ok=True)
shots = []


def shoot(name):
    """Saves the current page at both widths (the page is reloaded at the second: GET pages only)."""
    for suffix, width, height in [("", 1280, 900), ("-mobile", 375, 812)]:
        driver.set_window_size(width, height)
        full = driver.execute_script("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)")
        driver.set_window_size(width, max(height, min(full + 160, 2600)))
        driver.save_screenshot(os.path.join(OUT, f"hosted-{name}{suffix}.png"))
    driver.set_window_size(1280, 900)
    shots.append(name)


def authorize(**extra):
    verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": config_id, "redirect_uri": REDIRECT, "scope": "openid email",
             "state": "s", "nonce": "n", "code_challenge": challenge, "code_challenge_method": "S256"}
    query.update(extra)
    driver.get(SERVER + "/oauth2/authorize?" + urllib.parse.urlencode(query))


def fill(name, value):
    field = driver.find_element(By.NAME, name)
    field.clear()
    field.send_keys(value)


def press(text):
    """Presses the button labelled `text`, looking again while the page is still changing."""
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            for button in driver.find_elements(By.CSS_SELECTOR, "button[type=submit]"):
                if button.text.strip() == text:
                    button.click()
                    return
        except StaleElementReferenceException:
            pass
        time.sleep(0.05)
    raise SystemExit(f"no button {text!r} on {driver.current_url}: {driver.page_source[:2000]}")


def press_primary():
    driver.find_element(By.CSS_SELECTOR, "button.kw-button-primary").click()


def reached_client(seconds=10.0):
    """Whether the browser arrives at the client's redirect URI within `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if driver.current_url.startswith(REDIRECT):
            return True
        time.sleep(0.05)
    return False


def page_text():
    """The page's text; read again when the page changed under the read (a post's redirect)."""
    for _ in range(100):
        try:
            return driver.find_element(By.TAG_NAME, "body").text
        except StaleElementReferenceException:
            time.sleep(0.05)
    return driver.find_element(By.TAG_NAME, "body").text


def wait_for_text(text, seconds=10.0):
    """Whether the page shows `text` within `seconds` (the next page may still be loading)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if text in page_text():
            return True
        time.sleep(0.05)
    return False


# Sign-up: identifier, email code, the form, a new password, then the optional second factor.
authorize(prompt="create")
shoot("sign-up")
fill("identifier", EMAIL)
before = sent_count(EMAIL)
press("Continue")
code = new_code(EMAIL, before)
shoot("email-code")
fill("code", code)
press("Continue")
fill("displayName", "Ada Lovelace")
shoot("sign-up-form")
driver.find_element(By.NAME, "acceptTerms").click()
press("Continue")
shoot("new-password")
fill("password", PASSWORD)
press("Continue")
shoot("choose-second-factor")
press("Set up an authenticator app")
keys = driver.find_elements(By.CSS_SELECTOR, ".kw-key")
if not keys:
    raise SystemExit("no key on the authenticator page: " + page_text()[:1500])
secret = re.sub(r"\s", "", keys[0].text)
shoot("authenticator-setup")
fill("code", totp(secret))
press_primary()
assert reached_client(), page_text()

# Account management, then signing out there.
driver.get(SERVER + "/account")
shoot("account")


def reverify_by_email(before):
    """Answers a fresh verification by an email code, when the page asks for one."""
    if driver.find_elements(By.CSS_SELECTOR, "button.kw-button-secondary") and not driver.find_elements(By.NAME, "code"):
        for button in driver.find_elements(By.CSS_SELECTOR, "button[type=submit]"):
            if button.text.strip().startswith("Email a code"):
                button.click()
                break
    fill("code", new_code(EMAIL, before))
    press_primary()


# A code for another device: a fresh verification, then the code and its QR code.
before = sent_count(EMAIL)
press("Activate another device")
reverify_by_email(before)
if not wait_for_text("Activation code"):
    raise SystemExit("no activation code on the account page: " + page_text()[:1500])
shoot("activation-code")
# Adding an SMS number: a fresh verification first (when asked), then the number's page.
before = sent_count(EMAIL)
press("Set up")
if driver.find_elements(By.CSS_SELECTOR, "button.kw-button-secondary") and not driver.find_elements(By.NAME, "phone"):
    for button in driver.find_elements(By.CSS_SELECTOR, "button[type=submit]"):
        if button.text.strip().startswith("Email a code"):
            button.click()
            break
if not driver.find_elements(By.NAME, "phone"):
    fill("code", new_code(EMAIL, before))
    press_primary()
shoot("sms-setup")
press("Back to your account")
press("Sign out")
shoot("signed-out")

# Sign-in: identifier, method choice, password, authenticator code.
authorize(login_hint=EMAIL)
shoot("sign-in")
press("Continue")
shoot("choose-method")
press("Enter your password")
shoot("password")
fill("password", "not the password")
press("Continue")
shoot("password-error")
fill("password", PASSWORD)
press("Continue")
shoot("second-factor")
press("Use your authenticator app")
shoot("authenticator-code")
fill("code", totp(secret, time.time() + 30))
press_primary()
if not reached_client(3):
    fill("code", totp(secret))
    press_primary()
assert reached_client(), page_text()

# A client registered dynamically is not first-party: the signed-in user is asked first.
token = admin("POST", f"/admin/applications/{config_id}/registration-tokens", {"expiresInSeconds": 600})["token"]
client = requests.post(
    SERVER + "/oauth2/register", headers={"Authorization": "Bearer " + token}, timeout=30,
    json={"client_name": "Photo Printer", "redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none",
          "grant_types": ["authorization_code", "refresh_token"], "scope": "openid email offline_access"}).json()
verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
driver.get(SERVER + "/oauth2/authorize?" + urllib.parse.urlencode({
    "response_type": "code", "client_id": client["client_id"], "redirect_uri": REDIRECT,
    "scope": "openid email offline_access", "state": "s",
    "code_challenge": base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode(),
    "code_challenge_method": "S256"}))
shoot("consent")
press("Allow")
assert reached_client(), page_text()

# A sign-out the application asks for without a hint: the confirmation page.
driver.get(SERVER + "/oauth2/logout?client_id=" + config_id)
shoot("sign-out")

# An authorization request with an unregistered redirect URI: an error page, no redirect.
authorize(redirect_uri="https://evil.example.com/callback")
shoot("error")

# Another provider and sign-in links among the ways in, then a sign-in link's pages.
admin("POST", f"/admin/projects/{project_id}/identity-providers", {
    "id": "google", "preset": "google", "issuer": "https://accounts.google.com",
    "clientId": "acme-notes.apps.googleusercontent.com", "clientSecret": "a-secret-of-the-provider",
    "label": "Continue with Google"})
admin("PUT", f"/admin/applications/{config_id}/policy", {
    "primaryMethods": ["emailOtp", "password", "signInLink"],
    "mfaMethods": ["totp", "smsOtp"],
    "mfaMode": "optional",
    "flowTypes": ["signin", "signup", "accountManage"],
    "federation": {"providers": ["google"]},
})
driver.delete_all_cookies()
authorize(login_hint=EMAIL)
press("Continue")
shoot("choose-method-providers")
before = sent_count(EMAIL)
press("Email a sign-in link to a•••@example.com")
new_code(EMAIL, before)
shoot("sign-in-link-sent")
body = [m for m in requests.get(SERVER + "/dev/outbox", timeout=10).json()["messages"] if m["to"] == EMAIL][-1]["body"]
link = re.search(r"https?://\S+/link/ksl_[A-Za-z0-9_-]+", body).group(0)
# Opened on another device: a browser without this sign-in's cookies.
driver.delete_all_cookies()
driver.get(link)
shoot("sign-in-link")
press("Continue")
shoot("sign-in-link-confirm")

# Passkeys: the identifier page's button, the offer to make one after a sign-in by code, and the
# passkey step of a sign-in (the server's issuer names localhost: passkeys need a domain name).
admin("PUT", f"/admin/applications/{config_id}/policy", {
    "primaryMethods": ["passkey", "emailOtp"],
    "flowTypes": ["signin", "signup", "accountManage"],
    "passkeys": {"offerAfterSignIn": True},
})
driver.delete_all_cookies()
authorize(prompt="login")
wait_for_text("Sign in with a passkey")
shoot("passkey-identifier")
fill("identifier", EMAIL)
press("Continue")
shoot("choose-method-passkey")
before = sent_count(EMAIL)
press("Email a code to a•••@example.com")
fill("code", new_code(EMAIL, before))
press_primary()
wait_for_text("Create a passkey")
shoot("passkey-create")
driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
    protocol=VirtualAuthenticatorOptions.Protocol.CTAP2, transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
    has_resident_key=True, has_user_verification=True, is_user_consenting=True, is_user_verified=True))
press("Create a passkey")
if not reached_client():
    raise SystemExit(f"making the passkey did not reach the client: {page_text()}")
# Without the authenticator, the identifier page's autofill cannot answer at once: the step stays.
driver.remove_virtual_authenticator()
authorize(prompt="login")
fill("identifier", EMAIL)
press("Continue")
press("Use a passkey")
wait_for_text("Sign in with a passkey")
shoot("passkey-sign-in")

# "Forgot password?" on the password page: a code to the address, then the new password's page.
admin("PUT", f"/admin/applications/{config_id}/policy", {
    "primaryMethods": ["emailOtp", "password"],
    "flowTypes": ["signin", "signup", "accountManage"],
    "password": {"minimumLength": 12},
})
driver.delete_all_cookies()
authorize(login_hint=EMAIL)
press("Continue")
press("Enter your password")
before = sent_count(EMAIL)
press("Forgot password?")
wait_for_text("Reset your password")
shoot("password-reset-code")
fill("code", new_code(EMAIL, before))
press_primary()
wait_for_text("Choose a new password")
shoot("password-reset")

driver.quit()
print(json.dumps({"screenshots": shots}))
