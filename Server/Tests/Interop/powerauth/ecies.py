"""ECIES of End-To-End-Encryption.md with the parameters of protocol 3.2 and 3.3.

An `EciesEnvelope` is one request/response cycle: `KEY_SECRET` (48 bytes: KEY_ENC, KEY_MAC,
KEY_IV) comes from ECDH with the ephemeral key and X9.63; requests and responses both use it.

  SHARED_INFO_2_BASE = SHA256(APP_SECRET text)              (application scope)
                     = HMAC-SHA256(KEY_TRANSPORT, APP_SECRET text)  (activation scope)
  ASSOCIATED_DATA    = concatWithSizes(VERSION, APP_KEY[, ACTIVATION_ID][, TEMP_KEY_ID (3.3)])
  SHARED_INFO_2      = concatWithSizes(SI2_BASE, NONCE, TIMESTAMP, KEY_EPH_PUB | null, AD)
  INFO               = VERSION | SHARED_INFO_1 | KEY_EPH_PUB
  IV                 = KDF_INTERNAL(KEY_IV, NONCE); DATA = AES/CBC/PKCS7(KEY_ENC, IV)
  MAC                = HMAC-SHA256(KEY_MAC, DATA | SHARED_INFO_2)
"""
import hmac as _hmac
import time

from .primitives import (
    PowerAuthError, aes_cbc_decrypt, aes_cbc_encrypt, b64, concat_with_sizes, ecdh, encode_long,
    generate_key_pair, hmac_sha256, kdf_internal, public_key_bytes, random_bytes, sha256, unb64,
    x963_kdf_sha256,
)

SH1_ACTIVATION_LEVEL1 = "/pa/generic/application"
SH1_ACTIVATION_LEVEL2 = "/pa/activation"
SH1_VAULT_UNLOCK = "/pa/vault/unlock"
SH1_GENERIC_APPLICATION = "/pa/generic/application"
SH1_GENERIC_ACTIVATION = "/pa/generic/activation"
SH1_TOKEN_CREATE = "/pa/token/create"


def shared_info2_base_application(application_secret: str) -> bytes:
    """The APPLICATION_SECRET enters as its Base64 text (ASCII bytes), as the document warns."""
    return sha256(application_secret.encode("ascii"))


def shared_info2_base_activation(application_secret: str, transport_key: bytes) -> bytes:
    return hmac_sha256(transport_key, application_secret.encode("ascii"))


def associated_data(version: str, application_key: str, activation_id: str | None = None,
                    temporary_key_id: str | None = None) -> bytes:
    """ASSOCIATED_DATA: the strings present in the scope, each with its 4-byte length.
    3.2 has no temporary key; an application-scope envelope has no activation ID."""
    parts = [version, application_key]
    if activation_id is not None:
        parts.append(activation_id)
    if temporary_key_id is not None:
        parts.append(temporary_key_id)
    return concat_with_sizes(*parts)


def now_ms(offset_seconds: float = 0.0) -> int:
    return int((time.time() + offset_seconds) * 1000)


