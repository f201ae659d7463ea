#!/usr/bin/env python3
"""An independent peer for Keyway's WebAuthn verification core (Server/Sources/KeywayServer/Methods/Passkey/WebAuthn).

Two modes, both speaking JSON on standard output:

  craft   Makes registration and assertion cases with fido2's data classes (authenticator data,
          attested credential data, attestation objects, client data, COSE keys) and the
          `cryptography` package: ES256, EdDSA and RS256 keys; attestation `none`, packed self and
          packed x5c with a generated chain; and deliberately broken cases. For each case it gives
          the verdict of the duo-labs `webauthn` library (py_webauthn), which the Swift test
          (WebAuthnInteropTests) compares with Keyway's, case by case.

  verify  Reads cases from standard input (responses Keyway accepted, made by the Swift test's
          software authenticator) and verifies each with py_webauthn, so Keyway's acceptances are
          confirmed independently.

Binary values are base64url without padding throughout.
"""

import base64
import datetime
import hashlib
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.x509.oid import NameOID
from fido2 import cbor, cose
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorData,
    CollectedClientData,
)
from webauthn import verify_authentication_response, verify_registration_response

RP_ID = "example.com"
ORIGIN = "https://login.example.com"
ORIGINS = [ORIGIN, "ios:bundle-id:com.example.app"]
CHALLENGE = b"a challenge from the interop peer"
FLAG = AuthenticatorData.FLAG
AAGUID_OID = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Key:
    """A credential key pair of one COSE algorithm, signing as WebAuthn authenticators do."""

    def __init__(self, alg: str):
        self.alg = alg
        if alg == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            self.cose = cose.ES256.from_cryptography_key(self.private.public_key())
        elif alg == "EdDSA":
            self.private = ed25519.Ed25519PrivateKey.generate()
            self.cose = cose.EdDSA.from_cryptography_key(self.private.public_key())
        elif alg == "RS256":
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = cose.RS256.from_cryptography_key(self.private.public_key())
        elif alg == "ES384":
            self.private = ec.generate_private_key(ec.SECP384R1())
            self.cose = cose.ES384.from_cryptography_key(self.private.public_key())
        else:
            raise ValueError(alg)

    @property
    def cose_alg(self) -> int:
        return {"ES256": -7, "EdDSA": -8, "RS256": -257, "ES384": -35}[self.alg]

    def sign(self, data: bytes) -> bytes:
        if self.alg == "ES256":
            return self.private.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.alg == "ES384":
            return self.private.sign(data, ec.ECDSA(hashes.SHA384()))
        if self.alg == "EdDSA":
            return self.private.sign(data)
        return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())


class AttestationCA:
    """A root CA and attestation leaves (EC P-256) meeting WebAuthn §8.2.1 unless asked not to."""

    def __init__(self, name: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        now = datetime.datetime.now(datetime.timezone.utc)
        self.not_before = now - datetime.timedelta(days=1)
        self.not_after = now + datetime.timedelta(days=30)
        self.root = (
            x509.CertificateBuilder()
            .subject_name(self.name)
            .issuer_name(self.name)
            .public_key(self.key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(self.not_before)
            .not_valid_after(self.not_after)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=False, content_commitment=False, key_encipherment=False,
                    data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                    encipher_only=False, decipher_only=False,
                ),
                critical=True,
            )
            .sign(self.key, hashes.SHA256())
        )

    @property
    def root_pem(self) -> str:
        return self.root.public_bytes(serialization.Encoding.PEM).decode()

    def leaf(self, aaguid: bytes, organizational_unit: str = "Authenticator Attestation"):
        key = ec.generate_private_key(ec.SECP256R1())
        attributes = [
            x509.NameAttribute(NameOID.COUNTRY_NAME, "SE"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Interop Peer Authenticators"),
        ]
        if organizational_unit is not None:
            attributes.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, organizational_unit))
        attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, "Interop Peer Authenticator"))
        certificate = (
            x509.CertificateBuilder()
            .subject_name(x509.Name(attributes))
            .issuer_name(self.name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(self.not_before)
            .not_valid_after(self.not_after)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.UnrecognizedExtension(AAGUID_OID, b"\x04\x10" + aaguid), critical=False)
            .sign(self.key, hashes.SHA256())
        )
        return key, certificate.public_bytes(serialization.Encoding.DER)


