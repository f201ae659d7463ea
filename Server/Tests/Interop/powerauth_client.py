#!/usr/bin/env python3
"""An independent PowerAuth 3.3 client, for checking Keyway's server by the published protocol.

What it is
  A mobile-device stand-in written only from the published PowerAuth protocol documents of
  wultra/powerauth-crypto (docs/: Basic-definitions, Implementation-notes, Key-derivation,
  List-of-Used-Keys, List-of-Used-Algorithms, Activation-Code, Activation-via-Activation-Code,
  Activation-via-Custom-Credentials, Activation-via-Recovery-Code, Activation-Status,
  End-To-End-Encryption, Temporary-Encryption-Keys, Computing-and-Validating-Signatures,
  Standard-RESTful-API), the offline QR format of powerauth-server's Offline-Signatures.md and
  powerauth-webflow's Off-line-Signatures-QR-Code.md, and Keyway's wire contract for what those
  leave open (the configuration JSON, `accessToken` custom credentials, recovery). It shares no
  code with Keyway: its crypto is in ./powerauth/ on the `cryptography` package, and it is
  checked against the published test vectors (test_powerauth_client.py, or --self-test).

What it checks on the server
  - keystore/create: the ES256 response JWT verifies with the master server public key
    (application scope) or the activation's server public key (activation scope), and echoes
    applicationKey, challenge (and activationId); the temporary key is a P-256 point; not expired.
  - activation/create (CODE with the code's CRC and its ECDSA signature by the master key,
    CUSTOM with `accessToken`, RECOVERY with recovery code + PUK): both ECIES layers of 3.3
    decrypt with valid MACs; the server public key and counter data are well formed; a recovery
    code/PUK in the response has the documented format; the fingerprint is computed.
  - activation/status: the blob decrypts with KEY_TRANSPORT and the IV from the challenge and
    nonce, has the 0xDEC0DED1 prefix, and its counter hash matches the client's hash-based
    counter (within the look-ahead window: how far the server is, or how far behind).
  - signatures: the server accepts version 3.3 online signatures over the normalized request
    data, at the counter or ahead of it within the window (--offset), and refuses wrong ones.
  - vault/unlock: the vault key it returns decrypts the device private key stored at activation.
  - offline: the QR data's ECDSA signature (key flag 0 = master key, 1 = activation server key).
  - end-to-end encryption with an app's own backend: a generic 3.3 envelope in application or
    activation scope that the backend opens, and its sealed answer, whose MAC must match.
  - tokens: token/create's encrypted answer holds a UUID v4 token ID and a 16-byte secret; the
    X-PowerAuth-Token digest of MAC-Token-Based-Authentication.md.

Use (state is kept in the JSON file given by --state; every command prints one JSON object as
its last line of standard output, and exits non-zero with {"ok": false, "error": ...} on failure):

  powerauth_client.py activate --base-url URL --config CONFIG.json --state STATE.json
      (--code CODE[#SIGNATURE] [--code-signature SIG] [--otp OTP] | --access-token TOKEN
       | --identity-attributes JSON | --recovery-code CODE --puk PUK)
      --password PASSWORD [--name NAME] [--biometry] [--platform P] [--device-info D]
  powerauth_client.py status --state STATE.json [--resync-counter]
  powerauth_client.py sign --state STATE.json --method POST --uri-id /pa/signature/validate
      [--body-file F] --factors possession_knowledge [--password P] [--offset N] [--no-advance]
  powerauth_client.py call --state STATE.json --method POST --path /pa/v3/signature/validate
      --uri-id /pa/signature/validate --factors possession_knowledge --password P [--body-file F]
      [--offset N] [--expect-status 200]
  powerauth_client.py offline-sign --state STATE.json --qr-data TEXT --factors possession_knowledge
      --password P [--digits 8]
  powerauth_client.py vault-unlock --state STATE.json --password P [--add-biometry]
  powerauth_client.py temporary-key --state STATE.json --scope application|activation
  powerauth_client.py encrypt --url URL --scope application|activation (--config CONFIG.json
      --base-url KEYWAY_URL | --state STATE.json) [--body-file F] [--sign-uri-id ID --factors F
      --password P] [--expect-status 200]
  powerauth_client.py token-create --state STATE.json [--name NAME] --factors F --password P
  powerauth_client.py token-header --state STATE.json [--name NAME] [--version 3.3]
  powerauth_client.py --self-test

Common options: --base-url (defaults to the one in the state), --header 'Name: value' (extra
HTTP headers, repeatable), --server-time UNIX_SECONDS (the server's clock, when it is not this
machine's: ECIES timestamps and JWT expiry use it), --uncompressed (send uncompressed points).
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from powerauth import ecies, jwt, protocol  # noqa: E402
from powerauth.primitives import (  # noqa: E402
    PowerAuthError, aes_cbc_decrypt, aes_cbc_encrypt, b64, generate_key_pair, hmac_sha256, kdf_internal,
    private_key_bytes, private_key_from_bytes, public_key_bytes, public_key_from_bytes,
    random_bytes, unb64,
)

VERSION = "3.3"
# The protocol of the requests this run sends (--protocol): 3.3, or 3.2 as the 1.7 and 1.8 mobile
# SDKs send it (no temporary keys: envelopes are sealed to the master or the activation's key).
PROTOCOL = VERSION
STATUS_PATH = "/pa/v3/activation/status"
HISTORY = 64


class Failure(Exception):
    """A refusal with extra fields for the JSON answer (HTTP status and body, say)."""

    def __init__(self, message, **fields):
        super().__init__(message)
        self.fields = fields


# --- HTTP ----------------------------------------------------------------------------------------

class Http:
    def __init__(self, base_url, extra_headers=(), clock_offset=0.0):
        self.base_url = base_url.rstrip("/")
        self.extra_headers = dict(extra_headers)
        self.clock_offset = clock_offset

    def post(self, path, body: bytes, headers=None):
        return self.send("POST", path, headers, body, {"Content-Type": "application/json"})

    def send(self, method, path, headers=None, body=None, defaults=None):
        """One request; a GET or DELETE goes without a body."""
        all_headers = {"Accept": "application/json"}
        all_headers.update(defaults or {})
        all_headers.update(self.extra_headers)
        all_headers.update(headers or {})
        request = urllib.request.Request(self.base_url + path, data=body, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except urllib.error.URLError as error:
            raise Failure(f"{method} {path}: {error.reason}") from error

    def post_json(self, path, obj, headers=None, expect=200):
        status, raw = self.post(path, json.dumps(obj).encode("utf-8"), headers)
        body = parse_body(raw)
        if expect is not None and status != expect:
            raise Failure(f"POST {path} answered {status}", httpStatus=status, body=body)
        return status, body

    def now_ms(self):
        return int((time.time() + self.clock_offset) * 1000)


def parse_body(raw: bytes):
    try:
        return json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, ValueError):
        return raw.decode("utf-8", "replace")


def response_object(body, path):
    """The `responseObject` of a standard envelope. (Standard-RESTful-API.md shows the
    keystore/create response inside `requestObject`; that reads as a slip of the document, and
    this client takes `responseObject`, accepting `requestObject` only when it is alone.)"""
    if not isinstance(body, dict):
        raise Failure(f"{path}: the answer is not a JSON object", body=body)
    if "responseObject" in body:
        if body.get("status") not in (None, "OK"):
            raise Failure(f"{path}: status {body.get('status')!r}", body=body)
        return body["responseObject"]
    if "requestObject" in body:
        return body["requestObject"]
    raise Failure(f"{path}: no responseObject", body=body)


# --- State ---------------------------------------------------------------------------------------

def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        raise Failure(f"cannot read {path}: {error}") from error


def save_state(path, state):
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".powerauth-state-")
    with os.fdopen(fd, "w") as f:
        json.dump(state, f, indent=2, sort_keys=True)
    os.replace(temporary, path)


def config_from(obj):
    """The contract's item-1 JSON (extra keys ignored)."""
    for field in ("applicationKey", "applicationSecret", "masterServerPublicKey"):
        if not isinstance(obj.get(field), str):
            raise Failure(f"configuration without {field}")
    public_key_from_bytes(unb64(obj["masterServerPublicKey"]))
    return {k: obj[k] for k in ("applicationKey", "applicationSecret", "masterServerPublicKey")}


