"""A minimal PowerAuth 3.3 server side, written from the same published documents, so that the
self-test can drive every command of powerauth_client.py end to end over real HTTP before a
real server exists. It is not Keyway and checks nothing about Keyway: it only proves the
client's requests are what the documents describe (the shared-info constants, scopes and
signature parameters are spelled out here again, not taken from the client's modules).

Accounts: the access token "valid-token" is accepted for CUSTOM activations; activation codes
are made with `create_code`; offline QR data with `offline_qr`.
"""
import json
import re
import secrets
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import ecies, jwt, protocol
from .primitives import (
    PowerAuthError, aes_cbc_encrypt, b64, ecdsa_sign, generate_key_pair, hmac_sha256, kdf,
    kdf_internal, public_key_bytes, public_key_from_bytes, random_bytes, sha256, unb64,
)

LOOK_AHEAD = 20


class Activation:
    def __init__(self, code=None, otp=None, user="user-1"):
        self.id = str(uuid.uuid4())
        self.code = code
        self.otp = otp
        self.user = user
        self.status = 1  # CREATED
        self.server_key = generate_key_pair()
        self.device_public = None
        self.ctr_data = random_bytes(16)
        self.ctr = 0
        self.failed = 0
        self.max_failed = 5
        self.recovery = None

    def master(self):
        return protocol.master_secret(self.server_key, public_key_from_bytes(self.device_public))

    def transport(self):
        return kdf(self.master(), 1000)


