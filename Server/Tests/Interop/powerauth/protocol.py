"""The PowerAuth computations above the primitives: activation codes (Activation-Code.md),
master secret and derived keys (Key-derivation.md, List-of-Used-Keys.md), the fingerprint
(Activation-via-Activation-Code.md), the status blob (Activation-Status.md), the hash-based
counter and the signatures (Computing-and-Validating-Signatures.md), and offline QR data
(powerauth-server Offline-Signatures.md, powerauth-webflow Off-line-Signatures-QR-Code.md).
"""
import base64
import struct

from .primitives import (
    PowerAuthError, aes_cbc_decrypt, aes_cbc_encrypt, b64, convert_32b_to_16b, ecdh, ecdsa_verify,
    hmac_sha256, kdf, kdf_internal, minimal_x, pbkdf2_sha1, private_key_from_bytes, random_bytes,
    sha256, unb64,
)

# --- Activation code -----------------------------------------------------------------------------

BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def crc16_arc(data: bytes) -> int:
    """CRC-16/ARC: polynomial 0x8005 reflected (0xA001), initial value 0, no final XOR."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def build_activation_code(random10: bytes) -> str:
    """Generator.buildActivationCode: 10 bytes + CRC-16/ARC big endian, Base32 without padding,
    four groups of five characters joined by '-'."""
    if len(random10) != 10:
        raise PowerAuthError("an activation code is built from 10 bytes")
    text = base64.b32encode(random10 + struct.pack(">H", crc16_arc(random10))).decode("ascii")
    text = text.rstrip("=")
    return "-".join(text[i:i + 5] for i in range(0, 20, 5))


def validate_activation_code(code: str) -> bool:
    """The code validation of Activation-Code.md (length 23, Base32, 12 bytes, CRC).

    Reading: 20 Base32 characters carry 100 bits for 96; the document does not say what becomes
    of the 4 spare bits of the last character. This client wants them zero (the code must be the
    canonical encoding of its 12 bytes, as every documented test value is), so `...-VTFVB`, which
    decodes to the same bytes as `...-VTFVA`, is refused."""
    if len(code) != 23 or [code[i] for i in (5, 11, 17)] != ["-"] * 3:
        return False
    text = code.replace("-", "")
    if len(text) != 20 or any(c not in BASE32_ALPHABET for c in text):
        return False
    # 20 Base32 characters are 100 bits: the last 4 bits are padding; Base32 wants 8-char groups.
    raw = base64.b32decode(text + "====")
    if len(raw) != 12:
        return False
    if base64.b32encode(raw).decode("ascii").rstrip("=") != text:
        return False
    return crc16_arc(raw[:10]) == struct.unpack(">H", raw[10:])[0]


def verify_activation_signature(code: str, signature: bytes, master_public_key) -> bool:
    """ECDSA.verify(ByteUtils.encode(ACTIVATION_CODE), ACTIVATION_SIGNATURE, KEY_SERVER_MASTER_PUBLIC)."""
    return ecdsa_verify(code.encode("utf-8"), signature, master_public_key)


# --- Keys ----------------------------------------------------------------------------------------

INDEX_POSSESSION = 1
INDEX_KNOWLEDGE = 2
INDEX_BIOMETRY = 3
INDEX_TRANSPORT = 1000
INDEX_VAULT = 2000
INDEX_TRANSPORT_IV = 3000
INDEX_TRANSPORT_CTR = 4000


def master_secret(private_key, public_key) -> bytes:
    """KEY_MASTER_SECRET = convert32Bto16B(ECDH.phase(private, public))."""
    return convert_32b_to_16b(ecdh(private_key, public_key))


def derived_keys(master: bytes) -> dict:
    """The keys of Key-derivation.md derived from KEY_MASTER_SECRET."""
    return {
        "possession": kdf(master, INDEX_POSSESSION),
        "knowledge": kdf(master, INDEX_KNOWLEDGE),
        "biometry": kdf(master, INDEX_BIOMETRY),
        "transport": kdf(master, INDEX_TRANSPORT),
        "vault": kdf(master, INDEX_VAULT),
    }


def wrap_knowledge_key(knowledge_key: bytes, password: str, salt: bytes, iterations: int = 10000) -> bytes:
    """C_KEY_SIGNATURE_KNOWLEDGE = AES/CBC/NoPadding(key, zero IV, PBKDF2(password, salt))."""
    return aes_cbc_encrypt(knowledge_key, bytes(16), pbkdf2_sha1(password, salt, iterations), pad=False)


def unwrap_knowledge_key(wrapped: bytes, password: str, salt: bytes, iterations: int = 10000) -> bytes:
    """The inverse: a wrong password yields a wrong key, never an error (Key-derivation.md)."""
    return aes_cbc_decrypt(wrapped, bytes(16), pbkdf2_sha1(password, salt, iterations), pad=False)


def fingerprint(device_public_key, activation_id: str, server_public_key) -> str:
    """H_K_DEVICE_PUBLIC: (getInt(truncate(SHA256(devX | activationId | serverX), 4)) & 0x7FFFFFFF)
    % 10^8, shown as 8 digits. The X coordinates are minimal big-endian bytes (see minimal_x).

    Reading: the document's `K_DEVICE_PUBLIC_BYTES`/`K_SERVER_PUBLIC_BYTES` are the X coordinates
    only (the vectors carry `devicePublicKeyCoordX`/`serverPublicKeyCoordX`), `truncate` keeps the
    *last* 4 bytes (Basic-definitions.md), and the value is zero-padded to 8 digits (vectors)."""
    data = minimal_x(device_public_key) + activation_id.encode("utf-8") + minimal_x(server_public_key)
    value = (struct.unpack(">I", sha256(data)[-4:])[0] & 0x7FFFFFFF) % 10 ** 8
    return f"{value:08d}"


# --- Hash-based counter --------------------------------------------------------------------------

def next_ctr_data(ctr_data: bytes) -> bytes:
    """CTR_DATA_ITER = convert32Bto16B(SHA256(CTR_DATA_ITER)), as in the validation algorithm."""
    return convert_32b_to_16b(sha256(ctr_data))


def ctr_data_hash(transport_key: bytes, ctr_data: bytes) -> bytes:
    """CTR_DATA_HASH = KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), CTR_DATA)."""
    return kdf_internal(kdf(transport_key, INDEX_TRANSPORT_CTR), ctr_data)


# --- Status blob ---------------------------------------------------------------------------------

STATUS_NAMES = {1: "CREATED", 2: "PENDING_COMMIT", 3: "ACTIVE", 4: "BLOCKED", 5: "REMOVED"}
STATUS_MAGIC = bytes([0xDE, 0xC0, 0xDE, 0xD1])


def status_iv(transport_key: bytes, challenge: bytes, nonce: bytes) -> bytes:
    """STATUS_IV = KDF_INTERNAL(KDF(KEY_TRANSPORT, 3000), STATUS_CHALLENGE | STATUS_NONCE)."""
    return kdf_internal(kdf(transport_key, INDEX_TRANSPORT_IV), challenge + nonce)


def decrypt_status_blob(transport_key: bytes, challenge: bytes, nonce: bytes, encrypted: bytes) -> bytes:
    """AES/CBC/NoPadding decryption of the blob with KEY_TRANSPORT and STATUS_IV."""
    return aes_cbc_decrypt(encrypted, status_iv(transport_key, challenge, nonce), transport_key, pad=False)


def decode_status_blob(blob: bytes) -> dict:
    """Every field of the 32-byte blob of Activation-Status.md."""
    if len(blob) < 32:
        raise PowerAuthError(f"status blob of {len(blob)} bytes, 32 expected")
    if blob[:4] != STATUS_MAGIC:
        raise PowerAuthError(f"status blob magic {blob[:4].hex()}, expected dec0ded1")
    status = blob[4]
    return {
        "magic": blob[:4].hex(),
        "activationStatus": status,
        "activationStatusName": STATUS_NAMES.get(status, f"UNKNOWN({status})"),
        "currentVersion": blob[5],
        "upgradeVersion": blob[6],
        "reserved": blob[7:12].hex(),
        "ctrByte": blob[12],
        "failedAttempts": blob[13],
        "maxFailedAttempts": blob[14],
        "ctrLookAhead": blob[15],
        "ctrDataHash": b64(blob[16:32]),
        "trailing": blob[32:].hex(),
    }


def counter_distance(transport_key: bytes, ctr_data: bytes, blob_hash: bytes, window: int) -> int | None:
    """How many steps the server's counter is ahead of `ctr_data`: the d in [0, window) for which
    CTR_DATA_HASH(next^d(ctr_data)) is the blob's hash, or None."""
    current = ctr_data
    for distance in range(max(window, 1)):
        if ctr_data_hash(transport_key, current) == blob_hash:
            return distance
        current = next_ctr_data(current)
    return None