def http_for(args, state=None):
    base_url = args.base_url or (state or {}).get("baseUrl")
    if not base_url:
        raise Failure("no --base-url (and none in the state)")
    headers = []
    for header in args.header or []:
        name, _, value = header.partition(":")
        if not value:
            raise Failure(f"--header {header!r} is not 'Name: value'")
        headers.append((name.strip(), value.strip()))
    offset = (args.server_time - time.time()) if args.server_time is not None else 0.0
    http = Http(base_url, headers, offset)
    if getattr(args, "sync_clock", False):
        # As the 1.9 mobile SDKs do after every launch and return to the foreground: the
        # server's time from POST /pa/v3/status corrects the clock of the ECIES timestamps.
        http.clock_offset = server_time(http) / 1000 - time.time()
    return http


def server_time(http):
    """POST /pa/v3/status (the RESTful integration's ServerStatusController): serverTime in ms."""
    _, body = http.post_json("/pa/v3/status", {})
    answer = response_object(body, "/pa/v3/status")
    if not isinstance(answer.get("serverTime"), int):
        raise Failure("/pa/v3/status: no integer serverTime", body=body)
    return answer["serverTime"]


# --- Signed GET queries (PowerAuthRequestCanonizationUtils.canonizeGetParameters) -------------------

JAVA_FORM_SAFE = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_")


def java_form_encode(text):
    """java.net.URLEncoder.encode(text, UTF_8): letters, digits and .-*_ kept, a space +, every
    other UTF-8 byte %XX (so ~ is %7E, unlike Python's quote_plus)."""
    out = []
    for byte in text.encode("utf-8"):
        if byte in JAVA_FORM_SAFE:
            out.append(chr(byte))
        elif byte == 0x20:
            out.append("+")
        else:
            out.append("%%%02X" % byte)
    return "".join(out)


def canonical_query(raw_query):
    """The signed body of a GET: pairs without '=' skipped, each key and value URL-decoded (+ is a
    space), sorted by key then value in Java's String order (UTF-16 code units), encoded again
    with URLEncoder's rules and joined by '&'."""
    pairs = []
    for part in (raw_query or "").split("&"):
        if "=" not in part:
            continue
        key, value = part.split("=", 1)
        pairs.append((urllib.parse.unquote_plus(key, errors="strict"), urllib.parse.unquote_plus(value, errors="strict")))
    pairs.sort(key=lambda pair: (pair[0].encode("utf-16-be"), pair[1].encode("utf-16-be")))
    return "&".join(f"{java_form_encode(k)}={java_form_encode(v)}" for k, v in pairs).encode("utf-8")


# --- Temporary keys (Temporary-Encryption-Keys.md) -----------------------------------------------

