#!/usr/bin/env python3
"""The OpenID Foundation's OP certification plans, module by module, against Keyway.

A mirror of the test modules of five plans of the OpenID Foundation's conformance suite that need
no human — Basic, Config, Dynamic, Form Post and RP-Initiated Logout — named as the suite names
them (`oidcc-server`, `oidcc-prompt-none-logged-in`, …). Each module does what the suite's does:
it registers its clients through dynamic client registration (RFC 7591, with an initial access
token), sends the authorization request with Authlib, goes through Keyway's hosted pages in a real
headless Chromium (Selenium), redeems the code and checks the ID token with joserfc, and calls
UserInfo, the logout endpoint and the rest with requests. One-time codes come from the dev outbox.

    oidf_plans.py --issuer URL --registration-token TOKEN --email ADDRESS --server-time EPOCH \
        --pause-dir DIR [--plan basic|config|dynamic|form-post|rp-logout …]

Where a module needs the server changed it pauses as `browser_rp.py` does (DIR/NNN-NAME.ready,
then DIR/NNN-NAME.go, NNN counting the pauses): `advance-N` (the server's clock moves N seconds), `relax-pkce` (the client named in
the payload may send neither PKCE nor a nonce: `requirePkce` false, what an operator certifying
sets), `rotate-keys` (both signing keys rotated without pre-publication).

A module is `passed`, `failed` (with the check that failed) or `skipped` (with the reason: a
feature Keyway does not offer, as its discovery document says). The result is one JSON object on
standard output, `{"plans": {PLAN: {MODULE: {"result", "reason"?}}}}`; the exit status is 0 when no
module failed.
"""
import argparse
import base64
import json
import sys
import time
import traceback
import urllib.parse

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7523 import PrivateKeyJWT
from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey

from browser_rp import TIMEOUT, CheckFailed, Pauses, RelyingParty, check


class Skipped(Exception):
    """The module does not apply: a feature the server does not offer, as its metadata says."""


class ServerTimePrivateKeyJWT(PrivateKeyJWT):
    """`private_key_jwt` client assertions dated by the server's clock (the tests move it), each
    with a fresh `jti` and five minutes to live, as the suite's assertions have."""

    def __init__(self, token_endpoint, rp):
        super().__init__(token_endpoint)
        self.rp = rp

    def sign(self, auth, token_endpoint):
        now = int(self.rp.server_time)
        self.claims = {"iat": now, "exp": now + 300}
        return super().sign(auth, token_endpoint)


class SequencedPauses(Pauses):
    """Pauses named `NNN-NAME`: the same pause (`advance-2`) comes in several modules, and each
    must be answered anew."""

    def __init__(self, directory):
        super().__init__(directory)
        self.sequence = 0

    def pause(self, name, payload=""):
        self.sequence += 1
        super().pause("%03d-%s" % (self.sequence, name), payload)


class Client:
    """A client registered for the modules, with what the token endpoint needs to authenticate it."""

    def __init__(self, registration, method, private_key=None):
        self.registration = registration
        self.client_id = registration["client_id"]
        self.client_secret = registration.get("client_secret")
        self.method = method
        self.private_key = private_key


