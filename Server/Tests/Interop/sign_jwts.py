#!/usr/bin/env python3
"""Signs JWTs with joserfc, an independent JOSE implementation, for Keyway's interop tests.

  sign_jwts.py keys DIR            generate an RSA-2048 and an EC P-256 key in DIR/private.json,
                                   print the public JWK Set
  sign_jwts.py sign DIR ALG CLAIMS sign the JSON claims with the key for ALG (RS256 or ES256),
                                   print the compact JWT
"""
import json
import sys
from pathlib import Path

from joserfc import jwt
from joserfc.jwk import ECKey, KeySet, RSAKey


def main() -> int:
    command, directory = sys.argv[1], Path(sys.argv[2])
    store = directory / "private.json"
    if command == "keys":
        rsa = RSAKey.generate_key(2048, parameters={"kid": "py-rsa", "alg": "RS256", "use": "sig"})
        ec = ECKey.generate_key("P-256", parameters={"kid": "py-ec", "alg": "ES256", "use": "sig"})
        store.write_text(json.dumps({"keys": [rsa.as_dict(private=True), ec.as_dict(private=True)]}))
        print(json.dumps({"keys": [rsa.as_dict(private=False), ec.as_dict(private=False)]}))
        return 0
    if command == "sign":
        algorithm, claims = sys.argv[3], json.loads(sys.argv[4])
        keys = KeySet.import_key_set(json.loads(store.read_text()))
        kid = "py-rsa" if algorithm == "RS256" else "py-ec"
        key = keys.get_by_kid(kid)
        print(jwt.encode({"alg": algorithm, "kid": kid}, claims, key))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
