#!/usr/bin/env python3
"""A small, independent OpenID Connect provider for Keyway's interoperability tests.

Built on joserfc (JWK and JWT, the JOSE library of the authlib project) and cryptography (the RSA
key), on loopback, without a user
interface: its authorization endpoint signs in one pre-set user at once. It serves

- discovery (`/.well-known/openid-configuration`),
- `/authorize`: checks the client, its registered redirect URI, `response_type=code` and a PKCE
  S256 challenge, then redirects with a single-use code (and `state`, `iss`),
- `/token`: `client_secret_post` (or `client_secret_basic`), the code's redirect URI, the PKCE
  verifier, then an RS256 ID token with the request's nonce,
- `/jwks.json`: the public key with its `kid`.

It listens on 127.0.0.1, prints `listening http://HOST:PORT` (its issuer; HOST is `--host-name`,
`localhost` making it another site than a server at 127.0.0.1 for a browser) once ready, and
serves until it is stopped.

Usage: oidc_provider.py --client-id ID --client-secret SECRET --redirect-uri URI
       --subject SUB --email EMAIL [--port 0] [--host-name 127.0.0.1]
"""

import argparse
import base64
import hashlib
import hmac
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from joserfc import jwt
from joserfc.jwk import RSAKey
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


class Provider:
    """The provider's state: its key, its client, its user, and the codes it issued."""

    def __init__(self, args):
        self.client_id = args.client_id
        self.client_secret = args.client_secret
        self.redirect_uri = args.redirect_uri
        self.subject = args.subject
        self.email = args.email
        self.issuer = ""
        private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        self.key = RSAKey.import_key(pem, {"kid": "py-rsa-1", "alg": "RS256", "use": "sig"})
        self.codes = {}
        self.lock = threading.Lock()

    def metadata(self):
        return {
            "issuer": self.issuer,
            "authorization_endpoint": self.issuer + "/authorize",
            "token_endpoint": self.issuer + "/token",
            "jwks_uri": self.issuer + "/jwks.json",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": ["openid", "email", "profile"],
        }

    def jwks(self):
        return {"keys": [self.key.as_dict(private=False)]}

    def authorize(self, query):
        """The redirect for an authorization request, or (status, error) when it is refused."""
        def one(name):
            values = query.get(name, [])
            return values[0] if len(values) == 1 else None

        if one("client_id") != self.client_id or one("redirect_uri") != self.redirect_uri:
            return None, (400, "unknown client or unregistered redirect_uri")
        if one("response_type") != "code" or one("code_challenge_method") != "S256" or not one("code_challenge"):
            return None, (400, "response_type=code with a PKCE S256 challenge is required")
        if "openid" not in (one("scope") or "").split():
            return None, (400, "the openid scope is required")
        code = secrets.token_urlsafe(32)
        with self.lock:
            self.codes[code] = {
                "challenge": one("code_challenge"), "nonce": one("nonce"), "redirect_uri": self.redirect_uri,
                "expires": time.time() + 60,
            }
        answer = {"code": code, "iss": self.issuer}
        if one("state") is not None:
            answer["state"] = one("state")
        return self.redirect_uri + "?" + urllib.parse.urlencode(answer), None

    def token(self, form, authorization):
        """The token response, or (status, error) when the request is refused."""
        client_id, client_secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization.startswith("Basic "):
            decoded = base64.b64decode(authorization[6:]).decode()
            client_id, _, client_secret = decoded.partition(":")
            client_id, client_secret = urllib.parse.unquote(client_id), urllib.parse.unquote(client_secret)
        if client_id != self.client_id or not hmac.compare_digest(client_secret or "", self.client_secret):
            return None, (401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return None, (400, "unsupported_grant_type")
        with self.lock:
            grant = self.codes.pop(form.get("code", ""), None)
        if grant is None or grant["expires"] < time.time() or form.get("redirect_uri") != grant["redirect_uri"]:
            return None, (400, "invalid_grant")
        verifier = form.get("code_verifier", "")
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if not hmac.compare_digest(challenge, grant["challenge"]):
            return None, (400, "invalid_grant")
        now = int(time.time())
        claims = {
            "iss": self.issuer, "sub": self.subject, "aud": self.client_id, "iat": now, "exp": now + 300,
            "email": self.email, "email_verified": True,
        }
        if grant["nonce"] is not None:
            claims["nonce"] = grant["nonce"]
        id_token = jwt.encode({"alg": "RS256", "kid": "py-rsa-1", "typ": "JWT"}, claims, self.key)
        return {
            "access_token": secrets.token_urlsafe(32), "token_type": "Bearer", "expires_in": 300, "id_token": id_token,
        }, None


def handler_for(provider):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_json(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/.well-known/openid-configuration":
                return self.send_json(200, provider.metadata())
            if url.path == "/jwks.json":
                return self.send_json(200, provider.jwks())
            if url.path == "/authorize":
                location, refusal = provider.authorize(urllib.parse.parse_qs(url.query, keep_blank_values=True))
                if refusal:
                    return self.send_json(refusal[0], {"error": "invalid_request", "error_description": refusal[1]})
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            return self.send_json(404, {"error": "not_found"})

        def do_POST(self):
            if urllib.parse.urlsplit(self.path).path != "/token":
                return self.send_json(404, {"error": "not_found"})
            length = int(self.headers.get("Content-Length") or 0)
            pairs = urllib.parse.parse_qsl(self.rfile.read(length).decode(), keep_blank_values=True)
            body, refusal = provider.token(dict(pairs), self.headers.get("Authorization"))
            if refusal:
                return self.send_json(refusal[0], {"error": refusal[1]})
            return self.send_json(200, body)

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--subject", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host-name", default="127.0.0.1", choices=["127.0.0.1", "localhost"])
    args = parser.parse_args()
    provider = Provider(args)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(provider))
    provider.issuer = "http://%s:%d" % (args.host_name, server.server_address[1])
    print("listening " + provider.issuer, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