def client_data(type_: str, challenge: bytes = CHALLENGE, origin: str = ORIGIN, cross_origin: bool = False) -> bytes:
    return bytes(CollectedClientData.create(type_, challenge, origin, cross_origin=cross_origin))


def authenticator_data(flags: int, counter: int = 0, rp_id: str = RP_ID, attested: bytes = b"") -> bytes:
    if attested:
        flags |= FLAG.AT
    return bytes(AuthenticatorData.create(hashlib.sha256(rp_id.encode()).digest(), flags, counter, attested))


def library_registration(response: dict, rp: dict) -> dict:
    roots = rp.get("roots") or []
    try:
        verify_registration_response(
            credential=response,
            expected_challenge=unb64url(rp["challenge"]),
            expected_rp_id=rp["id"],
            expected_origin=rp["origins"],
            require_user_verification=rp["userVerification"] == "required",
            pem_root_certs_bytes_by_fmt={"packed": [pem.encode() for pem in roots]} if roots else None,
        )
        return {"verdict": "accept", "detail": ""}
    except Exception as error:  # every refusal of the library, whatever its class
        return {"verdict": "refuse", "detail": f"{type(error).__name__}: {error}"}


def library_assertion(response: dict, rp: dict, credential: dict) -> dict:
    try:
        verify_authentication_response(
            credential=response,
            expected_challenge=unb64url(rp["challenge"]),
            expected_rp_id=rp["id"],
            expected_origin=rp["origins"],
            credential_public_key=unb64url(credential["publicKey"]),
            credential_current_sign_count=credential["signCount"],
            require_user_verification=rp["userVerification"] == "required",
        )
        return {"verdict": "accept", "detail": ""}
    except Exception as error:
        return {"verdict": "refuse", "detail": f"{type(error).__name__}: {error}"}


def relying_party(user_verification: str = "preferred", roots=None) -> dict:
    return {
        "id": RP_ID,
        "origins": ORIGINS,
        "userVerification": user_verification,
        "challenge": b64url(CHALLENGE),
        "roots": roots or [],
    }


def registration_case(
    name, key, fmt="none", keyway_code=None, *, flags=FLAG.UP | FLAG.UV, type_="webauthn.create",
    challenge=CHALLENGE, origin=ORIGIN, cross_origin=False, rp_id=RP_ID, leaf=None, user_verification="preferred",
    roots=None, corrupt=False, statement=None, response_id=None, trailing=b"", keyway_trust=None,
) -> dict:
    credential_id = hashlib.sha256(name.encode()).digest()[:20]
    aaguid = hashlib.sha256(b"aaguid " + name.encode()).digest()[:16]
    attested = bytes(AttestedCredentialData.create(aaguid, credential_id, key.cose))
    auth_data = authenticator_data(flags, 0, rp_id, attested) + trailing
    client = client_data(type_, challenge, origin, cross_origin)
    signed = auth_data + hashlib.sha256(client).digest()
    if statement is not None:
        att_stmt = statement
    elif fmt == "none":
        att_stmt = {}
    elif leaf is None:
        att_stmt = {"alg": key.cose_alg, "sig": key.sign(signed)}
    else:
        leaf_key, leaf_der = leaf
        att_stmt = {"alg": -7, "sig": leaf_key.sign(signed, ec.ECDSA(hashes.SHA256())), "x5c": [leaf_der]}
    if corrupt:
        att_stmt["sig"] = att_stmt["sig"][:-1] + bytes([att_stmt["sig"][-1] ^ 1])
    # The attestation object's CBOR is written here rather than by AttestationObject.create, so
    # that authenticator data with trailing bytes can be carried.
    if trailing:
        attestation_object = cbor.encode({"fmt": fmt, "attStmt": att_stmt, "authData": auth_data})
    else:
        attestation_object = bytes(AttestationObject.create(fmt, AuthenticatorData(auth_data), att_stmt))
    response = {
        "id": b64url(response_id or credential_id),
        "rawId": b64url(response_id or credential_id),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(client),
            "attestationObject": b64url(attestation_object),
            "transports": ["usb"],
        },
        "clientExtensionResults": {},
    }
    rp = relying_party(user_verification, roots)
    return {
        "name": name,
        "ceremony": "registration",
        "rp": rp,
        "response": response,
        "keywayCode": keyway_code,
        "keywayTrust": keyway_trust or (None if keyway_code else {"none": "none", "packed": "self"}.get(fmt, "unverified")),
        "library": library_registration(response, rp),
    }


