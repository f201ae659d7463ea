"""The basic functions of PowerAuth (Basic-definitions.md, Implementation-notes.md,
List-of-Used-Algorithms.md), on the `cryptography` package.

Where the prose of the documents and the published test vectors disagree, the vectors decide;
each such place says so below.
"""
import base64
import hashlib
import hmac
import os
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

CURVE = ec.SECP256R1()


class PowerAuthError(Exception):
    """A refusal of this client: a check of the protocol failed, or the server answered wrongly."""


# --- Encodings -----------------------------------------------------------------------------------

def b64(data: bytes) -> str:
    """Standard Base64 with padding (the protocol's only Base64)."""
    return base64.b64encode(data).decode("ascii")


def unb64(text: str) -> bytes:
    """Decodes standard Base64, refusing anything else."""
    try:
        return base64.b64decode(text, validate=True)
    except Exception as error:  # binascii.Error, TypeError
        raise PowerAuthError(f"not standard Base64: {text!r}") from error


def random_bytes(n: int) -> bytes:
    return os.urandom(n)


def encode_int(n: int) -> bytes:
    """ByteUtils.encode(int): 4 bytes big endian."""
    return struct.pack(">i", n)


def encode_long(n: int) -> bytes:
    """ByteUtils.encode(long): 8 bytes big endian."""
    return struct.pack(">q", n)


def concat_with_sizes(*components) -> bytes:
    """ByteUtils.concatWithSizes: each component (bytes or str, UTF-8) preceded by its 4-byte
    big-endian length; a None component is written as a zero length alone."""
    out = b""
    for component in components:
        if component is None:
            out += encode_int(0)
            continue
        if isinstance(component, str):
            component = component.encode("utf-8")
        out += encode_int(len(component)) + component
    return out


def convert_32b_to_16b(data: bytes) -> bytes:
    """ByteUtils.convert32Bto16B: XOR of the two 16-byte halves."""
    if len(data) != 32:
        raise PowerAuthError("convert32Bto16B needs 32 bytes")
    return bytes(a ^ b for a, b in zip(data[:16], data[16:]))


# --- Symmetric -----------------------------------------------------------------------------------

def aes_cbc_encrypt(data: bytes, iv: bytes, key: bytes, pad: bool = True) -> bytes:
    """AES.encrypt: AES-128/CBC with PKCS#7 padding, or NoPadding when `pad` is false."""
    if pad:
        padder = padding.PKCS7(128).padder()
        data = padder.update(data) + padder.finalize()
    elif len(data) % 16:
        raise PowerAuthError("AES/CBC/NoPadding needs whole blocks")
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def aes_cbc_decrypt(data: bytes, iv: bytes, key: bytes, pad: bool = True) -> bytes:
    """AES.decrypt: the inverse of aes_cbc_encrypt."""
    if len(data) == 0 or len(data) % 16:
        raise PowerAuthError("AES/CBC ciphertext is not whole blocks")
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    plain = decryptor.update(data) + decryptor.finalize()
    if not pad:
        return plain
    unpadder = padding.PKCS7(128).unpadder()
    try:
        return unpadder.update(plain) + unpadder.finalize()
    except ValueError as error:
        raise PowerAuthError("bad PKCS#7 padding") from error


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """Mac.hmacSha256(key, message)."""
    return hmac.new(key, message, hashlib.sha256).digest()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def kdf(master_key: bytes, index: int) -> bytes:
    """KDF.derive(masterKey, index) of Implementation-notes.md: AES-128 of a 16-byte block made
    from the index, with a zero IV (one block, so plain ECB).

    Prose vs vectors: the prose writes `ByteBuffer.allocate(16).putLong(index)`, which puts the
    index in the *first* 8 bytes (and `AES.encrypt` would pad to 32 bytes); the published vectors
    (compute-derived-keys.json, activation-status-blob-*.json) need the index as a big-endian long
    in the *last* 8 bytes of the block, first 8 bytes zero, and a single 16-byte block out."""
    block = bytes(8) + encode_long(index)
    encryptor = Cipher(algorithms.AES(master_key), modes.ECB()).encryptor()
    return encryptor.update(block) + encryptor.finalize()