# --- Signatures ----------------------------------------------------------------------------------

FACTOR_TYPES = {
    "possession": ["possession"],
    "knowledge": ["knowledge"],
    "biometry": ["biometry"],
    "possession_knowledge": ["possession", "knowledge"],
    "possession_biometry": ["possession", "biometry"],
    "possession_knowledge_biometry": ["possession", "knowledge", "biometry"],
}


def normalized_data(method: str, uri_id: str, nonce: bytes, body: bytes, application_secret: str) -> bytes:
    """DATA = METHOD & Base64(uriId) & Base64(nonce) & Base64(body) & APPLICATION_SECRET.

    The application secret enters as its Base64 text; for offline signatures it is `offline`.
    A request without a body (GET, DELETE) would put its sorted query parameters here; this
    client signs the body bytes it sends (none: an empty Base64 string)."""
    parts = [method.upper(), b64(uri_id.encode("utf-8")), b64(nonce), b64(body), application_secret]
    return "&".join(parts).encode("utf-8")


def signature_components(data: bytes, keys: list, ctr_data: bytes) -> list:
    """computeSignatureComponents: component i starts from KEY_DERIVED = HMAC(key[i], CTR_DATA),
    then for j = 0..i-1: KEY_DERIVED = HMAC(HMAC(key[j + 1], CTR_DATA), KEY_DERIVED); the
    component is HMAC(KEY_DERIVED, DATA). With the keys in the order possession, knowledge,
    biometry, the factor keys chain: the knowledge component is keyed by knowledge twice, the
    biometry one by biometry, knowledge, biometry.

    Prose vs vectors: the document's loop reads `signatureKey.get(0)` as the starting key of
    every component; the vectors (signatures-v3.json, signatures-v31.json, signatures-offline.json)
    match only with the component's own key, `get(i)`, as the start."""
    components = []
    for i in range(len(keys)):
        derived = hmac_sha256(keys[i], ctr_data)
        for j in range(i):
            derived = hmac_sha256(hmac_sha256(keys[j + 1], ctr_data), derived)
        components.append(hmac_sha256(derived, data))
    return components