def temporary_key(http, config, activation=None):
    """POST /pa/v3/keystore/create with an HS256 JWT; checks the ES256 answer.

    Application scope: HS256 key = APP_SECRET decoded from Base64 (Standard-RESTful-API.md), the
    answer is signed by KEY_SERVER_MASTER_PRIVATE. Activation scope: HS256 key =
    KDF_INTERNAL(KEY_TRANSPORT, APP_SECRET) with APP_SECRET again as its decoded bytes (the
    document leaves the form open here; the application scope's "decoded to raw bytes" is read as
    holding for both), the answer signed by the activation's KEY_SERVER_PRIVATE.

    In 3.2 there are no temporary keys: an envelope is sealed to KEY_SERVER_MASTER_PUBLIC
    (application scope) or the activation's KEY_SERVER_PUBLIC (End-To-End-Encryption.md of 3.2),
    and carries no temporaryKeyId."""
    if PROTOCOL == "3.2":
        sealed_to = activation["serverPublicKey"] if activation else config["masterServerPublicKey"]
        return {"id": None, "publicKey": public_key_from_bytes(unb64(sealed_to)), "claims": {}}
    challenge = b64(random_bytes(16))
    claims = {"applicationKey": config["applicationKey"], "challenge": challenge}
    secret = unb64(config["applicationSecret"])
    if activation:
        claims["activationId"] = activation["activationId"]
        key = kdf_internal(unb64(activation["transportKey"]), secret)
        verifier = public_key_from_bytes(unb64(activation["serverPublicKey"]))
    else:
        key = secret
        verifier = public_key_from_bytes(unb64(config["masterServerPublicKey"]))
    path = "/pa/v3/keystore/create"
    _, body = http.post_json(path, {"requestObject": {"jwt": jwt.encode_hs256(claims, key)}})
    token = response_object(body, path)
    if not isinstance(token, dict) or not isinstance(token.get("jwt"), str):
        raise Failure(f"{path}: no jwt in the answer", body=body)
    _, answer = jwt.decode_es256(token["jwt"], verifier)
    for field in ("applicationKey", "challenge") + (("activationId",) if activation else ()):
        if answer.get(field) != claims[field]:
            raise Failure(f"{path}: the answer's {field} {answer.get(field)!r} is not the request's")
    if not activation and "activationId" in answer and answer["activationId"] is not None:
        raise Failure(f"{path}: an application-scope answer carries an activationId")
    if not isinstance(answer.get("sub"), str) or not answer["sub"]:
        raise Failure(f"{path}: no key identifier (sub)")
    public_key = public_key_from_bytes(unb64(answer.get("publicKey", "")))
    now_ms = http.now_ms()
    # The document lists the claims with string placeholders ("iat": "..."): numbers and
    # numeric strings are both read.
    exp_ms = number(answer.get("exp_ms"))
    if exp_ms is None and number(answer.get("exp")) is not None:
        exp_ms = number(answer["exp"]) * 1000
    if not isinstance(exp_ms, (int, float)) or exp_ms <= now_ms:
        raise Failure(f"{path}: the temporary key has no expiry or is expired ({exp_ms})")
    return {"id": answer["sub"], "publicKey": public_key, "claims": answer}


def number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and re.fullmatch(r"[0-9]+", value):
        return int(value)
    return None


def envelope(http, config, shared_info1, temp, compressed, activation=None):
    if activation:
        base = ecies.shared_info2_base_activation(config["applicationSecret"], unb64(activation["transportKey"]))
        ad = ecies.associated_data(PROTOCOL, config["applicationKey"], activation["activationId"], temp["id"])
    else:
        base = ecies.shared_info2_base_application(config["applicationSecret"])
        ad = ecies.associated_data(PROTOCOL, config["applicationKey"], None, temp["id"])
    return ecies.EciesEnvelope.for_public_key(temp["publicKey"], PROTOCOL, shared_info1, base, ad, compressed)


def seal(http, env, temp, obj) -> dict:
    payload = env.encrypt_request(json.dumps(obj).encode("utf-8"), timestamp=http.now_ms())
    if temp["id"] is not None:
        payload["temporaryKeyId"] = temp["id"]
    return payload


