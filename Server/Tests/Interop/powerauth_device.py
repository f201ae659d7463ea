#!/usr/bin/env python3
"""An independent PowerAuth 3.3 device (Python `cryptography` only, written from the published
documents): fetches an application-scope temporary key, activates with an activation code, reads
and decrypts its status, and signs a request to /pa/v3/signature/validate with possession and
knowledge.

Reads {"applicationKey", "applicationSecret", "masterServerPublicKey", "activationCode"} on stdin
and prints one line per step. Exits non-zero on any failure.
"""
import argparse
import base64
import hashlib
import hmac
import json
import secrets
import struct
import sys
import time
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import hashes, padding, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF

VERSION = b"3.3"


def fail(message):
    print(f"powerauth_device: {message}", file=sys.stderr)
    sys.exit(1)


def b64(data):
    return base64.b64encode(data).decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def fold(data):
    return bytes(a ^ b for a, b in zip(data[:16], data[16:32]))


def kdf(key, index):
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(index.to_bytes(16, "big")) + encryptor.finalize()


def kdf_internal(key, data):
    return fold(hmac.new(key, data, hashlib.sha256).digest())


def with_sizes(*parts):
    return b"".join(struct.pack(">I", len(part)) + part for part in parts)


def aes_cbc(key, iv, data, encrypt, pad=True):
    cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
    if encrypt:
        if pad:
            padder = padding.PKCS7(128).padder()
            data = padder.update(data) + padder.finalize()
        encryptor = cipher.encryptor()
        return encryptor.update(data) + encryptor.finalize()
    decryptor = cipher.decryptor()
    plain = decryptor.update(data) + decryptor.finalize()
    if not pad:
        return plain
    unpadder = padding.PKCS7(128).unpadder()
    return unpadder.update(plain) + unpadder.finalize()


def post(base, path, body, headers=None):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


class Ecies:
    """One request-response cycle, application scope."""

    def __init__(self, public_key, sh1, app_key, app_secret, temp_key_id):
        ephemeral = ec.generate_private_key(ec.SECP256R1())
        self.ephemeral_public = ephemeral.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
        shared = ephemeral.exchange(ec.ECDH(), public_key)
        secret = X963KDF(algorithm=hashes.SHA256(), length=48, sharedinfo=VERSION + sh1 + self.ephemeral_public).derive(shared)
        self.enc, self.mac_key, self.iv_key = secret[:16], secret[16:32], secret[32:]
        self.si2_base = hashlib.sha256(app_secret.encode()).digest()
        self.associated = with_sizes(VERSION, app_key.encode(), temp_key_id.encode())
        self.temp_key_id = temp_key_id

    def mac(self, encrypted, nonce, timestamp, ephemeral):
        si2 = with_sizes(self.si2_base, nonce, timestamp.to_bytes(8, "big"), ephemeral, self.associated)
        return hmac.new(self.mac_key, encrypted + si2, hashlib.sha256).digest()

    def seal(self, plaintext):
        nonce, timestamp = secrets.token_bytes(16), int(time.time() * 1000)
        encrypted = aes_cbc(self.enc, kdf_internal(self.iv_key, nonce), plaintext, True)
        return {
            "temporaryKeyId": self.temp_key_id, "ephemeralPublicKey": b64(self.ephemeral_public),
            "encryptedData": b64(encrypted), "mac": b64(self.mac(encrypted, nonce, timestamp, self.ephemeral_public)),
            "nonce": b64(nonce), "timestamp": timestamp,
        }

    def open(self, payload):
        encrypted, nonce = base64.b64decode(payload["encryptedData"]), base64.b64decode(payload["nonce"])
        expected = self.mac(encrypted, nonce, payload["timestamp"], b"")
        if not hmac.compare_digest(expected, base64.b64decode(payload["mac"])):
            fail("a response's MAC does not match")
        return aes_cbc(self.enc, kdf_internal(self.iv_key, nonce), encrypted, False)