def kdf_internal(key: bytes, index: bytes) -> bytes:
    """KDF_INTERNAL.derive(key, index) = convert32Bto16B(HMAC-SHA256(key: key, message: index)).

    Prose vs vectors: Basic-definitions.md says the *index* is the HMAC key and the master key
    the data; Implementation-notes.md writes `Mac.hmacSha256(secret, index)`, i.e. the master key
    as the HMAC key. The vectors (activation-status-blob-iv.json, the status blob's counter hash)
    agree with the latter: the key is the HMAC key."""
    return convert_32b_to_16b(hmac_sha256(key, index))


def pbkdf2_sha1(password: str, salt: bytes, iterations: int = 10000, length: int = 16) -> bytes:
    """PBKDF2.expand(password, salt, iterations, 128 bits) with HMAC-SHA1 (Key-derivation.md)."""
    return PBKDF2HMAC(algorithm=hashes.SHA1(), length=length, salt=salt,
                      iterations=iterations).derive(password.encode("utf-8"))


def x963_kdf_sha256(secret: bytes, info: bytes, length: int) -> bytes:
    """KDF_X9_63_SHA256.derive(secret, info, length)."""
    return X963KDF(algorithm=hashes.SHA256(), length=length, sharedinfo=info).derive(secret)


# --- Elliptic curves -----------------------------------------------------------------------------

def generate_key_pair() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(CURVE)


def private_key_from_bytes(data: bytes) -> ec.EllipticCurvePrivateKey:
    """KeyConversion.privateKeyFromBytes: the D value, big endian. The vectors carry it as Java's
    BigInteger bytes, so 33 bytes with a leading zero happen as well as 32."""
    return ec.derive_private_key(int.from_bytes(data, "big"), CURVE)


def private_key_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    """KeyConversion.getBytes(PrivateKey): D as 32 bytes big endian."""
    return key.private_numbers().private_value.to_bytes(32, "big")


def public_key_from_bytes(data: bytes) -> ec.EllipticCurvePublicKey:
    """KeyConversion.publicKeyFromBytes: an X9.62 point, compressed (33 bytes) or not (65)."""
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, data)
    except ValueError as error:
        raise PowerAuthError("not a P-256 point") from error


def public_key_bytes(key: ec.EllipticCurvePublicKey, compressed: bool = False) -> bytes:
    """KeyConversion.getBytes(PublicKey): the X9.62 point."""
    fmt = PublicFormat.CompressedPoint if compressed else PublicFormat.UncompressedPoint
    return key.public_bytes(Encoding.X962, fmt)


def ecdh(private_key: ec.EllipticCurvePrivateKey, public_key: ec.EllipticCurvePublicKey) -> bytes:
    """ECDH.phase: the 32-byte X coordinate of the shared point (not yet reduced)."""
    return private_key.exchange(ec.ECDH(), public_key)


def ecdsa_verify(data: bytes, signature_der: bytes, public_key: ec.EllipticCurvePublicKey) -> bool:
    """ECDSA.verify: SHA256withECDSA, DER signature."""
    try:
        public_key.verify(signature_der, data, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def ecdsa_sign(data: bytes, private_key: ec.EllipticCurvePrivateKey) -> bytes:
    """ECDSA.sign: SHA256withECDSA, DER signature (used by the self-test only)."""
    return private_key.sign(data, ec.ECDSA(hashes.SHA256()))


def minimal_x(public_key: ec.EllipticCurvePublicKey) -> bytes:
    """The X coordinate as minimal big-endian bytes (no leading zero bytes).

    Prose vs vectors: Activation-via-Activation-Code.md writes `K_DEVICE_PUBLIC_BYTES` without
    saying more; public-key-fingerprint-v3.json has an X coordinate of 31 bytes where the 32-byte
    form starts with a zero byte, and the fingerprint matches only with the leading zero removed
    (an unsigned minimal encoding: no sign byte is added when the top bit is set either)."""
    x = public_key.public_numbers().x
    return x.to_bytes((x.bit_length() + 7) // 8 or 1, "big")