class PlanRunner(RelyingParty):
    def __init__(self, args):
        args.client_id = "registered-per-module"
        args.second_client_id = None
        super().__init__(args)
        self.pauses = SequencedPauses(args.pause_dir)
        self.registration_token = args.registration_token
        self.logged_out = self.base + "/logged-out"
        self.response_mode = None
        self.clients = {}

    # MARK: Registration

    def register(self, metadata):
        """POST /oauth2/register with the initial access token: (status, answer)."""
        answer = requests.post(
            self.metadata["registration_endpoint"], json=metadata, timeout=TIMEOUT,
            headers={"Authorization": "Bearer " + self.registration_token})
        try:
            body = answer.json()
        except ValueError:
            body = {}
        return answer.status_code, body

    def client(self, name="basic", method="client_secret_basic", **metadata):
        """The client `name`, registered on first use with `method` and `metadata`."""
        if name in self.clients:
            return self.clients[name]
        private_key = None
        registration = {
            "client_name": "OIDF %s" % name, "token_endpoint_auth_method": method,
            "redirect_uris": [self.redirect_uri], "post_logout_redirect_uris": [self.logged_out],
            "grant_types": ["authorization_code", "refresh_token"],
        }
        if method == "private_key_jwt":
            private_key = RSAKey.generate_key(2048, parameters={"kid": generate_token(8)})
            registration["jwks"] = {"keys": [private_key.as_dict(private=False)]}
        registration.update(metadata)
        status, body = self.register(registration)
        check(status == 201, "registration of %s refused: %s %s" % (name, status, body))
        client = Client(body, method, private_key)
        self.clients[name] = client
        return client

    # MARK: Authorization requests

    def session_for(self, client, scope, redirect_uri=None, pkce=True):
        secret = client.private_key if client.method == "private_key_jwt" else client.client_secret
        options = {"code_challenge_method": "S256"} if pkce else {}
        session = OAuth2Session(
            client.client_id, secret, token_endpoint_auth_method=client.method, scope=scope,
            redirect_uri=redirect_uri or self.redirect_uri, **options)
        if client.method == "private_key_jwt":
            session.register_client_auth_method(ServerTimePrivateKeyJWT(self.metadata["token_endpoint"], self))
        return session

    def request(self, client, scope="openid email", pkce=True, nonce=True, redirect_uri=None, **extra):
        """An authorization request as the suite sends it: state, nonce, PKCE where asked."""
        session = self.session_for(client, scope, redirect_uri, pkce)
        state = generate_token(20)
        parameters = dict(extra)
        request = {"client": session, "registered": client, "state": state, "nonce": None, "verifier": None}
        if nonce:
            request["nonce"] = parameters["nonce"] = generate_token(20)
        if pkce:
            request["verifier"] = parameters["code_verifier"] = generate_token(48)
        if self.response_mode and "response_mode" not in parameters:
            parameters["response_mode"] = self.response_mode
        url, _ = session.create_authorization_url(self.metadata["authorization_endpoint"], state=state, **parameters)
        request["url"] = url
        return request

    def through_pages(self, request, consent="allow"):
        """Visits the request's URL and goes through the pages until the client is called back."""
        before = self.callbacks.count()
        self.sent = self.outbox_count(self.args.email)
        self.visit(request["url"])
        shown = self.sign_in(self.args.email, before, consent=consent)
        return self.callbacks.wait(before + 1), shown

    def query(self, callback, request):
        """The answer's parameters, `state` and RFC 9207 `iss` checked."""
        return self.callback_parameters(callback, request)

    def exchange(self, request, query):
        """Redeems the code of `query` (Authlib), answering the token response."""
        response = self.base + "/callback?" + urllib.parse.urlencode(query)
        return request["client"].fetch_token(
            self.metadata["token_endpoint"], authorization_response=response, code_verifier=request["verifier"],
            state=request["state"])

    def id_token(self, token, request, auth_time=True):
        """The ID token's claims, checked as the suite checks them."""
        check("id_token" in token, "the token response has no id_token")
        decoded = jwt.decode(token["id_token"], self.keys, algorithms=self.metadata["id_token_signing_alg_values_supported"])
        claims = {
            "iss": {"essential": True, "value": self.issuer},
            "aud": {"essential": True, "value": request["registered"].client_id},
            "sub": {"essential": True}, "exp": {"essential": True}, "iat": {"essential": True},
        }
        if request["nonce"]:
            claims["nonce"] = {"essential": True, "value": request["nonce"]}
        if auth_time:
            claims["auth_time"] = {"essential": True}
        jwt.JWTClaimsRegistry(now=int(self.server_time), leeway=5, **claims).validate(decoded.claims)
        check(request["nonce"] or "nonce" not in decoded.claims, "a nonce came back that was never sent")
        aud = decoded.claims["aud"]
        if isinstance(aud, list) and len(aud) > 1:
            check(decoded.claims.get("azp") == request["registered"].client_id, "several audiences without azp")
        return decoded.claims, decoded.header

    def code_flow(self, client=None, scope="openid email", consent="allow", **extra):
        """The whole code flow through the pages: (token, claims, request, pages shown)."""
        request = self.request(client or self.client(), scope=scope, **extra)
        callback, shown = self.through_pages(request, consent)
        query = self.query(callback, request)
        check("code" in query, "no code in the answer: %r" % query)
        token = self.exchange(request, query)
        claims, _ = self.id_token(token, request)
        return token, claims, request, shown

    def silent(self, client=None, **extra):
        """A request the server answers without a page: the answer's parameters."""
        request = self.request(client or self.client(), **extra)
        before = self.callbacks.count()
        self.visit(request["url"])
        callback = self.callbacks.wait(before + 1)
        return request, self.query(callback, request)

    def error_page(self, url):
        """The URL ends on an error page of the server: no redirect, an error status."""
        before = self.callbacks.count()
        self.visit(url)
        check(self.on_server(), "the browser left the server: %s" % self.driver.current_url)
        check(self.callbacks.count() == before, "the client was called back")
        answer = requests.get(url, allow_redirects=False, timeout=TIMEOUT)
        check(400 <= answer.status_code < 500 and "Location" not in answer.headers,
              "answered %s %s" % (answer.status_code, answer.headers.get("Location")))
        return answer

    def forget_browser(self):
        """A browser nobody signed in to (cookies of the server cleared)."""
        self.visit(self.issuer + "/.well-known/openid-configuration")
        self.driver.delete_all_cookies()

    def userinfo_get(self, access_token):
        return requests.get(self.metadata["userinfo_endpoint"], timeout=TIMEOUT,
                            headers={"Authorization": "Bearer " + access_token})


# MARK: Basic (and, with response_mode=form_post, Form Post)


def oidcc_server(rp):
    token, claims, request, _ = rp.code_flow()
    check(token.get("token_type", "").lower() in ("bearer", "dpop"), "token_type %r" % token.get("token_type"))
    check("access_token" in token, "no access token")


