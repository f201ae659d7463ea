#!/usr/bin/env python3
"""Self-test of the independent PowerAuth client against the published test vectors.

  python3 test_powerauth_client.py [--vectors DIR]    (or: powerauth_client.py --self-test)

Every vector file of protocol 3.x in the vector directory (default: $POWERAUTH_VECTORS, else the
repository's copy in Tests/KeywayPowerAuthTests/Vectors) is checked case by case; the files of protocol 2 and the ECIES
envelopes of 3.0/3.1 (other IV and MAC rules, not spoken by this client) are listed as skipped.
Prints one line per file and a JSON summary last; exits 1 if any case fails or a file is missing.
"""
import argparse
import base64
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from powerauth import ecies, protocol  # noqa: E402
from powerauth.primitives import (  # noqa: E402
    PowerAuthError, b64, ecdsa_sign, kdf, private_key_from_bytes, public_key_bytes,
    public_key_from_bytes, unb64,
)

REPOSITORY_VECTORS = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Tests", "KeywayPowerAuthTests", "Vectors"))
DEFAULT_VECTORS = os.environ.get("POWERAUTH_VECTORS", REPOSITORY_VECTORS)

SKIPPED = {
    "decrypt-server-public-key-v2.json": "protocol 2 activation",
    "encrypt-device-public-key-v2.json": "protocol 2 activation",
    "public-key-fingerprint-v2.json": "protocol 2 fingerprint (device key only)",
    "public-key-fingerprint.json": "protocol 2 fingerprint (device key only)",
    "signatures-v2.json": "protocol 2 signatures (integer counter)",
    "verify-activation-data-signature-v2.json": "protocol 2 activation data",
    "verify-encrypted-server-public-key-signature-v2.json": "protocol 2 activation",
    "E2ee_Application_Scope_Test_Vectors_30.json": "ECIES 3.0 (other IV and MAC rules)",
    "E2ee_Application_Scope_Test_Vectors_31.json": "ECIES 3.1 (other IV and MAC rules)",
    "E2ee_Activation_Scope_Test_Vectors_30.json": "ECIES 3.0 (other IV and MAC rules)",
    "E2ee_Activation_Scope_Test_Vectors_31.json": "ECIES 3.1 (other IV and MAC rules)",
}


class Runner:
    def __init__(self, directory):
        self.directory = directory
        self.results = {}
        self.failures = []

    def cases(self, name):
        with open(os.path.join(self.directory, name)) as f:
            content = json.load(f)
        if "data" in content:
            return content["data"]
        return next(iter(content.values()))

    def check(self, name, case_check):
        passed = failed = 0
        for index, case in enumerate(self.cases(name)):
            try:
                problem = case_check(case)
            except (PowerAuthError, ValueError, KeyError) as error:
                problem = f"{type(error).__name__}: {error}"
            if problem:
                failed += 1
                if len([f for f in self.failures if f[0] == name]) < 3:
                    self.failures.append((name, index, problem))
            else:
                passed += 1
        self.results[name] = {"passed": passed, "failed": failed}
        print(f"{'ok  ' if failed == 0 else 'FAIL'} {name}: {passed}/{passed + failed}")


def expect(label, got, want):
    return None if got == want else f"{label}: got {got!r}, want {want!r}"


# --- One function per vector file ---------------------------------------------------------------

def activation_signature_v3(case):
    code = case["input"]["activationCode"]
    master_private = private_key_from_bytes(unb64(case["input"]["masterPrivateKey"]))
    master_public = public_key_from_bytes(unb64(case["input"]["masterPublicKey"]))
    if public_key_bytes(master_private.public_key()) != public_key_bytes(master_public):
        return "master key pair does not match"
    if not protocol.validate_activation_code(code):
        return f"activation code {code} does not validate"
    signature = unb64(case["output"]["activationSignature"])
    if not protocol.verify_activation_signature(code, signature, master_public):
        return "published activation signature does not verify"
    if protocol.verify_activation_signature(code[:-1] + ("A" if code[-1] != "A" else "B"), signature, master_public):
        return "signature verifies for another code"
    # And our own signature with the published private key verifies (ECDSA is randomized).
    if not protocol.verify_activation_signature(code, ecdsa_sign(code.encode(), master_private), master_public):
        return "own signature does not verify"
    return None


def master_secret(case):
    i, o = case["input"], case["output"]
    device_private = private_key_from_bytes(unb64(i["devicePrivateKey"]))
    server_private = private_key_from_bytes(unb64(i["serverPrivateKey"]))
    device_public = public_key_from_bytes(unb64(i["devicePublicKey"]))
    server_public = public_key_from_bytes(unb64(i["serverPublicKey"]))
    if public_key_bytes(device_private.public_key()) != public_key_bytes(device_public):
        return "device key pair does not match"
    client = protocol.master_secret(device_private, server_public)
    server = protocol.master_secret(server_private, device_public)
    return expect("client master secret", b64(client), o["masterSecretKey"]) or \
        expect("server master secret", b64(server), o["masterSecretKey"])