class ReferenceServer:
    def __init__(self):
        self.application_key = b64(random_bytes(16))
        self.application_secret = b64(random_bytes(16))
        self.master_key = generate_key_pair()
        self.temporary = {}
        self.activations = {}
        self.recovery_codes = {}
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def config(self):
        return {"configId": "reference", "applicationKey": self.application_key,
                "applicationSecret": self.application_secret,
                "masterServerPublicKey": b64(public_key_bytes(self.master_key.public_key())),
                "maxFailedAttempts": 5, "recoveryEnabled": True}

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    # --- Admin side --------------------------------------------------------------------------

    def create_code(self, otp=None):
        code = protocol.build_activation_code(random_bytes(10))
        activation = Activation(code=code, otp=otp)
        self.activations[activation.id] = activation
        signature = b64(ecdsa_sign(code.encode("utf-8"), self.master_key))
        return activation, code, signature

    def offline_qr(self, activation_id, data, flag="1"):
        nonce = b64(random_bytes(16))
        signed = f"{data}\n{nonce}\n{flag}"
        key = self.activations[activation_id].server_key if flag == "1" else self.master_key
        return signed + b64(ecdsa_sign(signed.encode("utf-8"), key)), nonce

    def verify_offline(self, activation_id, data, nonce, signature, factors="possession_knowledge"):
        normalized = "&".join(["POST", b64(b"/operation/authorize/offline"), nonce,
                               b64(data.encode("utf-8")), "offline"]).encode("utf-8")
        return self._verify(self.activations[activation_id], normalized, factors,
                            lambda d, k, c: protocol.decimal_signature(d, k, c, 8), signature)

    # --- Signatures --------------------------------------------------------------------------

    def _verify(self, activation, data, factors, compute, provided):
        if activation.status != 3:
            return False
        master = activation.master()
        keys = [kdf(master, {"possession": 1, "knowledge": 2, "biometry": 3}[f])
                for f in factors.split("_")]
        ctr_data = activation.ctr_data
        for step in range(LOOK_AHEAD):
            if secrets.compare_digest(compute(data, keys, ctr_data), provided):
                activation.ctr_data = protocol.next_ctr_data(ctr_data)
                activation.ctr += step + 1
                if factors != "possession":
                    activation.failed = 0
                return True
            ctr_data = protocol.next_ctr_data(ctr_data)
        activation.failed += 1
        if activation.failed >= activation.max_failed:
            activation.status = 4
        return False

    def verify_get(self, header, method, uri_id, raw_query):
        """A GET or DELETE, as the RESTful integration's filter reads it: the signed body is the
        query in PowerAuthRequestCanonizationUtils.canonizeGetParameters' form."""
        return self.verify_header(header, method, uri_id, canonize_get_parameters(raw_query))

    def verify_header(self, header, method, uri_id, body):
        fields = dict(re.findall(r'(\w+)="([^"]*)"', header or ""))
        activation = self.activations.get(fields.get("pa_activation_id"))
        if activation is None or fields.get("pa_version") != "3.3" \
                or fields.get("pa_application_key") != self.application_key:
            return None
        data = "&".join([method, b64(uri_id.encode()), fields["pa_nonce"], b64(body),
                         self.application_secret]).encode("utf-8")
        ok = self._verify(activation, data, fields["pa_signature_type"], protocol.online_signature,
                          fields["pa_signature"])
        return activation if ok else None

    # --- HTTP --------------------------------------------------------------------------------

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                route = {
                    "/pa/v3/keystore/create": server.keystore,
                    "/pa/v3/activation/create": server.activation_create,
                    "/pa/v3/activation/status": server.activation_status,
                    "/pa/v3/activation/remove": server.activation_remove,
                    "/pa/v3/signature/validate": server.signature_validate,
                    "/pa/v3/vault/unlock": server.vault_unlock,
                }.get(self.path)
                try:
                    with server.lock:
                        status, answer = route(self.headers, body) if route else (404, error("NOT_FOUND"))
                except (PowerAuthError, KeyError, ValueError) as failure:
                    status, answer = 400, error("ERROR_REQUEST", str(failure))
                raw = json.dumps(answer).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler

    def keystore(self, headers, body):
        token = json.loads(body)["requestObject"]["jwt"]
        claims = json.loads(jwt.unb64url(token.split(".")[1]))
        secret = unb64(self.application_secret)
        activation = self.activations.get(claims.get("activationId")) if "activationId" in claims else None
        if "activationId" in claims and activation is None:
            return 400, error("ACTIVATION_NOT_FOUND")
        key = kdf_internal(activation.transport(), secret) if activation else secret
        claims = jwt.decode_hs256(token, key)
        if claims.get("applicationKey") != self.application_key:
            return 400, error("INVALID_APPLICATION")
        pair = generate_key_pair()
        key_id = str(uuid.uuid4())
        self.temporary[key_id] = (pair, activation.id if activation else None)
        now = time.time()
        answer = {"sub": key_id, "applicationKey": claims["applicationKey"], "challenge": claims["challenge"],
                  "publicKey": b64(public_key_bytes(pair.public_key())), "iat": int(now),
                  "iat_ms": int(now * 1000), "exp": int(now + 300), "exp_ms": int((now + 300) * 1000)}
        if activation:
            answer["activationId"] = activation.id
        signer = activation.server_key if activation else self.master_key
        return 200, {"status": "OK", "responseObject": {"jwt": jwt.encode_es256(answer, signer)}}

    def _open(self, payload, sh1, activation=None):
        pair, scope = self.temporary[payload["temporaryKeyId"]]
        if scope != (activation.id if activation else None):
            raise PowerAuthError("temporary key of another scope")
        if activation:
            base = hmac_sha256(activation.transport(), self.application_secret.encode("ascii"))
            ad = protocol_ad("3.3", self.application_key, activation.id, payload["temporaryKeyId"])
        else:
            base = sha256(self.application_secret.encode("ascii"))
            ad = protocol_ad("3.3", self.application_key, None, payload["temporaryKeyId"])
        env = ecies.EciesEnvelope.for_private_key(pair, unb64(payload["ephemeralPublicKey"]), "3.3", sh1, base, ad)
        if abs(int(payload["timestamp"]) - time.time() * 1000) > 60_000:
            raise PowerAuthError("ECIES timestamp out of range")
        return env, json.loads(env.server_decrypt_request(payload))

    def activation_create(self, headers, body):
        expected = f'PowerAuth version="3.3", application_key="{self.application_key}"'
        if headers.get("X-PowerAuth-Encryption") != expected:
            return 400, error("INVALID_ENCRYPTION_HEADER")
        env1, outer = self._open(json.loads(body), "/pa/generic/application")
        env2, inner = self._open(outer["activationData"], "/pa/activation")
        # The RESTful integration's ActivationLayer1Request reads `type` only.
        kind, identity = outer["type"], outer["identityAttributes"]
        if kind == "CODE":
            activation = next((a for a in self.activations.values()
                               if a.code == identity.get("code") and a.status == 1), None)
            if activation is None or activation.otp != inner.get("activationOtp"):
                return 400, error("ACTIVATION_EXPIRED")
        elif kind == "CUSTOM":
            if identity != {"accessToken": "valid-token"}:
                return 400, error("ACTIVATION_EXPIRED")
            activation = Activation()
            self.activations[activation.id] = activation
        elif kind == "RECOVERY":
            record = self.recovery_codes.get(identity.get("recoveryCode"))
            if record is None or record["puk"] != identity.get("puk"):
                return 400, error("INVALID_RECOVERY_CODE")
            del self.recovery_codes[identity["recoveryCode"]]
            old = self.activations.get(record["activationId"])
            if old:
                old.status = 5
            activation = Activation(user=record["user"])
            self.activations[activation.id] = activation
        else:
            return 400, error("INVALID_ACTIVATION_TYPE")
        activation.device_public = unb64(inner["devicePublicKey"])
        public_key_from_bytes(activation.device_public)
        activation.status = 3
        recovery = {"recoveryCode": protocol.build_activation_code(random_bytes(10)),
                    "puk": f"{secrets.randbelow(10 ** 10):010d}"}
        self.recovery_codes[recovery["recoveryCode"]] = dict(recovery, activationId=activation.id,
                                                             user=activation.user)
        level2 = {"activationId": activation.id, "ctrData": b64(activation.ctr_data),
                  "serverPublicKey": b64(public_key_bytes(activation.server_key.public_key())),
                  "activationRecovery": recovery}
        now = int(time.time() * 1000)
        sealed2 = env2.server_encrypt_response(json.dumps(level2).encode(), random_bytes(16), now)
        level1 = {"customAttributes": {}, "activationData": sealed2}
        return 200, env1.server_encrypt_response(json.dumps(level1).encode(), random_bytes(16), now)

    def activation_status(self, headers, body):
        request = json.loads(body)["requestObject"]
        activation = self.activations[request["activationId"]]
        transport = activation.transport()
        blob = bytes([0xDE, 0xC0, 0xDE, 0xD1, activation.status, 3, 3]) + bytes(5) + bytes(
            [activation.ctr & 0xFF, activation.failed, activation.max_failed, LOOK_AHEAD]) + \
            kdf_internal(kdf(transport, 4000), activation.ctr_data)
        nonce = random_bytes(16)
        iv = kdf_internal(kdf(transport, 3000), unb64(request["challenge"]) + nonce)
        return 200, {"status": "OK", "responseObject": {
            "activationId": activation.id, "encryptedStatusBlob": b64(aes_cbc_encrypt(blob, iv, transport, pad=False)),
            "nonce": b64(nonce), "customObject": {}}}

    def signature_validate(self, headers, body):
        if self.verify_header(headers.get("X-PowerAuth-Authorization"), "POST", "/pa/signature/validate", body):
            return 200, {"status": "OK"}
        return 401, error("POWERAUTH_AUTH_FAIL", "Signature validation failed")

    def activation_remove(self, headers, body):
        activation = self.verify_header(headers.get("X-PowerAuth-Authorization"), "POST",
                                        "/pa/activation/remove", body)
        if activation is None:
            return 401, error("POWERAUTH_AUTH_FAIL", "Signature validation failed")
        activation.status = 5
        return 200, {"status": "OK"}

    def vault_unlock(self, headers, body):
        activation = self.verify_header(headers.get("X-PowerAuth-Authorization"), "POST", "/pa/vault/unlock", body)
        if activation is None:
            return 401, error("POWERAUTH_AUTH_FAIL", "Signature validation failed")
        env, request = self._open(json.loads(body), "/pa/vault/unlock", activation)
        if request.get("reason") not in ("ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY",
                                         "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE"):
            return 400, error("INVALID_REQUEST")
        vault = kdf(activation.master(), 2000)
        answer = {"activationId": activation.id,
                  "encryptedVaultEncryptionKey": b64(aes_cbc_encrypt(vault, bytes(16), activation.transport()))}
        return 200, env.server_encrypt_response(json.dumps(answer).encode(), random_bytes(16), int(time.time() * 1000))


