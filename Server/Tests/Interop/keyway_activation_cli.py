#!/usr/bin/env python3
"""The `keyway` CLI's activation and signing commands (the SDK's KeywayPowerAuthClient) against the
independent PowerAuth 3.3 server side of ./powerauth/reference_server.py, over real HTTP.

The reference side is written from the published documents and shares no code with Keyway, so
every step checks the Swift client by the protocol: the temporary keys' JWTs, both ECIES layers
of the activation, the fingerprint, the status blob and the counter, online signatures over a
body and over a query, the password change, the vault and the biometry factor, offline QR data
under either key flag, removal, and recovery.

  keyway_activation_cli.py KEYWAY_BINARY SCRATCH_DIRECTORY

Prints one JSON object as its last line ({"ok": true, "checks": N} or {"ok": false, "failures":
[…]}) and exits non-zero on a failure.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from powerauth import protocol
from powerauth.primitives import public_key_from_bytes
from powerauth.reference_server import ReferenceServer


class Run:
    def __init__(self, binary, home, server):
        self.binary = binary
        self.server = server
        config = os.path.join(home, "powerauth.json")
        with open(config, "w") as file:
            json.dump(server.config(), file)
        self.env = dict(os.environ, KEYWAY_HOME=home, KEYWAY_POWERAUTH_CONFIG=config)
        self.env.pop("KEYWAY_CONFIG_ID", None)
        self.config = config
        self.checks = 0
        self.failures = []

    def check(self, ok, what, detail=""):
        self.checks += 1
        if not ok:
            self.failures.append(f"{what} {detail}".strip())

    def keyway(self, arguments, stdin="", expect=0, what=None):
        process = subprocess.run(
            [self.binary] + arguments + ["--server", self.server.base_url], input=stdin, capture_output=True,
            text=True, env=self.env, timeout=120)
        self.check(process.returncode == expect, what or " ".join(arguments[:3]),
                   f"(exit {process.returncode}, expected {expect}): {process.stderr.strip()[-400:]}")
        return process


def main():
    binary, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    with ReferenceServer() as server, tempfile.TemporaryDirectory(dir=scratch) as home:
        run = Run(binary, home, server)
        verify = server.verify_header

        # A scanned code whose signature is another key's is refused before any exchange.
        forged_activation, code, _ = server.create_code()
        _, other_code, other_signature = server.create_code()
        run.keyway(["activation", "create", "--code", f"{code}#{other_signature}", "--password", "1"], expect=1,
                   what="a QR signature of another code")
        run.check(forged_activation.device_public is None, "no key exchange with a forged QR code")

        # The key exchange by a scanned code, its fingerprint, and the commit with biometry.
        activation, code, signature = server.create_code()
        created = run.keyway(["activation", "create", "--code", f"{code}#{signature}", "--name", "interop",
                              "--password", "1234", "--biometry"], what="activation create")
        expected = protocol.fingerprint(public_key_from_bytes(activation.device_public), activation.id,
                                        activation.server_key.public_key())
        run.check(created.stdout.strip() == expected, "the fingerprint", f"{created.stdout.strip()} != {expected}")
        recovery = re.search(r"Recovery code: (\S+)  PUK: (\d{10})", created.stderr)
        run.check(recovery is not None, "the recovery code and PUK are shown")
        status = run.keyway(["activation", "status"], what="activation status")
        run.check("ACTIVE" in status.stdout and "in step" in status.stdout, "status ACTIVE, in step", status.stdout)

        # Online signatures: a body, three factors, a query.
        body = b'{"amount":"10.00"}'
        body_file = os.path.join(home, "body.json")
        with open(body_file, "wb") as file:
            file.write(body)
        header = run.keyway(["sign", "POST", "/payments/pay", "--body", body_file, "--password", "1234"]).stdout.strip()
        run.check(verify(header, "POST", "/payments/pay", body) is not None, "a possession_knowledge signature")
        header = run.keyway(["sign", "POST", "/x", "--password", "1234", "--factors", "possession_knowledge_biometry"],
                            stdin="y\n").stdout.strip()
        run.check(verify(header, "POST", "/x", b"") is not None, "a three-factor signature")
        header = run.keyway(["sign", "GET", "/accounts", "--query", "b=2", "--query", "a=1", "--factors", "possession"]
                            ).stdout.strip()
        run.check(verify(header, "GET", "/accounts", b"a=1&b=2") is not None, "a GET signature over the sorted query")
        # Values a stock server re-encodes: the SDK signs the query as the Java reference reads it.
        header = run.keyway(["sign", "GET", "/accounts", "--query", "to=bob@example.com", "--query",
                             "note=Rent: 10/2026 ~ Jürgen", "--factors", "possession"]).stdout.strip()
        run.check(server.verify_get(header, "GET", "/accounts",
                                    "note=Rent%3A%2010%2F2026%20~%20J%C3%BCrgen&to=bob%40example.com") is not None,
                  "a GET signature over encoded values, re-encoded by the reference's rules")

        # The password: a wrong old one is refused by the server; the old one no longer signs after.
        run.keyway(["activation", "change-password", "--old-password", "0000", "--new-password", "5678"], expect=1,
                   what="a wrong old password")
        run.keyway(["activation", "change-password", "--old-password", "1234", "--new-password", "5678"],
                   what="activation change-password")
        header = run.keyway(["sign", "POST", "/x", "--password", "1234"]).stdout.strip()
        run.check(verify(header, "POST", "/x", b"") is None, "the old password no longer signs")
        header = run.keyway(["sign", "POST", "/x", "--password", "5678"]).stdout.strip()
        run.check(verify(header, "POST", "/x", b"") is not None, "the new password signs")

        # Biometry removed, then added again through the vault.
        run.keyway(["activation", "biometry", "remove"])
        run.keyway(["sign", "POST", "/x", "--factors", "possession_biometry"], stdin="y\n", expect=1,
                   what="no biometry factor once removed")
        run.keyway(["activation", "biometry", "add", "--password", "5678"], what="biometry add (vault unlock)")
        header = run.keyway(["sign", "POST", "/x", "--factors", "possession_biometry"], stdin="y\n").stdout.strip()
        run.check(verify(header, "POST", "/x", b"") is not None, "a biometry signature after the vault")

        # Offline QR data under either key, and altered data refused.
        for flag in ("1", "0"):
            qr, nonce = server.offline_qr(activation.id, "Pay 10 EUR to Bob", flag=flag)
            digits = run.keyway(["sign", "--offline", qr, "--password", "5678"]).stdout.strip()
            run.check(server.verify_offline(activation.id, "Pay 10 EUR to Bob", nonce, digits),
                      f"an offline signature of data under key flag {flag}")
        qr, _ = server.offline_qr(activation.id, "Pay 10 EUR to Bob")
        run.keyway(["sign", "--offline", qr.replace("10 EUR", "99 EUR"), "--password", "5678"], expect=1,
                   what="altered offline data")

        # The server ahead (another copy of the device signed twice): the status moves the counter.
        activation.ctr_data = protocol.next_ctr_data(protocol.next_ctr_data(activation.ctr_data))
        activation.ctr += 2
        status = run.keyway(["activation", "status"])
        run.check("moved forward 2 steps" in status.stdout, "counter resynchronization", status.stdout)
        header = run.keyway(["sign", "POST", "/x", "--factors", "possession"]).stdout.strip()
        run.check(verify(header, "POST", "/x", b"") is not None, "in step after resynchronization")

        # Removal on the server, signed with the password.
        run.keyway(["activation", "remove", "--password", "5678"], what="activation remove")
        run.check(activation.status == 5, "REMOVED on the server")
        run.keyway(["activation", "status"], expect=1, what="no activation after removal")

        # Recovery: a new activation's recovery code replaces it after a local removal.
        second, code, _ = server.create_code()
        created = run.keyway(["activation", "create", "--code", code, "--password", "1"])
        recovery = re.search(r"Recovery code: (\S+)  PUK: (\d{10})", created.stderr)
        run.keyway(["activation", "remove", "--local"])
        if recovery:
            run.keyway(["activation", "create", "--recovery", recovery.group(1), "--puk", "0000000000", "--password", "2"],
                       expect=1, what="a wrong PUK")
            run.keyway(["activation", "create", "--recovery", recovery.group(1), "--puk", recovery.group(2),
                        "--password", "2"], what="activation create --recovery")
            run.check(second.status == 5, "the recovered activation is removed on the server")
            header = run.keyway(["sign", "POST", "/x", "--password", "2"]).stdout.strip()
            run.check(verify(header, "POST", "/x", b"") is not None, "the recovered device signs")

    report = {"ok": not run.failures, "checks": run.checks}
    if run.failures:
        report["failures"] = run.failures
    print(json.dumps(report))
    sys.exit(0 if not run.failures else 1)


if __name__ == "__main__":
    main()