def oidcc_response_type_missing(rp):
    client = rp.client()
    request = rp.request(client)
    url = request["url"].replace("response_type=code&", "").replace("&response_type=code", "")
    check("response_type" not in url, "response_type still in %s" % url)
    before = rp.callbacks.count()
    rp.visit(url)
    if rp.callbacks.count() > before:
        query = rp.query(rp.callbacks.wait(before + 1), request)
        check(query.get("error") in ("invalid_request", "unsupported_response_type"), "answer %r" % query)
    else:
        check(rp.on_server(), "the browser left the server")


def oidcc_userinfo_get(rp):
    token, claims, _, _ = rp.code_flow()
    info = rp.userinfo_get(token["access_token"])
    check(info.status_code == 200 and info.json()["sub"] == claims["sub"], "UserInfo GET: %s %s" % (info.status_code, info.text))


def oidcc_userinfo_post_header(rp):
    token, claims, _, _ = rp.code_flow()
    info = requests.post(rp.metadata["userinfo_endpoint"], timeout=TIMEOUT,
                         headers={"Authorization": "Bearer " + token["access_token"]})
    check(info.status_code == 200 and info.json()["sub"] == claims["sub"], "UserInfo POST: %s" % info.text)


def oidcc_userinfo_post_body(rp):
    token, claims, _, _ = rp.code_flow()
    info = requests.post(rp.metadata["userinfo_endpoint"], data={"access_token": token["access_token"]}, timeout=TIMEOUT)
    check(info.status_code == 200 and info.json()["sub"] == claims["sub"], "UserInfo form body: %s" % info.text)


def oidcc_ensure_request_without_nonce_succeeds_for_code_flow(rp):
    client = rp.client("relaxed")
    rp.pauses.pause("relax-pkce", client.client_id)
    request = rp.request(client, pkce=False, nonce=False)
    callback, _ = rp.through_pages(request)
    query = rp.query(callback, request)
    check("code" in query, "a request without nonce (and without PKCE) was refused: %r" % query)
    token = rp.exchange(request, query)
    claims, _ = rp.id_token(token, request)
    check("nonce" not in claims, "an ID token carries a nonce that was never sent")


def scope_module(scope, claims_wanted):
    def module(rp):
        supported = set(rp.metadata.get("scopes_supported", []))
        wanted = [s for s in scope.split() if s != "openid"]
        if any(s not in supported for s in wanted):
            raise Skipped("%s is not in scopes_supported" % ", ".join(s for s in wanted if s not in supported))
        token, claims, _, _ = rp.code_flow(scope=scope)
        info = rp.userinfo_get(token["access_token"])
        check(info.status_code == 200, "UserInfo: %s" % info.text)
        for claim in claims_wanted:
            check(claim in info.json() or claim in claims, "%s missing for scope %s: %s" % (claim, scope, info.text))
    return module


def oidcc_scope_all(rp):
    supported = [s for s in ("profile", "email", "address", "phone") if s in rp.metadata.get("scopes_supported", [])]
    token, _, _, _ = rp.code_flow(scope=" ".join(["openid"] + supported))
    check(rp.userinfo_get(token["access_token"]).status_code == 200, "UserInfo refused")


def oidcc_ensure_other_scope_order_succeeds(rp):
    rp.code_flow(scope="email openid")


def parameter_module(**parameters):
    def module(rp):
        rp.code_flow(**parameters)
    return module


def oidcc_prompt_login(rp):
    _, first, _, _ = rp.code_flow()
    rp.advance(2)
    _, second, _, shown = rp.code_flow(prompt="login")
    check(shown and shown[0] == "identify", "prompt=login signed in without asking: %s" % shown)
    check(second["auth_time"] > first["auth_time"], "auth_time did not move: %s" % second["auth_time"])


def oidcc_prompt_none_not_logged_in(rp):
    rp.forget_browser()
    request, query = rp.silent(prompt="none")
    check(query.get("error") == "login_required", "prompt=none without a session: %r" % query)


def oidcc_prompt_none_logged_in(rp):
    _, first, _, _ = rp.code_flow()
    request, query = rp.silent(prompt="none")
    check("code" in query, "prompt=none with a session: %r" % query)
    claims, _ = rp.id_token(rp.exchange(request, query), request)
    check(claims["sub"] == first["sub"], "another user")


def oidcc_max_age_1(rp):
    _, first, _, _ = rp.code_flow()
    rp.advance(2)
    _, second, _, shown = rp.code_flow(max_age="1")
    check(shown and shown[0] == "identify", "max_age=1 after 2 s signed in without asking: %s" % shown)
    check(second["auth_time"] > first["auth_time"], "auth_time did not move")


def oidcc_max_age_10000(rp):
    _, first, _, _ = rp.code_flow()
    request, query = rp.silent(max_age="10000")
    check("code" in query, "max_age=10000 asked again: %r" % query)
    claims, _ = rp.id_token(rp.exchange(request, query), request)
    check(claims["auth_time"] == first["auth_time"], "auth_time moved without a sign-in")


def oidcc_id_token_hint(rp):
    token, first, _, _ = rp.code_flow()
    request, query = rp.silent(prompt="none", id_token_hint=token["id_token"])
    check("code" in query, "prompt=none with id_token_hint: %r" % query)
    claims, _ = rp.id_token(rp.exchange(request, query), request)
    check(claims["sub"] == first["sub"], "the hint's user was not the one signed in")