def derived_keys(case):
    keys = protocol.derived_keys(unb64(case["input"]["masterSecretKey"]))
    o = case["output"]
    for name, field in (("possession", "signaturePossessionKey"), ("knowledge", "signatureKnowledgeKey"),
                        ("biometry", "signatureBiometryKey"), ("transport", "transportKey"),
                        ("vault", "vaultEncryptionKey")):
        problem = expect(name, b64(keys[name]), o[field])
        if problem:
            return problem
    return None


def fingerprint_v3(case):
    i, o = case["input"], case["output"]
    device = public_key_from_bytes(unb64(i["devicePublicKey"]))
    server = public_key_from_bytes(unb64(i["serverPublicKey"]))
    from powerauth.primitives import minimal_x
    return expect("device X", b64(minimal_x(device)), o["devicePublicKeyCoordX"]) or \
        expect("server X", b64(minimal_x(server)), o["serverPublicKeyCoordX"]) or \
        expect("fingerprint", protocol.fingerprint(device, o["activationId"], server), o["fingerprint"])


def status_iv(case):
    i = case["input"]
    iv = protocol.status_iv(unb64(i["transportKey"]), unb64(i["challenge"]), unb64(i["nonce"]))
    return expect("iv", b64(iv), case["output"]["iv"])


def status_blob(case):
    i, o = case["input"], case["output"]
    transport = unb64(i["transportKey"])
    blob = protocol.decrypt_status_blob(transport, unb64(i["challenge"]), unb64(i["nonce"]),
                                        unb64(i["encryptedStatusBlob"]))
    fields = protocol.decode_status_blob(blob)
    for ours, theirs in (("activationStatus", "activationStatus"), ("currentVersion", "currentVersion"),
                         ("upgradeVersion", "upgradeVersion"), ("failedAttempts", "failedAttempts"),
                         ("maxFailedAttempts", "maxFailedAttempts"), ("ctrLookAhead", "ctrLookAhead"),
                         ("ctrByte", "ctrByte"), ("ctrDataHash", "ctrDataHash")):
        problem = expect(ours, str(fields[ours]), o[theirs])
        if problem:
            return problem
    distance = protocol.counter_distance(transport, unb64(i["ctrData"]), unb64(fields["ctrDataHash"]),
                                         fields["ctrLookAhead"])
    return expect("counterDistance", str(distance), o["counterDistance"])


def signature_keys(i):
    by_name = {"possession": unb64(i["signaturePossessionKey"]), "knowledge": unb64(i["signatureKnowledgeKey"]),
               "biometry": unb64(i["signatureBiometryKey"])}
    return [by_name[f] for f in protocol.FACTOR_TYPES[i["signatureType"]]]


def signature_v3_decimal(case):
    i = case["input"]
    got = protocol.decimal_signature(unb64(i["data"]), signature_keys(i), unb64(i["counterData"]))
    return expect("signature", got, case["output"]["signature"])


def signature_v31(case):
    i = case["input"]
    got = protocol.online_signature(unb64(i["data"]), signature_keys(i), unb64(i["counterData"]))
    return expect("signature", got, case["output"]["signature"])


def signature_offline(case):
    i = case["input"]
    got = protocol.decimal_signature(unb64(i["data"]), signature_keys(i), unb64(i["counterData"]),
                                     digits=int(i["signatureComponentLength"]))
    return expect("signature", got, case["output"]["signature"])