def online_signature(data: bytes, keys: list, ctr_data: bytes) -> str:
    """Version 3.1+ online format: the last 16 bytes of each component, joined, in Base64."""
    return b64(b"".join(c[16:] for c in signature_components(data, keys, ctr_data)))


def decimal_signature(data: bytes, keys: list, ctr_data: bytes, digits: int = 8) -> str:
    """The decimal format (online in 3.0, offline always): each component's last 4 bytes as a
    big-endian int, & 0x7FFFFFFF, mod 10^digits, zero-padded (vectors), joined by '-'."""
    out = []
    for component in signature_components(data, keys, ctr_data):
        value = (struct.unpack(">I", component[-4:])[0] & 0x7FFFFFFF) % 10 ** digits
        out.append(f"{value:0{digits}d}")
    return "-".join(out)


def authorization_header(activation_id: str, application_key: str, nonce: bytes,
                         signature_type: str, signature: str, version: str = "3.3") -> str:
    """The X-PowerAuth-Authorization header value."""
    return (f'PowerAuth pa_activation_id="{activation_id}", pa_application_key="{application_key}", '
            f'pa_nonce="{b64(nonce)}", pa_signature_type="{signature_type}", '
            f'pa_signature="{signature}", pa_version="{version}"')


# --- Offline QR data -----------------------------------------------------------------------------

OFFLINE_URI_ID = "/operation/authorize/offline"
OFFLINE_SECRET = "offline"


def parse_offline_qr(qr: str) -> dict:
    """`{DATA}\\n{NONCE_B64}\\n{KEY_FLAG}{ECDSA_SIGNATURE_B64}`; DATA may hold newlines itself, so
    the last two lines are taken from the end. The ECDSA signature covers every character before
    the signature, the key flag included ('0': master server key, '1': the activation's server key)."""
    last = qr.rfind("\n")
    second = qr.rfind("\n", 0, last) if last > 0 else -1
    if last < 0 or second < 0:
        raise PowerAuthError("offline QR data needs DATA, NONCE and KEY-FLAG+SIGNATURE lines")
    data, nonce_text, signed_line = qr[:second], qr[second + 1:last], qr[last + 1:]
    if len(signed_line) < 2 or signed_line[0] not in "01":
        raise PowerAuthError(f"offline QR key flag {signed_line[:1]!r}, '0' or '1' expected")
    nonce = unb64(nonce_text)
    return {
        "data": data,
        "nonce": nonce,
        "nonceText": nonce_text,
        "keyFlag": signed_line[0],
        "signature": unb64(signed_line[1:]),
        "signedBytes": qr[:last + 2].encode("utf-8"),
    }
