#!/usr/bin/env python3
"""Checks Keyway's PowerAuth 3.3 temporary keys and activation code signatures with independent
libraries (joserfc for the JWTs, cryptography for ECDSA).

Reads {"applicationKey", "applicationSecret", "masterServerPublicKey", "activationCode",
"activationSignature"} on stdin: signs a temporary key request (HS256 with the application
secret's raw bytes) with joserfc, posts it to POST /pa/v3/keystore/create, verifies the answer's
ES256 JWT with the master public key and checks its claims, and verifies the activation code's
signature. Exits non-zero on any failure.
"""
import argparse
import base64
import json
import secrets
import sys
import urllib.request

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from joserfc import jwt
from joserfc.jwk import ECKey, OctKey


def fail(message):
    print(f"powerauth_keystore: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    args = parser.parse_args()
    settings = json.load(sys.stdin)

    master = ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), base64.b64decode(settings["masterServerPublicKey"]))
    code, signature = settings["activationCode"], base64.b64decode(settings["activationSignature"])
    try:
        master.verify(signature, code.encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        fail("the activation code's signature does not verify")
    print("verified activation code signature")

    challenge = base64.b64encode(secrets.token_bytes(16)).decode()
    request_key = OctKey.import_key(base64.b64decode(settings["applicationSecret"]))
    request_jwt = jwt.encode(
        {"alg": "HS256", "typ": "JWT"},
        {"applicationKey": settings["applicationKey"], "challenge": challenge}, request_key)
    body = json.dumps({"requestObject": {"jwt": request_jwt}}).encode()
    request = urllib.request.Request(
        args.base_url + "/pa/v3/keystore/create", data=body, method="POST",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.load(response)
    if answer.get("status") != "OK":
        fail(f"keystore/create answered {answer}")
    response_jwt = answer["responseObject"]["jwt"]

    token = jwt.decode(response_jwt, ECKey.import_key(master), algorithms=["ES256"])
    if token.header.get("alg") != "ES256":
        fail(f"the answer is signed with {token.header.get('alg')}")
    claims = token.claims
    if claims.get("applicationKey") != settings["applicationKey"] or claims.get("challenge") != challenge:
        fail(f"the answer's claims do not match the request: {claims}")
    public_key = base64.b64decode(claims["publicKey"])
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public_key)
    if not claims.get("sub") or claims["exp_ms"] <= claims["iat_ms"] or claims["exp"] != claims["exp_ms"] // 1000:
        fail(f"the answer's times or key ID are wrong: {claims}")
    print(f"verified temporary key sub={claims['sub']} publicKey={len(public_key)} bytes "
          f"lifetime={(claims['exp_ms'] - claims['iat_ms']) // 1000}s")


if __name__ == "__main__":
    main()