def oidcc_ensure_request_with_acr_values_succeeds(rp):
    _, claims, _, _ = rp.code_flow(acr_values="1 2")
    check("acr" in claims, "no acr in the ID token")


def oidcc_codereuse(rp):
    request = rp.request(rp.client())
    callback, _ = rp.through_pages(request)
    query = rp.query(callback, request)
    rp.exchange(request, query)
    try:
        rp.exchange(request, query)
    except OAuthError as error:
        check(error.error == "invalid_grant", "a reused code answered %s" % error.error)
        return
    raise CheckFailed("a code was redeemed twice")


def oidcc_codereuse_30seconds(rp):
    request = rp.request(rp.client())
    callback, _ = rp.through_pages(request)
    query = rp.query(callback, request)
    token = rp.exchange(request, query)
    rp.advance(30)
    try:
        rp.exchange(request, query)
        raise CheckFailed("a code was redeemed twice, 30 seconds apart")
    except OAuthError as error:
        check(error.error == "invalid_grant", "a reused code answered %s" % error.error)
    # What the first redemption gave is revoked (RFC 6749 §4.1.2, RFC 9700 §4.5).
    check(rp.userinfo_get(token["access_token"]).status_code == 401, "the first access token still works")


def oidcc_ensure_registered_redirect_uri(rp):
    request = rp.request(rp.client(), redirect_uri=rp.base + "/not-registered")
    rp.error_page(request["url"])


def oidcc_server_client_secret_post(rp):
    rp.code_flow(client=rp.client("post", method="client_secret_post"))


def oidcc_unsigned_request_object_supported_correctly_or_rejected_as_unsupported(rp):
    client = rp.client()
    header = base64.urlsafe_b64encode(json.dumps({"alg": "none"}).encode()).rstrip(b"=").decode()
    body = base64.urlsafe_b64encode(json.dumps({
        "iss": client.client_id, "aud": rp.issuer, "response_type": "code", "client_id": client.client_id,
        "redirect_uri": rp.redirect_uri, "scope": "openid email", "state": "in-object",
    }).encode()).rstrip(b"=").decode()
    request, query = rp.silent(request=header + "." + body + ".")
    if rp.metadata.get("request_parameter_supported"):
        check("code" in query, "a request object was not honoured: %r" % query)
    else:
        check(query.get("error") == "request_not_supported", "an unsupported request object: %r" % query)


def oidcc_ensure_request_object_with_redirect_uri(rp):
    if not rp.metadata.get("request_parameter_supported"):
        raise Skipped("request objects are not supported (request_parameter_supported is false)")


def oidcc_claims_essential(rp):
    token, _, _, _ = rp.code_flow(claims=json.dumps({"userinfo": {"name": {"essential": True}}}))
    check(rp.userinfo_get(token["access_token"]).status_code == 200, "UserInfo refused")


def oidcc_refresh_token(rp):
    token, claims, request, _ = rp.code_flow(scope="openid email offline_access")
    check("refresh_token" in token, "no refresh token with offline_access")
    refreshed = request["client"].refresh_token(rp.metadata["token_endpoint"], refresh_token=token["refresh_token"])
    check(refreshed["access_token"] != token["access_token"], "the same access token")
    if "id_token" in refreshed:
        decoded = jwt.decode(refreshed["id_token"], rp.keys, algorithms=rp.metadata["id_token_signing_alg_values_supported"])
        for name in ("iss", "sub", "aud"):
            check(decoded.claims[name] == claims[name], "the refreshed ID token's %s changed" % name)
    # A refresh token used once is spent (rotation): past the reuse grace period (10 s by
    # default, for concurrent refreshes), the refresh token again is refused.
    rp.advance(15)
    try:
        request["client"].refresh_token(rp.metadata["token_endpoint"], refresh_token=token["refresh_token"])
        raise CheckFailed("a rotated refresh token was accepted again")
    except OAuthError as error:
        check(error.error == "invalid_grant", "a spent refresh token answered %s" % error.error)


def oidcc_ensure_request_with_valid_pkce_succeeds(rp):
    rp.code_flow(pkce=True)


def oidcc_ensure_post_request_succeeds(rp):
    """The authorization request sent as a form POST (OpenID Connect Core §3.1.2.1)."""
    request = rp.request(rp.client())
    parts = urllib.parse.urlsplit(request["url"])
    fields = "".join('<input type="hidden" name="%s" value="%s">' % (name, value.replace('"', "&quot;"))
                     for name, value in urllib.parse.parse_qsl(parts.query))
    rp.pages["/post-request"] = ('<!doctype html><title>POST</title><form method="post" action="%s">%s'
                                 '<button type="submit">Go</button></form>' % (rp.metadata["authorization_endpoint"], fields))
    before = rp.callbacks.count()
    rp.sent = rp.outbox_count(rp.args.email)
    rp.visit(rp.base + "/post-request")
    rp.submit(rp.driver.find_element("tag name", "form"))
    rp.sign_in(rp.args.email, before, consent="allow")
    query = rp.query(rp.callbacks.wait(before + 1), request)
    rp.id_token(rp.exchange(request, query), request)


