"""The JWTs of Temporary-Encryption-Keys.md and Standard-RESTful-API.md (keystore/create): the
request is HS256-signed by the client, the response ES256-signed by the server. Compact JWS,
written here on `cryptography` so that nothing else decides how they are checked."""
import base64
import hashlib
import hmac
import json

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature, encode_dss_signature,
)
from cryptography.exceptions import InvalidSignature

from .primitives import PowerAuthError


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except Exception as error:
        raise PowerAuthError("JWT part is not base64url") from error


def encode_hs256(claims: dict, key: bytes) -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    signing_input = f"{header}.{payload}".encode("ascii")
    return f"{header}.{payload}.{b64url(hmac.new(key, signing_input, hashlib.sha256).digest())}"


def decode_es256(token: str, public_key: ec.EllipticCurvePublicKey) -> tuple:
    """Checks an ES256 compact JWS (alg ES256, 64-byte R|S signature) and returns (header, claims)."""
    parts = token.split(".")
    if len(parts) != 3:
        raise PowerAuthError("response JWT is not a compact JWS")
    try:
        header = json.loads(unb64url(parts[0]))
        claims = json.loads(unb64url(parts[1]))
    except ValueError as error:
        raise PowerAuthError("response JWT header or claims are not JSON") from error
    if header.get("alg") != "ES256":
        raise PowerAuthError(f"response JWT alg {header.get('alg')!r}, ES256 expected")
    signature = unb64url(parts[2])
    if len(signature) != 64:
        raise PowerAuthError(f"ES256 signature of {len(signature)} bytes, 64 expected")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, f"{parts[0]}.{parts[1]}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature as error:
        raise PowerAuthError("response JWT signature does not verify with the expected key") from error
    return header, claims


def encode_es256(claims: dict, private_key: ec.EllipticCurvePrivateKey) -> str:
    """The server's side (self-test only)."""
    header = b64url(json.dumps({"alg": "ES256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps(claims).encode())
    der = private_key.sign(f"{header}.{payload}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    return f"{header}.{payload}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def decode_hs256(token: str, key: bytes) -> dict:
    """The server's side (self-test only)."""
    parts = token.split(".")
    expected = hmac.new(key, f"{parts[0]}.{parts[1]}".encode("ascii"), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, unb64url(parts[2])):
        raise PowerAuthError("HS256 signature mismatch")
    return json.loads(unb64url(parts[1]))
