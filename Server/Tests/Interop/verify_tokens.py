#!/usr/bin/env python3
"""Verifies Keyway tokens with joserfc, an independent JOSE/OIDC library.

Reads {"id_token": ..., "access_token": ...} on stdin, fetches discovery and the JWKS from the
issuer, and checks signatures and the standard claims. Exits non-zero on any failure.
"""
import argparse
import json
import sys
import time
import urllib.request

from joserfc import jwt
from joserfc.jwk import KeySet
from joserfc.jwt import JWTClaimsRegistry


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.load(response)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--audience", required=True)
    parser.add_argument("--id-token-alg", default="ES256", choices=["ES256", "RS256"])
    args = parser.parse_args()
    tokens = json.load(sys.stdin)

    discovery = fetch(args.issuer + "/.well-known/openid-configuration")
    assert discovery["issuer"] == args.issuer, "discovery issuer mismatch"
    assert "S256" in discovery["code_challenge_methods_supported"]
    keys = KeySet.import_key_set(fetch(discovery["jwks_uri"]))

    id_token = jwt.decode(tokens["id_token"], keys, algorithms=[args.id_token_alg])
    assert id_token.header["alg"] == args.id_token_alg, "unexpected ID token algorithm"
    key = next(k for k in fetch(discovery["jwks_uri"])["keys"] if k["kid"] == id_token.header["kid"])
    assert key["kty"] == ("RSA" if args.id_token_alg == "RS256" else "EC"), "the kid names a key of another type"
    JWTClaimsRegistry(
        iss={"essential": True, "value": args.issuer},
        aud={"essential": True, "value": args.audience},
        sub={"essential": True},
        exp={"essential": True},
        iat={"essential": True},
        auth_time={"essential": True},
        email={"essential": True},
    ).validate(id_token.claims)
    assert id_token.claims["exp"] > time.time()
    assert id_token.claims["email_verified"] is True
    print("verified %s id_token sub=%s" % (args.id_token_alg, id_token.claims["sub"]))

    access = jwt.decode(tokens["access_token"], keys, algorithms=["ES256"])
    assert access.header["typ"] == "at+jwt", "access token typ must be at+jwt (RFC 9068)"
    JWTClaimsRegistry(
        iss={"essential": True, "value": args.issuer},
        sub={"essential": True},
        exp={"essential": True},
        jti={"essential": True},
        client_id={"essential": True, "value": args.audience},
    ).validate(access.claims)
    print("verified access_token sub=%s" % access.claims["sub"])


if __name__ == "__main__":
    main()