BASIC = [
    ("oidcc-server", oidcc_server),
    ("oidcc-response-type-missing", oidcc_response_type_missing),
    ("oidcc-userinfo-get", oidcc_userinfo_get),
    ("oidcc-userinfo-post-header", oidcc_userinfo_post_header),
    ("oidcc-userinfo-post-body", oidcc_userinfo_post_body),
    ("oidcc-ensure-request-without-nonce-succeeds-for-code-flow", oidcc_ensure_request_without_nonce_succeeds_for_code_flow),
    ("oidcc-scope-profile", scope_module("openid profile", [])),
    ("oidcc-scope-email", scope_module("openid email", ["email"])),
    ("oidcc-scope-address", scope_module("openid address", ["address"])),
    ("oidcc-scope-phone", scope_module("openid phone", [])),
    ("oidcc-scope-all", oidcc_scope_all),
    ("oidcc-ensure-other-scope-order-succeeds", oidcc_ensure_other_scope_order_succeeds),
    ("oidcc-display-page", parameter_module(display="page")),
    ("oidcc-display-popup", parameter_module(display="popup")),
    ("oidcc-prompt-login", oidcc_prompt_login),
    ("oidcc-prompt-none-not-logged-in", oidcc_prompt_none_not_logged_in),
    ("oidcc-prompt-none-logged-in", oidcc_prompt_none_logged_in),
    ("oidcc-max-age-1", oidcc_max_age_1),
    ("oidcc-max-age-10000", oidcc_max_age_10000),
    ("oidcc-ensure-request-with-unknown-parameter-succeeds", parameter_module(extra="foobar")),
    ("oidcc-id-token-hint", oidcc_id_token_hint),
    ("oidcc-login-hint", lambda rp: parameter_module(login_hint=rp.args.email)(rp)),
    ("oidcc-ui-locales", parameter_module(ui_locales="en")),
    ("oidcc-claims-locales", parameter_module(claims_locales="en")),
    ("oidcc-ensure-request-with-acr-values-succeeds", oidcc_ensure_request_with_acr_values_succeeds),
    ("oidcc-codereuse", oidcc_codereuse),
    ("oidcc-codereuse-30seconds", oidcc_codereuse_30seconds),
    ("oidcc-ensure-registered-redirect-uri", oidcc_ensure_registered_redirect_uri),
    ("oidcc-server-client-secret-post", oidcc_server_client_secret_post),
    ("oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported",
     oidcc_unsigned_request_object_supported_correctly_or_rejected_as_unsupported),
    ("oidcc-claims-essential", oidcc_claims_essential),
    ("oidcc-ensure-request-object-with-redirect-uri", oidcc_ensure_request_object_with_redirect_uri),
    ("oidcc-refresh-token", oidcc_refresh_token),
    ("oidcc-ensure-request-with-valid-pkce-succeeds", oidcc_ensure_request_with_valid_pkce_succeeds),
    ("oidcc-ensure-post-request-succeeds", oidcc_ensure_post_request_succeeds),
]


# MARK: Config


def oidcc_discovery_endpoint_verification(rp):
    document = rp.metadata
    for member in ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported",
                   "subject_types_supported", "id_token_signing_alg_values_supported", "userinfo_endpoint"):
        check(member in document, "discovery lacks %s" % member)
    check(document["issuer"] == rp.issuer and not rp.issuer.endswith("/"), "issuer %r" % document["issuer"])
    check("code" in document["response_types_supported"], "response type code missing")
    check("RS256" in document["id_token_signing_alg_values_supported"], "RS256 missing (OpenID Connect Discovery §3)")
    check("openid" in document.get("scopes_supported", ["openid"]), "openid missing from scopes_supported")
    for name in ("authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint", "registration_endpoint",
                 "end_session_endpoint"):
        if name in document:
            check(document[name].startswith(rp.issuer), "%s is not under the issuer: %s" % (name, document[name]))
    keys = requests.get(document["jwks_uri"], timeout=TIMEOUT).json()["keys"]
    check(keys and all("kid" in key and key.get("use", "sig") == "sig" for key in keys), "keys without kid or use: %r" % keys)
    check(len({key["kid"] for key in keys}) == len(keys), "two keys share a kid")
    for key in keys:
        check(not any(name in key for name in ("d", "p", "q", "dp", "dq", "qi")), "a private member is published")
    # The same document at the RFC 8414 address, where the server publishes one.
    answer = requests.get(rp.issuer + "/.well-known/oauth-authorization-server", timeout=TIMEOUT)
    if answer.status_code == 200:
        check(answer.json()["issuer"] == rp.issuer, "RFC 8414 metadata names another issuer")


def oidcc_idtoken_rs256(rp):
    client = rp.client("rs256", id_token_signed_response_alg="RS256")
    token, _, request, _ = rp.code_flow(client=client)
    _, header = rp.id_token(token, request)
    check(header["alg"] == "RS256", "the ID token is %s" % header["alg"])


