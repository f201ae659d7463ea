"""An SMTP relay for the tests, on aiosmtpd: an independent server the Keyway SMTP client talks to.

Listens on 127.0.0.1 on an ephemeral port and prints `PORT <n>` once it does, then one JSON line
per event on standard output:

  {"event": "message", "mail_from": ..., "rcpt_tos": [...], "data": <the message as received>,
   "tls": true|false, "login": <the authenticated user or null>,
   "parsed": {<the message as Python's email package reads it: from_name, from_address, to, subject,
              date, message_id, content_type, charset, transfer_encoding, body (decoded), defects>}}
  {"event": "refused", "recipient": ..., "code": 451}
  {"event": "auth", "login": ..., "success": true|false}

Options:
  --certs DIR           where the certificates live: a throwaway CA (ca.pem) and a server certificate it
                        signs for localhost and 127.0.0.1 (cert.pem, key.pem), made on first use
  --tls MODE            starttls (offered after EHLO), tls (implicit, from the first byte) or none (no
                        STARTTLS offered)
  --auth USER:PASSWORD  require AUTH with these credentials (PLAIN and LOGIN offered)
  --mechanisms LIST     the AUTH mechanisms offered, comma-separated (default PLAIN,LOGIN)
  --refuse-first N      refuse the first N recipients (RCPT TO) with --refuse-code, then accept
  --refuse-code CODE    451 (the default: try again later) or a 5xx
  --smtputf8            offer SMTPUTF8

Runs until it is terminated or its standard input closes.
"""

import argparse
import asyncio
import datetime
import email
import email.policy
import hmac
import ipaddress
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def write(path, data):
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def make_certificates(directory):
    """A CA and a server certificate it signs (localhost, 127.0.0.1), unless they exist already."""
    os.makedirs(directory, exist_ok=True)
    paths = [os.path.join(directory, name) for name in ("ca.pem", "cert.pem", "key.pem")]
    if all(os.path.exists(p) for p in paths):
        return paths
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Keyway test SMTP CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False),
            critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    write(paths[1], cert.public_bytes(serialization.Encoding.PEM))
    write(
        paths[2],
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    write(paths[0], ca.public_bytes(serialization.Encoding.PEM))
    return paths


class Handler:
    def __init__(self, refuse_first, refuse_code):
        self.refuse_left = refuse_first
        self.refuse_code = refuse_code

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse_left > 0:
            self.refuse_left -= 1
            emit({"event": "refused", "recipient": address, "code": self.refuse_code})
            if self.refuse_code >= 500:
                return f"{self.refuse_code} 5.1.1 Mailbox unavailable"
            return f"{self.refuse_code} 4.3.0 Try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        auth = session.auth_data
        login = auth.login.decode() if isinstance(auth, LoginPassword) else None
        parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        sender = parsed["From"]
        emit({
            "event": "message",
            "parsed": {
                "from_name": sender.addresses[0].display_name if sender else None,
                "from_address": sender.addresses[0].addr_spec if sender else None,
                "to": str(parsed["To"]),
                "subject": str(parsed["Subject"]),
                "date": str(parsed["Date"]),
                "message_id": str(parsed["Message-ID"]),
                "content_type": parsed.get_content_type(),
                "charset": parsed.get_content_charset(),
                "transfer_encoding": str(parsed["Content-Transfer-Encoding"]),
                "body": parsed.get_content(),
                "defects": [type(d).__name__ for d in parsed.defects],
            },
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "data": envelope.original_content.decode("utf-8", "replace"),
            "tls": session.ssl is not None or server.transport.get_extra_info("sslcontext") is not None,
            "login": login,
        })
        return "250 2.0.0 Message accepted"


class Authenticator:
    def __init__(self, user, password):
        self.user = user.encode()
        self.password = password.encode()

    def __call__(self, server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and hmac.compare_digest(auth_data.login, self.user) \
            and hmac.compare_digest(auth_data.password, self.password)
        emit({"event": "auth", "mechanism": mechanism,
              "login": auth_data.login.decode() if isinstance(auth_data, LoginPassword) else None, "success": ok})
        return AuthResult(success=ok, handled=False, auth_data=auth_data)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--certs", required=True)
    parser.add_argument("--tls", choices=["starttls", "tls", "none"], default="starttls")
    parser.add_argument("--auth")
    parser.add_argument("--mechanisms", default="PLAIN,LOGIN")
    parser.add_argument("--refuse-first", type=int, default=0)
    parser.add_argument("--refuse-code", type=int, default=451)
    parser.add_argument("--smtputf8", action="store_true")
    args = parser.parse_args()

    _, cert, key = make_certificates(args.certs)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    handler = Handler(args.refuse_first, args.refuse_code)
    options = {"hostname": "relay.test", "enable_SMTPUTF8": args.smtputf8}
    if args.tls == "starttls":
        options["tls_context"] = context
    if args.auth:
        user, password = args.auth.split(":", 1)
        offered = {m.strip().upper() for m in args.mechanisms.split(",")}
        options["authenticator"] = Authenticator(user, password)
        options["auth_required"] = True
        # Over implicit TLS aiosmtpd does not know the connection is encrypted; without TLS the
        # tests only use loopback.
        options["auth_require_tls"] = args.tls == "starttls"
        options["auth_exclude_mechanism"] = [m for m in ("PLAIN", "LOGIN") if m not in offered]

    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(handler, **options), host="127.0.0.1", port=0,
        ssl=context if args.tls == "tls" else None)
    port = server.sockets[0].getsockname()[1]
    sys.stdout.write(f"PORT {port}\n")
    sys.stdout.flush()

    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not os.read(sys.stdin.fileno(), 4096) else None)
    await stop.wait()
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