def temporary_key(base, settings, master):
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').rstrip(b"=")
    challenge = b64(secrets.token_bytes(16))
    claims = base64.urlsafe_b64encode(json.dumps(
        {"applicationKey": settings["applicationKey"], "challenge": challenge}).encode()).rstrip(b"=")
    signing_input = header + b"." + claims
    mac = hmac.new(base64.b64decode(settings["applicationSecret"]), signing_input, hashlib.sha256).digest()
    jwt = (signing_input + b"." + base64.urlsafe_b64encode(mac).rstrip(b"=")).decode()
    status, answer = post(base, "/pa/v3/keystore/create", {"requestObject": {"jwt": jwt}})
    if status != 200:
        fail(f"keystore/create answered {status} {answer}")
    head, payload, signature = answer["responseObject"]["jwt"].split(".")
    raw = b64url_decode(signature)
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    master.verify(der, f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(b64url_decode(payload))
    if claims["challenge"] != challenge:
        fail("the temporary key answers another challenge")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), base64.b64decode(claims["publicKey"]))
    print(f"temporary key {claims['sub']}")
    return claims["sub"], key


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    args = parser.parse_args()
    base, settings = args.base_url, json.load(sys.stdin)
    app_key, app_secret = settings["applicationKey"], settings["applicationSecret"]
    master = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), base64.b64decode(settings["masterServerPublicKey"]))

    key_id, temp_key = temporary_key(base, settings, master)
    device = ec.generate_private_key(ec.SECP256R1())
    device_public = device.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    level2 = Ecies(temp_key, b"/pa/activation", app_key, app_secret, key_id)
    inner = level2.seal(json.dumps({
        "devicePublicKey": b64(device_public), "activationName": "Python", "platform": "unknown",
        "deviceInfo": "python", "extras": "",
    }).encode())
    level1 = Ecies(temp_key, b"/pa/generic/application", app_key, app_secret, key_id)
    outer = level1.seal(json.dumps({
        "activationType": "CODE", "identityAttributes": {"code": settings["activationCode"]}, "activationData": inner,
    }).encode())
    status, answer = post(base, "/pa/v3/activation/create", outer, {
        "X-PowerAuth-Encryption": f'PowerAuth version="3.3", application_key="{app_key}"'})
    if status != 200:
        fail(f"activation/create answered {status} {answer}")
    layer1 = json.loads(level1.open(answer))
    layer2 = json.loads(level2.open(layer1["activationData"]))
    activation_id = layer2["activationId"]
    server_public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), base64.b64decode(layer2["serverPublicKey"]))
    ctr_data = base64.b64decode(layer2["ctrData"])
    master_secret = fold(device.exchange(ec.ECDH(), server_public))
    possession, knowledge, transport = kdf(master_secret, 1), kdf(master_secret, 2), kdf(master_secret, 1000)
    print(f"activated {activation_id} recovery={'activationRecovery' in layer2}")

    def status_blob():
        challenge = secrets.token_bytes(16)
        code, answer = post(base, "/pa/v3/activation/status", {"requestObject": {
            "activationId": activation_id, "challenge": b64(challenge)}})
        if code != 200:
            fail(f"activation/status answered {code} {answer}")
        obj = answer["responseObject"]
        iv = kdf_internal(kdf(transport, 3000), challenge + base64.b64decode(obj["nonce"]))
        blob = aes_cbc(transport, iv, base64.b64decode(obj["encryptedStatusBlob"]), False, pad=False)
        if blob[:4] != bytes([0xDE, 0xC0, 0xDE, 0xD1]):
            fail("the status blob does not start with 0xDEC0DED1")
        return blob

    blob = status_blob()
    in_step = blob[16:] == kdf_internal(kdf(transport, 4000), ctr_data)
    print(f"status state={blob[4]} failed={blob[13]} max={blob[14]} lookAhead={blob[15]} inStep={in_step}")

    body = b'{"from":"python"}'
    nonce = secrets.token_bytes(16)
    data = "&".join(["POST", b64(b"/pa/signature/validate"), b64(nonce), b64(body), app_secret]).encode()
    components = []
    keys = [possession, knowledge]
    for index in range(len(keys)):
        derived = hmac.new(keys[index], ctr_data, hashlib.sha256).digest()
        for inner_index in range(index):
            current = hmac.new(keys[inner_index + 1], ctr_data, hashlib.sha256).digest()
            derived = hmac.new(current, derived, hashlib.sha256).digest()
        components.append(hmac.new(derived, data, hashlib.sha256).digest()[16:])
    signature = b64(b"".join(components))
    header = (f'PowerAuth pa_activation_id="{activation_id}", pa_application_key="{app_key}", pa_nonce="{b64(nonce)}", '
              f'pa_signature_type="possession_knowledge", pa_signature="{signature}", pa_version="3.3"')
    request = urllib.request.Request(base + "/pa/v3/signature/validate", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "X-PowerAuth-Authorization": header})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            code, answer = response.status, json.load(response)
    except urllib.error.HTTPError as error:
        code, answer = error.code, json.load(error)
    if code != 200 or answer.get("status") != "OK":
        fail(f"signature/validate answered {code} {answer}")
    ctr_data = fold(hashlib.sha256(ctr_data).digest())
    blob = status_blob()
    in_step = blob[16:] == kdf_internal(kdf(transport, 4000), ctr_data)
    print(f"signature verified; counter byte={blob[12]} inStep={in_step}")


if __name__ == "__main__":
    main()