def oidcc_userinfo_rs256(rp):
    if "RS256" not in rp.metadata.get("userinfo_signing_alg_values_supported", []):
        raise Skipped("signed UserInfo answers are not offered (no userinfo_signing_alg_values_supported)")


CONFIG = [
    ("oidcc-discovery-endpoint-verification", oidcc_discovery_endpoint_verification),
    ("oidcc-idtoken-rs256", oidcc_idtoken_rs256),
    ("oidcc-userinfo-rs256", oidcc_userinfo_rs256),
]


# MARK: Dynamic


def oidcc_registration_basic(rp):
    status, body = rp.register({"redirect_uris": [rp.redirect_uri], "client_name": "OIDF plain"})
    check(status == 201, "registration refused: %s" % body)
    for member in ("client_id", "redirect_uris", "token_endpoint_auth_method"):
        check(member in body, "the registration answer lacks %s" % member)
    check(body["token_endpoint_auth_method"] == "client_secret_basic" and body.get("client_secret"),
          "the default method is client_secret_basic, with a secret")


def oidcc_registration_jwks(rp):
    rp.code_flow(client=rp.client("jwks", method="private_key_jwt"))


def oidcc_registration_jwks_uri(rp):
    status, body = rp.register({"redirect_uris": [rp.redirect_uri], "token_endpoint_auth_method": "private_key_jwt",
                                "jwks_uri": rp.base + "/jwks.json"})
    if status == 400 and body.get("error") == "invalid_client_metadata":
        raise Skipped("jwks_uri is not accepted at registration: keys are registered as jwks (%s)"
                      % body.get("error_description"))
    check(status == 201, "registration: %s %s" % (status, body))


def consent_page_module(member, url, shows):
    def module(rp):
        client = rp.client("with-" + member, **{member: url, "client_name": "OIDF %s" % member})
        request = rp.request(client)
        before = rp.callbacks.count()
        rp.sent = rp.outbox_count(rp.args.email)
        rp.visit(request["url"])
        seen = None
        for _ in range(6):
            if rp.form_with("/login/consent") is not None:
                seen = rp.driver.page_source
                break
            if rp.callbacks.count() > before:
                break
            identify = rp.form_with("/login/identify")
            if identify is not None:
                rp.fill(identify, "identifier", rp.args.email)
                rp.submit(identify)
                continue
            code = rp.form_with("/login/action", action="submitCode")
            if code is not None:
                rp.fill(code, "code", rp.outbox_code(rp.args.email, rp.sent))
                rp.sent = rp.outbox_count(rp.args.email)
                rp.submit(code)
                continue
            break
        check(seen is not None, "no consent page for a registered client: %s" % rp.page_text())
        check(shows in seen, "the consent page does not show the %s %s" % (member, url))
        rp.submit(rp.form_with("/login/consent", decision="allow"))
        query = rp.query(rp.callbacks.wait(before + 1), request)
        rp.id_token(rp.exchange(request, query), request)
    return module


def oidcc_registration_sector(rp):
    if "pairwise" not in rp.metadata.get("subject_types_supported", []):
        raise Skipped("pairwise subjects are not offered (subject_types_supported is public only)")


def oidcc_server_rotate_keys(rp):
    token, _, request, _ = rp.code_flow()
    _, before = rp.id_token(token, request)
    rp.pauses.pause("rotate-keys")
    # The relying party reads the keys again for a kid it does not know.
    rp.keys = KeySet.import_key_set(requests.get(rp.metadata["jwks_uri"], timeout=TIMEOUT).json())
    token, _, request, _ = rp.code_flow()
    _, after = rp.id_token(token, request)
    check(after["kid"] != before["kid"], "the ID token is still signed with the key before the rotation")


def oidcc_request_uri_unsigned(rp):
    request, query = rp.silent(request_uri="https://rp.example/request.jwt")
    check(query.get("error") == "request_uri_not_supported", "a request_uri that is not a pushed request: %r" % query)


def oidcc_redirect_uri_regfrag(rp):
    status, body = rp.register({"redirect_uris": [rp.redirect_uri + "#fragment"]})
    check(status == 400 and body.get("error") in ("invalid_redirect_uri", "invalid_client_metadata"),
          "a redirect URI with a fragment was registered: %s %s" % (status, body))


def oidcc_redirect_uri_query_ok(rp):
    with_query = rp.redirect_uri + "?foo=bar"
    client = rp.client("query", redirect_uris=[with_query])
    request = rp.request(client, redirect_uri=with_query)
    callback, _ = rp.through_pages(request)
    query = rp.query(callback, request)
    check(query.get("foo") == "bar" and "code" in query, "the registered query was not kept: %r" % query)


def oidcc_redirect_uri_query_mismatch(rp):
    client = rp.client("query", redirect_uris=[rp.redirect_uri + "?foo=bar"])
    rp.error_page(rp.request(client, redirect_uri=rp.redirect_uri + "?foo=zot")["url"])


def oidcc_redirect_uri_query_added(rp):
    rp.error_page(rp.request(rp.client(), redirect_uri=rp.redirect_uri + "?foo=bar")["url"])