def canonize_get_parameters(raw_query):
    """PowerAuthRequestCanonizationUtils.canonizeGetParameters: pairs without '=' skipped, each key
    and value decoded by URLDecoder (+ is a space), sorted by key then value (Java's String order:
    UTF-16 code units), encoded again by URLEncoder (letters, digits and .-*_ kept, a space +,
    every other UTF-8 byte %XX) and joined by '&'."""
    def encode(text):
        safe = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_"
        return "".join(chr(b) if b in safe else "+" if b == 0x20 else "%%%02X" % b for b in text.encode("utf-8"))
    pairs = []
    for part in (raw_query or "").split("&"):
        if "=" in part:
            key, value = part.split("=", 1)
            pairs.append((urllib.parse.unquote_plus(key, errors="strict"), urllib.parse.unquote_plus(value, errors="strict")))
    pairs.sort(key=lambda pair: (pair[0].encode("utf-16-be"), pair[1].encode("utf-16-be")))
    return "&".join(f"{encode(k)}={encode(v)}" for k, v in pairs).encode("utf-8")


def protocol_ad(version, application_key, activation_id, temporary_key_id):
    from .primitives import concat_with_sizes
    parts = [version, application_key] + ([activation_id] if activation_id else []) + [temporary_key_id]
    return concat_with_sizes(*parts)


def error(code, message="error"):
    return {"status": "ERROR", "responseObject": {"code": code, "message": message}}