def e2ee(scope):
    def check(case):
        version = case["protocolVersion"]
        secret = case["applicationSecret"]
        activation_id = case.get("activationId") if scope == "activation" else None
        if scope == "activation":
            base = ecies.shared_info2_base_activation(secret, unb64(case["transportKey"]))
        else:
            base = ecies.shared_info2_base_application(secret)
        problem = expect("sharedInfo2Base", b64(base), case["sharedInfo2Base"])
        if problem:
            return problem
        temporary_key_id = case.get("temporaryKeyId") if version == "3.3" else None
        if version == "3.3" and not temporary_key_id:
            return "3.3 vector without temporaryKeyId"
        ad = ecies.associated_data(version, case["applicationKey"], activation_id, temporary_key_id)
        envelope = ecies.EciesEnvelope(unb64(case["envelopeKey"]), base, ad,
                                       unb64(case["requestEphemeralPublicKey"]))
        request = envelope.encrypt_request(case["requestData"].encode(), nonce=unb64(case["requestNonce"]),
                                           timestamp=int(case["timestampRequest"]))
        problem = expect("request data", request["encryptedData"], case["encryptedDataRequest"]) or \
            expect("request mac", request["mac"], case["requestMac"])
        if problem:
            return problem
        published_request = {"encryptedData": case["encryptedDataRequest"], "mac": case["requestMac"],
                             "nonce": case["requestNonce"], "timestamp": case["timestampRequest"]}
        problem = expect("request plaintext", envelope.server_decrypt_request(published_request).decode(),
                         case["requestData"])
        if problem:
            return problem
        response = {"encryptedData": case["encryptedDataResponse"], "mac": case["responseMac"],
                    "nonce": case["responseNonce"], "timestamp": int(case["timestampResponse"])}
        problem = expect("response plaintext", envelope.decrypt_response(response).decode(), case["responseData"])
        if problem:
            return problem
        ours = envelope.server_encrypt_response(case["responseData"].encode(), unb64(case["responseNonce"]),
                                                int(case["timestampResponse"]))
        problem = expect("response data", ours["encryptedData"], case["encryptedDataResponse"]) or \
            expect("response mac", ours["mac"], case["responseMac"])
        if problem:
            return problem
        # A flipped MAC bit must be refused.
        tampered = dict(response, mac=b64(bytes([unb64(response["mac"])[0] ^ 1]) + unb64(response["mac"])[1:]))
        try:
            envelope.decrypt_response(tampered)
            return "tampered response MAC accepted"
        except PowerAuthError:
            return None
    return check


VECTOR_CHECKS = {
    "verify-activation-data-signature-v3.json": activation_signature_v3,
    "compute-master-secret-key.json": master_secret,
    "compute-derived-keys.json": derived_keys,
    "public-key-fingerprint-v3.json": fingerprint_v3,
    "activation-status-blob-iv.json": status_iv,
    "activation-status-blob-data.json": status_blob,
    "signatures-v3.json": signature_v3_decimal,
    "signatures-v31.json": signature_v31,
    "signatures-offline.json": signature_offline,
    "E2ee_Application_Scope_Test_Vectors_32.json": e2ee("application"),
    "E2ee_Application_Scope_Test_Vectors_33.json": e2ee("application"),
    "E2ee_Activation_Scope_Test_Vectors_32.json": e2ee("activation"),
    "E2ee_Activation_Scope_Test_Vectors_33.json": e2ee("activation"),
}


# --- Documented values without a vector file -----------------------------------------------------

