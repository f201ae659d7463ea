#!/usr/bin/env python3
"""Runs every command of powerauth_client.py, as separate processes, against the reference
server side of powerauth/reference_server.py (the self-test's second half, after the vectors).

  python3 powerauth_flow_test.py
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from powerauth.reference_server import ReferenceServer  # noqa: E402

CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "powerauth_client.py")
FAILURES = []


def client(*args):
    done = subprocess.run([sys.executable, CLIENT, *args], capture_output=True, text=True, timeout=60)
    lines = done.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else {}
    except ValueError:
        answer = {"unparsed": done.stdout}
    if done.returncode != 0 and answer.get("ok") is not False:
        answer = {"ok": None, "stderr": done.stderr[-2000:]}
    return done.returncode, answer


class Steps:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, label, condition, detail=None):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            FAILURES.append(("flows", 0, f"{label}: {json.dumps(detail)[:1500] if detail is not None else ''}"))


def run():
    steps = Steps()
    with ReferenceServer() as server, tempfile.TemporaryDirectory() as directory:
        config = os.path.join(directory, "config.json")
        with open(config, "w") as f:
            json.dump(server.config(), f)
        state = os.path.join(directory, "device.json")
        body = os.path.join(directory, "body.json")
        with open(body, "w") as f:
            f.write('{"hello": "world"}')
        base = ["--base-url", server.base_url]

        # Activation by code (QR payload with its signature, and an OTP).
        activation, code, signature = server.create_code(otp="12345")
        rc, out = client("activate", *base, "--config", config, "--state", state, "--code", f"{code}#{signature}",
                         "--otp", "12345", "--password", "1234", "--name", "Test device")
        steps.check("activate by code", rc == 0 and out.get("ok") and out["activationId"] == activation.id, out)
        if rc != 0:
            return report(steps)
        from powerauth import protocol
        from powerauth.primitives import public_key_from_bytes
        expected_fingerprint = protocol.fingerprint(public_key_from_bytes(activation.device_public), activation.id,
                                                    activation.server_key.public_key())
        steps.check("fingerprint", out["fingerprint"] == expected_fingerprint, out)
        steps.check("activation code signature checked", out["activationCodeSignatureVerified"] is True, out)
        steps.check("recovery format", out["recoveryFormat"] == {"recoveryCodeValid": True, "pukValid": True}, out)
        steps.check("status after activation", out["status"]["activationStatusName"] == "ACTIVE"
                    and out["status"]["counterHashMatches"], out)

        # A bad code signature is refused before any request.
        _, other_code, _ = server.create_code()
        rc, out = client("activate", *base, "--config", config, "--state", os.path.join(directory, "x.json"),
                         "--code", other_code, "--code-signature", signature, "--password", "1")
        steps.check("forged code signature refused", rc != 0 and out.get("ok") is False, out)

        # Online signatures: right, wrong password, ahead within and beyond the window.
        call = ["call", "--state", state, "--path", "/pa/v3/signature/validate", "--uri-id",
                "/pa/signature/validate", "--body-file", body]
        rc, out = client(*call, "--password", "1234", "--expect-status", "200")
        steps.check("signature/validate", rc == 0 and out["httpStatus"] == 200, out)
        rc, out = client(*call, "--password", "9999")
        steps.check("wrong password refused", rc == 0 and out["httpStatus"] == 401, out)
        rc, out = client("status", "--state", state)
        steps.check("status counts the failure", rc == 0 and out["failedAttempts"] == 1
                    and out["serverCounterBehind"] == 1, out)
        rc, out = client(*call, "--password", "1234", "--offset", "5")
        steps.check("signature 5 ahead accepted", rc == 0 and out["httpStatus"] == 200, out)
        rc, out = client("status", "--state", state)
        steps.check("status in sync again", rc == 0 and out["counterHashMatches"] and out["failedAttempts"] == 0
                    and out["ctrByteMatches"], out)
        rc, out = client(*call, "--password", "1234", "--offset", "25")
        steps.check("signature 25 ahead refused", rc == 0 and out["httpStatus"] == 401, out)
        rc, out = client("status", "--state", state, "--resync-counter")
        steps.check("status finds the client 26 ahead and resyncs", rc == 0 and out["serverCounterBehind"] == 26
                    and out["counterResynced"] and out["failedAttempts"] == 1, out)
        rc, out = client("sign", "--state", state, "--method", "POST", "--uri-id", "/pa/signature/validate",
                         "--factors", "possession", "--no-advance")
        steps.check("sign prints a header", rc == 0 and out["header"].startswith("PowerAuth pa_activation_id=")
                    and 'pa_version="3.3"' in out["header"], out)

        # Offline signature from QR data (activation key flag), checked by the server side.
        qr, nonce = server.offline_qr(activation.id, "operation-1\nPay 100 CZK")
        rc, out = client("offline-sign", "--state", state, "--qr-data", qr, "--password", "1234")
        steps.check("offline-sign", rc == 0 and out["qrSignatureVerified"], out)
        if rc == 0:
            steps.check("offline signature verifies",
                        server.verify_offline(activation.id, "operation-1\nPay 100 CZK", nonce, out["signature"]), out)
        rc, out = client("offline-sign", "--state", state, "--qr-data", qr.replace("100", "900"), "--password", "1234")
        steps.check("tampered QR refused", rc != 0 and "ECDSA" in out.get("error", ""), out)

        # Activation-scope temporary key, vault unlock, biometry.
        rc, out = client("temporary-key", "--state", state, "--scope", "activation")
        steps.check("activation-scope temporary key", rc == 0 and out["claims"]["activationId"] == activation.id, out)
        rc, out = client("vault-unlock", "--state", state, "--password", "1234", "--add-biometry")
        steps.check("vault-unlock", rc == 0 and out["vaultKeyVerified"] and out["biometryAdded"], out)
        rc, out = client(*call, "--factors", "possession_biometry", "--expect-status", "200")
        steps.check("biometry signature", rc == 0, out)

        # Recovery, custom credentials, removal.
        with open(state) as f:
            recovery = json.load(f)["recovery"]
        state2 = os.path.join(directory, "device2.json")
        rc, out = client("activate", *base, "--config", config, "--state", state2, "--recovery-code",
                         recovery["recoveryCode"], "--puk", recovery["puk"], "--password", "5678", "--biometry")
        steps.check("activate by recovery", rc == 0 and out["status"]["activationStatusName"] == "ACTIVE", out)
        rc, out = client("status", "--state", state)
        steps.check("recovered activation removed", rc == 0 and out["activationStatusName"] == "REMOVED", out)
        state3 = os.path.join(directory, "device3.json")
        rc, out = client("activate", *base, "--config", config, "--state", state3, "--access-token", "bad",
                         "--password", "1")
        steps.check("bad access token refused", rc != 0 and out.get("httpStatus") == 400, out)
        rc, out = client("activate", *base, "--config", config, "--state", state3, "--access-token", "valid-token",
                         "--password", "1", "--uncompressed")
        steps.check("activate by access token", rc == 0, out)
        rc, out = client("call", "--state", state3, "--path", "/pa/v3/activation/remove", "--uri-id",
                         "/pa/activation/remove", "--password", "1", "--expect-status", "200")
        steps.check("activation/remove", rc == 0, out)
        rc, out = client("status", "--state", state3)
        steps.check("removed", rc == 0 and out["activationStatusName"] == "REMOVED", out)
    return report(steps)


def report(steps):
    label = "end-to-end flows against the reference server"
    print(f"{'ok  ' if steps.failed == 0 else 'FAIL'} {label}: {steps.passed}/{steps.passed + steps.failed}")
    return {label: {"passed": steps.passed, "failed": steps.failed}}


if __name__ == "__main__":
    results = run()
    for _, _, problem in FAILURES:
        print("  " + problem)
    print(json.dumps({"ok": not FAILURES, "files": results}))
    sys.exit(1 if FAILURES else 0)