def open_json(env, payload, what):
    try:
        plain = env.decrypt_response(payload)
    except PowerAuthError as error:
        raise Failure(f"{what}: {error}") from error
    try:
        return json.loads(plain.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Failure(f"{what}: the decrypted answer is not JSON") from error


# --- Counter -------------------------------------------------------------------------------------

def take_counter(state, offset=0, advance=True):
    """The CTR_DATA to sign with (N steps ahead with --offset N); the state moves past it."""
    current = unb64(state["ctrData"])
    history = [current] + [unb64(h) for h in state.get("ctrHistory", [])]
    for _ in range(offset):
        current = protocol.next_ctr_data(current)
        history.insert(0, current)
    used = current
    if advance:
        state["ctrData"] = b64(protocol.next_ctr_data(used))
        state["ctrHistory"] = [b64(h) for h in history[:HISTORY]]
        state["counter"] = state.get("counter", 0) + offset + 1
    return used


def signing_keys(state, factors, password):
    if factors not in protocol.FACTOR_TYPES:
        raise Failure(f"unknown factors {factors!r} (one of {', '.join(protocol.FACTOR_TYPES)})")
    keys = []
    for factor in protocol.FACTOR_TYPES[factors]:
        if factor == "possession":
            keys.append(unb64(state["possessionKey"]))
        elif factor == "knowledge":
            if password is None:
                raise Failure("a knowledge factor needs --password")
            keys.append(protocol.unwrap_knowledge_key(unb64(state["knowledgeKeyWrapped"]), password,
                                                      unb64(state["knowledgeSalt"]), state["pbkdf2Iterations"]))
        else:
            if not state.get("biometryKey"):
                raise Failure("no biometry key in the state (activate with --biometry, or vault-unlock --add-biometry)")
            keys.append(unb64(state["biometryKey"]))
    return keys


def signature_header(state, method, uri_id, body, factors, password, offset=0, advance=True):
    keys = signing_keys(state, factors, password)
    config = state["config"]
    nonce = random_bytes(16)
    counter = state.get("counter", 0) + offset
    ctr_data = take_counter(state, offset, advance)
    data = protocol.normalized_data(method, uri_id, nonce, body, config["applicationSecret"])
    signature = protocol.online_signature(data, keys, ctr_data)
    header = protocol.authorization_header(state["activationId"], config["applicationKey"], nonce,
                                           factors, signature, PROTOCOL)
    return {"header": header, "signature": signature, "nonce": b64(nonce), "counter": counter,
            "ctrData": b64(ctr_data), "factors": factors}


# --- Status --------------------------------------------------------------------------------------

def fetch_status(http, state):
    challenge = random_bytes(16)
    _, body = http.post_json(STATUS_PATH, {"requestObject": {"activationId": state["activationId"],
                                                             "challenge": b64(challenge)}})
    answer = response_object(body, STATUS_PATH)
    if answer.get("activationId") != state["activationId"]:
        raise Failure(f"status answer for {answer.get('activationId')!r}, not {state['activationId']!r}")
    transport = unb64(state["transportKey"])
    blob = protocol.decrypt_status_blob(transport, challenge, unb64(answer["nonce"]),
                                        unb64(answer["encryptedStatusBlob"]))
    fields = protocol.decode_status_blob(blob)
    server_hash = unb64(fields["ctrDataHash"])
    ctr_data = unb64(state["ctrData"])
    distance = protocol.counter_distance(transport, ctr_data, server_hash, max(fields["ctrLookAhead"], 1))
    behind = None
    if distance is None:
        for k, previous in enumerate((unb64(h) for h in state.get("ctrHistory", [])), start=1):
            if protocol.ctr_data_hash(transport, previous) == server_hash:
                behind = k
                break
    fields.update({
        "activationId": answer["activationId"],
        "remainingAttempts": max(fields["maxFailedAttempts"] - fields["failedAttempts"], 0),
        "counterHashMatches": distance == 0,
        "serverCounterAhead": distance,
        "serverCounterBehind": behind,
        "counter": state.get("counter", 0),
        "ctrByteMatches": fields["ctrByte"] == state.get("counter", 0) & 0xFF,
        "customObject": answer.get("customObject"),
    })
    return fields


# --- Commands ------------------------------------------------------------------------------------

def identity_from(args):
    chosen = [n for n in ("code", "access_token", "identity_attributes", "recovery_code") if getattr(args, n)]
    if len(chosen) != 1:
        raise Failure("give exactly one of --code, --access-token, --identity-attributes, --recovery-code")
    if args.code:
        code, _, signature = args.code.partition("#")
        signature = signature or args.code_signature
        return "CODE", {"code": code}, code, signature
    if args.access_token:
        return "CUSTOM", {"accessToken": args.access_token}, None, None
    if args.identity_attributes:
        return "CUSTOM", json.loads(args.identity_attributes), None, None
    if not args.puk:
        raise Failure("--recovery-code needs --puk")
    return "RECOVERY", {"recoveryCode": args.recovery_code, "puk": args.puk}, None, None


def cmd_activate(args):
    config = config_from(load_json(args.config))
    http = http_for(args)
    activation_type, identity, code, code_signature = identity_from(args)
    master_public = public_key_from_bytes(unb64(config["masterServerPublicKey"]))
    signature_checked = None
    if code is not None:
        if not protocol.validate_activation_code(code):
            raise Failure(f"activation code {code!r} fails its format or CRC-16 check")
        if code_signature:
            if not protocol.verify_activation_signature(code, unb64(code_signature), master_public):
                raise Failure("the activation code's signature does not verify with the master server public key")
            signature_checked = True
    if activation_type == "RECOVERY" and not protocol.validate_activation_code(args.recovery_code):
        raise Failure(f"recovery code {args.recovery_code!r} fails its format or CRC-16 check")
    compressed = not args.uncompressed

    device = generate_key_pair()
    device_public = public_key_bytes(device.public_key(), compressed=compressed)
    temp = temporary_key(http, config)
    level2 = envelope(http, config, ecies.SH1_ACTIVATION_LEVEL2, temp, compressed)
    level1 = envelope(http, config, ecies.SH1_ACTIVATION_LEVEL1, temp, compressed)
    inner = {"devicePublicKey": b64(device_public), "activationName": args.name,
             "platform": args.platform, "deviceInfo": args.device_info}
    if args.otp is not None:
        inner["activationOtp"] = args.otp
    if args.extras is not None:
        inner["extras"] = args.extras
    # The 1.9 mobile SDKs send the kind as `type` (the published document: `activationType`).
    outer = {"type": activation_type, "identityAttributes": identity,
             "activationData": seal(http, level2, temp, inner)}
    header = f'PowerAuth version="{PROTOCOL}", application_key="{config["applicationKey"]}"'
    path = "/pa/v3/activation/create"
    _, body = http.post_json(path, seal(http, level1, temp, outer), {"X-PowerAuth-Encryption": header})
    layer1 = open_json(level1, body, f"{path} level 1")
    if not isinstance(layer1.get("activationData"), dict):
        raise Failure(f"{path}: level 1 answer without activationData", layer1=layer1)
    layer2 = open_json(level2, layer1["activationData"], f"{path} level 2")
    for field in ("activationId", "serverPublicKey", "ctrData"):
        if not isinstance(layer2.get(field), str):
            raise Failure(f"{path}: level 2 answer without {field}")
    server_public = public_key_from_bytes(unb64(layer2["serverPublicKey"]))
    ctr_data = unb64(layer2["ctrData"])
    if len(ctr_data) != 16:
        raise Failure(f"{path}: ctrData of {len(ctr_data)} bytes, 16 expected")
    activation_id = layer2["activationId"]

    keys = protocol.derived_keys(protocol.master_secret(device, server_public))
    salt = random_bytes(16)
    iterations = 10000
    recovery = layer2.get("activationRecovery")
    recovery_check = None
    if recovery is not None:
        recovery_check = {
            "recoveryCodeValid": protocol.validate_activation_code(str(recovery.get("recoveryCode"))),
            "pukValid": bool(re.fullmatch(r"[0-9]{10}", str(recovery.get("puk")))),
        }
    state = {
        "version": 1,
        "baseUrl": http.base_url,
        "config": config,
        "activationId": activation_id,
        "activationType": activation_type,
        "serverPublicKey": layer2["serverPublicKey"],
        "devicePublicKey": b64(device_public),
        # Key-derivation.md: the device private key is kept encrypted by the vault key, which
        # the client then forgets; the server hands it back at vault/unlock.
        "devicePrivateKeyEncrypted": b64(aes_cbc_encrypt(private_key_bytes(device), bytes(16), keys["vault"])),
        # A real device keeps these in its keychain; a test client keeps them in its state file.
        "possessionKey": b64(keys["possession"]),
        "knowledgeKeyWrapped": b64(protocol.wrap_knowledge_key(keys["knowledge"], args.password, salt, iterations)),
        "knowledgeSalt": b64(salt),
        "pbkdf2Iterations": iterations,
        "biometryKey": b64(keys["biometry"]) if args.biometry else None,
        "transportKey": b64(keys["transport"]),
        "ctrData": b64(ctr_data),
        "ctrHistory": [],
        "counter": 0,
        "recovery": recovery,
        "fingerprint": protocol.fingerprint(device.public_key(), activation_id, server_public),
        "removed": False,
    }
    save_state(args.state, state)
    status = fetch_status(http, state)
    state["lastStatus"] = status
    save_state(args.state, state)
    return {"activationId": activation_id, "activationType": activation_type,
            "fingerprint": state["fingerprint"], "activationCodeSignatureVerified": signature_checked,
            "recovery": recovery, "recoveryFormat": recovery_check,
            "customAttributes": layer1.get("customAttributes"), "temporaryKeyId": temp["id"],
            "biometry": bool(args.biometry), "status": status}


def active_state(args):
    state = load_json(args.state)
    if "activationId" not in state:
        raise Failure(f"{args.state} holds no activation")
    return state


def read_body(args):
    if not args.body_file:
        return b""
    with open(args.body_file, "rb") as f:
        return f.read()


def cmd_status(args):
    state = active_state(args)
    status = fetch_status(http_for(args, state), state)
    status["counterResynced"] = False
    behind = status["serverCounterBehind"]
    if args.resync_counter and behind:
        # Not a protocol step: a test convenience that moves this client back to the counter
        # the server expects (found among the values this client has used), so a scenario can
        # go on after signatures the server never accepted.
        history = state.get("ctrHistory", [])
        state["ctrData"] = history[behind - 1]
        state["ctrHistory"] = history[behind:]
        state["counter"] = state.get("counter", 0) - behind
        status.update(counterResynced=True, counter=state["counter"], counterHashMatches=True,
                      ctrByteMatches=status["ctrByte"] == state["counter"] & 0xFF)
    state["lastStatus"] = status
    save_state(args.state, state)
    return status


def cmd_sign(args):
    state = active_state(args)
    result = signature_header(state, args.method, args.uri_id, read_body(args), args.factors,
                              args.password, args.offset, not args.no_advance)
    save_state(args.state, state)
    result["counterNext"] = state.get("counter", 0)
    return result


def cmd_call(args):
    state = active_state(args)
    http = http_for(args, state)
    if args.method.upper() in ("GET", "DELETE"):
        return call_without_body(args, state, http)
    body = read_body(args)
    signed = signature_header(state, args.method, args.uri_id, body, args.factors, args.password,
                              args.offset, not args.no_advance)
    save_state(args.state, state)
    status, raw = http.post(args.path, body, {"X-PowerAuth-Authorization": signed["header"]})
    answer = parse_body(raw)
    if args.path == "/pa/v3/activation/remove" and status == 200:
        state["removed"] = True
        save_state(args.state, state)
    result = {"httpStatus": status, "body": answer, "header": signed["header"], "counter": signed["counter"]}
    if args.expect_status is not None and status != args.expect_status:
        raise Failure(f"POST {args.path} answered {status}, {args.expect_status} expected", **result)
    return result


def call_without_body(args, state, http):
    """A GET or DELETE: the query as an app writes it (each --query NAME=VALUE percent-encoded,
    a space as %20, in the order given), the signature over its canonical form."""
    raw_query = "&".join(
        urllib.parse.quote(name, safe="") + "=" + urllib.parse.quote(value, safe="")
        for name, _, value in (item.partition("=") for item in args.query or []))
    signed_body = canonical_query(raw_query)
    signed = signature_header(state, args.method.upper(), args.uri_id, signed_body, args.factors, args.password,
                              args.offset, not args.no_advance)
    save_state(args.state, state)
    path = args.path + ("?" + raw_query if raw_query else "")
    status, raw = http.send(args.method.upper(), path, {"X-PowerAuth-Authorization": signed["header"]})
    result = {"httpStatus": status, "body": parse_body(raw), "query": raw_query,
              "signedBody": signed_body.decode("utf-8"), "counter": signed["counter"]}
    if args.expect_status is not None and status != args.expect_status:
        raise Failure(f"{args.method.upper()} {args.path} answered {status}, {args.expect_status} expected", **result)
    return result


def cmd_server_status(args):
    http = http_for(args)
    return {"serverTime": server_time(http)}


def cmd_user_info(args):
    """POST /pa/v3/user/info (the RESTful integration's UserInfoController): `{}` sealed in
    activation scope (sh1 /pa/generic/activation) with the X-PowerAuth-Encryption header naming
    the activation; the opened answer is the user's claims."""
    state = active_state(args)
    http = http_for(args, state)
    config = state["config"]
    temp = temporary_key(http, config, state)
    env = envelope(http, config, ecies.SH1_GENERIC_ACTIVATION, temp, not args.uncompressed, state)
    path = "/pa/v3/user/info"
    status, raw = http.post(path, json.dumps(seal(http, env, temp, {})).encode("utf-8"),
                            {"X-PowerAuth-Encryption": encryption_header(config, state)})
    answer = parse_body(raw)
    if status != 200:
        raise Failure(f"{path} answered {status}", httpStatus=status, body=answer)
    return {"claims": open_json(env, answer, path)}


def cmd_offline_sign(args):
    state = active_state(args)
    qr = args.qr_data
    if args.qr_file:
        with open(args.qr_file, encoding="utf-8") as f:
            qr = f.read()
    if qr is None:
        raise Failure("give --qr-data or --qr-file")
    parsed = protocol.parse_offline_qr(qr)
    if parsed["keyFlag"] == "1":
        key = public_key_from_bytes(unb64(state["serverPublicKey"]))
    else:
        key = public_key_from_bytes(unb64(state["config"]["masterServerPublicKey"]))
    from powerauth.primitives import ecdsa_verify
    if not ecdsa_verify(parsed["signedBytes"], parsed["signature"], key):
        raise Failure(f"the offline QR data's ECDSA signature does not verify (key flag {parsed['keyFlag']})")
    keys = signing_keys(state, args.factors, args.password)
    counter = state.get("counter", 0) + args.offset
    ctr_data = take_counter(state, args.offset, not args.no_advance)
    data = protocol.normalized_data("POST", args.uri_id, parsed["nonce"], parsed["data"].encode("utf-8"),
                                    protocol.OFFLINE_SECRET)
    signature = protocol.decimal_signature(data, keys, ctr_data, args.digits)
    save_state(args.state, state)
    return {"signature": signature, "data": parsed["data"], "nonce": parsed["nonceText"],
            "keyFlag": parsed["keyFlag"], "qrSignatureVerified": True, "counter": counter,
            "factors": args.factors}


def cmd_vault_unlock(args):
    """POST /pa/v3/vault/unlock: activation-scope ECIES (sh1 /pa/vault/unlock), signed over the
    encrypted body (encrypt-then-sign, uriId /pa/vault/unlock, no X-PowerAuth-Encryption header);
    the vault key decrypts the device private key kept since the activation."""
    state = active_state(args)
    http = http_for(args, state)
    config = state["config"]
    compressed = not args.uncompressed
    temp = temporary_key(http, config, state)
    env = envelope(http, config, ecies.SH1_VAULT_UNLOCK, temp, compressed, state)
    body = json.dumps(seal(http, env, temp, {"reason": args.reason})).encode("utf-8")
    signed = signature_header(state, "POST", "/pa/vault/unlock", body, args.factors, args.password,
                              args.offset, True)
    save_state(args.state, state)
    status, raw = http.post("/pa/v3/vault/unlock", body, {"X-PowerAuth-Authorization": signed["header"]})
    answer = parse_body(raw)
    if status != 200:
        raise Failure(f"/pa/v3/vault/unlock answered {status}", httpStatus=status, body=answer)
    # The document shows the answer's fields in the clear but says the exchange is ECIES
    # protected: an encrypted answer is opened, a clear one read as it is.
    if isinstance(answer, dict) and "encryptedData" in answer:
        answer = open_json(env, answer, "/pa/v3/vault/unlock")
    if not isinstance(answer, dict) or not isinstance(answer.get("encryptedVaultEncryptionKey"), str):
        raise Failure("/pa/v3/vault/unlock: no encryptedVaultEncryptionKey", body=answer)
    wrapped = unb64(answer["encryptedVaultEncryptionKey"])
    transport = unb64(state["transportKey"])
    # AES.encrypt without a transformation is AES/CBC/PKCS7Padding (Basic-definitions.md): 32
    # bytes for a 16-byte key; 16 bytes would be NoPadding, accepted and reported.
    padding_seen = "PKCS7" if len(wrapped) == 32 else "NoPadding" if len(wrapped) == 16 else None
    if padding_seen is None:
        raise Failure(f"encryptedVaultEncryptionKey of {len(wrapped)} bytes")
    vault_key = aes_cbc_decrypt(wrapped, bytes(16), transport, pad=padding_seen == "PKCS7")
    try:
        device_private = private_key_from_bytes(
            aes_cbc_decrypt(unb64(state["devicePrivateKeyEncrypted"]), bytes(16), vault_key))
    except (PowerAuthError, ValueError) as error:
        raise Failure("the vault key does not decrypt the device private key") from error
    device_public = public_key_from_bytes(unb64(state["devicePublicKey"]))
    if public_key_bytes(device_private.public_key()) != public_key_bytes(device_public):
        raise Failure("the vault key decrypts to a private key that is not the device's")
    result = {"httpStatus": status, "vaultKeyVerified": True, "vaultKeyPadding": padding_seen,
              "activationId": answer.get("activationId"), "counter": signed["counter"], "biometryAdded": False}
    if args.add_biometry:
        server_public = public_key_from_bytes(unb64(state["serverPublicKey"]))
        keys = protocol.derived_keys(protocol.master_secret(device_private, server_public))
        if keys["possession"] != unb64(state["possessionKey"]):
            raise Failure("the recomputed master secret does not give the stored possession key")
        state["biometryKey"] = b64(keys["biometry"])
        save_state(args.state, state)
        result["biometryAdded"] = True
    return result


def cmd_temporary_key(args):
    state = active_state(args)
    http = http_for(args, state)
    temp = temporary_key(http, state["config"], state if args.scope == "activation" else None)
    return {"scope": args.scope, "temporaryKeyId": temp["id"],
            "publicKey": b64(public_key_bytes(temp["publicKey"])), "claims": temp["claims"]}


def cmd_encrypt(args):
    """A request sealed with the generic encryptor (End-To-End-Encryption.md, 3.3): application
    scope (sh1 /pa/generic/application, SHARED_INFO_2_BASE from the application secret) or
    activation scope (sh1 /pa/generic/activation, with KEY_TRANSPORT), a temporary key from the
    Keyway server's /pa/v3/keystore/create, posted to --url (an app's own backend) with the
    X-PowerAuth-Encryption header — or, with --sign-uri-id, signed over the sealed body
    (encrypt-then-sign, no X-PowerAuth-Encryption header in activation scope); the answer is
    opened with the same envelope key."""
    activation = None
    state = None
    if args.scope == "activation" or args.state:
        state = active_state(args)
        config = state["config"]
        if args.scope == "activation":
            activation = state
    elif args.config:
        config = config_from(load_json(args.config))
    else:
        raise Failure("application scope needs --config (or --state)")
    keyway = http_for(args, state)
    temp = temporary_key(keyway, config, activation)
    shared_info1 = ecies.SH1_GENERIC_ACTIVATION if activation else ecies.SH1_GENERIC_APPLICATION
    env = envelope(keyway, config, shared_info1, temp, not args.uncompressed, activation)
    plaintext = read_body(args) or b"{}"
    sealed = env.encrypt_request(plaintext, timestamp=keyway.now_ms())
    sealed["temporaryKeyId"] = temp["id"]
    body = json.dumps(sealed).encode("utf-8")
    headers = {}
    result = {"scope": args.scope, "temporaryKeyId": temp["id"]}
    if args.sign_uri_id:
        if not state:
            raise Failure("a signed request needs --state")
        signed = signature_header(state, "POST", args.sign_uri_id, body, args.factors, args.password, 0, True)
        save_state(args.state, state)
        headers["X-PowerAuth-Authorization"] = signed["header"]
        result["counter"] = signed["counter"]
        if not activation:
            headers["X-PowerAuth-Encryption"] = encryption_header(config)
    else:
        headers["X-PowerAuth-Encryption"] = encryption_header(config, activation)
    target = Http(args.url, keyway.extra_headers.items(), keyway.clock_offset)
    status, raw = target.post("", body, headers)
    answer = parse_body(raw)
    result.update(httpStatus=status, requestBody=body.decode("utf-8"), requestHeaders=headers)
    if status == 200:
        if not isinstance(answer, dict):
            raise Failure("the encrypted answer is not a JSON object", **result, body=answer)
        opened = env.decrypt_response(answer)
        result["response"] = opened.decode("utf-8")
        result["responseTimestamp"] = answer.get("timestamp")
    else:
        result["body"] = answer
    if args.expect_status is not None and status != args.expect_status:
        raise Failure(f"POST {args.url} answered {status}, {args.expect_status} expected", **result)
    return result


def encryption_header(config, activation=None):
    header = f'PowerAuth version="{PROTOCOL}", application_key="{config["applicationKey"]}"'
    if activation:
        header += f', activation_id="{activation["activationId"]}"'
    return header


def cmd_token_create(args):
    """POST /pa/v3/token/create (MAC-Token-Based-Authentication.md): activation-scope ECIES with
    sh1 /pa/token/create over `{}`, signed over the sealed body (uriId /pa/token/create); the
    opened answer's tokenId and tokenSecret are kept in the state under --name."""
    state = active_state(args)
    http = http_for(args, state)
    config = state["config"]
    temp = temporary_key(http, config, state)
    env = envelope(http, config, ecies.SH1_TOKEN_CREATE, temp, not args.uncompressed, state)
    body = json.dumps(seal(http, env, temp, {})).encode("utf-8")
    signed = signature_header(state, "POST", "/pa/token/create", body, args.factors, args.password, 0, True)
    save_state(args.state, state)
    path = "/pa/v3/token/create"
    status, raw = http.post(path, body, {"X-PowerAuth-Authorization": signed["header"]})
    answer = parse_body(raw)
    if status != 200:
        raise Failure(f"{path} answered {status}", httpStatus=status, body=answer)
    token = open_json(env, answer, path)
    token_id, secret = token.get("tokenId"), token.get("tokenSecret")
    if not isinstance(token_id, str) or not re.fullmatch(
            r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", token_id.lower()):
        raise Failure(f"{path}: tokenId {token_id!r} is not a UUID v4")
    if not isinstance(secret, str) or len(unb64(secret)) != 16:
        raise Failure(f"{path}: tokenSecret is not 16 bytes in Base64")
    state.setdefault("tokens", {})[args.name] = {"tokenId": token_id, "tokenSecret": secret, "factors": args.factors}
    save_state(args.state, state)
    return {"name": args.name, "tokenId": token_id, "factors": args.factors, "counter": signed["counter"]}


def token_digest(secret: bytes, nonce: bytes, timestamp: int, version: str) -> bytes:
    """HMAC-SHA256(token_secret, nonce | "&" | timestamp text | "&" | version); 3.0 and 3.1 end
    at the timestamp."""
    data = nonce + b"&" + str(timestamp).encode("utf-8")
    if version not in ("3.0", "3.1"):
        data += b"&" + version.encode("utf-8")
    return hmac_sha256(secret, data)


def cmd_token_header(args):
    """An X-PowerAuth-Token header for the token kept under --name."""
    state = active_state(args)
    token = (state.get("tokens") or {}).get(args.name)
    if not token:
        raise Failure(f"no token named {args.name!r} in the state (token-create first)")
    http = http_for(args, state)
    nonce = random_bytes(16)
    timestamp = http.now_ms()
    digest = token_digest(unb64(token["tokenSecret"]), nonce, timestamp, args.version)
    header = (f'PowerAuth token_id="{token["tokenId"]}", token_digest="{b64(digest)}", '
              f'nonce="{b64(nonce)}", timestamp="{timestamp}", version="{args.version}"')
    return {"header": header, "tokenId": token["tokenId"], "timestamp": timestamp}


# --- Command line --------------------------------------------------------------------------------

class JsonArgumentParser(argparse.ArgumentParser):
    """Usage errors end like every other failure: one JSON line, non-zero exit."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(json.dumps({"ok": False, "error": f"usage: {message}"}))
        sys.exit(2)


def parser():
    root = JsonArgumentParser(description="An independent PowerAuth 3.3 client (see the file's header).")
    root.add_argument("--self-test", action="store_true", help="check against the published vectors and exit")
    commands = root.add_subparsers(dest="command")

    def common(p, state_required=True):
        p.add_argument("--state", required=state_required, help="the client's state (JSON)")
        p.add_argument("--base-url", help="the server (default: the state's)")
        p.add_argument("--header", action="append", help="an extra HTTP header 'Name: value'")
        p.add_argument("--server-time", type=float, help="the server's current Unix time")
        p.add_argument("--sync-clock", action="store_true",
                       help="read the server's time from POST /pa/v3/status first, as the 1.9 mobile SDKs do")
        p.add_argument("--uncompressed", action="store_true", help="send uncompressed EC points")
        p.add_argument("--protocol", default=VERSION, choices=["3.2", "3.3"],
                       help="the protocol version of the requests (3.2: as the 1.7 and 1.8 mobile SDKs)")
        return p

    def signing(p, uri_default=None):
        p.add_argument("--factors", default="possession_knowledge")
        p.add_argument("--password")
        p.add_argument("--offset", type=int, default=0, help="sign with the counter N steps ahead")
        p.add_argument("--no-advance", action="store_true", help="do not move the counter in the state")
        if uri_default is None:
            p.add_argument("--uri-id", required=True)
        else:
            p.add_argument("--uri-id", default=uri_default)

    p = common(commands.add_parser("activate"))
    p.add_argument("--config", required=True, help="the application's PowerAuth JSON")
    p.add_argument("--code", help="an activation code, or CODE#SIGNATURE")
    p.add_argument("--code-signature", help="the code's ECDSA signature (Base64 DER)")
    p.add_argument("--otp")
    p.add_argument("--access-token")
    p.add_argument("--identity-attributes", help="CUSTOM identity attributes as a JSON object")
    p.add_argument("--recovery-code")
    p.add_argument("--puk")
    p.add_argument("--password", required=True)
    p.add_argument("--name", default="Interop device")
    p.add_argument("--platform", default="unknown")
    p.add_argument("--device-info", default="python-interop")
    p.add_argument("--extras")
    p.add_argument("--biometry", action="store_true")
    p.set_defaults(run=cmd_activate)

    p = common(commands.add_parser("status"))
    p.add_argument("--resync-counter", action="store_true",
                   help="when the server's counter is behind this client's, go back to it")
    p.set_defaults(run=cmd_status)

    p = common(commands.add_parser("sign"))
    p.add_argument("--method", default="POST")
    p.add_argument("--body-file")
    signing(p)
    p.set_defaults(run=cmd_sign)

    p = common(commands.add_parser("server-status"), state_required=False)
    p.set_defaults(run=cmd_server_status)

    p = common(commands.add_parser("user-info"))
    p.set_defaults(run=cmd_user_info)

    p = common(commands.add_parser("call"))
    p.add_argument("--method", default="POST")
    p.add_argument("--path", required=True)
    p.add_argument("--body-file")
    p.add_argument("--query", action="append", help="a query parameter NAME=VALUE of a GET or DELETE (repeatable)")
    p.add_argument("--expect-status", type=int)
    signing(p)
    p.set_defaults(run=cmd_call)

    p = common(commands.add_parser("offline-sign"))
    p.add_argument("--qr-data")
    p.add_argument("--qr-file")
    p.add_argument("--digits", type=int, default=8)
    signing(p, protocol.OFFLINE_URI_ID)
    p.set_defaults(run=cmd_offline_sign)

    p = common(commands.add_parser("vault-unlock"))
    p.add_argument("--reason", default="ADD_BIOMETRY")
    p.add_argument("--add-biometry", action="store_true")
    p.add_argument("--factors", default="possession_knowledge")
    p.add_argument("--password")
    p.add_argument("--offset", type=int, default=0)
    p.set_defaults(run=cmd_vault_unlock)

    p = common(commands.add_parser("temporary-key"))
    p.add_argument("--scope", choices=["application", "activation"], default="application")
    p.set_defaults(run=cmd_temporary_key)

    p = common(commands.add_parser("encrypt"), state_required=False)
    p.add_argument("--scope", choices=["application", "activation"], default="application")
    p.add_argument("--url", required=True, help="the full URL to post the sealed body to")
    p.add_argument("--config", help="the application's PowerAuth JSON (application scope without --state)")
    p.add_argument("--body-file")
    p.add_argument("--sign-uri-id", help="sign the sealed body with this URI identifier")
    p.add_argument("--factors", default="possession_knowledge")
    p.add_argument("--password")
    p.add_argument("--expect-status", type=int)
    p.set_defaults(run=cmd_encrypt)

    p = common(commands.add_parser("token-create"))
    p.add_argument("--name", default="default")
    p.add_argument("--factors", default="possession_knowledge")
    p.add_argument("--password")
    p.set_defaults(run=cmd_token_create)

    p = common(commands.add_parser("token-header"))
    p.add_argument("--name", default="default")
    p.add_argument("--version", default=VERSION, choices=["3.2", "3.3"])
    p.set_defaults(run=cmd_token_header)
    return root


def main(argv=None) -> int:
    global PROTOCOL
    args = parser().parse_args(argv)
    PROTOCOL = getattr(args, "protocol", None) or VERSION
    if args.self_test:
        import test_powerauth_client
        return test_powerauth_client.run()
    if not args.command:
        parser().print_usage()
        print(json.dumps({"ok": False, "error": "no command"}))
        return 2
    try:
        result = args.run(args)
    except Failure as failure:
        print(json.dumps({"ok": False, "error": str(failure), **failure.fields}))
        return 1
    except (PowerAuthError, ValueError, KeyError, OSError) as error:
        print(json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}"}))
        return 1
    except Exception as error:  # an answer of an unexpected shape, say: still one JSON line
        import traceback
        traceback.print_exc()
        print(json.dumps({"ok": False, "error": f"unexpected {type(error).__name__}: {error}"}))
        return 1
    print(json.dumps({"ok": True, **result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
