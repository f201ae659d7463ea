#!/usr/bin/env python3
"""Validates Keyway's metadata documents with Authlib, an independent OAuth/OIDC library.

Fetches /.well-known/openid-configuration and validates it as OpenID Provider metadata
(OpenID Connect Discovery 1.0), and the RFC 8414 document at /.well-known/oauth-authorization-server
(followed by the issuer's path, if any) as authorization server metadata; both must carry the
same members. Checks that the JWKS holds a key of every advertised ID token algorithm. Exits
non-zero on any failure.
"""
import argparse
import json
import sys
import urllib.parse
import urllib.request

from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from authlib.oidc.discovery import OpenIDProviderMetadata


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.load(response)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    args = parser.parse_args()

    oidc = fetch(args.issuer + "/.well-known/openid-configuration")
    OpenIDProviderMetadata(oidc).validate()
    assert oidc["issuer"] == args.issuer, "issuer mismatch"
    print("valid openid-configuration")

    parsed = urllib.parse.urlsplit(args.issuer)
    well_known = "%s://%s/.well-known/oauth-authorization-server%s" % (
        parsed.scheme, parsed.netloc, parsed.path.rstrip("/"))
    oauth = fetch(well_known)
    AuthorizationServerMetadata(oauth).validate()
    assert oauth == oidc, "the RFC 8414 document differs from the OpenID Connect one"
    print("valid oauth-authorization-server")

    keys = fetch(oidc["jwks_uri"])["keys"]
    types = {"RS256": "RSA", "ES256": "EC"}
    for alg in oidc["id_token_signing_alg_values_supported"]:
        assert any(k["kty"] == types[alg] and k.get("alg") == alg for k in keys), "no %s key published" % alg
    print("jwks holds " + " ".join(sorted(k["kty"] for k in keys)))


if __name__ == "__main__":
    try:
        main()
    except (AssertionError, ValueError) as error:
        print("invalid: %s" % error, file=sys.stderr)
        sys.exit(1)