def assertion_case(
    name, key, keyway_code=None, *, flags=FLAG.UP | FLAG.UV, counter=1, stored_counter=0, type_="webauthn.get",
    challenge=CHALLENGE, origin=ORIGIN, cross_origin=False, rp_id=RP_ID, user_verification="preferred",
    signer=None, corrupt=False, user_handle=None, stored_backup_eligible=False,
) -> dict:
    credential_id = hashlib.sha256(name.encode()).digest()[:20]
    stored_user = hashlib.sha256(b"user").digest()
    auth_data = authenticator_data(flags, counter, rp_id)
    client = client_data(type_, challenge, origin, cross_origin)
    signature = (signer or key).sign(auth_data + hashlib.sha256(client).digest())
    if corrupt:
        signature = signature[:-1] + bytes([signature[-1] ^ 1])
    response = {
        "id": b64url(credential_id),
        "rawId": b64url(credential_id),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(client),
            "authenticatorData": b64url(auth_data),
            "signature": b64url(signature),
            "userHandle": b64url(user_handle or stored_user),
        },
        "clientExtensionResults": {},
    }
    credential = {
        "id": b64url(credential_id),
        "publicKey": b64url(cbor.encode(key.cose)),
        "signCount": stored_counter,
        "backupEligible": stored_backup_eligible,
        "userHandle": b64url(stored_user),
    }
    rp = relying_party(user_verification)
    return {
        "name": name,
        "ceremony": "assertion",
        "rp": rp,
        "response": response,
        "credential": credential,
        "keywayCode": keyway_code,
        "library": library_assertion(response, rp, credential),
    }


