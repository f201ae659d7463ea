"""An independent PowerAuth 3.3 client, written from the published protocol documents of
wultra/powerauth-crypto (see ../powerauth_client.py for the list and what it checks).

- primitives: the basic functions of Basic-definitions.md and Implementation-notes.md.
- protocol:   activation codes, fingerprints, derived keys, the status blob, signatures.
- ecies:      the ECIES scheme of End-To-End-Encryption.md (3.2 and 3.3 parameters).
- jwt:        the two JWT forms of Temporary-Encryption-Keys.md (HS256 requests, ES256 responses).
"""
