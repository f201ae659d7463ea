#!/usr/bin/env python3
"""An independent DPoP client (RFC 9449) built on joserfc and urllib, for Keyway's interop tests.

Redeems an authorization code with a DPoP proof from its own key, following a use_dpop_nonce
challenge, checks that the access token is bound to that key (cnf.jkt), uses it at UserInfo with
the DPoP scheme, and checks that Keyway refuses a replayed proof and the token sent as a bearer.

  dpop_client.py --issuer URL --client-id ID --code CODE --verifier VERIFIER
"""
import argparse
import base64
import hashlib
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from joserfc import jwt
from joserfc.jwk import ECKey


# The server's time, when it is not this machine's (a test server's clock): proofs carry it.
CLOCK_OFFSET = 0.0


def proof(key, method, url, nonce=None, access_token=None):
    claims = {"jti": str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(time.time() + CLOCK_OFFSET)}
    if nonce:
        claims["nonce"] = nonce
    if access_token:
        digest = hashlib.sha256(access_token.encode()).digest()
        claims["ath"] = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": key.as_dict(private=False)}
    return jwt.encode(header, claims, key)


def call(method, url, headers, body=None):
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def fail(message):
    print("FAIL " + message)
    sys.exit(1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--code", required=True)
    parser.add_argument("--verifier", required=True)
    parser.add_argument("--server-time", type=float, help="the server's current Unix time, if not this machine's")
    args = parser.parse_args()
    if args.server_time is not None:
        global CLOCK_OFFSET
        CLOCK_OFFSET = args.server_time - time.time()

    discovery = json.loads(urllib.request.urlopen(args.issuer + "/.well-known/openid-configuration").read())
    if "ES256" not in discovery.get("dpop_signing_alg_values_supported", []):
        fail("discovery does not advertise ES256 for DPoP")
    token_url, userinfo_url = discovery["token_endpoint"], discovery["userinfo_endpoint"]
    key = ECKey.generate_key("P-256")

    form = urllib.parse.urlencode({
        "grant_type": "authorization_code", "code": args.code, "code_verifier": args.verifier,
        "client_id": args.client_id,
    }).encode()
    form_headers = {"Content-Type": "application/x-www-form-urlencoded"}
    status, headers, body = call("POST", token_url, {**form_headers, "DPoP": proof(key, "POST", token_url)}, form)
    nonce = None
    if status == 400 and json.loads(body).get("error") == "use_dpop_nonce":
        nonce = headers.get("DPoP-Nonce")
        if not nonce:
            fail("use_dpop_nonce without a DPoP-Nonce header")
        print("ok server asked for a nonce")
        status, headers, body = call(
            "POST", token_url, {**form_headers, "DPoP": proof(key, "POST", token_url, nonce=nonce)}, form)
    if status != 200:
        fail("token request answered %d %s" % (status, body))
    tokens = json.loads(body)
    if tokens.get("token_type") != "DPoP":
        fail("token_type is %r" % tokens.get("token_type"))
    access_token = tokens["access_token"]
    payload = json.loads(base64.urlsafe_b64decode(access_token.split(".")[1] + "=="))
    if payload.get("cnf", {}).get("jkt") != key.thumbprint():
        fail("cnf.jkt is not this client's key thumbprint")
    print("ok token bound to jkt " + key.thumbprint())

    resource_proof = proof(key, "GET", userinfo_url, access_token=access_token)
    status, _, body = call("GET", userinfo_url, {"Authorization": "DPoP " + access_token, "DPoP": resource_proof})
    if status != 200:
        fail("userinfo with DPoP answered %d %s" % (status, body))
    print("ok userinfo sub " + json.loads(body)["sub"])

    status, headers, _ = call("GET", userinfo_url, {"Authorization": "DPoP " + access_token, "DPoP": resource_proof})
    if status != 401:
        fail("a replayed proof answered %d" % status)
    print("ok replayed proof refused")

    status, headers, _ = call("GET", userinfo_url, {"Authorization": "Bearer " + access_token})
    if status != 401 or not headers.get("WWW-Authenticate", "").startswith("DPoP"):
        fail("the bound token as a bearer answered %d" % status)
    print("ok bearer use refused")

    other = ECKey.generate_key("P-256")
    status, _, _ = call(
        "GET", userinfo_url,
        {"Authorization": "DPoP " + access_token, "DPoP": proof(other, "GET", userinfo_url, access_token=access_token)})
    if status != 401:
        fail("a proof from another key answered %d" % status)
    print("ok other key refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