def oidcc_idtoken_unsigned(rp):
    if "none" not in rp.metadata["id_token_signing_alg_values_supported"]:
        raise Skipped("unsigned ID tokens are not offered (alg none is not in id_token_signing_alg_values_supported)")


def oidcc_refresh_token_rp_key_rotation(rp):
    raise Skipped("rotating a client's keys needs registration management (RFC 7592), which is not offered")


DYNAMIC = [
    ("oidcc-registration-basic", oidcc_registration_basic),
    ("oidcc-registration-jwks", oidcc_registration_jwks),
    ("oidcc-registration-jwks-uri", oidcc_registration_jwks_uri),
    ("oidcc-registration-logo-uri", consent_page_module("logo_uri", "https://rp.example/logo.png",
                                                        'src="https://rp.example/logo.png"')),
    ("oidcc-registration-policy-uri", consent_page_module("policy_uri", "https://rp.example/privacy",
                                                          'href="https://rp.example/privacy"')),
    ("oidcc-registration-tos-uri", consent_page_module("tos_uri", "https://rp.example/terms",
                                                       'href="https://rp.example/terms"')),
    ("oidcc-registration-sector-uri", oidcc_registration_sector),
    ("oidcc-registration-sector-bad", oidcc_registration_sector),
    ("oidcc-server-rotate-keys", oidcc_server_rotate_keys),
    ("oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported", oidcc_request_uri_unsigned),
    ("oidcc-redirect-uri-regfrag", oidcc_redirect_uri_regfrag),
    ("oidcc-redirect-uri-query-OK", oidcc_redirect_uri_query_ok),
    ("oidcc-redirect-uri-query-mismatch", oidcc_redirect_uri_query_mismatch),
    ("oidcc-redirect-uri-query-added", oidcc_redirect_uri_query_added),
    ("oidcc-idtoken-unsigned", oidcc_idtoken_unsigned),
    ("oidcc-refresh-token-rp-key-rotation", oidcc_refresh_token_rp_key_rotation),
    ("oidcc-ensure-registered-redirect-uri", oidcc_ensure_registered_redirect_uri),
    ("oidcc-server", oidcc_server),
]


# MARK: RP-Initiated Logout


def logout_url(rp, **parameters):
    return rp.metadata["end_session_endpoint"] + "?" + urllib.parse.urlencode(parameters)


def signed_out(rp):
    request, query = rp.silent(prompt="none")
    check(query.get("error") == "login_required", "still signed in after the logout: %r" % query)


def oidcc_rp_initiated_logout(rp):
    token, _, _, _ = rp.code_flow()
    before = rp.callbacks.count()
    state = generate_token(16)
    rp.visit(logout_url(rp, id_token_hint=token["id_token"], post_logout_redirect_uri=rp.logged_out, state=state))
    back = rp.callbacks.wait(before + 1)
    check(back["path"] == "/logged-out?state=" + state, "back after the logout: %r" % back)
    signed_out(rp)


def oidcc_rp_initiated_logout_no_state(rp):
    token, _, _, _ = rp.code_flow()
    before = rp.callbacks.count()
    rp.visit(logout_url(rp, id_token_hint=token["id_token"], post_logout_redirect_uri=rp.logged_out))
    back = rp.callbacks.wait(before + 1)
    check(back["path"] == "/logged-out", "back after the logout: %r" % back)
    signed_out(rp)


def oidcc_rp_initiated_logout_bad_post_logout_redirect_uri(rp):
    token, _, _, _ = rp.code_flow()
    rp.error_page(logout_url(rp, id_token_hint=token["id_token"], post_logout_redirect_uri=rp.base + "/elsewhere"))


def oidcc_rp_initiated_logout_query_added(rp):
    token, _, _, _ = rp.code_flow()
    rp.error_page(logout_url(rp, id_token_hint=token["id_token"], post_logout_redirect_uri=rp.logged_out + "?extra=1"))


def oidcc_rp_initiated_logout_modified_id_token_hint(rp):
    token, _, _, _ = rp.code_flow()
    head, body, signature = token["id_token"].split(".")
    forged = head + "." + body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    rp.error_page(logout_url(rp, id_token_hint=forged, post_logout_redirect_uri=rp.logged_out))


def oidcc_rp_initiated_logout_bad_id_token_hint(rp):
    rp.code_flow()
    # A token of another issuer's making: unsigned, as a tampering relying party would send it.
    claims = {"iss": "https://elsewhere.example", "sub": "x", "aud": rp.client().client_id, "iat": int(time.time())}
    encode = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    rp.error_page(logout_url(rp, id_token_hint=encode({"alg": "none"}) + "." + encode(claims) + ".",
                             post_logout_redirect_uri=rp.logged_out))


def oidcc_rp_initiated_logout_no_id_token_hint(rp):
    rp.code_flow()
    before = rp.callbacks.count()
    rp.visit(logout_url(rp, client_id=rp.client().client_id, post_logout_redirect_uri=rp.logged_out, state="s1"))
    if rp.callbacks.count() == before:
        confirm = rp.form_with("/login/logout", decision="logout")
        check(confirm is not None, "neither a logout nor its confirmation: %s" % rp.page_text())
        rp.submit(confirm)
    back = rp.callbacks.wait(before + 1)
    check(back["path"] == "/logged-out?state=s1", "back after the logout: %r" % back)
    signed_out(rp)