def craft() -> dict:
    keys = {alg: Key(alg) for alg in ("ES256", "EdDSA", "RS256")}
    es256 = keys["ES256"]
    ca = AttestationCA("Interop Peer Attestation Root")
    other_ca = AttestationCA("Interop Peer Other Root")
    cases = []

    def leaf_for(name, **options):
        return ca.leaf(hashlib.sha256(b"aaguid " + name.encode()).digest()[:16], **options)

    for alg, key in keys.items():
        cases.append(registration_case(f"registration {alg} none", key))
        cases.append(registration_case(f"registration {alg} packed self", key, "packed"))
        name = f"registration {alg} packed x5c anchored"
        cases.append(registration_case(
            name, key, "packed", leaf=leaf_for(name), roots=[ca.root_pem], keyway_trust="certified"))
        cases.append(registration_case(f"registration {alg} synced", key, flags=FLAG.UP | FLAG.UV | FLAG.BE | FLAG.BS))
    name = "registration packed x5c without configured roots"
    cases.append(registration_case(name, es256, "packed", leaf=leaf_for(name), keyway_trust="uncertified"))
    name = "registration packed x5c chain to another root"
    cases.append(registration_case(
        name, es256, "packed", leaf=leaf_for(name), roots=[other_ca.root_pem], keyway_trust="uncertified"))
    name = "registration packed x5c leaf without OU"
    cases.append(registration_case(
        name, es256, "packed", "passkey_attestation_invalid", leaf=leaf_for(name, organizational_unit=None),
        roots=[ca.root_pem]))
    name = "registration packed x5c bad signature"
    cases.append(registration_case(
        name, es256, "packed", "passkey_attestation_invalid", leaf=leaf_for(name), roots=[ca.root_pem], corrupt=True))
    for alg, key in keys.items():
        cases.append(registration_case(
            f"registration {alg} packed self bad signature", key, "packed", "passkey_attestation_invalid", corrupt=True))
    cases += [
        registration_case("registration UV clear, preferred", es256, flags=FLAG.UP),
        registration_case("registration wrong origin", es256, keyway_code="passkey_origin_not_allowed", origin="https://evil.example"),
        registration_case("registration wrong RP ID hash", es256, keyway_code="passkey_rp_id_mismatch", rp_id="evil.example"),
        registration_case("registration wrong challenge", es256, keyway_code="passkey_challenge_mismatch", challenge=b"another"),
        registration_case("registration wrong type", es256, keyway_code="passkey_wrong_ceremony", type_="webauthn.get"),
        registration_case("registration UP clear", es256, keyway_code="passkey_user_not_present", flags=FLAG.UV),
        registration_case(
            "registration UV clear, required", es256, keyway_code="passkey_user_not_verified", flags=FLAG.UP,
            user_verification="required"),
        registration_case("registration BS without BE", es256, keyway_code="passkey_backup_state_invalid", flags=FLAG.UP | FLAG.BS),
        registration_case(
            "registration none with a statement", es256, keyway_code="passkey_attestation_invalid",
            statement={"sig": b"\x01"}),
        registration_case("registration ES384 key", Key("ES384"), keyway_code="passkey_algorithm_unsupported"),
        registration_case("registration authData trailing bytes", es256, keyway_code="passkey_malformed", trailing=b"\x00"),
        registration_case("registration cross-origin", es256, keyway_code="passkey_cross_origin", cross_origin=True),
        registration_case(
            "registration fido-u2f statement", es256, "fido-u2f",
            statement={"sig": b"\x01", "x5c": [leaf_for("u2f")[1]]}),
        registration_case(
            "registration id not the authenticator data's", es256, keyway_code="passkey_credential_mismatch",
            response_id=b"another credential"),
    ]

    for alg, key in keys.items():
        cases.append(assertion_case(f"assertion {alg}", key))
    cases += [
        assertion_case("assertion counter 0 after 0", es256, counter=0, stored_counter=0),
        assertion_case("assertion counter increased", es256, counter=42, stored_counter=41),
        assertion_case("assertion synced", es256, flags=FLAG.UP | FLAG.BE | FLAG.BS, stored_backup_eligible=True),
        assertion_case("assertion counter regressed", es256, "passkey_counter_regressed", counter=3, stored_counter=5),
        assertion_case("assertion counter unchanged", es256, "passkey_counter_regressed", counter=5, stored_counter=5),
        assertion_case("assertion counter 0 after 5", es256, "passkey_counter_regressed", counter=0, stored_counter=5),
        assertion_case("assertion wrong origin", es256, "passkey_origin_not_allowed", origin="https://login.example.com:444"),
        assertion_case("assertion wrong RP ID hash", es256, "passkey_rp_id_mismatch", rp_id="login.example.com"),
        assertion_case("assertion wrong challenge", es256, "passkey_challenge_mismatch", challenge=b"stale"),
        assertion_case("assertion wrong type", es256, "passkey_wrong_ceremony", type_="webauthn.create"),
        assertion_case("assertion UP clear", es256, "passkey_user_not_present", flags=FLAG.UV),
        assertion_case(
            "assertion UV clear, required", es256, "passkey_user_not_verified", flags=FLAG.UP, user_verification="required"),
        assertion_case("assertion BS without BE", es256, "passkey_backup_state_invalid", flags=FLAG.UP | FLAG.BS),
        assertion_case("assertion signature by another key", es256, "passkey_signature_invalid", signer=Key("ES256")),
        assertion_case("assertion cross-origin", es256, "passkey_cross_origin", cross_origin=True),
        assertion_case("assertion user handle of another user", es256, "passkey_credential_mismatch", user_handle=b"someone else"),
        assertion_case("assertion BE set, registered without", es256, "passkey_backup_state_invalid", flags=FLAG.UP | FLAG.BE),
    ]
    for alg, key in keys.items():
        cases.append(assertion_case(f"assertion {alg} bad signature", key, "passkey_signature_invalid", corrupt=True))
    return {"cases": cases}


def verify(cases: list) -> dict:
    """Verifies each case's response with py_webauthn; every one should be accepted."""
    results = []
    for case in cases:
        credential = case.get("credential") or {}
        if "publicKey" not in credential and "attestationObject" in credential:
            # An assertion of a passkey the same test registered: its COSE key, read from the
            # registration's attestation object.
            attestation = AttestationObject(unb64url(credential["attestationObject"]))
            credential["publicKey"] = b64url(cbor.encode(attestation.auth_data.credential_data.public_key))
            case["credential"] = credential
        if case["ceremony"] == "registration":
            outcome = library_registration(case["response"], case["rp"])
        else:
            outcome = library_assertion(case["response"], case["rp"], case["credential"])
        results.append({"name": case["name"], **outcome})
    return {"results": results}


def main() -> int:
    if len(sys.argv) != 2 or sys.argv[1] not in ("craft", "verify"):
        print("usage: webauthn_peer.py craft | verify < cases.json", file=sys.stderr)
        return 2
    if sys.argv[1] == "craft":
        output = craft()
    else:
        output = verify(json.load(sys.stdin)["cases"])
    json.dump(output, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