def documented_checks(runner):
    """The activation-code test values of Activation-Code.md, a code built from 10 bytes, the
    PBKDF2 wrapping of the knowledge key, the KDF index placement, and the offline QR parsing."""
    problems = []
    good = ["AAAAA-AAAAA-AAAAA-AAAAA", "LLLLL-LLLLL-LLLLL-LQJTA", "KKKKK-KKKKK-KKKKK-KDJNQ",
            "MMMMM-MMMMM-MMMMM-MUTOA", "VVVVV-VVVVV-VVVVV-VTFVA", "55555-55555-55555-55YMA",
            "W65WE-3T7VI-7FBS2-A4OYA", "DD7P5-SY4RW-XHSNB-GO52A", "X3TS3-TI35Z-JZDNT-TRPFA",
            "HCPJX-U4QC4-7UISL-NJYMA", "XHGSM-KYQDT-URE34-UZGWQ", "45AWJ-BVACS-SBWHS-ABANA"]
    for code in good:
        if not protocol.validate_activation_code(code):
            problems.append(f"documented code {code} refused")
    for bad in ["AAAAA-AAAAA-AAAAA-AABAA", "VVVVV-VVVVV-VVVVV-VTFVB", "VVVVV-VVVVV-VVVWV-VTFVA", "VVVVV-VVVVV-VVVVV-VTFV",
                "VVVVVVVVVVVVVVVVVVTFVA", "vvvvv-vvvvv-vvvvv-vtfva", "VVVVV-VVVVV-VVVVV-VTFV1"]:
        if protocol.validate_activation_code(bad):
            problems.append(f"bad code {bad} accepted")
    if protocol.build_activation_code(bytes(10)) != "AAAAA-AAAAA-AAAAA-AAAAA":
        problems.append("code of 10 zero bytes")
    if protocol.build_activation_code(b"\xff" * 10) != "77777-77777-77777-7" + protocol.build_activation_code(b"\xff" * 10)[-4:] \
            or not protocol.validate_activation_code(protocol.build_activation_code(os.urandom(10))):
        problems.append("built code does not validate")
    key = os.urandom(16)
    salt = os.urandom(16)
    wrapped = protocol.wrap_knowledge_key(key, "1234", salt)
    if len(wrapped) != 16 or protocol.unwrap_knowledge_key(wrapped, "1234", salt) != key:
        problems.append("knowledge key wrap round trip")
    if protocol.unwrap_knowledge_key(wrapped, "1235", salt) == key:
        problems.append("wrong password unwrapped the knowledge key")
    # The offline QR: data with newlines, key flag covered by the ECDSA signature.
    from powerauth.primitives import generate_key_pair
    server = generate_key_pair()
    text = "5ff1b1ed-a3cc-45a3-8ab0-ed60950312b6\nPayment\nPlease confirm\nA1*A100CZK\nB"
    nonce = b64(os.urandom(16))
    signed = f"{text}\n{nonce}\n1"
    qr = signed + b64(ecdsa_sign(signed.encode(), server))
    parsed = protocol.parse_offline_qr(qr)
    if parsed["data"] != text or parsed["nonceText"] != nonce or parsed["keyFlag"] != "1" \
            or parsed["signedBytes"] != signed.encode():
        problems.append("offline QR parsing")
    from powerauth.primitives import ecdsa_verify
    if not ecdsa_verify(parsed["signedBytes"], parsed["signature"], server.public_key()):
        problems.append("offline QR signature")
    # MAC-Token-Based-Authentication.md: token_digest = HMAC-SHA256(token_secret,
    # nonce | "&" | timestamp | "&" | version), the version only from 3.2 on.
    import hashlib
    import hmac as std_hmac
    import powerauth_client
    secret, token_nonce, timestamp = os.urandom(16), os.urandom(16), 1691762307382
    documented = std_hmac.new(secret, token_nonce + b"&1691762307382&3.3", hashlib.sha256).digest()
    if powerauth_client.token_digest(secret, token_nonce, timestamp, "3.3") != documented:
        problems.append("token digest 3.3")
    if powerauth_client.token_digest(secret, token_nonce, timestamp, "3.1") != \
            std_hmac.new(secret, token_nonce + b"&1691762307382", hashlib.sha256).digest():
        problems.append("token digest 3.1 (no version)")
    # The generic encryptor of End-To-End-Encryption.md, both scopes, through the receiving side.
    receiver = generate_key_pair()
    for sh1, base in ((ecies.SH1_GENERIC_APPLICATION, ecies.shared_info2_base_application("c2VjcmV0")),
                      (ecies.SH1_GENERIC_ACTIVATION, ecies.shared_info2_base_activation("c2VjcmV0", os.urandom(16)))):
        ad = ecies.associated_data("3.3", "a2V5", "act-1" if sh1 == ecies.SH1_GENERIC_ACTIVATION else None, "tk-1")
        client = ecies.EciesEnvelope.for_public_key(receiver.public_key(), "3.3", sh1, base, ad)
        sealed = client.encrypt_request(b'{"amount":"100.00"}')
        server_side = ecies.EciesEnvelope.for_private_key(
            receiver, unb64(sealed["ephemeralPublicKey"]), "3.3", sh1, base, ad)
        answer = server_side.server_encrypt_response(b'{"ok":true}', os.urandom(16), 1691762307999)
        if server_side.server_decrypt_request(sealed) != b'{"amount":"100.00"}' \
                or client.decrypt_response(answer) != b'{"ok":true}':
            problems.append(f"generic encryptor round trip {sh1}")
    count = len(good) + 7 + 2 + 2 + 2 + 2 + 2
    runner.results["documented values (Activation-Code.md, Key-derivation.md, offline QR, tokens, generic ECIES)"] = {
        "passed": count - len(problems), "failed": len(problems)}
    for problem in problems:
        runner.failures.append(("documented values", 0, problem))
    print(f"{'ok  ' if not problems else 'FAIL'} documented values: {count - len(problems)}/{count}")


def run(directory=DEFAULT_VECTORS, with_flows=True) -> int:
    runner = Runner(directory)
    present = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    missing = [name for name in VECTOR_CHECKS if name not in present]
    unknown = [name for name in present if name not in VECTOR_CHECKS and name not in SKIPPED]
    for name in VECTOR_CHECKS:
        if name in present:
            runner.check(name, VECTOR_CHECKS[name])
    for name in present:
        if name in SKIPPED:
            print(f"skip {name}: {SKIPPED[name]}")
    documented_checks(runner)
    if with_flows:
        import powerauth_flow_test
        runner.results.update(powerauth_flow_test.run())
        runner.failures.extend(powerauth_flow_test.FAILURES)
    for name, index, problem in runner.failures:
        print(f"  {name} case {index}: {problem}")
    ok = not runner.failures and not missing and not unknown
    summary = {"ok": ok, "files": runner.results, "missing": missing, "unknown": unknown,
               "skipped": sorted(n for n in present if n in SKIPPED),
               "cases": sum(r["passed"] + r["failed"] for r in runner.results.values())}
    print(json.dumps(summary))
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", default=DEFAULT_VECTORS)
    parser.add_argument("--no-flows", action="store_true", help="only the vector files")
    args = parser.parse_args()
    return run(args.vectors, with_flows=not args.no_flows)


if __name__ == "__main__":
    sys.exit(main())