def oidcc_rp_initiated_logout_no_params(rp):
    rp.code_flow()
    rp.visit(rp.metadata["end_session_endpoint"])
    confirm = rp.form_with("/login/logout", decision="logout")
    if confirm is not None:
        rp.submit(confirm)
    check(rp.on_server(), "the browser left the server")
    signed_out(rp)


def oidcc_rp_initiated_logout_no_post_logout_redirect_uri(rp):
    token, _, _, _ = rp.code_flow()
    before = rp.callbacks.count()
    rp.visit(logout_url(rp, id_token_hint=token["id_token"]))
    check(rp.on_server() and rp.callbacks.count() == before, "sent somewhere without a post-logout URI")
    signed_out(rp)


def oidcc_rp_initiated_logout_only_state(rp):
    token, _, _, _ = rp.code_flow()
    before = rp.callbacks.count()
    rp.visit(logout_url(rp, id_token_hint=token["id_token"], state="s1"))
    check(rp.on_server() and rp.callbacks.count() == before, "sent somewhere without a post-logout URI")
    signed_out(rp)


RP_LOGOUT = [
    ("oidcc-rp-initiated-logout", oidcc_rp_initiated_logout),
    ("oidcc-rp-initiated-logout-no-state", oidcc_rp_initiated_logout_no_state),
    ("oidcc-rp-initiated-logout-bad-post-logout-redirect-uri", oidcc_rp_initiated_logout_bad_post_logout_redirect_uri),
    ("oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri", oidcc_rp_initiated_logout_query_added),
    ("oidcc-rp-initiated-logout-modified-id-token-hint", oidcc_rp_initiated_logout_modified_id_token_hint),
    ("oidcc-rp-initiated-logout-bad-id-token-hint", oidcc_rp_initiated_logout_bad_id_token_hint),
    ("oidcc-rp-initiated-logout-no-id-token-hint", oidcc_rp_initiated_logout_no_id_token_hint),
    ("oidcc-rp-initiated-logout-no-params", oidcc_rp_initiated_logout_no_params),
    ("oidcc-rp-initiated-logout-no-post-logout-redirect-uri", oidcc_rp_initiated_logout_no_post_logout_redirect_uri),
    ("oidcc-rp-initiated-logout-only-state", oidcc_rp_initiated_logout_only_state),
]


# The Form Post plan runs the Basic plan's modules with response_mode=form_post; those about
# the request itself rather than the answer's delivery are the Basic plan's alone.
FORM_POST_EXCLUDED = {
    "oidcc-userinfo-get", "oidcc-userinfo-post-header", "oidcc-userinfo-post-body", "oidcc-response-type-missing",
    "oidcc-ensure-registered-redirect-uri", "oidcc-ensure-post-request-succeeds",
}

PLANS = {
    "basic": (BASIC, None),
    "config": (CONFIG, None),
    "dynamic": (DYNAMIC, None),
    "form-post": ([(name, module) for name, module in BASIC if name not in FORM_POST_EXCLUDED], "form_post"),
    "rp-logout": (RP_LOGOUT, None),
}


def run_plan(rp, plan):
    modules, mode = PLANS[plan]
    results = {}
    for name, module in modules:
        rp.response_mode = mode
        try:
            module(rp)
            results[name] = {"result": "passed"}
        except Skipped as skip:
            results[name] = {"result": "skipped", "reason": str(skip)}
        except Exception as failure:
            page = ""
            try:
                page = "%s: %s" % (rp.driver.current_url, rp.page_text()[:400])
            except Exception:
                pass
            results[name] = {"result": "failed", "reason": "%s: %s" % (type(failure).__name__, failure), "page": page,
                             "trace": traceback.format_exc()[-1500:]}
        finally:
            rp.response_mode = None
            # Each module starts in a browser nobody is signed in to, as the suite's do.
            try:
                rp.forget_browser()
            except Exception:
                pass
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--registration-token", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--server-time", type=float, required=True)
    parser.add_argument("--pause-dir", required=True)
    parser.add_argument("--plan", action="append", choices=sorted(PLANS))
    args = parser.parse_args()
    started = time.monotonic()
    rp = None
    output = {"plans": {}}
    try:
        rp = PlanRunner(args)
        for plan in args.plan or list(PLANS):
            output["plans"][plan] = run_plan(rp, plan)
    except Exception as failure:
        output["error"] = "%s: %s\n%s" % (type(failure).__name__, failure, traceback.format_exc())
    finally:
        if rp is not None:
            try:
                rp.close()
            except Exception:
                pass
    output["seconds"] = round(time.monotonic() - started, 2)
    failed = [name for plan in output["plans"].values() for name, result in plan.items() if result["result"] == "failed"]
    output["failed"] = failed
    print(json.dumps(output))
    sys.exit(0 if not failed and "error" not in output else 1)


if __name__ == "__main__":
    main()