class EciesEnvelope:
    """One ECIES request/response context (the client side; the `server_*` methods exist so the
    self-test can check both directions against the published envelopes)."""

    def __init__(self, envelope_key: bytes, shared_info2_base: bytes, ad: bytes,
                 ephemeral_public: bytes):
        if len(envelope_key) != 48:
            raise PowerAuthError("KEY_SECRET must be 48 bytes")
        self.key_enc = envelope_key[:16]
        self.key_mac = envelope_key[16:32]
        self.key_iv = envelope_key[32:48]
        self.shared_info2_base = shared_info2_base
        self.associated_data = ad
        self.ephemeral_public = ephemeral_public

    @classmethod
    def for_public_key(cls, public_key, version: str, shared_info1: str, shared_info2_base: bytes,
                       ad: bytes, compressed: bool = True):
        """A fresh ephemeral key pair against KEY_ENC_PUB: KEY_BASE = ECDH (all 32 bytes),
        KEY_SECRET = X9.63-SHA256(KEY_BASE, VERSION | SH1 | KEY_EPH_PUB, 48)."""
        ephemeral = generate_key_pair()
        eph_public = public_key_bytes(ephemeral.public_key(), compressed=compressed)
        key_base = ecdh(ephemeral, public_key)
        info = version.encode("utf-8") + shared_info1.encode("utf-8") + eph_public
        return cls(x963_kdf_sha256(key_base, info, 48), shared_info2_base, ad, eph_public)

    @classmethod
    def for_private_key(cls, private_key, ephemeral_public: bytes, version: str, shared_info1: str,
                        shared_info2_base: bytes, ad: bytes):
        """The receiving side: KEY_BASE = ECDH(KEY_ENC_PRIV, KEY_EPH_PUB) (self-test only)."""
        from .primitives import public_key_from_bytes
        key_base = ecdh(private_key, public_key_from_bytes(ephemeral_public))
        info = version.encode("utf-8") + shared_info1.encode("utf-8") + ephemeral_public
        return cls(x963_kdf_sha256(key_base, info, 48), shared_info2_base, ad, ephemeral_public)

    def _shared_info2(self, nonce: bytes, timestamp: int, with_ephemeral: bool) -> bytes:
        return concat_with_sizes(self.shared_info2_base, nonce, encode_long(timestamp),
                                 self.ephemeral_public if with_ephemeral else None,
                                 self.associated_data)

    def _seal(self, plaintext: bytes, nonce: bytes, timestamp: int, request: bool) -> tuple:
        iv = kdf_internal(self.key_iv, nonce)
        encrypted = aes_cbc_encrypt(plaintext, iv, self.key_enc)
        mac = hmac_sha256(self.key_mac, encrypted + self._shared_info2(nonce, timestamp, request))
        return encrypted, mac

    def _open(self, encrypted: bytes, mac: bytes, nonce: bytes, timestamp: int, request: bool) -> bytes:
        expected = hmac_sha256(self.key_mac, encrypted + self._shared_info2(nonce, timestamp, request))
        if not _hmac.compare_digest(expected, mac):
            raise PowerAuthError("ECIES MAC mismatch")
        return aes_cbc_decrypt(encrypted, kdf_internal(self.key_iv, nonce), self.key_enc)

    def encrypt_request(self, plaintext: bytes, nonce: bytes | None = None,
                        timestamp: int | None = None) -> dict:
        """The request payload: ephemeralPublicKey, encryptedData, mac, nonce, timestamp."""
        nonce = nonce if nonce is not None else random_bytes(16)
        timestamp = timestamp if timestamp is not None else now_ms()
        encrypted, mac = self._seal(plaintext, nonce, timestamp, request=True)
        return {"ephemeralPublicKey": b64(self.ephemeral_public), "encryptedData": b64(encrypted),
                "mac": b64(mac), "nonce": b64(nonce), "timestamp": timestamp}

    def decrypt_response(self, payload: dict) -> bytes:
        """A response payload (encryptedData, mac, nonce, timestamp; no ephemeral key: the
        SHARED_INFO_2 carries a null in its place)."""
        for field in ("encryptedData", "mac", "nonce", "timestamp"):
            if field not in payload:
                raise PowerAuthError(f"ECIES response without {field}")
        timestamp = payload["timestamp"]
        if isinstance(timestamp, str) and timestamp.isdigit():
            timestamp = int(timestamp)
        if not isinstance(timestamp, int):
            raise PowerAuthError("ECIES response timestamp is not an integer")
        return self._open(unb64(payload["encryptedData"]), unb64(payload["mac"]),
                          unb64(payload["nonce"]), timestamp, request=False)

    # The other side, for the self-test.
    def server_decrypt_request(self, payload: dict) -> bytes:
        return self._open(unb64(payload["encryptedData"]), unb64(payload["mac"]),
                          unb64(payload["nonce"]), int(payload["timestamp"]), request=True)

    def server_encrypt_response(self, plaintext: bytes, nonce: bytes, timestamp: int) -> dict:
        encrypted, mac = self._seal(plaintext, nonce, timestamp, request=False)
        return {"encryptedData": b64(encrypted), "mac": b64(mac), "nonce": b64(nonce),
                "timestamp": timestamp}
